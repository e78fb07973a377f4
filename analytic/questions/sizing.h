/* sizing.h: the questions bbsize answers, on top of dist, chain,
 * stationary and measures: evaluate one buffer size, find the smallest
 * buffer for a target idle fraction, find the best lazy threshold.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A bba_model holds the quantised workload and its DIST; evaluating a size
 * builds the chain, checks that state 0 is reachable, solves for the
 * stationary distribution and computes the measures.  One evaluation costs
 * one stationary solve (see stationary.h); the searches use few of them:
 * the size search interpolates log(idle) between bracketing sizes (idle
 * falls about geometrically with S), with bisection as a safeguard, so it
 * needs about 2 log2(S/M) + 6 solves; the threshold search evaluates a grid
 * and refines the feasibility edge by bisection. */
#ifndef BBSIZE_ANALYTIC_SIZING_H
#define BBSIZE_ANALYTIC_SIZING_H

#include "chain.h"
#include "dist.h"
#include "measures.h"
#include "stationary.h"

typedef struct {
    size_t n;
    const long *b;     /* quanta, borrowed from the caller */
    const double *p;   /* borrowed */
    long B;            /* PFS bandwidth, quanta per time unit */
    long M;            /* sum b */
    double *dist;      /* M + 1 entries, owned: DIST, or with bb_bw the
                          throttled law the chain runs on (bbbw.h) */
    bba_moments mom;   /* of DIST (the applications' load) */
    long bb_bw;        /* B_BB in quanta; 0: unlimited (bba_model_set_bbbw) */
    double throttle;   /* expected throttle stall units per normal unit
                          (bbbw.h cbar; 0 without B_BB) */
    double mean_eff;   /* mean of dist (quanta): the chain drifts up when
                          it is >= B */
    double *dist0;     /* with bb_bw: DIST itself (owned), else NULL */
    const struct bba_onoff *onoff; /* NULL: the chain of chain.h; else the
                          ON/OFF-modulated chain of onoff.h (borrowed, same
                          applications), which bba_eval then solves */
    const struct bba_effbw_approx *approx; /* with onoff: NULL when the
                          modulated chain is the whole model; else onoff is
                          a reduced model and bba_eval applies this
                          correction (effbw.h; borrowed) to every answer */
    struct bba_fftwh_cache *fft_cache; /* owned: the FFT solver's per-model
                                          data (fftwh.h); do not copy models */
} bba_model;

/* bba_model_init: compute DIST and the moments.  b and p are borrowed and
 * must outlive the model.  Errors: BB_EINVAL (B <= 0, negative b),
 * BB_ETOOBIG (DIST larger than mem_limit_bytes), BB_ENOMEM.  O(n M). */
int bba_model_init(bba_model *m, size_t n, const long *b, const double *p,
                   long B, double mem_limit_bytes, char *err);
void bba_model_free(bba_model *m);

/* bba_model_set_bbbw: give the buffer a bandwidth of bb_bw quanta per time
 * unit (bbbw.h): the chain then runs on the throttled law and every
 * evaluation adds the throttle stalls.  bb_bw <= 0, or large enough that no
 * load exceeds B + bb_bw, leaves the model as it is.  Not for models with
 * bursts (onoff: BB_EINVAL).  Errors: BB_ENOMEM.  O(M). */
int bba_model_set_bbbw(bba_model *m, long bb_bw, char *err);

/* bba_model_idle_limit: the idle fraction as S grows without bound:
 * 1 - B/E when the (throttled) load drifts up, else the throttle stall
 * fraction cbar / (1 + cbar) (0 without B_BB).  *bandwidth_bound (may be
 * NULL) says which: 1 when it is the buffer's bandwidth. */
double bba_model_idle_limit(const bba_model *m, int *bandwidth_bound);

/* bba_model_load_ratio: E / B (expected load over PFS bandwidth). */
double bba_model_load_ratio(const bba_model *m);

typedef struct {
    long S;                /* buffer size evaluated, quanta */
    long threshold;        /* THRESHOLD used, quanta (0 for greedy) */
    long n_states;
    long nnz;
    bba_measures meas;
    bba_solve_info solve;
} bba_eval_result;

/* bba_eval: idle and quiet fractions for buffer size S (quanta) and policy
 * pol (drain.h, its threshold in quanta: BB_DRAIN_QUANTA, asserted), on
 * the chain of chain.h, or on the modulated chain when m->onoff is set (bba_onoff_eval with so's tolerance and memory limit; then
 * m->approx's correction).
 * If pi_out is not NULL it receives a malloc'd copy of the stationary
 * distribution (n_states entries; the caller frees it; the reduced
 * model's under an approximation).
 * Errors: BB_EINVAL (a lazy EPS in (0, BBA_EPS_MIN)), those of
 * bba_chain_build, bba_chain_check_reachable and
 * bba_stationary_solve; with the FFT solver, those of bba_fftwh_eval,
 * except that BB_ENOCONV falls back to banded GTH (unless
 * so->no_fallback) and becomes BB_ETOOBIG, naming the memory GTH would
 * need and the options to change, when GTH would not fit. */
int bba_eval(const bba_model *m, long S, const bb_drain *pol,
             const bba_solver_opts *so, bba_eval_result *out, double **pi_out,
             char *err);

/* Searches over S take the policy with its threshold a fraction of S
 * (BB_DRAIN_FRACTION); bba_drain_quanta (quanta.h) gives the policy at
 * one size. */

typedef struct {
    int feasible;            /* 1 when a size reaches the target */
    double idle_limit;       /* infeasible: the idle fraction as S grows
                                without bound (bba_model_idle_limit) */
    int bandwidth_bound;     /* infeasible because of the buffer's bandwidth
                                (B_BB), not of E >= B */
    int lazy_bound;          /* infeasible because a lazy threshold at the
                                whole buffer (fraction >= 1) lets the buffer
                                rise to the top at every size: idle_limit is
                                the idle fraction where doubling S no longer
                                lowers it (by BBA_LAZY_FLAT) */
    bba_eval_result best;    /* feasible: the smallest S reaching the target */
    int evaluations;         /* stationary solves used */
} bba_size_result;

/* What a search says of itself (progress reporting in src/): once when it
 * starts (solves 0) and after each solve.  solves_max bounds the solves
 * of the whole search, done ones included, from its state: the sizes a
 * search can still step through before it brackets the answer (up to
 * s_max, down to 0) and the bracket's width; it never rises and never
 * falls below the solves the search then takes (tested).  sizes_seen is
 * 1 when every solve left is at a size no larger than one this search
 * has solved (shrinking a bracket, stepping down, a threshold search's
 * thresholds at one size), so that the slowest solve so far bounds the
 * time of each one left; 0 while it may still step up to larger sizes.
 * The fluid model's searches (fluid.h) say the same of theirs, sizes_seen
 * meaning there that no solve left can cost more than one made.
 * resolution is the resolution being settled (answer.h), 0 when the
 * search is not part of settling it; stage says which search of the
 * question it is. */
typedef enum {
    BBA_STAGE_ANSWER = 0,    /* the answer's, or settling the resolution */
    BBA_STAGE_DOUBLE_UNIT,   /* the size at twice a default time unit */
    BBA_STAGE_INTERVAL       /* an approximation's size interval */
} bba_stage;

typedef struct {
    int solves;              /* of this search so far */
    int solves_max;          /* the most it can take in all */
    int sizes_seen;
    long resolution, resolution_max;
    bba_stage stage;
} bba_progress;

/* Called as bba_progress says; may be NULL. */
typedef void (*bba_progress_fn)(void *ctx, const bba_progress *p);

/* A search's side of bba_progress: bba_search_start once, with the most
 * solves it can take (`left`), then bba_search_tell after each solve with
 * the solves made and the most left: the bound kept is the lowest told,
 * so it never rises.  cb may be NULL (nothing is told). */
typedef struct {
    bba_progress_fn cb;
    void *ctx;
    bba_progress p;
} bba_search;

void bba_search_start(bba_search *sm, bba_progress_fn cb, void *ctx, int left);
void bba_search_tell(bba_search *sm, int solves, int left, int sizes_seen);

/* The relative fall of the idle fraction on doubling S below which a lazy
 * search with the threshold at the whole buffer has met its limit. */
#define BBA_LAZY_FLAT 1e-3

/* bba_size_min: the smallest S (quanta) with idle(S) <= target, target in
 * (0, 1), assuming idle is non-increasing in S (tested, not proved).
 * s_max bounds the search (quanta; from the memory budget).
 * Returns BB_OK with feasible = 1, or BB_EINFEASIBLE with feasible = 0 and
 * idle_limit set when the limit of bba_model_idle_limit is >= target (E >= B,
 * or the buffer's bandwidth alone stalls that much, or a lazy threshold at
 * the whole buffer lets it rise to the top: lazy_bound), or BB_ETOOBIG when even s_max misses the
 * target (the message says the idle fraction reached there).  Other errors
 * as bba_eval. */
int bba_size_min(const bba_model *m, double target, const bb_drain *ps,
                 const bba_solver_opts *so, long s_max, bba_progress_fn cb,
                 void *ctx, bba_size_result *out, char *err);

/* bba_size_min_from: the same answer from a guess hint (quanta; <= 0: none,
 * bba_size_min's search): the search brackets the answer around the guess
 * by steps doubling from max(1, hint / 256) before it shrinks the bracket,
 * so a guess within a few quanta of the answer costs about three solves
 * instead of about ten.  With idle non-increasing in S the answer does not
 * depend on the guess (tested). */
int bba_size_min_from(const bba_model *m, double target, const bb_drain *ps,
                      const bba_solver_opts *so, long s_max, long hint, bba_progress_fn cb,
                      void *ctx, bba_size_result *out, char *err);

typedef struct {
    int feasible;             /* some threshold keeps idle <= target */
    bba_eval_result best;     /* the threshold with the largest quiet
                                 fraction among those with idle <= target */
    bba_eval_result greedy;   /* threshold 0, for comparison */
    int evaluations;
    int monotone_idle;        /* 1 if idle was non-decreasing along the grid */
} bba_threshold_result;

/* bba_threshold_best: for buffer size S, the lazy THRESHOLD (quanta) that
 * maximises the quiet fraction subject to idle <= target, with EPS eps.
 * Evaluates grid + 1 evenly spaced thresholds 0..S, then bisects between
 * the largest feasible grid point and the next one (idle grows with the
 * threshold), and keeps the best feasible point seen.  grid >= 1.
 * Returns BB_OK (feasible may be 0 when even threshold 0 misses the target)
 * or the errors of bba_eval. */
int bba_threshold_best(const bba_model *m, long S, double target, double eps,
                       int grid, const bba_solver_opts *so, bba_progress_fn cb,
                       void *ctx, bba_threshold_result *out, char *err);

#endif
