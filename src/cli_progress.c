/* cli_progress.c: the analytic commands' progress (cli_progress.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>

#include "cli_progress.h"
#include "progress.h"

/* The first estimate of a solve or search that bb_meter_estimate prints
 * (over 10 s of CPU at BBA_COST_OPS_PER_S, or any with --progress) is the
 * one line of the run; the walks' threads may call it at once. */
static void
announce_cost(void *out, double ops)
{
    static atomic_int said;
    const bb_outopts *o = out;
    double s = ops / BBA_COST_OPS_PER_S;

    if (!o->quiet && (s > 10 || o->progress) && atomic_exchange(&said, 1) == 0)
        bb_meter_estimate(o, s, ops, "multiply-adds");
}

void
bb_solver_announce(bba_solver_opts *so, const bb_outopts *out)
{
    so->announce = announce_cost;
    so->announce_ctx = (void *)out;
}

/* One command runs one search at a time: the meter of its solves, how
 * many the run has made, and the current search's slowest solve, which
 * bounds the time of each one left while no larger size is to come
 * (bba_progress sizes_seen). */
typedef struct {
    bb_meter m;
    size_t solves;
    double last, slowest;
} search_meter;
static search_meter search;

void *
bb_progress_search_start(const bb_outopts *out)
{
    /* the solves of a search: bounded, not known, in advance */
    bb_meter_start(&search.m, out, "search", "solves", 0);
    return &search;
}

void
bb_progress_cb(void *ctx, const bba_progress *p)
{
    search_meter *sm = ctx;
    double t = bb_meter_elapsed(&sm->m);
    char what[96];

    if (p->solves == 0) {   /* a search starts */
        sm->last = t;
        sm->slowest = 0;
        return;
    }
    if (t - sm->last > sm->slowest)
        sm->slowest = t - sm->last;
    sm->last = t;
    sm->solves++;
    if (p->resolution > 0)
        snprintf(what, sizeof what, "search at resolution %ld (settling it, up to %ld)",
                 p->resolution, p->resolution_max);
    else if (p->stage == BBA_STAGE_DOUBLE_UNIT)
        snprintf(what, sizeof what, "search at twice the time unit");
    else if (p->stage == BBA_STAGE_INTERVAL)
        snprintf(what, sizeof what, "search for the size interval");
    bb_meter_bound(&sm->m, p->resolution > 0 || p->stage != BBA_STAGE_ANSWER ? what : NULL,
                   sm->solves, (size_t)p->solves,
                   (size_t)p->solves_max,
                   p->sizes_seen ? (p->solves_max - p->solves) * sm->slowest : -1);
}
