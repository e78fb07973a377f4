/* replicate.h: run independent units of work (replications, sweep points)
 * on a pool of threads, with results stored by unit index.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A unit is a self-contained function of (unit index, shared read-only
 * context): it builds its own engine and draws only from streams derived
 * from (seed, unit, entity) (rng.h), and writes its result into its own
 * slot.  Threads take the next unit index from a shared counter (dynamic
 * load balancing: units may differ in cost), so which thread runs a unit
 * never shows in the results: output is identical for 1 or N threads, and
 * the MPI back end can hand the same units to other ranks unchanged.
 *
 * Cost: n_units calls of fn plus one mutex lock per unit. */
#ifndef BBSIZE_SIM_REPLICATE_H
#define BBSIZE_SIM_REPLICATE_H

#include <stddef.h>

#include "pool.h"

/* bbs_replicate_threads: the number of threads to use for n_threads = 0
 * (the online processors, at least 1). */
int bbs_replicate_threads(void);

/* bbs_replicate_run: run units 0 .. n_units-1 of fn on n_threads threads
 * (0: bbs_replicate_threads(); never more than n_units), storing unit i's
 * result at (char *)results + i * result_size.
 * On failure no further units are started; the status and message are
 * those of the lowest-numbered failed unit, prefixed with "unit %zu: ", so
 * the report does not depend on scheduling.
 * Errors: a unit's status; BB_EINVAL (n_units > 0 with results NULL);
 * BB_ENOMEM (threads could not be created; the runner then falls back to
 * running the units on the calling thread, so this only happens if even
 * that fails). */
int bbs_replicate_run(size_t n_units, size_t result_size, void *results,
                      bbs_unit_fn fn, const void *ctx, int n_threads,
                      bbs_progress_fn progress, void *pctx, char *err);

#endif
