/* report.h: `bbsize report`, what it computes and how it writes it: one
 * function per stage (compute, validate, figures) and one per section of
 * the document (1. recommendation ... 6. validation), all reading one
 * bb_report.  src/cmd_report.c parses the options and calls them in
 * order; report/doc.h writes the XHTML or Markdown.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything is computed (and every plot drawn) before the output is
 * opened, so nothing is written unless the whole report succeeds.  The
 * stages exit with a message on fatal errors (src/ code); a point the
 * solver cannot do is left out and named, not fatal. */
#ifndef BBSIZE_SRC_REPORT_REPORT_H
#define BBSIZE_SRC_REPORT_REPORT_H

#include "cli.h"
#include "designrun.h"
#include "grid.h"
#include "plot.h"
#include "report/doc.h"
#include "valrun.h"

/* What the options asked for. */
typedef struct {
    const char *file;           /* the workload FILE, or NULL (built-in) */
    const bb_common *common;    /* the platform options given (sources) */
    double target, eps;         /* --target-idle, --empty-prob */
    const bb_prices *prices;    /* --cost-*, --currency */
    int priced;                 /* some price was given */
    int points, threads, validate;
    const double *scales;       /* --load-scale factors */
    size_t nscales;
    const double *walk;         /* --pfs-bw-walk, bytes/s (NULL: the default) */
    size_t nwalk;
    const bb_endopts *end;      /* --dwpd, --waf, --lifetime (end->set: size for
                                   endurance too, as bbsize design does) */
    const bb_runopts *run;      /* --replications, --horizon, --seed of --validate
                                   (unset: 15 replications, the rule's length) */
    bb_drain drain;             /* --policy, --threshold (a fraction), --empty-prob:
                                   the headline's, its designs', the growths',
                                   the partitions' and the curves' draining */
} bb_report_opts;

enum { BB_REPORT_NTH = 21 };    /* lazy thresholds 0, 0.05, ..., 1 */
enum { BB_REPORT_WALK_MAX = 200 };   /* PFS bandwidths of the cost plot */
/* the default walk: BB_REPORT_WALK_FIRST to BB_REPORT_WALK_LAST tenths of
 * the platform's PFS bandwidth, every tenth */
enum { BB_REPORT_WALK_FIRST = 5, BB_REPORT_WALK_LAST = 20 };
/* idle-vs-size, load-distribution, lazy-idle, lazy-quiet; cost when priced */
enum { BB_REPORT_NFIG = 5 };

typedef struct {
    bb_report_opts o;
    /* One answer per report: the headline's design (committee.c) is the
     * platform every section works at.  When it buys a burst-buffer
     * bandwidth the platform has not (given unlimited), ctx is actx: the
     * given context with that bandwidth and its own front at the pair's
     * resolution; otherwise ctx is given.  unl is the size with the
     * platform's buffer bandwidth as given (unlimited when bought), shown
     * only named as such. */
    const bb_ctx *ctx;          /* the platform of the answer */
    const bb_ctx *given;        /* the loaded workload and platform */
    bb_ctx actx;                /* bought: a shallow copy of *given, its own front */
    int bought;                 /* ctx == &actx */
    bba_answer unl;             /* bba_front_size on given (bought: unlimited) */
    int unl_rc;
    bb_plot_session *plots;
    double ratio;               /* E / B */
    /* the instantaneous load: the Bernoulli model's DIST, the fluid
     * model's stationary rate law too (every source ON with probability
     * p, independently); for the fluid model from an auxiliary front */
    bba_front *aux;             /* owned, NULL for the discrete models */
    const bba_model *lm;
    double lq;                  /* lm's quantum, bytes */
    double qrate;               /* bytes/s of one of lm's quanta per time unit */
    /* 1. the recommendation: what `bbsize size` computes on ctx (the
     * pair's answer when bought) */
    bba_answer rec;
    int rec_rc;                 /* BB_OK or BB_EINFEASIBLE */
    int feasible;
    double S_star;              /* bytes (-1 if infeasible) */
    /* 2. idle versus size: nsz sizes 0..S_top (bytes) for each of nsc
     * load scales */
    double S_top, *sizes;
    long nsz;
    bb_scenario *sc;
    size_t nsc;
    char (*sc_msg)[BB_ERRLEN];  /* nsc: why a scale's front is NULL ("" if built) */
    /* the sweep: nsc * nsz greedy points, then NTH lazy thresholds */
    bba_sweep_point *pts;
    bba_sweep_out *out;
    size_t npts, nfailed;
    char failed_msg[BB_ERRLEN];
    /* 4. greedy versus lazy at S_lazy (bytes) */
    double S_lazy;
    bba_answer thr_best, thr_greedy;
    int thr_feasible;
    char thr_msg[BB_ERRLEN];    /* "" unless the threshold search failed */
    /* 6. the simulation beside the predictions (o.validate) */
    int val_rc;                 /* BB_OK, or the analytic side's error (a
                                   failed simulation exits) */
    char val_msg[BB_ERRLEN];
    bb_validation val;
    bb_simopts val_opts;
    size_t val_at;              /* the row at the recommended size */
    bbs_verdict_kind val_kind;  /* its verdict */
    char val_hint[128];         /* still inconclusive at val_at: the options
                                   that would run the rule's length there
                                   ("--horizon 250000"), else "" */
    /* what a committee reads first (committee.c): the pair to buy, the
     * size for each load growth, the partitions when there are groups,
     * and with prices the designs over PFS bandwidths (designrun.h) */
    bba_question dq;            /* the designs' question (the specs borrow it) */
    bba_design_spec dspec;
    bba_design pair;
    double *walk_pfs;           /* nwalk PFS bandwidths, bytes/s */
    bba_design *walk;
    size_t nwalk, walk_failed;
    long walk_best;             /* the cheapest design's index, -1: none */
    bba_answer *growth;         /* nsc answers, one per load scale */
    int *growth_rc;
    double *growth_bw;          /* bought: each growth's design (its buffer
                                   bandwidth, bytes/s), as bbsize design
                                   --load-scale chooses it; else NULL */
    int has_part;
    bba_partition part;
    size_t part_n, *part_group;
    char (*part_names)[BBA_NAME_LEN];
    /* the plots: idle-vs-size, load-distribution, lazy-idle, lazy-quiet,
     * and cost (priced) */
    bb_figure fig[BB_REPORT_NFIG];
    int nfig;
} bb_report;

/* bb_report_compute: the recommendation, the pair to buy (committee.c
 * bb_report_pair), the sweep and the best threshold at the pair's
 * platform (warnings on stderr for points left out); exits on fatal
 * errors. */
void bb_report_compute(bb_report *r, const bb_ctx *ctx, const bb_report_opts *o,
                       bb_plot_session *plots);
/* bb_report_validate (validate.c): with o.validate, `bbsize validate`'s
 * computation (src/valrun.h bb_validation_run, in-process) at sizes 0,
 * S/2, ..., 2S (S = S_lazy), greedy, o.run's --replications (15), --seed
 * (1) and --horizon.  Without --horizon the length is validate's own
 * (sim/crosscheck.h, one rule: planned from the predictions at the
 * workload's clustering, run once more at the dispersion measured when a
 * row is inconclusive, within the budget), so that the verdict at S
 * concludes where the budget allows; when it does not, a warning (and
 * section 6) gives the options that would run the rule's length and its
 * CPU time.  Before the figures: the idle plot draws the simulated
 * points.  Exits when a simulation fails. */
void bb_report_validate(bb_report *r);
/* bb_report_figures: draw the plots (gnuplot), the cost plot when
 * priced; exits on failure. */
void bb_report_figures(bb_report *r);
void bb_report_free(bb_report *r);
/* bb_report_committee: after bb_report_compute, the pair to buy, the
 * sizes for the load growths, the partitions, and with prices the walk
 * over PFS bandwidths, its cost estimated first (exit 2 beyond --max-ops)
 * (committee.c). */
void bb_report_committee(bb_report *r);
/* bb_report_pair: the design's question and the pair to buy at the given
 * platform (committee.c), before the sections' computations. */
void bb_report_pair(bb_report *r);
/* bb_report_fmt_up: bytes (or bytes/s when rate) rounded UP to the four
 * digits shown, so that "at least X" is never below the answer. */
void bb_report_fmt_up(const bb_ctx *ctx, char *buf, size_t len, double v, int rate);
void bb_report_committee_free(bb_report *r);
/* bb_report_walk_pfs: the cost plot's PFS bandwidths (bytes/s) into pfs
 * (NULL: none written): --pfs-bw-walk, or 0.5 to 2 times ctx's in tenths.
 * Returns their number. */
size_t bb_report_walk_pfs(const bb_ctx *ctx, const bb_report_opts *o, double *pfs);

/* bb_report_estimate (estimate.c): the multiply-adds of the whole report
 * (cost.h), estimated before its first solve from the workload's chain
 * and the designs' walk costs (designrun.h): the unlimited size and the
 * pair (and, bought, the pair's platform), each load growth's design, the
 * sweep's points and the threshold search (each an evaluation at the
 * search's estimated size), the partitions' searches (every share of
 * every group, partition.h's cost of a search from the last size) and,
 * priced, the cost plot's designs.  The simulation of --validate is
 * estimated by its own runner.  Exits on a quantising error. */
double bb_report_estimate(const bb_ctx *ctx, const bb_report_opts *o);

/* bb_report_source: the workload as the report names it: a file in a
 * data directory relative to it ("workloads/groups.csv", datadir.h), a
 * user's file as given, the built-in one as the shipped file it is. */
const char *bb_report_source(const bb_report *r);

/* The document: the preamble, then one function per section. */
void bb_report_preamble(bb_doc *d, const bb_report *r);
void bb_report_headline(bb_doc *d, const bb_report *r);
void bb_report_sec_committee(bb_doc *d, const bb_report *r);
void bb_report_cost(bb_doc *d, const bb_report *r);
void bb_report_sec_recommendation(bb_doc *d, const bb_report *r);
void bb_report_sec_idle_vs_size(bb_doc *d, const bb_report *r);
void bb_report_sec_load(bb_doc *d, const bb_report *r);
void bb_report_sec_lazy(bb_doc *d, const bb_report *r);
void bb_report_sec_inputs(bb_doc *d, const bb_report *r);
void bb_report_sec_validation(bb_doc *d, const bb_report *r);

#endif
