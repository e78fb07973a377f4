/* cli_progress.h: the analytic commands' progress on the one meter
 * (progress.h): the solvers' cost announcement and the front door's
 * search progress (cli_progress.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_PROGRESS_H
#define BBSIZE_SRC_CLI_PROGRESS_H

#include "bbanalytic.h"
#include "options.h"

/* The front door's progress on stderr (a terminal, or --progress; never
 * with --quiet, progress.h bb_progress_enabled).
 * bb_progress_search_start: start the meter of the run's searches (one
 * search at a time: a command's solves) and return it, the ctx of
 * bb_progress_cb (bba_question progress_ctx).
 * bb_progress_cb: the front door's progress (ctx that meter): each
 * search's solves of at most how many, and the time left as that many of
 * its slowest solve while no larger size is to come. */
void *bb_progress_search_start(const bb_outopts *out);
void bb_progress_cb(void *ctx, const bba_progress *p);

/* bb_solver_announce: so hears the estimate of each solve and search
 * before it runs (stationary.h announce) and prints, once a run, the
 * line of bb_meter_estimate (progress.h) when it is over 10 s of CPU
 * (or with --progress), at BBA_COST_OPS_PER_S (cost.h). */
void bb_solver_announce(bba_solver_opts *so, const bb_outopts *out);

#endif
