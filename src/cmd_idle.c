/* cmd_idle.c: `bbsize idle`, idle and quiet fractions for one buffer size
 * (Theorems 3 and 5 on the greedy or lazy chain).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"


struct args {
    bb_common common;
    bb_policy_opts pol;
    bb_tgtopts tgt;
    const char *file;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->common;
        state->child_inputs[1] = &a->pol;
        state->child_inputs[2] = &a->common.out;
        state->child_inputs[3] = &a->tgt;
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(state, arg, &a->file);
        break;
    case ARGP_KEY_END:
        if (!a->tgt.bb_size.set)
            argp_error(state, "--bb-size SIZE is required");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { &bb_common_argp, 0, NULL, 0 }, { &bb_policy_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_SIZE), 0, NULL, 0 }, { 0 }
};
static const struct argp argp = {
    NULL, parse, "[FILE]",
    "Idle and quiet fractions of a burst buffer of a given size.\v"
    "The idle fraction is the fraction of time units in which every application "
    "stalls because the buffer would overflow (Theorem 3); the quiet fraction the "
    "fraction in which the buffer is not drained to the PFS (Theorem 5).",
    children, NULL, NULL
};

int
bb_cmd_idle(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_policy pol;
    bba_eval_result r;
    char err[BB_ERRLEN], sz[64], th[64], occ[64], md[160];
    long S;
    int rc;
    double res_change = -1; /* measured change on doubling R; < 0: not measured */

    memset(&a, 0, sizeof a);
    bb_common_init(&a.common);
    bb_policy_opts_init(&a.pol);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    bb_ctx_load(&ctx, &a.common, a.file);
    S = bb_ctx_size_to_quanta(&ctx, &a.tgt.bb_size);
    bb_policy_resolve(&ctx, &a.pol, S, &pol);
    rc = bba_eval(&ctx.model, S, &pol, &ctx.so, &r, NULL, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    if (bb_ctx_resolution_is_default(&ctx) && ctx.model_kind == BB_MODEL_BERNOULLI) {
        /* Double the resolution until that moves idle by < 0.1% (issue 11);
         * answer at the coarser of the last two. */
        long R = ctx.pf.resolution;

        for (;;) {
            bba_eval_result r2;
            bba_policy pol2;
            long S2;

            bb_ctx_requantize(&ctx, 2 * R);
            S2 = bb_ctx_size_to_quanta(&ctx, &a.tgt.bb_size);
            bb_policy_resolve(&ctx, &a.pol, S2, &pol2);
            rc = bba_eval(&ctx.model, S2, &pol2, &ctx.so, &r2, NULL, err);
            if (rc != BB_OK) {
                /* answer at R; say why the change was not measured */
                fprintf(stderr, "bbsize: resolution %ld not checked at %ld: %s\n", R,
                        2 * R, err);
                res_change = -1;
                break;
            }
            res_change = r.meas.idle > 0 ? fabs(r2.meas.idle / r.meas.idle - 1.0)
                                         : (r2.meas.idle > 0 ? 1.0 : 0.0);
            if (res_change < BB_RES_SETTLE || 2 * R >= BB_RES_MAX)
                break;
            R *= 2;
            r = r2;
            S = S2;
            pol = pol2;
        }
        bb_ctx_requantize(&ctx, R);
    }

    if (r.solve.fallback)
        fprintf(stderr, "bbsize: the FFT solver did not converge; banded GTH answered\n");
    bb_ctx_fmt_size(&ctx, sz, sizeof sz, bb_ctx_quanta_to_bytes(&ctx, S));
    bb_ctx_fmt_size(&ctx, th, sizeof th, bb_ctx_quanta_to_bytes(&ctx, r.threshold));
    bb_ctx_fmt_size(&ctx, occ, sizeof occ, r.meas.mean_load * ctx.q.quantum_bytes);
    if (a.common.out.json) {
        json_t *o = json_pack("{s:f, s:f, s:I, s:I, s:f, s:f, s:s, s:I, s:f, s:f, s:f, s:I, s:o}",
                              "idle_fraction", r.meas.idle,
                              "quiet_fraction", r.meas.quiet,
                              "states", (json_int_t)r.n_states,
                              "bb_size_quanta", (json_int_t)S,
                              "bb_size_bytes", bb_ctx_quanta_to_bytes(&ctx, S),
                              "load_ratio", bba_model_load_ratio(&ctx.model),
                              "policy", bb_policy_name(&pol),
                              "threshold_quanta", (json_int_t)r.threshold,
                              "empty_prob", pol.eps,
                              "mean_occupancy_bytes", r.meas.mean_load * ctx.q.quantum_bytes,
                              "residual", r.solve.residual,
                              "transitions", (json_int_t)r.nnz,
                              "platform", bb_json_platform(&ctx));
        if (o != NULL)
            json_object_set_new(o, "solver_iterations", json_integer((json_int_t)r.solve.iterations));
        if (res_change >= 0)
            json_object_set_new(o, "resolution_doubling_change", json_real(res_change));
        if (r.meas.idle == 0 && isfinite(r.meas.log10_idle))
            json_object_set_new(o, "log10_idle_fraction", json_real(r.meas.log10_idle));
        bb_json_print(o);
    } else {
        char tus[64];

        bb_fmt_duration(tus, sizeof tus, ctx.pf.time_unit_s);
        if (r.meas.idle == 0 && isfinite(r.meas.log10_idle)) /* below the double range */
            printf("idle 10^%.4f (of time units of %s), quiet %.4g, with a %s burst buffer "
                   "(%ld quanta), %s draining",
                   r.meas.log10_idle, tus, r.meas.quiet, sz, S, bb_policy_name(&pol));
        else
            printf("idle %.4g (%.4g%% of time units of %s), quiet %.4g, with a %s burst buffer "
                   "(%ld quanta), %s draining",
                   r.meas.idle, 100.0 * r.meas.idle, tus, r.meas.quiet, sz, S,
                   bb_policy_name(&pol));
        if (pol.lazy)
            printf(" (threshold %s, EPS %g)", th, pol.eps);
        printf("; E/B = %.4g; mean occupancy %s; %ld states, residual %.1e",
               bba_model_load_ratio(&ctx.model), occ, r.n_states, r.solve.residual);
        if (res_change >= 0)
            printf("; resolution %ld (doubling it moves idle by %.2g%%; bandwidths "
                   "rounded by <= %.3g%% of B)", ctx.pf.resolution, 100.0 * res_change,
                   100.0 * ctx.q.max_round_bytes / (ctx.pf.pfs_bw_Bps * ctx.pf.time_unit_s));
        {
            char an[300];

            bb_ctx_model_desc(&ctx, md, sizeof md);
            bb_ctx_approx_note(&ctx, S, &pol, an, sizeof an);
            printf("; %s%s\n", md, an);
        }
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
