/* cli_limits.c: the bounds of every run, their options and checks
 * (cli_limits.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "bb_error.h"
#include "cli_limits.h"
#include "status.h"
#include "units.h"
#include "usage.h"
#include "engine.h"
#include "network/topo.h"
#include "workload/ops.h"

double
bb_limits_memory_default(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);

    if (pages <= 0 || psize <= 0)
        return 4e9;
    return 0.75 * (double)pages * (double)psize;
}

bb_limits bb_run_limits = { BB_DEFAULT_MAX_EVENTS, 0 };

static void
limits_apply(void)
{
    double mem = bb_limits_memory();
    double pend = mem / (double)bbs_engine_event_bytes();

    bbs_engine_set_default_limits((uint64_t)bb_run_limits.max_events,
                                  pend > (double)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)pend);
    bbs_wl_set_default_max_ops((uint64_t)(mem / (double)sizeof(bbs_op)));
}

void
bb_limits_init(void)
{
    limits_apply();
}

void
bb_limits_set_events(const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK)
        bb_usage_error("max-events", "%s", msg);
    if (!(v >= 1) || v > 1.8e19)
        bb_usage_error("max-events", "'%s' is not a number of events in [1, 1.8e19]", arg);
    bb_run_limits.max_events = floor(v);
    limits_apply();
}

void
bb_limits_set_memory(const char *arg)
{
    bb_qty q;
    char msg[256];

    if (bb_parse_size(arg, &q, msg, sizeof msg) != BB_OK)
        bb_usage_error("max-memory", "%s", msg);
    if (!(q.v > 0))
        bb_usage_error("max-memory", "'%s' is not positive", arg);
    bb_run_limits.max_memory_bytes = q.v;
    limits_apply();
}

static const struct argp_option limits_options[] = {
    { NULL, 0, NULL, 0, "Bounds:", 50 },
    BB_MAX_EVENTS_OPTION,
    { "max-memory", BB_OPT_MAX_MEMORY, "SIZE", 0,
      "refuse runs needing more memory than this (default 75% of physical memory)", 0 },
    { 0 }
};

static error_t
limits_parse(int key, char *arg, struct argp_state *state)
{
    (void)state;
    switch (key) {
    case BB_OPT_MAX_EVENTS:
        bb_limits_set_events(arg);
        return 0;
    case BB_OPT_MAX_MEMORY:
        bb_limits_set_memory(arg);
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

const struct argp bb_limits_argp = { limits_options, limits_parse, NULL, NULL, NULL, NULL, NULL };

static const struct argp_option events_options[] = {
    { NULL, 0, NULL, 0, "Bounds:", 50 },
    BB_MAX_EVENTS_OPTION,
    { 0 }
};

const struct argp bb_events_argp = { events_options, limits_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_limits_check_topology(const void *vpar, const char *source)
{
    const bbs_net_params *par = vpar;
    char what[600], detail[256];

    snprintf(what, sizeof what, "the topology of %s", source);
    snprintf(detail, sizeof detail, "a dragonfly of %d groups x %d routers x %d nodes, %d "
             "global channels per router", par->g, par->a, par->p, par->h);
    bb_limits_check(what, 0, bbs_net_topo_estimate(par), detail,
                    "fewer groups, routers or nodes per router");
}

double
bb_limits_memory(void)
{
    return bb_run_limits.max_memory_bytes > 0 ? bb_run_limits.max_memory_bytes
                                              : bb_limits_memory_default();
}

int
bb_limits_test(const char *what, double events, double bytes, const char *detail,
               const char *shrink, char *err)
{
    return bb_bound_test(what, events, bytes, bb_run_limits.max_events, bb_limits_memory(),
                         detail, shrink, err);
}

void
bb_limits_check(const char *what, double events, double bytes, const char *detail,
                const char *shrink)
{
    char err[BB_ERRLEN];
    int rc = bb_limits_test(what, events, bytes, detail, shrink, err);

    if (rc != BB_OK)
        bb_die_lib(rc, err);
}
