/* stationary.h: stationary distribution pi = pi P of a bba_chain.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three methods on a built chain, each an independent check on the
 * others and on the default FFT solver (fftwh.h, which needs no chain and
 * is reached through bba_eval only):
 *  - banded GTH: Grassmann-Taksar-Heyman elimination in band storage
 *    after censoring the overflow states; subtraction-free, so tiny
 *    probabilities (idle fractions of 1e-12) keep their relative
 *    accuracy.  (S+1) B (M-B) multiply-adds, (S+1)(M+1) doubles.  The FFT
 *    solver's fallback.
 *  - UMFPACK: sparse LU of (P^T - I) with the last balance equation
 *    replaced by the normalisation sum(pi) = 1.  Time and memory are those
 *    of the LU factors: the chain is banded (a state moves at most B down
 *    and M - B up), so about n_states * M * B flops and n_states * M
 *    entries.
 *  - Gauss-Seidel: sweeps pi(l) <- sum_{j != l} pi(j) P(j,l) / (1 - P(l,l))
 *    over a transposed copy of P, normalised after each sweep, until the
 *    residual is below the tolerance.  O(nnz) per sweep and 2 nnz memory;
 *    for chains too large to factor and as a cross-check.
 * Each returns the residual max_l |(pi P - pi)(l)| of its answer. */
#ifndef BBSIZE_ANALYTIC_STATIONARY_H
#define BBSIZE_ANALYTIC_STATIONARY_H

#include "chain.h"

typedef enum {
    BBA_SOLVER_UMFPACK = 0,
    BBA_SOLVER_GAUSS_SEIDEL = 1,
    BBA_SOLVER_BANDED = 2,
    BBA_SOLVER_FFT = 3      /* FFT Wiener-Hopf GMRES (fftwh.h); works from
                               DIST without a chain, so only bba_eval
                               takes it; bba_stationary_solve refuses it */
} bba_solver_kind;

typedef struct {
    bba_solver_kind kind;
    double tol;             /* residual target (Gauss-Seidel) and the
                               largest residual accepted from UMFPACK */
    long max_iter;          /* Gauss-Seidel sweeps at most */
    double mem_limit_bytes; /* refuse a factorization estimated above this
                               (0: no limit) */
    double fft_tol;         /* FFT solver: GMRES relative residual target
                               (default 1e-14); accepted up to 100x */
    int restart;            /* FFT solver: GMRES restart length (30) */
    long krylov_max_iter;   /* FFT solver: GMRES steps at most (300) */
    int no_fallback;        /* FFT solver: report BB_ENOCONV instead of
                               falling back to banded GTH (tests) */
    double max_ops;         /* refuse a solve or search estimated above
                               this many multiply-adds (cost.h; 0: none) */
    void (*announce)(void *ctx, double ops);
                            /* with max_ops > 0, called with the estimate
                               of each solve or search before it is
                               admitted (may be NULL; cost.h) */
    void *announce_ctx;
    int dist_rows;          /* 1: the caller writes a row per load of DIST
                               (dist --csv): its rows costed with the
                               distribution, before it is built (cost.h
                               bba_cost_dist) */
} bba_solver_opts;

/* bba_solver_name: the method's name for people ("FFT Wiener-Hopf",
 * "banded GTH", "UMFPACK (sparse LU)", "Gauss-Seidel"; "unknown" for a
 * value outside the enum): the one place output takes it from, so a new
 * kind is named here once. */
const char *bba_solver_name(bba_solver_kind k);

/* bba_solver_describe: how output names the solver of o: *name is
 * bba_solver_name(o->kind); *note says what else may run, "" when nothing
 * does: the FFT solver with its fallback on (o->no_fallback = 0) hands a
 * chain on which GMRES does not converge to banded GTH, "banded GTH where
 * GMRES does not converge".  Both are static strings. */
void bba_solver_describe(const bba_solver_opts *o, const char **name, const char **note);

/* bba_solver_defaults: the FFT solver, tol 1e-9, 200000 sweeps, no memory
 * limit, fft_tol 1e-14, restart 30, 300 GMRES steps, fallback on. */
void bba_solver_defaults(bba_solver_opts *o);

typedef struct {
    double residual;        /* max |pi P - pi| */
    long iterations;        /* sweeps (Gauss-Seidel), 1 for UMFPACK */
    double rcond;           /* UMFPACK's reciprocal condition estimate */
    double peak_bytes;      /* UMFPACK's peak memory estimate; the FFT
                               solver's workspace */
    int fallback;           /* 1 when the FFT solver did not converge and
                               banded GTH answered instead */
} bba_solve_info;

/* bba_stationary_solve: pi (n_states doubles, caller-owned) receives the
 * stationary distribution of c.  info may be NULL.
 * Errors: BB_ETOOBIG (factorization over the memory limit, with its size),
 * BB_ESINGULAR (UMFPACK found the system singular: reducible chain),
 * BB_ENOCONV (Gauss-Seidel stopped at max_iter; the message gives the
 * residual reached, and pi holds the last iterate; also when the solution
 * has a residual above tol or a negative entry beyond rounding: a
 * numerical failure, exit 70, not bad input), BB_ENOMEM. */
int bba_stationary_solve(const bba_chain *c, const bba_solver_opts *o,
                         double *pi, bba_solve_info *info, char *err);

/* bba_stationary_residual: max_l |(pi P - pi)(l)|.  work holds n_states
 * doubles.  O(nnz). */
double bba_stationary_residual(const bba_chain *c, const double *pi, double *work);

#endif
