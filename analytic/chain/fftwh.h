/* fftwh.h: the stationary measures of the greedy and lazy chains by an FFT
 * Wiener-Hopf-preconditioned GMRES on the tilted, overflow-censored chain,
 * without building the chain.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chain of chain.h is a random walk with jumps d = k - B, k ~ DIST,
 * clamped at 0 and folded at S: from normal state j a load with overshoot
 * o = j + k - B - S >= 1 stalls ceil(o/B) time units and lands at
 * max(S + o - ceil(o/B) B, 0).  The overflow states are censored exactly,
 * so the unknowns are the normal states 0..S; idle = nu / (sum pi + nu),
 * nu the expected stall units per normal step.
 *
 * Method (references at the implementation):
 *  0. with g = gcd(B, active bandwidths) > 1, the chain on the multiples
 *     of g (the only states reachable from 0) is solved instead;
 *  1. exponential tilt x_l = pi_l exp(h(l)), h piecewise linear (slope
 *     theta_0 below the lazy THRESHOLD, theta_1 above), each slope the
 *     Cramer root of its region's kernel (negative when the region drifts
 *     up, E > B: the mirrored tilt, the mass decaying down from S), so
 *     that x is O(1) and FFT round-off stays relative to the local size of
 *     pi: idle fractions far below the double range are returned as log10;
 *  2. the product x -> x P (tilted) is one FFT convolution per region plus
 *     O(B + M) boundary terms (clamp at 0, fold at S, threshold crossing);
 *  3. normalisation by a rank-one border (no pinned state);
 *  4. right preconditioner: per region, the Wiener-Hopf factorisation
 *     1 - c(z) = K (1 - G+(z)) (1 - G-(z)) of the tilted kernel's symbol,
 *     by the cepstral (FFT log) method, applied as two convolutions with
 *     the renewal sequences of the ladder-height laws;
 *  5. restarted GMRES (krylov.h); the true residual is recomputed at the
 *     end of every restart.  With theta_1 < 0 the jumps past S come from
 *     a convolution of their own and the restart grows to B + 60 (at most
 *     400) when that fits in o->mem_limit_bytes: the top boundary leaves
 *     a correction of rank about B there.
 * Sizes: S up to ~10^6 quanta, M (sum of bandwidths) up to ~10^6.  Time
 * O((S + M) log(S + M)) per product, about 10-30 products per solve; memory
 * about (GMRES restart + 12) (S + M) doubles.  No chain is built. */
#ifndef BBSIZE_ANALYTIC_FFTWH_H
#define BBSIZE_ANALYTIC_FFTWH_H

#include "chain.h"
#include "measures.h"
#include "stationary.h"

/* A cache of what depends on the load law and policy kernel only (tilt,
 * Wiener-Hopf factors, renewal sequences), reused across buffer sizes and
 * thresholds: one per model (bba_model owns one).  Thread-safe. */
typedef struct bba_fftwh_cache bba_fftwh_cache;

/* bba_fftwh_cache_new: an empty cache, or NULL when out of memory. */
bba_fftwh_cache *bba_fftwh_cache_new(void);

/* bba_fftwh_cache_free: release a cache; NULL is a no-op. */
void bba_fftwh_cache_free(bba_fftwh_cache *c);

/* bba_fftwh_eval: measures of the censored chain for load law dist over
 * 0..M (quanta), PFS bandwidth B and buffer size S (quanta), policy pol,
 * with the tilted Bernoulli factors (n, b, p) of dist (b in quanta; p in
 * [0,1]) used to build the tilted law without overflow.  cache (may be
 * NULL) must only ever see one (dist, M, B).  o->fft_tol is the
 * GMRES relative residual target; the answer is accepted when the true
 * relative residual is below 100 o->fft_tol and no probability is negative
 * beyond rounding.  info->residual receives that true residual (of the
 * tilted, bordered system), info->iterations the GMRES steps.  pi, when not
 * NULL, receives the normalised stationary distribution over all
 * S + max(M - B, 0) + 1 states of chain.h (entries below 1e-308 flush to 0).
 * Preconditions (the caller checks them; bba_eval does): the chain is
 * irreducible on the states reachable from 0 and 0 is reachable from every
 * state (Pr(load < B) > 0; lazy: EPS > 0 or THRESHOLD 0).
 * pol: drain.h, its threshold in quanta (BB_DRAIN_QUANTA, asserted).
 * Errors: BB_EINVAL (S < 0, B <= 0, policy out of range); BB_ETOOBIG (the
 * workspace exceeds o->mem_limit_bytes); BB_ENOCONV (GMRES did not reach
 * the tolerance, with the residual reached; or, with g = gcd > 1, a lazy
 * threshold above the last reachable load, g floor(S/g), where the system
 * is numerically singular: the caller may fall back to banded GTH);
 * BB_ENOMEM. */
int bba_fftwh_eval(const double *dist, long M, long B, long S, size_t n,
                   const long *b, const double *p, const bb_drain *pol,
                   const bba_solver_opts *o, bba_fftwh_cache *cache, bba_measures *meas,
                   bba_solve_info *info, double *pi, char *err);

/* bba_fftwh_bytes: workspace bba_fftwh_eval needs for these dimensions
 * (bytes; the restart length of o).  O(1). */
double bba_fftwh_bytes(long M, long B, long S, const bba_solver_opts *o);

#endif
