/* answer.h: the front door of libbbanalytic: one place that chooses the
 * model, settles its accuracy and answers every question bbsize asks
 * (the idle fraction at a size, the smallest size for a target, the best
 * lazy threshold), so that every command gives the same answer to the
 * same question.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Models (bbsize(1), MODELS):
 *  - BERNOULLI: the paper's chain (no application has a burst): each
 *    application writes with probability p in a time unit (Aupy et al.
 *    2017), quantised at resolution R (chain.h, sizing.h).  With the
 *    resolution not given, R is settled here: doubled from 100 until the
 *    size for the target moves by less than BBA_SETTLE (at most
 *    BBA_RES_MAX), and every question is answered at that R.
 *  - CHAIN: the ON/OFF-modulated chain at the time unit (onoff.h), exact up
 *    to BBA_CHAIN_EXACT_PHASES phases, beyond that the effective-bandwidth
 *    approximation (effbw.h); only when asked for (model CHAIN).
 *  - FLUID: the continuous-time limit of the chain (fluid.h): no time
 *    unit, no quantisation; the default when some application has a
 *    burst.  Exact up to BBA_FLUID_EXACT_PHASES phases; beyond, the
 *    sources of least effect are folded into classes that keep the
 *    tail's decay rate (fluid_approx.h), each model within
 *    BBA_FLUID_APPROX_PHASES, and idle_low, idle_high (S_low_bytes,
 *    S_high_bytes for a size) give the interval measured in
 *    docs/fluid.md.
 * AUTO picks BERNOULLI without bursts and FLUID with them.
 *
 * Units: sizes in bytes, rates in bytes/s, times in s, as in workload.h.
 * Ownership: a front borrows the question's apps (they must outlive it)
 * and owns everything else.  A front is read-only after bba_front_new:
 * bba_front_idle may run from several threads at once (sweeps). */
#ifndef BBSIZE_ANALYTIC_ANSWER_H
#define BBSIZE_ANALYTIC_ANSWER_H

#include <stddef.h>

#include "drain.h"
#include "endurance.h"
#include "sizing.h"
#include "workload.h"

#define BBA_SETTLE 1e-3     /* relative change of the size on doubling R */
#define BBA_RES_START 100   /* the paper's resolution */
#define BBA_RES_MAX 6400
#define BBA_CHAIN_EXACT_PHASES 64
#define BBA_CHAIN_APPROX_PHASES 16
#define BBA_FLUID_EXACT_PHASES 4096   /* about 5 s for a size on 2 cores */
#define BBA_FLUID_APPROX_PHASES 512   /* each folded model (fluid_approx.h) */
#define BBA_FLUID_APPROX_MODELS 8     /* the primary and its variants, costed */
#define BBA_FLUID_REL_TOL 1e-4        /* a fluid size, relative */

typedef enum {
    BBA_MODEL_AUTO = 0,
    BBA_MODEL_BERNOULLI,
    BBA_MODEL_CHAIN,
    BBA_MODEL_FLUID
} bba_model_kind;

/* bba_model_kind_name: "auto", "Bernoulli", "chain", "fluid". */
const char *bba_model_kind_name(bba_model_kind k);

/* A question states its draining policy (drain.h) with the threshold a
 * fraction of the buffer size (searches) or in bytes (one size). */

typedef struct {
    const bba_app *apps;     /* borrowed */
    size_t n;
    bba_platform pf;         /* pf.resolution 0: settle it (BERNOULLI) */
    int time_unit_given;     /* 0: pf.time_unit_s is a default nobody chose */
    bba_model_kind model;
    bba_solver_opts so;      /* the chain solvers; so.mem_limit_bytes bounds
                                every model */
    double target;           /* the idle fraction the resolution settles on */
    bb_drain drain;         /* ... with this policy */
    double settle_bytes;     /* when no size meets the target: settle on the
                                idle fraction at this size (0: do not settle) */
    int bbbw_unasked;        /* 1: the caller shows the least burst-buffer
                                bandwidth only when the buffer's bandwidth is
                                given, so the fluid model's bba_front_size
                                leaves bb_bw_min_Bps NaN for an unlimited one
                                (that search is the dearest part of a size
                                at thousands of phases) */
    bba_progress_fn progress;   /* at the start and after each solve of a
                                   search, settling's, the fluid model's,
                                   the size at twice a default time unit
                                   and an approximation's size interval
                                   included (sizing.h bba_progress stage;
                                   may be NULL) */
    void *progress_ctx;
} bba_question;

/* bba_question_init: defaults (AUTO, target 0.001, greedy, EPS 0.01,
 * bba_solver_defaults with tol 1e-12). */
void bba_question_init(bba_question *q);

typedef struct bba_front bba_front;

/* What one question's answer says.  Quantities not computed are NAN (or -1
 * for counts). */
typedef struct {
    bba_model_kind model;    /* the model that answered */
    int exact;               /* 0: an approximation; idle_low and idle_high
                                bracket the truth where measured (NAN where
                                not) */
    double phases;           /* ON/OFF phases of the whole workload (chain,
                                fluid; 0 for BERNOULLI) */
    long phases_solved;      /* phases solved exactly */
    size_t classes;          /* classes of identical bursty applications */
    long resolution;         /* discrete models: R; 0 for FLUID */
    double res_change;       /* relative change of the settled quantity on
                                doubling R; < 0: not measured (R given) */
    double time_unit_s;      /* the discrete models' unit; FLUID: the unit
                                memoryless applications enter with */
    double quantum_bytes;    /* discrete models */
    double max_round_bytes;  /* largest rounding of a bandwidth per unit */
    double load_ratio;       /* E / B */
    /* the point */
    double S_bytes;
    long S_quanta;           /* discrete models; -1 for FLUID */
    bb_drain drain;          /* the policy answered, its threshold in bytes */
    double idle, idle_low, idle_high;
    double log10_idle;       /* finite where idle underflows to 0; -inf
                                when nothing can stall; NAN when it
                                underflowed to an unknown order (the
                                chain solvers but FFT) */
    double quiet, mean_occupancy_bytes, p_empty, p_full;
    double bb_write_Bps;     /* mean rate written into the buffer, bytes/s
                                over all time, from the stationary
                                distribution (endurance.h); exact with the
                                model (FLUID: its bb_in_Bps) */
    long states;             /* discrete models' states; phases for FLUID */
    double residual;
    long iterations;
    int fallback;            /* the FFT solver fell back to banded GTH */
    int evaluations;         /* solves of this question (settling included) */
    /* bba_front_size (and why a search cannot meet its target,
     * BB_EINFEASIBLE) */
    double idle_limit;       /* the idle fraction as S grows without bound
                                (with B_BB: what its throttling alone idles) */
    int bandwidth_bound;     /* the buffer's bandwidth sets idle_limit */
    int lazy_bound;          /* a lazy threshold at the whole buffer sets it
                                (sizing.h) */
    double bb_bw_min_Bps;    /* bba_front_size, feasible or not: the
                                smallest B_BB for which some capacity meets
                                the target (0: none needed; NAN: E >= B) */
    /* a size search (FLUID): the sizes at which idle_high and idle_low
     * reach the target (S_bytes itself when exact; NAN when not
     * computed; S_high_bytes +inf when idle_high never does) */
    double S_low_bytes, S_high_bytes;
    /* FLUID, folded (fluid_approx.h): the share of the mean rate in the
     * folded sources; 0 when the interval is not trusted (they carry most
     * of the load); a size search answered the interval's safe end
     * S_high_bytes instead of the folded model's own size, S_model_bytes,
     * because the interval is not trusted or because that size is 0 B
     * while the interval reaches above the target there */
    double folded_load;
    int interval_trusted, safe_end;
    double S_model_bytes;
    /* a time unit nobody chose (BERNOULLI): the size at twice it */
    double S_double_unit_bytes;   /* NAN when not computed */
} bba_answer;

/* bba_front_new: check and quantise the question, choose the model, settle
 * the resolution (BERNOULLI, resolution 0), and keep what every answer
 * needs.  Errors: BB_EINVAL (the inputs; the message names the
 * application, 1-based, or the platform field), BB_EDATA (most of the
 * expected load rounds to nothing at the resolution, or every application
 * does), BB_ETOOBIG (a model over the memory limit, with its size and
 * what to change), BB_ENOMEM, and the solvers' errors while settling. */
int bba_front_new(const bba_question *q, bba_front **out, char *err);
void bba_front_free(bba_front *f);

/* bba_front_quanta: the buffer of S_bytes in the discrete models' quanta
 * (bba_size_quanta), the count every question at that size solves or
 * costs.  Errors: BB_ETOOBIG at the count's cap (quanta.h), naming the
 * count, not the cap (*S is the cap).  O(1); a fluid front has no
 * quanta (the caller asks only a discrete one). */
int bba_front_quanta(const bba_front *f, double S_bytes, long *S, char *err);

/* bba_front_idle: the measures at buffer size S_bytes (>= 0) under d.
 * Errors: BB_EINVAL (a threshold above S), the solvers' errors. */
int bba_front_idle(const bba_front *f, double S_bytes, const bb_drain *d, bba_answer *a,
                   char *err);

/* bba_front_size: the smallest size with idle <= target under d (a
 * threshold as a fraction of the size).  BB_EINFEASIBLE when none does:
 * a->idle_limit, a->bandwidth_bound, a->lazy_bound and a->bb_bw_min_Bps say why and what
 * would.  BB_ETOOBIG when the memory limit stops the search first. */
int bba_front_size(const bba_front *f, double target, const bb_drain *d, bba_answer *a,
                   char *err);

/* bba_front_size_from: bba_front_size from a guess of the answer (bytes;
 * <= 0: none): the same answer (sizing.h bba_size_min_from), about three
 * solves when the guess is within a few quanta. */
int bba_front_size_from(const bba_front *f, double target, const bb_drain *d,
                        double hint_bytes, bba_answer *a, char *err);

/* bba_front_size_within: bba_front_size_from with the search bounded by
 * cap_bytes (<= 0: no bound but memory's): BB_ETOOBIG when no size up to
 * the cap meets the target, having solved at most at the cap. */
int bba_front_size_within(const bba_front *f, double target, const bb_drain *d,
                          double hint_bytes, double cap_bytes, bba_answer *a, char *err);

/* bba_front_endure: the size whose drives last (endurance.h), from a, the
 * answer of bba_front_size under d (a->S_bytes the stall size): the least
 * size S >= a->S_bytes on the model's grid (whole quanta) with
 * S >= bba_endurance_bytes(e, W(S)), W(S) = bb_write_Bps at S.  W grows
 * with S (tested, not proved), so iterating S <- that bound from a's size
 * climbs to it; each step is one bba_front_idle at the new size (W moves
 * by at most the idle fraction, so one or two steps).  *out is the answer
 * at that size (a copy of a, no solve, when the stall size already
 * lasts), *binds 1 when endurance sets the size.  Errors: BB_EINVAL (e
 * out of range), bba_front_idle's, BB_ENOCONV after 60 steps. */
int bba_front_endure(const bba_front *f, const bba_answer *a, const bb_drain *d,
                     const bba_endurance *e, bba_answer *out, int *binds, char *err);

/* bba_front_bbbw_min: the smallest burst-buffer bandwidth (bytes/s) whose
 * throttling alone idles the applications at most target of the time, so
 * that some capacity meets the target (bbbw.h bba_bbbw_min on the
 * applications' load law at the front's quanta: exact to one quantum per
 * time unit; 0 when no load exceeds B).  The capacity at a bandwidth is
 * what bba_front_size answers on a front with that bandwidth.
 * BB_EINFEASIBLE (*bb_bw_Bps NAN) when E >= B; BB_EINVAL for a target
 * outside (0, 1).  O(M log M).  FLUID: bba_fluid_bbbw_min (exact,
 * O(P log P)). */
int bba_front_bbbw_min(const bba_front *f, double target, double *bb_bw_Bps);

/* bba_front_threshold: the lazy threshold (EPS eps) maximising the quiet
 * fraction with idle <= target at size S_bytes, and greedy draining there
 * for comparison.  *feasible = 0 when no threshold meets the target. */
int bba_front_threshold(const bba_front *f, double S_bytes, double target, double eps,
                        int grid, bba_answer *best, bba_answer *greedy, int *feasible,
                        int *monotone, char *err);

/* What the front settled on, for output and the commands that need the
 * quantised model itself (dist, the report's load plot, the simulator). */
bba_model_kind bba_front_kind(const bba_front *f);
const bba_quantized *bba_front_quantized(const bba_front *f);  /* NULL for FLUID */
const bba_model *bba_front_chain(const bba_front *f);          /* NULL for FLUID */
const bba_platform *bba_front_platform(const bba_front *f);    /* resolution settled */
/* bba_front_describe: "model Bernoulli, time unit 1 min", "model fluid
 * (3 classes, 8 phases)", ... for the one-line answers. */
void bba_front_describe(const bba_front *f, char *buf, size_t len);
/* Applications that round to 0 quanta and leave the model: how many of
 * the question's apps (each once, whatever its count), the share of the
 * expected load they carry, and the i-th one's index in the apps. */
size_t bba_front_vanished(const bba_front *f, double *load_frac);
size_t bba_front_vanished_app(const bba_front *f, size_t i);
/* bba_front_s_max_bytes: the largest size a solve fits in memory. */
double bba_front_s_max_bytes(const bba_front *f);

#endif
