/* cmd_idle.c: `bbsize idle`, idle and quiet fractions for one buffer size
 * (Theorems 3 and 5 on the greedy or lazy chain).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdspec.h"
#include "commands.h"

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
};

static const bb_cmd_spec spec = {
    .args_doc = "[FILE]",
    .doc = "Idle and quiet fractions of a burst buffer of a given size.\v"
    "The idle fraction is the fraction of time units in which every application "
    "stalls because the buffer would overflow (Theorem 3); the quiet fraction the "
    "fraction in which the buffer is not drained to the PFS (Theorem 5).",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .targets = BB_TGT_SIZE | BB_TGT_IDLE,
    .required = BB_TGT_SIZE,
    .groups = BB_CMD_POLICY | BB_CMD_LOADS,
};

/* One load's answer (cmdspec.h bb_cmd_each_load): text on one line after
 * prefix; JSON and CSV only without --load-scale. */
static int
idle_one(const bb_ctx *ctx, const bba_front *front, const bba_question *q, double scale,
         const char *prefix, void *arg)
{
    const struct args *a = arg;
    bba_answer r;
    char err[BB_ERRLEN], sz[64], th[64], occ[64], md[256], notes[600];
    int rc;

    (void)q;
    (void)scale;
    rc = bba_front_idle(front, a->tgt.bb_size.v, &ctx->qn.drain, &r, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    if (r.fallback)
        fprintf(stderr, "bbsize: the FFT solver did not converge; banded GTH answered\n");
    bb_ctx_fmt_size(ctx, sz, sizeof sz, r.S_bytes);
    bb_ctx_fmt_size(ctx, th, sizeof th, r.drain.threshold);
    if (isfinite(r.mean_occupancy_bytes)) {
        bb_ctx_fmt_size(ctx, occ, sizeof occ, r.mean_occupancy_bytes);
    } else {
        /* a numerical failure of the model's first moment: say so, never
         * print or pack a NaN (the idle fraction does not depend on it) */
        snprintf(occ, sizeof occ, "unknown (not a finite number)");
        fprintf(stderr, "bbsize: warning: the model's mean occupancy at %s is not a finite "
                "number (a numerical failure); the idle and quiet fractions do not use it\n",
                sz);
    }
    bb_ctx_answer_notes(ctx, &r, notes, sizeof notes);
    if (a->common.out.csv) {
        bb_csv_answer(&r, rc, NAN);
    } else if (a->common.out.json) {
        json_t *o = json_pack("{s:f, s:f, s:I, s:o, s:f, s:f, s:s, s:o, s:f, s:o, s:f, s:o}",
                              "idle_fraction", r.idle,
                              "quiet_fraction", r.quiet,
                              "states", (json_int_t)r.states,
                              "bb_size_quanta", bb_json_quanta(r.S_quanta),
                              "bb_size_bytes", r.S_bytes,
                              "load_ratio", r.load_ratio,
                              "policy", bb_drain_kind_name(r.drain.kind),
                              "threshold_quanta", r.quantum_bytes > 0
                                  ? bb_json_quanta((long)(r.drain.threshold / r.quantum_bytes + 0.5))
                                  : json_null(),
                              "empty_prob", r.drain.eps,
                              "mean_occupancy_bytes", bb_json_real_or_null(r.mean_occupancy_bytes),
                              "residual", r.residual,
                              "platform", bb_json_platform(ctx));

        bb_json_answer(o, ctx, &r);
        json_object_set_new(o, "solver_iterations", json_integer((json_int_t)r.iterations));
        json_object_set_new(o, "resolution_doubling_change", r.res_change >= 0
                            ? json_real(r.res_change) : json_null());
        /* below the double range: its logarithm; else null */
        json_object_set_new(o, "log10_idle_fraction", r.idle == 0 && isfinite(r.log10_idle)
                            ? json_real(r.log10_idle) : json_null());
        bb_json_head(o, ctx);
        bb_json_print(o);
    } else {
        char tus[64], of[96], sq[48] = "";

        fputs(prefix, stdout);

        bb_fmt_duration(tus, sizeof tus, r.time_unit_s);
        if (r.model == BBA_MODEL_FLUID) {
            snprintf(of, sizeof of, "of the time");
        } else {
            snprintf(of, sizeof of, "of time units of %s", tus);
            snprintf(sq, sizeof sq, " (%ld quanta)", r.S_quanta);
        }
        if (r.idle == 0 && isfinite(r.log10_idle)) /* below the double range */
            /* four decimals while they mean something; beyond 1e6 the
             * exponent's significant digits (a %f of 1e297 is 298 digits) */
            printf(fabs(r.log10_idle) < 1e6 ? "idle 10^%.4f (%s), quiet %.4g, with a %s burst "
                   "buffer%s, %s draining" : "idle 10^%.6g (%s), quiet %.4g, with a %s burst "
                   "buffer%s, %s draining", r.log10_idle, of, r.quiet, sz, sq,
                   bb_drain_kind_name(r.drain.kind));
        else if (r.idle == 0 && isnan(r.log10_idle))
            printf("idle below 1e-308 (underflows; %s), quiet %.4g, with a %s burst buffer%s, "
                   "%s draining", of, r.quiet, sz, sq, bb_drain_kind_name(r.drain.kind));
        else if (r.idle == 0)
            printf("idle 0 (no load can stall the applications), quiet %.4g, with a %s burst "
                   "buffer%s, %s draining", r.quiet, sz, sq, bb_drain_kind_name(r.drain.kind));
        else
            printf("idle %.4g (%.4g%% %s), quiet %.4g, with a %s burst buffer%s, %s draining",
                   r.idle, 100.0 * r.idle, of, r.quiet, sz, sq, bb_drain_kind_name(r.drain.kind));
        if (r.drain.kind == BB_DRAIN_LAZY)
            printf(" (threshold %s, EPS %g)", th, r.drain.eps);
        if (r.model == BBA_MODEL_FLUID)
            printf("; E/B = %.4g; mean occupancy %s; %ld phases, residual %.1e",
                   r.load_ratio, occ, r.states, r.residual);
        else
            printf("; E/B = %.4g; mean occupancy %s; %ld states, residual %.1e",
                   r.load_ratio, occ, r.states, r.residual);
        if (r.res_change >= 0)
            printf("; resolution %ld (doubling it moves the size for the target by %.2g%%; "
                   "bandwidths rounded by <= %.3g%% of B)", r.resolution, 100.0 * r.res_change,
                   100.0 * r.max_round_bytes / (ctx->pf.pfs_bw_Bps * r.time_unit_s));
        bb_ctx_model_desc(ctx, md, sizeof md);
        printf("; %s%s\n", md, notes);
    }
    return BB_OK;
}

int
bb_cmd_idle(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_settle st;

    bb_cmd_parse(&spec, argc, argv, &a.c, NULL);
    memset(&st, 0, sizeof st);
    st.target = a.tgt.target_idle;
    bb_policy_drain(&a.pol, &st.drain);
    st.settle_bytes = a.tgt.bb_size.v;
    st.check_size = 1;
    bb_ctx_load(&ctx, &a.common, a.file, &st);
    bb_cmd_each_load(&ctx, &a.c, idle_one, &a);
    bb_cmd_args_free(&a.c);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
