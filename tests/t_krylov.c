/* t_krylov.c: the restarted GMRES of analytic/num/krylov.h on systems small
 * enough to work by hand or to solve by an independent method: a
 * nonsymmetric 3 x 3 system, restarts, a preconditioner that makes the
 * first step exact, the cyclic shift on which GMRES(m < n) stalls, an
 * operator whose Arnoldi estimate lies (the true residual must catch it),
 * a start at the solution, and the argument checks.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "bb_error.h"
#include "krylov.h"

/* A dense operator y = A x, row-major n x n; counts its products. */
typedef struct {
    long n;
    const double *A;
    long calls;
    const double *lie_x;   /* see lying_op */
} dense;

static void
dense_op(void *ctx, const double *x, double *y)
{
    dense *d = ctx;

    d->calls++;
    for (long i = 0; i < d->n; i++) {
        double s = 0;

        for (long j = 0; j < d->n; j++)
            s += d->A[i * d->n + j] * x[j];
        y[i] = s;
    }
}

/* Drive the loop of krylov.h; returns bba_krylov_test's last word. */
static int
solve(bba_krylov *w, const bba_krylov_sys *sys, const double *b, double *x, int x_is_zero)
{
    int st;

    assert_int_equal(bba_krylov_set(w, sys, b, x, x_is_zero), BB_OK);
    while ((st = bba_krylov_test(w)) == BBA_KRYLOV_CONTINUE)
        assert_int_equal(bba_krylov_iterate(w), BB_OK);
    return st;
}

/* A = [4 1 0; 2 5 1; 0 3 6], x = (1, -2, 3): b = (2, -5, 12) by hand.
 * Full GMRES (m = n) ends in at most n = 3 steps, with one or two
 * Gram-Schmidt passes and either summation of the dot products, and the
 * residual it reports is b - A x's. */
static void
hand_3x3(void **state)
{
    static const double A[9] = { 4, 1, 0, 2, 5, 1, 0, 3, 6 };
    const double b[3] = { 2, -5, 12 }, want[3] = { 1, -2, 3 };

    (void)state;
    for (int c = 0; c < 4; c++) {
        int passes = 1 + c % 2, in_order = c / 2;
        dense d = { 3, A, 0, NULL };
        bba_krylov_sys sys = { 3, dense_op, NULL, &d, passes, in_order, 1e-13, 1e-13, 50 };
        bba_krylov *w = bba_krylov_alloc(3, 3);
        double x[3], r[3], rn = 0;

        assert_non_null(w);
        assert_int_equal(solve(w, &sys, b, x, 1), BB_OK);
        for (int i = 0; i < 3; i++)
            assert_float_equal(x[i], want[i], 1e-13);
        assert_true(bba_krylov_steps(w) <= 3);
        /* one product per step, one per restart's true residual */
        assert_int_equal(bba_krylov_products(w), bba_krylov_steps(w) + 1);
        dense_op(&d, x, r);
        for (int i = 0; i < 3; i++)
            rn += (b[i] - r[i]) * (b[i] - r[i]);
        assert_float_equal(bba_krylov_residual(w), sqrt(rn), 1e-15);
        assert_float_equal(bba_krylov_bnorm(w), sqrt(4.0 + 25.0 + 144.0), 1e-14);
        bba_krylov_free(w);
    }
}

/* A (n x n) = upper bidiagonal: d0 + dd i on the diagonal, up above it. */
static void
bidiag(double *A, int n, double d0, double dd, double up)
{
    memset(A, 0, (size_t)n * (size_t)n * sizeof *A);
    for (int i = 0; i < n; i++) {
        A[i * n + i] = d0 + dd * i;
        if (i + 1 < n)
            A[i * n + i + 1] = up;
    }
}

/* Upper bidiagonal A (2 on the diagonal, 1 above), n = 12: nonnormal,
 * every eigenvalue 2.  GMRES(2) needs restarts; its answer must match
 * back substitution (an independent method) and take more than m steps. */
static void
restarts(void **state)
{
    enum { N = 12 };
    double A[N * N], b[N], x[N], want[N];
    dense d = { N, A, 0, NULL };
    bba_krylov_sys sys = { N, dense_op, NULL, &d, 2, 0, 1e-12, 1e-12, 500 };
    bba_krylov *w = bba_krylov_alloc(N, 2);

    (void)state;
    assert_non_null(w);
    bidiag(A, N, 2, 0, 1);
    for (int i = 0; i < N; i++)
        b[i] = 1.0 + 0.385 * i;
    for (int i = N - 1; i >= 0; i--)
        want[i] = (b[i] - (i + 1 < N ? want[i + 1] : 0)) / 2;
    assert_int_equal(solve(w, &sys, b, x, 1), BB_OK);
    for (int i = 0; i < N; i++)
        assert_float_equal(x[i], want[i], 1e-10 * fabs(want[i]) + 1e-12);
    assert_true(bba_krylov_steps(w) > 2);
    assert_true(bba_krylov_residual(w) <= 1e-12);
    bba_krylov_free(w);
}

/* Right preconditioning by the exact inverse (back substitution for the
 * bidiagonal A above): A M^-1 = I, so the first Arnoldi step spans the
 * solution: one step, and x = M^-1 u is the answer. */
static void
bidiag_solve(void *ctx, const double *v, double *z)
{
    const dense *d = ctx;
    long n = d->n;

    for (long i = n - 1; i >= 0; i--)
        z[i] = (v[i] - (i + 1 < n ? d->A[i * n + i + 1] * z[i + 1] : 0)) / d->A[i * n + i];
}

static void
exact_preconditioner(void **state)
{
    enum { N = 12 };
    double A[N * N], b[N], x[N], want[N];
    dense d = { N, A, 0, NULL };
    bba_krylov_sys sys = { N, dense_op, bidiag_solve, &d, 2, 0, 1e-12, 1e-12, 500 };
    bba_krylov *w = bba_krylov_alloc(N, 5);

    (void)state;
    assert_non_null(w);
    bidiag(A, N, 2.385, 0.1, -1.5);
    for (int i = 0; i < N; i++)
        b[i] = sin(1.0 + i);
    bidiag_solve(&d, b, want);
    assert_int_equal(solve(w, &sys, b, x, 1), BB_OK);
    assert_int_equal(bba_krylov_steps(w), 1);
    for (int i = 0; i < N; i++)
        assert_float_equal(x[i], want[i], 1e-12 * fabs(want[i]) + 1e-14);
    /* without it, the same system takes more than one step */
    sys.Minv = NULL;
    assert_int_equal(solve(w, &sys, b, x, 1), BB_OK);
    assert_true(bba_krylov_steps(w) > 1);
    bba_krylov_free(w);
}

/* The cyclic shift (A e_i = e_{i+1 mod n}) with b = e_0: the solution is
 * e_{n-1}, and every Krylov space of dimension m < n misses it entirely,
 * so GMRES(m) makes no progress at all (the residual stays 1): with no
 * floor it must give up when its steps are spent (BB_ENOCONV), with a
 * round-off floor above 1 it stops at once, and full GMRES (m = n) solves
 * it in n steps. */
static void
cyclic_shift_stalls(void **state)
{
    enum { N = 6 };
    double A[N * N], b[N] = { 1, 0, 0, 0, 0, 0 }, x[N];
    dense d = { N, A, 0, NULL };
    bba_krylov_sys sys = { N, dense_op, NULL, &d, 2, 0, 1e-12, 1e-12, 40 };
    bba_krylov *w = bba_krylov_alloc(N, 3), *full = bba_krylov_alloc(N, N);

    (void)state;
    assert_non_null(w);
    assert_non_null(full);
    memset(A, 0, sizeof A);
    for (int i = 0; i < N; i++)
        A[((i + 1) % N) * N + i] = 1;
    assert_int_equal(solve(w, &sys, b, x, 1), BB_ENOCONV);
    assert_true(bba_krylov_steps(w) >= 40);
    assert_float_equal(bba_krylov_residual(w), 1.0, 1e-12);
    sys.floor_tol = 2.0;   /* "acceptable" above the stall: stop there */
    assert_int_equal(solve(w, &sys, b, x, 1), BB_OK);
    assert_int_equal(bba_krylov_steps(w), 3);
    sys.floor_tol = sys.tol;
    assert_int_equal(solve(full, &sys, b, x, 1), BB_OK);
    assert_int_equal(bba_krylov_steps(full), N);
    for (int i = 0; i < N; i++)
        assert_float_equal(x[i], i == N - 1 ? 1.0 : 0.0, 1e-12);
    bba_krylov_free(w);
    bba_krylov_free(full);
}

/* An operator that lies: the identity inside the Arnoldi process, 2 I on
 * the solution vector itself (where the true residual is computed).  The
 * rotated estimate says one step solved it (x = b); the true residual is
 * b - 2 b = -b, and the loop must neither stop as converged nor report
 * the estimate. */
static void
lying_op(void *ctx, const double *x, double *y)
{
    dense *d = ctx;

    d->calls++;
    for (long i = 0; i < d->n; i++)
        y[i] = x == d->lie_x ? 2 * x[i] : x[i];
}

static void
residual_catches_a_lie(void **state)
{
    double b[4] = { 1, -2, 0.5, 3 }, x[4], bn = sqrt(1 + 4 + 0.25 + 9);
    dense d = { 4, NULL, 0, x };
    bba_krylov_sys sys = { 4, lying_op, NULL, &d, 2, 0, 1e-10, 1e-10, 3 };
    bba_krylov *w = bba_krylov_alloc(4, 4);

    (void)state;
    assert_non_null(w);
    assert_int_equal(bba_krylov_set(w, &sys, b, x, 1), BB_OK);
    assert_int_equal(bba_krylov_test(w), BBA_KRYLOV_CONTINUE);
    assert_int_equal(bba_krylov_iterate(w), BB_OK);
    assert_int_equal(bba_krylov_steps(w), 1);       /* the estimate: done */
    for (int i = 0; i < 4; i++)
        assert_float_equal(x[i], b[i], 1e-15);
    assert_float_equal(bba_krylov_residual(w), bn, 1e-14);
    assert_int_equal(bba_krylov_test(w), BBA_KRYLOV_CONTINUE);
    /* and it never converges: the steps run out */
    while (bba_krylov_test(w) == BBA_KRYLOV_CONTINUE)
        bba_krylov_iterate(w);
    assert_int_equal(bba_krylov_test(w), BB_ENOCONV);
    assert_true(bba_krylov_residual(w) > 1e-10);
    bba_krylov_free(w);
}

/* From a given x: at the solution the initial residual is 0 (one
 * product) and no step is taken; from a nearby x the answer is the same
 * as from 0. */
static void
start_from_x(void **state)
{
    static const double A[9] = { 4, 1, 0, 2, 5, 1, 0, 3, 6 };
    const double b[3] = { 2, -5, 12 };
    double x[3] = { 1, -2, 3 };
    dense d = { 3, A, 0, NULL };
    bba_krylov_sys sys = { 3, dense_op, NULL, &d, 1, 0, 1e-13, 1e-13, 50 };
    bba_krylov *w = bba_krylov_alloc(3, 2);

    (void)state;
    assert_non_null(w);
    assert_int_equal(solve(w, &sys, b, x, 0), BB_OK);
    assert_int_equal(bba_krylov_steps(w), 0);
    assert_int_equal(bba_krylov_products(w), 1);
    assert_true(bba_krylov_residual(w) == 0);
    x[0] = 1.5;
    x[2] = -7;
    assert_int_equal(solve(w, &sys, b, x, 0), BB_OK);
    assert_float_equal(x[0], 1, 1e-12);
    assert_float_equal(x[1], -2, 1e-12);
    assert_float_equal(x[2], 3, 1e-12);
    bba_krylov_free(w);
}

static void
arguments(void **state)
{
    static const double A[1] = { 1 };
    double b[1] = { 1 }, x[1];
    dense d = { 1, A, 0, NULL };
    bba_krylov_sys ok = { 1, dense_op, NULL, &d, 1, 0, 1e-12, 1e-12, 10 }, bad;
    bba_krylov *w = bba_krylov_alloc(1, 1);

    (void)state;
    assert_null(bba_krylov_alloc(0, 5));
    assert_null(bba_krylov_alloc(5, 0));
    assert_non_null(w);
    bad = ok;
    bad.n = 2;
    assert_int_equal(bba_krylov_set(w, &bad, b, x, 1), BB_EINVAL);
    bad = ok;
    bad.A = NULL;
    assert_int_equal(bba_krylov_set(w, &bad, b, x, 1), BB_EINVAL);
    bad = ok;
    bad.orth_passes = 3;
    assert_int_equal(bba_krylov_set(w, &bad, b, x, 1), BB_EINVAL);
    bad = ok;
    bad.floor_tol = 1e-13;
    assert_int_equal(bba_krylov_set(w, &bad, b, x, 1), BB_EINVAL);
    bad = ok;
    bad.max_steps = 0;
    assert_int_equal(bba_krylov_set(w, &bad, b, x, 1), BB_EINVAL);
    assert_int_equal(solve(w, &ok, b, x, 1), BB_OK);
    assert_float_equal(x[0], 1, 0);
    bba_krylov_free(w);
    bba_krylov_free(NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_3x3),
        cmocka_unit_test(restarts),
        cmocka_unit_test(exact_preconditioner),
        cmocka_unit_test(cyclic_shift_stalls),
        cmocka_unit_test(residual_catches_a_lie),
        cmocka_unit_test(start_from_x),
        cmocka_unit_test(arguments),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
