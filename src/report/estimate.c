/* estimate.c: what the whole of `bbsize report` will cost, before its
 * first solve (report.h bb_report_estimate), so that the run's one
 * estimate line (cli.c: the first announced) is the report's, not its
 * first search's (the priced committee report said 0.24 s and took 35 s).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "partition.h"
#include "report/report.h"

/* The walk cost of the designs sp chooses at pfs[0..n-1]; exits on error. */
static double
walk_ops(const bb_ctx *ctx, const bba_design_spec *sp, const double *pfs, size_t n)
{
    bba_cost c;
    char err[BB_ERRLEN];
    int rc = bba_design_walk_cost(sp, pfs, n, &c, err);

    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    return c.ops;
}

double
bb_report_estimate(const bb_ctx *ctx, const bb_report_opts *o)
{
    bba_question q = ctx->qn;
    bba_design_spec sp, one;
    const bba_model *m = bba_front_chain(ctx->front);
    double pfs = ctx->pf.pfs_bw_Bps, eval, search, total = 0;
    size_t groups = 0;

    q.target = o->target;
    q.drain = o->drain;
    q.progress = NULL;
    bb_design_spec_init(&sp, &q, o->priced ? o->prices : NULL,
                        o->end != NULL && o->end->set ? o->end : NULL);
    one = sp;
    one.rule = BBA_BW_FIXED;   /* one settled size search, as `size` */
    /* one search, and one evaluation at its size */
    if (m != NULL) {
        bb_drain ps = bb_drain_greedy(o->eps);
        bba_cost c;

        bba_cost_search(m, o->target, &ps, &q.so, &c);
        search = c.ops;
        eval = c.evaluations > 0 ? c.ops / c.evaluations : c.ops;
    } else {   /* the fluid model: a build and a search each, at the
                  answer's platform (a bought bandwidth: the general spectrum) */
        search = eval = bba_design_fluid_ops(ctx->front, sp.rule != BBA_BW_FIXED);
    }
    /* the unlimited size, the pair, and the size at the pair's platform */
    total += walk_ops(ctx, &one, &pfs, 1) * (sp.rule == BBA_BW_FIXED ? 1 : 2);
    if (sp.rule != BBA_BW_FIXED)
        total += walk_ops(ctx, &sp, &pfs, 1);
    /* each load growth: its design (or its size), on its own applications */
    for (size_t i = 0; i < o->nscales; i++) {
        bb_scenario sc;
        bba_question g = q;

        if (o->scales[i] == 1)
            continue;
        bb_scenario_apps(&sc, ctx, o->scales[i], pfs);
        g.apps = sc.apps;
        sp.base = one.base = &g;
        total += walk_ops(ctx, sp.rule == BBA_BW_FIXED ? &one : &sp, &pfs, 1);
        sp.base = one.base = &q;
        bb_scenario_free(&sc);
    }
    /* the sweep (every load's curve, the lazy thresholds) and the best
     * threshold's search: evaluations at about the answer's size */
    total += ((double)o->nscales * o->points + BB_REPORT_NTH + 2.0 * BB_REPORT_NTH) * eval;
    /* the partitions: a search from the last size at every share of every
     * group (an upper bound on the shares tabulated) */
    if (ctx->wl.has_group) {
        for (size_t i = 0; i < ctx->wl.n; i++) {
            size_t j = 0;

            while (j < i && strcmp(ctx->wl.group[j], ctx->wl.group[i]) != 0)
                j++;
            groups += j == i;
        }
        total += search + (double)groups * (groups > 100 ? groups : 100)
                              * (m != NULL ? BBA_PART_SEARCH_EVALS * eval : search);
    }
    /* the cost plot */
    if (o->priced) {
        size_t n = bb_report_walk_pfs(ctx, o, NULL);
        double *w = calloc(n, sizeof *w);

        if (w == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        bb_report_walk_pfs(ctx, o, w);
        total += walk_ops(ctx, &sp, w, n);
        free(w);
    }
    return total;
}
