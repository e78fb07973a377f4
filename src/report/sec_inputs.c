/* sec_inputs.c: sections 5 and 6 of `bbsize report` (report.h): the
 * inputs, assumptions and resolution; the simulation beside the
 * predictions.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <string.h>

#include "datadir.h"
#include "report/report.h"

const char *
bb_report_source(const bb_report *r)
{
    /* the built-in workload is data/workloads/default.csv compiled in */
    return r->o.file == NULL ? "workloads/default.csv (built in)"
                             : bb_datadir_shown(r->ctx->wl.source);
}

/* Where a platform figure came from: the option, the preset, or the
 * workload file. */
static const char *
source(const bb_report *r, int by_option, const char *option, int in_preset)
{
    const bb_ctx *ctx = r->ctx;

    return by_option ? option : ctx->has_system && in_preset ? ctx->sys.path
                                                             : bb_report_source(r);
}

static void
platform_table(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    const bb_common *c = r->o.common;
    const char *sname, *snote;
    char b1[64];

    bb_doc_table_begin(d, "platform", "parameter\tvalue\tsource");
    bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->pf.pfs_bw_Bps);
    bb_doc_row(d, "PFS bandwidth B\t%s\t%s", b1,
               source(r, c->pfs_bw.set, "--pfs-bw", ctx->sys.pfs_bw.set));
    if (ctx->pf.bb_bw_Bps > 0) {
        bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->pf.bb_bw_Bps);
        if (r->bought)   /* exact, so that bbsize size --bb-bw can repeat it */
            snprintf(b1 + strlen(b1), sizeof b1 - strlen(b1), " (%.17g B/s)",
                     ctx->pf.bb_bw_Bps);
        bb_doc_row(d, "burst-buffer bandwidth\t%s\t%s", b1,
                   r->bought ? "bought (section 1: the headline's design)"
                   : source(r, c->bb_bw.set, "--bb-bw", ctx->sys.bb_bw.set));
    } else {
        bb_doc_row(d, "burst-buffer bandwidth\tunlimited\t%s", "none given");
    }
    if (ctx->q) {
        /* the discrete models' time unit; the fluid model has none */
        bb_fmt_duration(b1, sizeof b1, ctx->pf.time_unit_s);
        bb_doc_row(d, "time unit\t%s\t%s", b1,
                   c->time_unit.set ? "--time-unit"
                   : ctx->has_system && ctx->sys.time_unit.set ? ctx->sys.path
                   : ctx->wl.time_unit.set ? bb_report_source(r) : "default");
        bb_doc_row(d, "resolution R\t%ld quanta per B and time unit\t%s", ctx->pf.resolution,
                   c->resolution ? "--resolution" : "settled or file");
        bb_ctx_fmt_size(ctx, b1, sizeof b1, ctx->q->quantum_bytes);
        bb_doc_row(d, "quantum q = B x time unit / R\t%s\tderived", b1);
        bb_ctx_fmt_size(ctx, b1, sizeof b1, ctx->q->max_round_bytes);
        bb_doc_row(d, "largest bandwidth rounding\t%s per time unit\tderived", b1);
    } else {
        bb_doc_row(d, "time\tcontinuous (no discrete step, nothing rounded)\tthe fluid model");
    }
    bb_doc_row(d, "target idle fraction\t%g\t%s", r->o.target, "--target-idle");
    if (r->o.drain.kind == BB_DRAIN_LAZY)
        bb_doc_row(d, "draining\tlazy, threshold %g of the buffer\t--policy, --threshold",
                   r->o.drain.threshold);
    else
        bb_doc_row(d, "draining\tgreedy\tdefault (--policy)");
    bb_doc_row(d, "lazy EPS\t%g\t--empty-prob", r->o.eps);
    /* Every solve of the report ran ctx->so. */
    bba_solver_describe(&ctx->so, &sname, &snote);
    bb_doc_row(d, "stationary solver\t%s%s%s%s\t%s", sname, snote[0] ? " (" : "", snote,
               snote[0] ? ")" : "", c->solver_set ? "--solver" : "default");
    if (ctx->has_system) {
        bb_doc_row(d, "platform preset\t%s: %s\t%s", ctx->sys.name, ctx->sys.title, ctx->sys.path);
        if (ctx->sys.compute_nodes)
            bb_doc_row(d, "compute nodes\t%ld\t%s", ctx->sys.compute_nodes, ctx->sys.path);
    }
    bb_doc_table_end(d);
}

/* The assumptions of the model that answered (answer.h MODELS). */
static void
assumptions(bb_doc *d, const bb_report *r)
{
    bba_model_kind k = bba_front_kind(r->ctx->front);

    if (k == BBA_MODEL_FLUID) {
        bb_doc_para(d, "Assumptions of the continuous-time (fluid) model, the limit of the "
                    "ON/OFF chain as its step shrinks (analytic/fluid/fluid.h):");
        bb_doc_list_begin(d);
        bb_doc_item(d, "each application alternates I/O phases and quiet periods of "
                    "exponential lengths, in I/O a fraction p of the time, its phases of the "
                    "mean length of its burst column, writing at its bandwidth, independently "
                    "of the others;");
        bb_doc_item(d, "time is continuous: the PFS drains B per second, the load above B "
                    "flows into the burst buffer and its content moves continuously;");
        bb_doc_item(d, "while the buffer is full and the load exceeds B the applications are "
                    "throttled to B (the idle fraction is the time they lose); above the PFS "
                    "and burst-buffer bandwidths together they are throttled too, and that "
                    "time counts as idle;");
        bb_doc_item(d, "reads and writes are one load; node-local devices are pooled as if "
                    "shared;");
        bb_doc_item(d, "no bandwidth is rounded; the answers are stationary (long-run) "
                    "fractions, sizes to 1e-4 of the size.");
    } else {
        bb_doc_para(d, "Assumptions of the model (Aupy et al. 2017, Sections 3-5):");
        bb_doc_list_begin(d);
        if (k == BBA_MODEL_BERNOULLI)
            bb_doc_item(d, "in every time unit each application does I/O with probability p at "
                        "its bandwidth, independently of the others and of the previous time "
                        "unit (no memory);");
        else
            bb_doc_item(d, "each application does I/O a fraction p of the time units, in I/O "
                        "phases of the mean length of its burst column (a two-state ON/OFF "
                        "Markov chain over time units, independent of the others), where the "
                        "paper draws every time unit afresh;");
        bb_doc_item(d, "all applications share one time unit, which should be close to their "
                    "I/O burst duration; the PFS takes B per time unit and the excess goes to "
                    "the burst buffer;");
        bb_doc_item(d, "when the buffer would overflow, every application stalls for one time "
                    "unit while it drains at B (the idle fraction); above the PFS and "
                    "burst-buffer bandwidths together the applications are throttled, and "
                    "that time counts as idle too;");
        bb_doc_item(d, "reads and writes are one load; node-local devices are pooled as if "
                    "shared;");
        bb_doc_item(d, "bandwidths are rounded to quanta of B/R; the answers are stationary "
                    "(long-run) fractions.");
    }
    bb_doc_list_end(d);
}

void
bb_report_sec_inputs(bb_doc *d, const bb_report *r)
{
    const bb_ctx *ctx = r->ctx;
    char b1[64];

    bb_doc_section(d, "inputs", "5. Inputs, assumptions and resolution");
    if (r->nfailed)
        bb_doc_para(d, "%zu of the %zu evaluated points could not be solved and are missing from "
                    "the plots and tables (n/a); the first: %s.", r->nfailed, r->npts,
                    r->failed_msg);
    platform_table(d, r);
    /* one row per row of the file, with its count when it has them (the
     * model's entries of a row, bba_quantize, are alike: its first) */
    if (ctx->q) {
        bb_doc_table_begin(d, "applications", ctx->wl.has_count
                           ? "application\tcount\tp (fraction of time units)\tbandwidth\tquanta"
                           : "application\tp (fraction of time units)\tbandwidth\tquanta");
        for (size_t i = 0, k = 0; i < ctx->wl.n; k += (size_t)ctx->wl.apps[i].count, i++) {
            bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->wl.apps[i].bw_Bps);
            if (ctx->wl.has_count)
                bb_doc_row(d, "%s\t%ld\t%.4g\t%s\t%ld", ctx->wl.apps[i].name,
                           ctx->wl.apps[i].count, ctx->wl.apps[i].p, b1, ctx->q->b[k]);
            else
                bb_doc_row(d, "%s\t%.4g\t%s\t%ld", ctx->wl.apps[i].name, ctx->wl.apps[i].p,
                           b1, ctx->q->b[k]);
        }
    } else {
        bb_doc_table_begin(d, "applications", ctx->wl.has_count
                           ? "application\tcount\tp (fraction of the time in I/O)\tbandwidth\t"
                             "mean I/O phase"
                           : "application\tp (fraction of the time in I/O)\tbandwidth\t"
                             "mean I/O phase");
        for (size_t i = 0; i < ctx->wl.n; i++) {
            char b2[64];

            bb_ctx_fmt_rate(ctx, b1, sizeof b1, ctx->wl.apps[i].bw_Bps);
            bb_fmt_duration(b2, sizeof b2, bba_app_on_period(&ctx->wl.apps[i],
                                                             ctx->pf.time_unit_s));
            if (ctx->wl.has_count)
                bb_doc_row(d, "%s\t%ld\t%.4g\t%s\t%s", ctx->wl.apps[i].name,
                           ctx->wl.apps[i].count, ctx->wl.apps[i].p, b1, b2);
            else
                bb_doc_row(d, "%s\t%.4g\t%s\t%s", ctx->wl.apps[i].name, ctx->wl.apps[i].p,
                           b1, b2);
        }
    }
    bb_doc_table_end(d);
    assumptions(d, r);
    bb_doc_section_end(d);
}

/* How the simulation's length was chosen (validate.c, src/valrun.h). */
static void
val_length(bb_doc *d, const bb_report *r)
{
    const bb_validation *V = &r->val;
    const char *u = V->fluid ? "s" : "time units";
    size_t at = r->val_at;
    char sz[64], first[320], again[256] = "", left[320] = "";

    bb_ctx_fmt_size(r->ctx, sz, sizeof sz, V->rows[at].S_bytes);
    if (!V->auto_horizon) {
        bb_doc_para_id(d, "validation-length", NULL, "The length is --horizon's, as given; "
                       "the verdict at the recommended size, %s: %s.", sz,
                       bbs_verdict_name(r->val_kind));
        return;
    }
    if (V->fluid)
        snprintf(first, sizeof first, "a first run at the continuous-time simulator's own "
                 "length, %ld x %.6g s (from its sources' cycles: before a run there is no "
                 "estimate of how this model's idle time clusters)",
                 V->replications, V->extended ? V->first_horizon : V->horizon);
    else
        snprintf(first, sizeof first, "a first run of %ld x %.6g time units, %s %.3g events, "
                 "the idle units counted in runs of about %.3g units (estimated from the "
                 "workload)", V->replications, V->extended ? V->first_horizon : V->horizon,
                 V->plan.resolved > 0 ? "the length that resolves every prediction within the "
                 "budget of" : "the whole budget (no prediction's length fits it) of",
                 V->budget_events, V->cluster);
    if (V->extended)
        snprintf(again, sizeof again, "; it left a row inconclusive, so the run below is the "
                 "length the rule asks at the dispersion measured, %ld x %.6g %s",
                 V->replications, V->horizon, u);
    if (V->need[at] > 0)
        snprintf(left, sizeof left, "  A conclusive verdict there needs about %.6g %s a "
                 "replication (about %.2g s of CPU estimated)%s: rerun with %s to have it.",
                 V->need[at], u, bb_validation_cpu_s(V, V->need[at]),
                 V->need[at] > V->budget_units ? ", beyond the budget" : "", r->val_hint);
    bb_doc_para_id(d, "validation-length", NULL,
                   "The length is the rule of bbsize validate (sim/crosscheck.h): the units for "
                   "which the %g%% interval lies within +-50%% of the prediction with a "
                   "half-width to spare: %s%s.  The verdict at the recommended size, %s "
                   "(prediction %.4g): %s.%s", 100 * r->val_opts.confidence, first, again, sz,
                   V->rows[at].analytic, bbs_verdict_name(r->val_kind), left);
}

void
bb_report_sec_validation(bb_doc *d, const bb_report *r)
{
    const bb_validation *V = &r->val;
    char b1[64];

    bb_doc_section(d, "validation", "6. Simulation beside the predictions");
    if (!r->o.validate) {
        bb_doc_para(d, "Not requested (run with --validate to put simulated confidence intervals "
                    "beside the predictions).");
    } else if (r->val_rc != BB_OK) {
        bb_doc_para(d, "Validation failed: %s.", r->val_msg);
    } else {
        bb_doc_para(d, "The analytic idle fraction beside the simulated mean and its %g%% "
                    "confidence interval (bbsize validate: %s applications, "
                    "%s, seed %llu), greedy draining.  Verdicts: "
                    "agrees (the prediction is inside an interval within +-50%% of it), "
                    "disagrees (outside), inconclusive (inside, but the interval is too wide "
                    "to tell, or no idle unit was simulated).  The idle plot of section 2 "
                    "draws these simulated points with their intervals beside the load x1 "
                    "curve.",
                    100 * r->val_opts.confidence, V->fluid ? "continuous-time" : "Bernoulli",
                    V->how, (unsigned long long)r->val_opts.seed);
        val_length(d, r);
        bb_doc_table_begin(d, "validation-table",
                           "size\tanalytic idle\tsimulated mean\t95% interval\tverdict");
        for (size_t i = 0; i < V->n; i++) {
            const bb_valrow *w = &V->rows[i];

            bb_ctx_fmt_size(r->ctx, b1, sizeof b1, w->S_bytes);
            bb_doc_row(d, "%s\t%.4g\t%.4g\t[%.4g, %.4g]\t%s", b1, w->analytic,
                       w->idle.mean, w->idle.lo, w->idle.hi, bbs_verdict_name(w->ag.v.kind));
        }
        bb_doc_table_end(d);
    }
    bb_doc_section_end(d);
}
