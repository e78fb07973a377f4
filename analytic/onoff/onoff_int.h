/* onoff_int.h: what the files of the ON/OFF-modulated chain share (private
 * to onoff*.c): the solve's workspace and the operations on its (level x
 * phase) vectors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * onoff.c        the model: classes, kernels, phases, D0, estimates
 * onoff_step.c   one step x -> x P of the censored chain (direct and FFT
 *                paths, Algorithm 4's correction)
 * onoff_krylov.c GMRES on x (I - P) = 0 and its lazy-region preconditioner
 * onoff_solve.c  aggregation-disaggregation, the level chains, the measures
 * onoff_dense.c  the dense test oracle
 *
 * Vectors x of the normal states are level-major: x[j P + f] is level j,
 * phase f (phases in mixed radix, class 0 fastest). */
#ifndef BBSIZE_ANALYTIC_ONOFF_INT_H
#define BBSIZE_ANALYTIC_ONOFF_INT_H

#include "fftconv.h"
#include "onoff.h"

typedef struct {
    const bba_onoff *m;
    long S, U, P;      /* buffer size (quanta), the largest overflow excess
                          (bba_onoff_max_excess), phases */
    const bb_drain *pol;
    double ***Kp;      /* Kp[e][c] = H_c^(e/B) K_c, e = 0..U: the phase
                          step after a stall of e/B units, e quanta of
                          excess (bba_onoff_stall_kernel) */
    double *z;         /* (S+1) x P one-step landings (phase-major), then
                          (U+1) x P landings at S after a stall of excess e */
    char *zflag;       /* U + 1: some mass landed after excess e */
    double *tmp;       /* 3 P */
    double *ktmp;      /* (S + 1) P: the Kronecker product's scratch */
    bba_fftconv *conv; /* the level convolution with D0 by FFT, or NULL */
    double *xcol;      /* S + 1: one phase's levels */
    double *ccol;      /* S + M0 + 1: their convolution with D0 */
    double *lw;        /* 2 (B + 1): Algorithm 4's correction's weights */
    double *pinv[2];   /* lazy: the level blocks' inverses (level 0, levels
                          1..T-1), P x P, or NULL (no preconditioner) */
    int clamp;         /* the FFT path clamps round-off below 0 (not in
                          GMRES, whose vectors are signed) */
} bba_onoff_work;

/* bba_onoff_max_excess: the largest overflow excess l - S of one normal
 * unit, max(M - B, 0) quanta: a stall lasts at most that over B units.
 * O(1). */
long bba_onoff_max_excess(const bba_onoff *m);

/* bba_onoff_stall_kernel: out = H_c^tau K_c, (N_c + 1)^2 row-major, the
 * phase step of class c from a normal unit followed by a stall of tau
 * units (tau = e/B, real: the stall ends when the excess e is written) to
 * the next normal unit: during a stall the ON applications wait (stay ON)
 * and each OFF one turns ON with probability 1 - (1 - c_c)^tau (H_c^tau,
 * a binomial shift; the per-unit probability c_c compounded over tau
 * units, so H^s H^t = H^(s+t)), then every application takes the normal
 * unit's step K_c.  tau = 0 gives K_c.  O((N_c + 1)^3). */
void bba_onoff_stall_kernel(const bba_onoff *m, size_t c, double tau, double *out);

/* bba_onoff_spread: add v times the transitions out of normal state (j, a
 * phase f of bursty load kf) over the landing levels (onoff_step.c). */
void bba_onoff_spread(const bba_onoff *m, long j, long kf, long S, const bb_drain *pol,
                      double v, double *lev, long off, double *ovf, long P, long f,
                      char *oflag);

/* bba_onoff_apply: y = x P of the censored chain; returns max |y - x|. */
double bba_onoff_apply(bba_onoff_work *w, const double *x, double *y);

/* The Krylov solve (onoff_krylov.c). */
#define BBA_ONOFF_GMRES_M 30
#define BBA_ONOFF_LAZY_PREC_MAX_P 512

/* bba_onoff_lazy_prec_new: the lazy region's level-block preconditioner
 * into w->pinv (P <= BBA_ONOFF_LAZY_PREC_MAX_P).  0, or -1 (out of memory
 * or a singular block: w->pinv stays NULL, GMRES runs unpreconditioned). */
int bba_onoff_lazy_prec_new(bba_onoff_work *w);

/* bba_onoff_gmres: restarted GMRES on x (I - P) = 0 from x (ws: a
 * workspace of (S + 1) P unknowns and restart BBA_ONOFF_GMRES_M), then x
 * clamped at 0 and normalised; returns max |x P - x| of that x (y is
 * scratch). */
struct bba_krylov;
double bba_onoff_gmres(bba_onoff_work *w, struct bba_krylov *ws, double *x, double *y,
                       double tol);

#endif
