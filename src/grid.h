/* grid.h: what-if grids for `bbsize sweep` and `bbsize report`: parsing
 * ranges and lists of option values, building one model per (load scale,
 * PFS bandwidth) scenario, and evaluating the points on all cores.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_GRID_H
#define BBSIZE_SRC_GRID_H

#include <stddef.h>

#include "cli.h"
#include "sweep.h"

/* A list of values from "A:B:STEP" (A, A+STEP, ... up to B inclusive, to
 * within 1e-9 of STEP) or "V1,V2,...".  Parsers exit 64 naming the option
 * on a bad value, a zero or negative step, B < A, or more than
 * BB_GRID_MAX values. */
#define BB_GRID_MAX 100000
typedef struct {
    size_t n;
    bb_qty *v;
} bb_qty_list;
typedef struct {
    size_t n;
    double *v;
} bb_num_list;

void bb_grid_sizes(const char *opt, const char *arg, bb_qty_list *out);
void bb_grid_rates(const char *opt, const char *arg, bb_qty_list *out);
/* Numbers in [lo, hi]. */
void bb_grid_numbers(const char *opt, const char *arg, double lo, double hi, bb_num_list *out);
void bb_qty_list_free(bb_qty_list *l);
void bb_num_list_free(bb_num_list *l);

/* One workload variant: every bandwidth times load_scale, PFS bandwidth
 * pfs_bw_Bps, answered by its own front (answer.h) at the base's
 * resolution, so that the variant with scale 1 and the base's PFS
 * bandwidth answers as the base does. */
typedef struct {
    double load_scale;
    double pfs_bw_Bps;
    bba_front *front;
    bba_app *apps;
} bb_scenario;

/* bb_scenario_init: build the variant of base; exits with a message (65,
 * or 2 when the model is too big) on error.  Free with bb_scenario_free. */
void bb_scenario_init(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps);
/* bb_scenario_try: bb_scenario_init, except that a variant whose model
 * refuses it as infeasible (the ON/OFF chain's many-sources correction
 * at a mean load not below B) returns BB_EINFEASIBLE with the message in
 * err and sc->front NULL (free with bb_scenario_free); other errors exit
 * as bb_scenario_init's. */
int bb_scenario_try(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps,
                    char *err);
/* bb_scenario_apps: the variant's applications only (sc->front NULL), for
 * a command that builds its own fronts (design, frontier).  Free with
 * bb_scenario_free. */
void bb_scenario_apps(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps);
void bb_scenario_free(bb_scenario *sc);

/* bb_grid_threads: default thread count (online processors, >= 1). */
int bb_grid_threads(void);

/* bb_grid_cost: the grid's cost (sweep.h bba_sweep_cost), estimated
 * before any point is solved and announced; exits with status 2 beyond
 * --max-ops (opt->max_ops), saying what to change.  O(n + fronts x M x
 * 100). */
void bb_grid_cost(const bb_common *opt, const bba_sweep_point *pts, size_t n);

/* bb_grid_run: bb_grid_cost, then evaluate pts on nthreads threads with
 * progress when enabled; exits with the library's status and message on
 * the first failing point. */
void bb_grid_run(const bb_common *opt, const bba_sweep_point *pts, size_t n,
                 int nthreads, bba_sweep_out *out);

#endif
