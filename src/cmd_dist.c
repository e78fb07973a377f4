/* cmd_dist.c: `bbsize dist`, the instantaneous load distribution DIST
 * (Algorithm 1), its moments and tails, and the bounds of Theorem 1 and
 * Section 4.3.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvout.h"
#include "cmdspec.h"
#include "commands.h"
#include "cost.h"

/* --csv: one row per load k (quanta): k, load, pmf, cdf, chernoff_lower,
 * chernoff_upper (bbsize(1)). */

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
};

static const bb_cmd_spec spec = {
    .args_doc = "[FILE]",
    .doc = "The distribution of the instantaneous I/O load X = sum b_i X_i.\v"
    "Loads are in quanta of B/R per time unit; the text and JSON outputs give "
    "rates in the user's units.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
};

int
bb_cmd_dist(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    const bba_model *m;
    double qrate, p_pfs, p_bb = NAN, ch_pfs, cdf = 0;
    char e[64], sd[64], b[64], bbw[64];

    bb_cmd_parse(&spec, argc, argv, &a.c, NULL);
    /* the instantaneous load is the Bernoulli model's DIST whatever
     * model answers the sizing questions */
    a.common.model = BBA_MODEL_BERNOULLI;
    /* its rows costed with the distribution, before it is built */
    a.common.dist_rows = a.common.out.csv;
    bb_ctx_load(&ctx, &a.common, a.file, NULL);
    m = ctx.model;
    qrate = ctx.q->quantum_bytes / ctx.pf.time_unit_s; /* bytes/s per quantum */
    p_pfs = bba_dist_tail(m->dist, m->M, (double)m->B);
    ch_pfs = 1.0 - bba_chernoff_cdf_lower(&m->mom, (double)m->B);
    if (ctx.q->bb_bw > 0 || ctx.pf.bb_bw_Bps > 0)
        p_bb = bba_dist_tail(m->dist, m->M, (double)(m->B + ctx.q->bb_bw));

    if (a.common.out.csv) {
        /* a row per load: costed with DIST by bb_ctx_load (dist_rows) */
        printf("load_quanta,load_bytes_per_s,pmf,cdf,chernoff_lower,chernoff_upper\n");
        for (long k = 0; k <= m->M; k++) {
            cdf += m->dist[k];
            bb_csv_row(stdout, "lnnnnn", k, k * qrate, m->dist[k], cdf > 1 ? 1.0 : cdf,
                       bba_chernoff_cdf_lower(&m->mom, (double)k),
                       bba_chernoff_cdf_upper(&m->mom, (double)k));
        }
    } else if (a.common.out.json) {
        json_t *o = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:{s:I, s:I, s:I}, s:f, s:o}",
                              "load_mean_bytes_per_s", m->mom.mean * qrate,
                              "load_variance_bytes2_per_s2", m->mom.variance * qrate * qrate,
                              "load_mean_quanta", m->mom.mean,
                              "load_variance_quanta2", m->mom.variance,
                              "p_exceed_pfs", p_pfs,
                              "chernoff_p_exceed_pfs", ch_pfs,
                              "support", "min_quanta", (json_int_t)0,
                              "max_quanta", (json_int_t)m->M, "entries", (json_int_t)(m->M + 1),
                              "load_ratio", bba_model_load_ratio(m),
                              "platform", bb_json_platform(&ctx));

        json_object_set_new(o, "p_exceed_pfs_bb", bb_json_real_or_null(p_bb));
        bb_json_head(o, &ctx);
        bb_json_print(o);
    } else {
        bb_ctx_fmt_rate(&ctx, e, sizeof e, m->mom.mean * qrate);
        bb_ctx_fmt_rate(&ctx, sd, sizeof sd, sqrt(m->mom.variance) * qrate);
        bb_ctx_fmt_rate(&ctx, b, sizeof b, ctx.pf.pfs_bw_Bps);
        printf("%s: %zu applications, loads 0..%ld quanta of %.4g%% of B\n",
               ctx.wl.source, ctx.q->n, m->M, 100.0 / (double)m->B);
        printf("expected load E = %s (E/B = %.4g), standard deviation %s\n", e, bba_model_load_ratio(m), sd);
        printf("Pr(load > B = %s) = %.6g (Theorem 1 bound: <= %.4g)\n", b, p_pfs, ch_pfs);
        if (!isnan(p_bb)) {
            bb_ctx_fmt_rate(&ctx, bbw, sizeof bbw, ctx.pf.pfs_bw_Bps + ctx.pf.bb_bw_Bps);
            printf("Pr(load > B + B_BB = %s) = %.6g\n", bbw, p_bb);
        }
    }
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
