/* stationary.c: UMFPACK and Gauss-Seidel solvers of stationary.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <umfpack.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "stationary.h"

const char *
bba_solver_name(bba_solver_kind k)
{
    switch (k) {
    case BBA_SOLVER_UMFPACK:
        return "UMFPACK (sparse LU)";
    case BBA_SOLVER_GAUSS_SEIDEL:
        return "Gauss-Seidel";
    case BBA_SOLVER_BANDED:
        return "banded GTH";
    case BBA_SOLVER_FFT:
        return "FFT Wiener-Hopf";
    }
    return "unknown";
}

void
bba_solver_describe(const bba_solver_opts *o, const char **name, const char **note)
{
    *name = bba_solver_name(o->kind);
    *note = o->kind == BBA_SOLVER_FFT && !o->no_fallback
            ? "banded GTH where GMRES does not converge" : "";
}

void
bba_solver_defaults(bba_solver_opts *o)
{
    o->kind = BBA_SOLVER_FFT;
    o->tol = 1e-9;
    o->max_iter = 200000;
    o->mem_limit_bytes = 0;
    o->fft_tol = 1e-14;
    o->restart = 30;
    o->krylov_max_iter = 300;
    o->no_fallback = 0;
    o->max_ops = 0;   /* no cost bound (cost.h); the command sets --max-ops */
}

double
bba_stationary_residual(const bba_chain *c, const double *pi, double *work)
{
    double r = 0;

    memset(work, 0, (size_t)c->n_states * sizeof *work);
    for (long j = 0; j < c->n_states; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            work[c->col[q]] += pi[j] * c->val[q];
    for (long l = 0; l < c->n_states; l++) {
        double d = fabs(work[l] - pi[l]);

        if (d > r)
            r = d;
    }
    return r;
}

/* Normalise x to sum 1 and check it is a distribution up to rounding. */
static int
finish(const bba_chain *c, const bba_solver_opts *o, double *pi,
       bba_solve_info *info, char *err)
{
    long n = c->n_states;
    double sum = 0, minv = 0, *work;

    for (long j = 0; j < n; j++)
        sum += pi[j];
    if (!(sum > 0) || !isfinite(sum))
        return bb_seterr(err, BB_ESINGULAR,
                         "the stationary solve produced no distribution (sum %g)", sum);
    for (long j = 0; j < n; j++) {
        pi[j] /= sum;
        if (pi[j] < minv)
            minv = pi[j];
    }
    if (minv < -o->tol)
        return bb_seterr(err, BB_ENOCONV,   /* numerical: exit 70, not the input's */
                         "the stationary solve gave a probability of %g", minv);
    for (long j = 0; j < n; j++)
        if (pi[j] < 0)
            pi[j] = 0; /* rounding below zero */
    work = malloc((size_t)n * sizeof *work);
    if (work == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the residual");
    info->residual = bba_stationary_residual(c, pi, work);
    free(work);
    if (!(info->residual <= o->tol))
        return bb_seterr(err, BB_ENOCONV,
                         "the stationary distribution has residual %.3g above "
                         "the tolerance %.3g", info->residual, o->tol);
    return BB_OK;
}

static int
solve_umfpack(const bba_chain *c, const bba_solver_opts *o, double *pi,
              bba_solve_info *info, char *err)
{
    long n = c->n_states;
    long nz = c->nnz + 2 * n + 1; /* P, diagonals, the normalisation row */
    int *Ap = NULL, *Ai = NULL;
    double *Ax = NULL, *b = NULL;
    void *Symbolic = NULL, *Numeric = NULL;
    double Control[UMFPACK_CONTROL], Info[UMFPACK_INFO];
    long pos = 0;
    int status, rc = BB_OK;

    Ap = malloc((size_t)(n + 1) * sizeof *Ap);
    Ai = malloc((size_t)nz * sizeof *Ai);
    Ax = malloc((size_t)nz * sizeof *Ax);
    b = calloc((size_t)n, sizeof *b);
    if (!Ap || !Ai || !Ax || !b) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the %ld-state system", n);
        goto out;
    }
    /* Column j of A = P^T - I is row j of P minus e_j; the diagonal is built
     * as minus the off-diagonal sum so that columns sum to zero exactly up
     * to rounding.  The last balance equation (row n - 1) is replaced by
     * the normalisation sum(x) = 1: a dense last row, which in the natural
     * order adds fill to the last row of L only.  (Fixing x_0 = 1 instead
     * keeps the matrix sparser but fails when pi(0) is tiny, as in a lazy
     * chain with a high threshold.) */
    for (long j = 0; j < n; j++) {
        double off = 0;
        int diag_done = 0;

        Ap[j] = (int)pos;
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            if (c->col[q] != j)
                off += c->val[q];
        for (int q = c->rowptr[j]; q <= c->rowptr[j + 1]; q++) {
            long l = q < c->rowptr[j + 1] ? c->col[q] : n;

            if (!diag_done && l >= j) {
                if (j != n - 1) {
                    Ai[pos] = (int)j;
                    Ax[pos] = -off;
                    pos++;
                }
                diag_done = 1;
            }
            if (l >= n - 1 || l == j)
                continue;
            Ai[pos] = (int)l;
            Ax[pos] = c->val[q];
            pos++;
        }
        Ai[pos] = (int)(n - 1);
        Ax[pos] = 1.0;
        pos++;
    }
    Ap[n] = (int)pos;
    b[n - 1] = 1.0;

    umfpack_di_defaults(Control);
    Control[UMFPACK_PRL] = 0;
    /* The chain is banded (down at most B, up at most M - B): the natural
     * order is fill-optimal, so no fill-reducing ordering (measured: COLAMD
     * costs 0.7e9 more flops and 6x the time at S = 3000, M = 2050), and
     * the symmetric strategy keeps the diagonal pivots of this column
     * diagonally dominant matrix. */
    Control[UMFPACK_ORDERING] = UMFPACK_ORDERING_GIVEN;
    Control[UMFPACK_STRATEGY] = UMFPACK_STRATEGY_SYMMETRIC;
    status = umfpack_di_symbolic((int)n, (int)n, Ap, Ai, Ax, &Symbolic, Control, Info);
    if (status < 0) {
        rc = status == UMFPACK_ERROR_out_of_memory
                 ? bb_seterr(err, BB_ENOMEM, "UMFPACK ran out of memory (symbolic, %ld states)", n)
                 : bb_seterr(err, BB_EDATA, "UMFPACK symbolic analysis failed (status %d)", status);
        goto out;
    }
    info->peak_bytes = Info[UMFPACK_PEAK_MEMORY_ESTIMATE] * Info[UMFPACK_SIZE_OF_UNIT];
    if (o->mem_limit_bytes > 0 && info->peak_bytes > o->mem_limit_bytes) {
        rc = bb_seterr(err, BB_ETOOBIG,
                       "factorising the %ld-state chain would need about %.3g GB "
                       "(limit %.3g GB); try the Gauss-Seidel solver or a lower resolution",
                       n, info->peak_bytes / 1e9, o->mem_limit_bytes / 1e9);
        goto out;
    }
    status = umfpack_di_numeric(Ap, Ai, Ax, Symbolic, &Numeric, Control, Info);
    if (status == UMFPACK_WARNING_singular_matrix) {
        rc = bb_seterr(err, BB_ESINGULAR,
                       "the %ld-state chain is reducible: its balance equations are singular", n);
        goto out;
    }
    if (status < 0) {
        rc = status == UMFPACK_ERROR_out_of_memory
                 ? bb_seterr(err, BB_ENOMEM, "UMFPACK ran out of memory (%ld states, estimated %.3g GB)",
                             n, info->peak_bytes / 1e9)
                 : bb_seterr(err, BB_EDATA, "UMFPACK factorization failed (status %d)", status);
        goto out;
    }
    info->rcond = Info[UMFPACK_RCOND];
    status = umfpack_di_solve(UMFPACK_A, Ap, Ai, Ax, pi, b, Numeric, Control, Info);
    if (status < 0 || status == UMFPACK_WARNING_singular_matrix) {
        rc = bb_seterr(err, BB_ESINGULAR, "UMFPACK solve failed (status %d)", status);
        goto out;
    }
    info->iterations = 1;
    rc = finish(c, o, pi, info, err);
out:
    if (Numeric)
        umfpack_di_free_numeric(&Numeric);
    if (Symbolic)
        umfpack_di_free_symbolic(&Symbolic);
    free(Ap);
    free(Ai);
    free(Ax);
    free(b);
    return rc;
}

static int
solve_gauss_seidel(const bba_chain *c, const bba_solver_opts *o, double *pi,
                   bba_solve_info *info, char *err)
{
    long n = c->n_states;
    int *tp = NULL, *ti = NULL;
    double *tx = NULL, *diag = NULL, *work = NULL;
    int rc = BB_OK;
    long it;

    tp = calloc((size_t)n + 1, sizeof *tp);
    ti = malloc((size_t)(c->nnz > 0 ? c->nnz : 1) * sizeof *ti);
    tx = malloc((size_t)(c->nnz > 0 ? c->nnz : 1) * sizeof *tx);
    diag = calloc((size_t)n, sizeof *diag);
    work = malloc((size_t)n * sizeof *work);
    if (!tp || !ti || !tx || !diag || !work) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for Gauss-Seidel on %ld states", n);
        goto out;
    }
    /* Transpose: tp/ti/tx hold the transitions into each state, off the
     * diagonal; diag[l] = P(l, l). */
    for (long j = 0; j < n; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            if (c->col[q] != j)
                tp[c->col[q] + 1]++;
    for (long l = 0; l < n; l++)
        tp[l + 1] += tp[l];
    for (long j = 0; j < n; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++) {
            int l = c->col[q];

            if (l == j) {
                diag[l] = c->val[q];
                continue;
            }
            ti[tp[l]] = (int)j;
            tx[tp[l]] = c->val[q];
            tp[l]++;
        }
    for (long l = n; l > 0; l--)
        tp[l] = tp[l - 1];
    tp[0] = 0;

    for (long j = 0; j < n; j++)
        pi[j] = 1.0 / (double)n;
    info->residual = INFINITY;
    for (it = 1; it <= o->max_iter; it++) {
        double sum = 0;

        for (long l = 0; l < n; l++) {
            double s = 0;
            /* Off-diagonal entries only: the transpose skipped P(l,l). */
            for (int q = tp[l]; q < tp[l + 1]; q++)
                s += pi[ti[q]] * tx[q];
            pi[l] = diag[l] < 1.0 ? s / (1.0 - diag[l]) : pi[l];
            sum += pi[l];
        }
        for (long l = 0; l < n; l++)
            pi[l] /= sum;
        if (it % 10 == 0 || it == o->max_iter) {
            info->residual = bba_stationary_residual(c, pi, work);
            if (info->residual <= o->tol)
                break;
        }
    }
    info->iterations = it > o->max_iter ? o->max_iter : it;
    if (it > o->max_iter && !(info->residual <= o->tol)) {
        rc = bb_seterr(err, BB_ENOCONV,
                       "Gauss-Seidel did not converge in %ld sweeps (residual %.3g, "
                       "tolerance %.3g)", o->max_iter, info->residual, o->tol);
        goto out;
    }
    rc = finish(c, o, pi, info, err);
out:
    free(tp);
    free(ti);
    free(tx);
    free(diag);
    free(work);
    return rc;
}


/* dst += f * src over len entries (rows of the band never overlap). */
static inline void
axpy(double *restrict dst, const double *restrict src, double f, long len)
{
    for (long k = 0; k < len; k++)
        dst[k] += f * src[k];
}

/* Eliminate state s: rows i in [s-U, s) get P(i,s)/d times row s over the
 * columns [lmin, s).  This is where the time goes. */
static void
eliminate(double *band, long W, long B, long U, long s, long lmin, double d)
{
    const double *rs = band + (size_t)s * (size_t)W + (lmin - s + B);
    long len = s - lmin;

    for (long i = s - U > 0 ? s - U : 0; i < s; i++) {
        double *ri = band + (size_t)i * (size_t)W;
        double f = ri[s - i + B] / d;

        if (f != 0.0)
            axpy(ri + (lmin - i + B), rs, f, len);
    }
}

/* Banded GTH (Grassmann-Taksar-Heyman) elimination.
 *
 * Overflow states only move down by B, deterministically, so they are
 * censored out first: a jump from a normal state into overflow state l is
 * redirected to the normal state where the stall ends,
 * max(l - ceil((l-S)/B) B, 0).
 * The censored chain on 0..S is banded: from j it reaches [j - B, j + U],
 * U = max(M - B, 0).  States are eliminated from the top: eliminating s
 * adds P(i,s)/D_s * P(s,l) to P(i,l) for i in [s-U, s) and l in [s-B, s),
 * with D_s = sum_{l<s} P(s,l) computed from the (positive) remaining
 * entries, never as 1 - P(s,s): there is no subtraction, so every
 * probability, however small, keeps its relative accuracy.  Then
 * pi(0) = 1, pi(s) = sum_{i<s} pi(i) P(i,s) / D_s, and the overflow states
 * follow from their balance equations top-down,
 * pi(l) = sum_{i<=S} pi(i) P(i,l) + pi(l + B).
 * Cost: (S+1) U B multiply-adds and (S+1)(B+U+1) doubles of band.  (A
 * blocked variant that eliminates 32 states per pass over the rows was
 * measured 25% slower at S = 3000, M = 2050: the update is not memory
 * bound.) */
static int
solve_banded(const bba_chain *c, const bba_solver_opts *o, double *pi,
             bba_solve_info *info, char *err)
{
    long S = c->S, B = c->B, n = c->n_states;
    long U = c->M > B ? c->M - B : 0;
    long W = B + U + 1;      /* band width: row i holds columns [i-B, i+U] */
    double *band = NULL, *den = NULL, bytes;
    int rc = BB_OK;

#define AT(i, l) (band[(size_t)(i) * (size_t)W + (size_t)((l) - (i) + B)])
    bytes = ((double)S + 1.0) * (double)W * sizeof(double);
    if (o->mem_limit_bytes > 0 && bytes > o->mem_limit_bytes)
        return bb_seterr(err, BB_ETOOBIG,
                         "the banded solve of the %ld-state chain would need %.3g GB "
                         "(limit %.3g GB); try the Gauss-Seidel solver or a lower resolution",
                         n, bytes / 1e9, o->mem_limit_bytes / 1e9);
    band = bba_big_alloc((size_t)(S + 1) * (size_t)W * sizeof *band, 1);
    den = malloc((size_t)(S + 1) * sizeof *den);
    if (band == NULL || den == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for a %.3g GB band", bytes / 1e9);
        goto out;
    }
    info->peak_bytes = bytes;
    for (long j = 0; j <= S; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++) {
            long l = c->col[q];

            if (l > S) {
                l -= ((l - S + B - 1) / B) * B; /* where the stall ends */
                if (l < 0)
                    l = 0;
            }
            AT(j, l) += c->val[q];
        }
    for (long s = S; s >= 1; s--) {
        long lmin = s - B > 0 ? s - B : 0;
        double d = 0;

        for (long l = lmin; l < s; l++)
            d += AT(s, l);
        if (!(d > 0)) {
            rc = bb_seterr(err, BB_ESINGULAR,
                           "state %ld cannot reach a lower load (banded elimination)", s);
            goto out;
        }
        den[s] = d;
        eliminate(band, W, B, U, s, lmin, d);
    }
    pi[0] = 1.0;
    for (long s = 1; s <= S; s++) {
        double acc = 0;

        for (long i = s - U > 0 ? s - U : 0; i < s; i++)
            acc += pi[i] * AT(i, s);
        pi[s] = acc / den[s];
    }
#undef AT
    /* Overflow states from their balance equations, top-down. */
    for (long l = S + 1; l < n; l++)
        pi[l] = 0;
    for (long j = 0; j <= S; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            if (c->col[q] > S)
                pi[c->col[q]] += pi[j] * c->val[q];
    for (long l = n - 1; l > S; l--)
        if (l + B < n)
            pi[l] += pi[l + B];
    info->iterations = 1;
    rc = finish(c, o, pi, info, err);
out:
    free(band);
    free(den);
    return rc;
}

int
bba_stationary_solve(const bba_chain *c, const bba_solver_opts *o, double *pi,
                     bba_solve_info *info, char *err)
{
    bba_solve_info dummy;

    if (info == NULL)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (c->n_states <= 0)
        return bb_seterr(err, BB_EINVAL, "empty chain");
    switch (o->kind) {
    case BBA_SOLVER_UMFPACK:
        return solve_umfpack(c, o, pi, info, err);
    case BBA_SOLVER_GAUSS_SEIDEL:
        return solve_gauss_seidel(c, o, pi, info, err);
    case BBA_SOLVER_BANDED:
        return solve_banded(c, o, pi, info, err);
    case BBA_SOLVER_FFT:
        return bb_seterr(err, BB_EINVAL, "the FFT solver works from the load law "
                         "(bba_eval), not from a built chain");
    }
    return bb_seterr(err, BB_EINVAL, "unknown solver %d", (int)o->kind);
}
