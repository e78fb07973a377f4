/* krylov.h: restarted GMRES(m) with right preconditioning, the one Krylov
 * solver of libbbanalytic (the FFT Wiener-Hopf solver, fftwh.h, and the
 * ON/OFF-modulated chain, onoff.h, both use it).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Solves A x = b for a square operator given as a callback, with an
 * optional right preconditioner M (A M^-1 u = b, x = M^-1 u), from x = 0
 * or from a given x (Saad and Schultz 1986; Saad, Iterative Methods for
 * Sparse Linear Systems, 2nd ed. 2003, Algorithm 9.5).  Arnoldi by
 * modified Gram-Schmidt, once or twice (the second pass restores the
 * orthogonality that one pass loses near the round-off floor: a relative
 * residual of 1e-14 needs it), Givens rotations on the Hessenberg matrix.
 * Used in GSL's shape (gsl-design "Algorithm decomposition"): the caller
 * allocates a workspace, sets the problem, then drives the loop:
 *
 *     bba_krylov_set(w, &sys, b, x, x_is_zero);
 *     while (bba_krylov_test(w) == BBA_KRYLOV_CONTINUE)
 *         bba_krylov_iterate(w);
 *
 * Each iterate is one restart cycle: up to m Arnoldi steps, stopped early
 * when the rotated residual estimate reaches the tolerance; then x is
 * updated and its true residual b - A x is recomputed (one more product),
 * so that bba_krylov_test and bba_krylov_residual never trust the
 * estimate: a cycle whose estimate lied leaves the loop running (or
 * failing), not converged.
 *
 * Sizes: n up to ~10^7, m up to a few hundred.  Memory (m + 3) n + m^2
 * doubles, allocated once (bba_krylov_alloc), none inside the loop.  Time
 * per Arnoldi step: one product with A and one with M^-1, plus
 * passes * (k + 1) dot products and axpys of length n at step k. */
#ifndef BBSIZE_ANALYTIC_KRYLOV_H
#define BBSIZE_ANALYTIC_KRYLOV_H

/* bba_krylov_test's "not yet": not a bb_status (those are >= 0). */
#define BBA_KRYLOV_CONTINUE (-2)

/* y = A x (or z = M^-1 v), both of length n; x and y never alias. */
typedef void (*bba_krylov_apply_fn)(void *ctx, const double *x, double *y);

typedef struct {
    long n;                    /* unknowns */
    bba_krylov_apply_fn A;     /* the operator */
    bba_krylov_apply_fn Minv;  /* right preconditioner; NULL: none */
    void *ctx;                 /* passed to A and Minv */
    int orth_passes;           /* modified Gram-Schmidt passes, 1 or 2 */
    int sum_in_order;          /* 1: every dot product summed in index
                                  order; 0: by four partial sums
                                  (bba_krylov_dot), up to 40% faster
                                  overall where the orthogonalisation
                                  dominates.  The two round differently:
                                  the FFT solver's residuals printed in
                                  README and docs are index order's */
    double tol;                /* converged when ||b - A x||_2 <= tol
                                  (absolute: the caller scales it by ||b||
                                  for a relative target) */
    double floor_tol;          /* round-off floor: stop with BB_OK once the
                                  true residual is <= floor_tol (>= tol) and
                                  a restart no longer halves it; tol: never
                                  stop short of tol */
    long max_steps;            /* Arnoldi steps at most (> 0) */
} bba_krylov_sys;

typedef struct bba_krylov bba_krylov;

/* bba_krylov_bytes: the memory bba_krylov_alloc(n, m) takes.  O(1). */
double bba_krylov_bytes(long n, int m);

/* bba_krylov_alloc: a workspace for n unknowns and restart length m
 * (n >= 1, m >= 1), reusable for any problem of that size; NULL when out
 * of memory or the sizes are out of range. */
bba_krylov *bba_krylov_alloc(long n, int m);

/* bba_krylov_free: NULL is a no-op. */
void bba_krylov_free(bba_krylov *w);

/* bba_krylov_set: start solving sys (copied) for b (n entries, borrowed
 * until the last iterate) into x (n entries, caller-owned, updated in
 * place by every iterate).  x_is_zero: x is set to 0 and the initial
 * residual is b; else x is the initial guess and its residual costs one
 * product.  Errors: BB_EINVAL (sys->n differs from the workspace's, no
 * operator, orth_passes not 1 or 2, tol < 0, floor_tol < tol,
 * max_steps < 1). */
int bba_krylov_set(bba_krylov *w, const bba_krylov_sys *sys, const double *b, double *x,
                   int x_is_zero);

/* bba_krylov_iterate: one restart cycle (above).  Always BB_OK: what it
 * reached is for bba_krylov_test to judge. */
int bba_krylov_iterate(bba_krylov *w);

/* bba_krylov_test: BB_OK when the true residual is <= tol, or at the
 * round-off floor (<= floor_tol and the last restart did not halve it);
 * BB_ENOCONV when max_steps are spent or the residual is not finite;
 * else BBA_KRYLOV_CONTINUE. */
int bba_krylov_test(const bba_krylov *w);

/* bba_krylov_residual: ||b - A x||_2 of the current x, recomputed (not
 * the Arnoldi estimate). */
double bba_krylov_residual(const bba_krylov *w);

/* bba_krylov_bnorm: ||b||_2. */
double bba_krylov_bnorm(const bba_krylov *w);

/* bba_krylov_steps: Arnoldi steps taken (each one product with A and one
 * with M^-1); bba_krylov_products: every product with A, the residuals'
 * included. */
long bba_krylov_steps(const bba_krylov *w);
long bba_krylov_products(const bba_krylov *w);

/* The vector kernels of the iteration, for its callers' operators too:
 * bba_krylov_dot = sum a[i] b[i] (by four partial sums: the same
 * rounding for the same n), bba_krylov_axpy:
 * y += alpha x (x and y must not overlap).  O(n). */
double bba_krylov_dot(const double *a, const double *b, long n);
void bba_krylov_axpy(double alpha, const double *x, double *y, long n);

#endif
