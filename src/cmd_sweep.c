/* cmd_sweep.c: `bbsize sweep`, idle and quiet fractions over a grid of
 * buffer sizes, lazy thresholds, load growth, PFS bandwidths and policies
 * (the what-if table behind Figures 3, 5 and 6 of Aupy et al. 2017).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvout.h"
#include "cmdspec.h"
#include "simcli.h"
#include "commands.h"
#include "grid.h"

enum { OPT_BB_SIZE = 0x2000, OPT_THRESHOLD, OPT_LOAD_SCALE, OPT_POLICY, OPT_EPS };

static const struct argp_option options[] = {
    { "bb-size", OPT_BB_SIZE, "SIZES", 0,
      "buffer sizes: START:END:STEP (e.g. 0:4TB:100GB) or a list (1TB,2TB) (required)", 0 },
    { "threshold", OPT_THRESHOLD, "FRACS", 0,
      "lazy thresholds as fractions of the size, a list or range in [0, 1] (implies lazy)", 0 },
    { "load-scale", OPT_LOAD_SCALE, "FACTORS", 0,
      "scale every application bandwidth by each factor, e.g. 1,1.2,1.5 (default 1)", 0 },
    { "policy", OPT_POLICY, "LIST", 0, "greedy, lazy or greedy,lazy (default greedy; lazy with --threshold)", 0 },
    { "empty-prob", OPT_EPS, "EPS", 0, "lazy: probability of draining below the threshold (default 0.01)", 0 },
    { 0 }
};

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    bb_qty_list sizes, pfs;
    bb_num_list thresholds, scales;
    int greedy, lazy, threshold_set;
    double eps;
    int threads;       /* --threads, else every core */
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_BB_SIZE:
        bb_qty_list_free(&a->sizes);
        bb_grid_sizes("bb-size", arg, &a->sizes);
        break;
    case OPT_THRESHOLD:
        bb_num_list_free(&a->thresholds);
        bb_grid_numbers("threshold", arg, 0, 1, &a->thresholds);
        a->threshold_set = 1;
        break;
    case OPT_LOAD_SCALE:
        bb_num_list_free(&a->scales);
        bb_grid_numbers("load-scale", arg, 1e-6, 1e6, &a->scales);
        break;
    case OPT_POLICY: {
        char *copy = strdup(arg), *tok, *save = NULL;

        a->greedy = a->lazy = 0;
        for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            bb_drain_kind k;

            if (bb_drain_kind_parse(tok, &k) == 0)
                *(k == BB_DRAIN_LAZY ? &a->lazy : &a->greedy) = 1;
            else {
                /* The message is built before copy (which tok points into)
                 * is freed: bb_usage_value exits. */
                char bad[64];

                snprintf(bad, sizeof bad, "%s", tok);
                free(copy);
                bb_usage_value("policy", bad, "greedy or lazy");
            }
        }
        free(copy);
        if (!a->greedy && !a->lazy)
            bb_usage_value("policy", arg, "greedy, lazy or greedy,lazy");
        break;
    }
    case OPT_EPS:
        a->eps = bb_opt_eps(arg);
        break;
    case ARGP_KEY_END:
        if (a->sizes.n == 0)
            bb_usage_required("bb-size", "SIZES, e.g. 0:4TB:100GB");
        if (a->run.threads > 0)
            a->threads = a->run.threads;
        if (!a->greedy && !a->lazy) {
            a->lazy = a->threshold_set;
            a->greedy = !a->threshold_set;
        }
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* --csv: one CSV row per point, numbers in bytes, bytes/s and fractions. */
static const bb_cmd_spec spec = {
    .options = options,
    .parser = parse,
    .args_doc = "[FILE]",
    .doc = "Idle and quiet fractions over a grid of buffer sizes, lazy thresholds, load "
    "scales, PFS bandwidths and policies, one row per point.\v"
    "Rows come in grid order: load scale, then PFS bandwidth, policy (greedy "
    "before lazy), threshold, and buffer size innermost.  Greedy rows ignore the "
    "thresholds.  Points run in parallel; the output is the same for any --threads.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .runs = BB_RUN_THREADS,
    .walks = BB_PLAT_PFS_BW,
    .walk_doc = "PFS bandwidth options: one rate, a list (1TB/s,1.45TB/s) or a range "
    "(default: the platform's)",
    .walk_at = offsetof(struct args, pfs),
};

int
bb_cmd_sweep(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_scenario *sc = NULL;
    bba_sweep_point *pts = NULL;
    bba_sweep_out *out = NULL;
    size_t nsc, npol_rows, npts = 0, k = 0;
    double one = 1.0;
    json_t *rows = NULL;

    memset(&a, 0, sizeof a);
    a.eps = 0.01;
    a.threads = bb_grid_threads();
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    bb_ctx_load(&ctx, &a.common, a.file, NULL);
    if (a.scales.n == 0) {
        a.scales.n = 1;
        a.scales.v = malloc(sizeof *a.scales.v);
        if (a.scales.v == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        a.scales.v[0] = one;
    }
    if (a.thresholds.n == 0) {
        a.thresholds.n = 1;
        a.thresholds.v = calloc(1, sizeof *a.thresholds.v);
        if (a.thresholds.v == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
    }
    nsc = a.scales.n * (a.pfs.n ? a.pfs.n : 1);
    npol_rows = (size_t)a.greedy + (a.lazy ? a.thresholds.n : 0);
    if (nsc * npol_rows > BB_GRID_MAX / a.sizes.n)
        bb_usage_error(NULL, "the grid has more than %d points; narrow it", BB_GRID_MAX);
    npts = nsc * npol_rows * a.sizes.n;
    sc = calloc(nsc, sizeof *sc);
    pts = calloc(npts, sizeof *pts);
    out = calloc(npts, sizeof *out);
    if (sc == NULL || pts == NULL || out == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < a.scales.n; i++)
        for (size_t j = 0; j < (a.pfs.n ? a.pfs.n : 1); j++) {
            double pfs = a.pfs.n ? bb_qty_rate_Bps(&a.pfs.v[j], ctx.pf.time_unit_s)
                                 : ctx.pf.pfs_bw_Bps;
            bb_scenario *s = &sc[i * (a.pfs.n ? a.pfs.n : 1) + j];

            bb_scenario_init(s, &ctx, a.scales.v[i], pfs);
            for (int pol = 0; pol < 2; pol++) {
                if ((pol == 0 && !a.greedy) || (pol == 1 && !a.lazy))
                    continue;
                for (size_t t = 0; t < (pol ? a.thresholds.n : 1); t++)
                    for (size_t z = 0; z < a.sizes.n; z++) {
                        bba_sweep_point *p = &pts[k++];

                        p->front = s->front;
                        p->S_bytes = a.sizes.v[z].v;
                        p->drain.kind = pol ? BB_DRAIN_LAZY : BB_DRAIN_GREEDY;
                        p->drain.eps = a.eps;
                        p->drain.threshold = pol ? a.thresholds.v[t] : 0;
                    }
            }
        }
    bb_grid_run(&a.common, pts, npts, a.threads, out);

    if (a.common.out.csv)
        printf("load_scale,pfs_bw_bytes_per_s,policy,threshold_fraction,threshold_bytes,"
               "bb_size_bytes,bb_size_quanta,idle_fraction,quiet_fraction,load_ratio,states,residual\n");
    else if (a.common.out.json)
        rows = json_array();
    else
        printf("%-6s %-11s %-6s %-9s %-11s %-11s %-7s %-11s %-11s %s\n", "LOAD", "PFS_BW", "POLICY",
               "THRESHOLD", "THRESH_SIZE", "BB_SIZE", "QUANTA", "IDLE", "QUIET", "E/B");
    k = 0;
    for (size_t s = 0; s < nsc; s++)
        for (size_t r = 0; r < npol_rows * a.sizes.n; r++, k++) {
            const bba_sweep_point *p = &pts[k];
            const bba_answer *e = &out[k].a;
            double frac = p->drain.kind == BB_DRAIN_LAZY ? p->drain.threshold : 0;
            const char *pn = bb_drain_kind_name(p->drain.kind);

            if (a.common.out.csv) {
                /* empty quanta: the fluid model has none */
                bb_csv_row(stdout, "nnsnnnnnnnln", sc[s].load_scale, sc[s].pfs_bw_Bps, pn, frac,
                           e->drain.threshold, e->S_bytes,
                           e->S_quanta >= 0 ? (double)e->S_quanta : NAN, e->idle, e->quiet,
                           e->load_ratio, e->states, e->residual);
            } else if (a.common.out.json) {
                json_array_append_new(rows, json_pack(
                    "{s:f, s:f, s:s, s:f, s:f, s:o, s:f, s:o, s:f, s:o, s:o, s:f, s:f, s:I, s:f}",
                    "load_scale", sc[s].load_scale, "pfs_bw_bytes_per_s", sc[s].pfs_bw_Bps,
                    "policy", pn, "threshold_fraction", frac,
                    "threshold_bytes", e->drain.threshold,
                    "threshold_quanta", e->quantum_bytes > 0
                        ? bb_json_quanta((long)(e->drain.threshold / e->quantum_bytes + 0.5))
                        : json_null(),
                    "bb_size_bytes", e->S_bytes,
                    "bb_size_quanta", bb_json_quanta(e->S_quanta), "idle_fraction", e->idle,
                    "idle_fraction_low", bb_json_real_or_null(e->idle_low),
                    "idle_fraction_high", bb_json_real_or_null(e->idle_high),
                    "quiet_fraction", e->quiet, "load_ratio", e->load_ratio,
                    "states", (json_int_t)e->states, "residual", e->residual));
            } else {
                char pfs[32], th[32], sz[32], q[24] = "-";

                bb_ctx_fmt_rate(&ctx, pfs, sizeof pfs, sc[s].pfs_bw_Bps);
                bb_ctx_fmt_size(&ctx, th, sizeof th, e->drain.threshold);
                bb_ctx_fmt_size(&ctx, sz, sizeof sz, e->S_bytes);
                if (e->S_quanta >= 0)
                    snprintf(q, sizeof q, "%ld", e->S_quanta);
                printf("%-6g %-11s %-6s %-9g %-11s %-11s %-7s %-11.4g %-11.4g %.4g\n",
                       sc[s].load_scale, pfs, pn, frac, th, sz, q, e->idle, e->quiet,
                       e->load_ratio);
            }
        }
    if (a.common.out.json) {
        json_t *o = json_pack("{s:I, s:f, s:o, s:o}", "points", (json_int_t)npts,
                              "empty_prob", a.eps, "platform", bb_json_platform(&ctx),
                              "rows", rows);

        bb_json_head(o, &ctx);
        bb_json_print(o);
    }
    for (size_t s = 0; s < nsc; s++)
        bb_scenario_free(&sc[s]);
    free(sc);
    free(pts);
    free(out);
    bb_qty_list_free(&a.sizes);
    bb_qty_list_free(&a.pfs);
    bb_num_list_free(&a.thresholds);
    bb_num_list_free(&a.scales);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
