/* bbstep.h: the one step of a discrete burst buffer in a normal time
 * unit that the two discrete platforms share (sim/bb.c, one buffer;
 * sim/bbpart.c, one per partition): whether the draining policy drains,
 * and how much of an excess the buffer takes.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chain's transitions (analytic/chain/chain.h, Algorithms 2 and 4 of Aupy
 * et al. 2017) in the simulators' real-valued quanta; a new policy is its
 * kind in bbs_step_drains (and its draws in bbs_step_draw).  O(1), pure
 * but for the one draw of bbs_step_draw. */
#ifndef BBSIZE_SIM_BBSTEP_H
#define BBSIZE_SIM_BBSTEP_H

#include <gsl/gsl_rng.h>

#include "drain.h"

/* bbs_step_draw: the policy's uniform for one normal unit: one draw from
 * rng under lazy draining, none (0) under greedy. */
double bbs_step_draw(const bb_drain *pol, gsl_rng *rng);

/* bbs_step_drains: 1 when a buffer holding L quanta drains in a normal
 * unit under pol (threshold in quanta, BB_DRAIN_QUANTA): always when
 * greedy; when lazy, at or above the threshold, and below it when the
 * unit's uniform u (bbs_step_draw) is below EPS. */
int bbs_step_drains(const bb_drain *pol, double L, double u);

/* bbs_step_into: what a buffer of S quanta holding L takes of an excess
 * of ex quanta: min(ex, S - L), at least 0 (the rest is held on the
 * compute nodes: a stall). */
double bbs_step_into(double S, double L, double ex);

#endif
