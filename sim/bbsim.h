/* bbsim.h: the public interface of libbbsim, the validation simulator, for
 * src/: the generic engine (event queue, random streams, statistics,
 * replications) and the models built on it.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_BBSIM_H
#define BBSIZE_SIM_BBSIM_H

#include "bb_error.h"
#include "engine.h"
#include "rng.h"
#include "stats.h"
#include "crosscheck.h"
#include "replicate.h"
#include "bb.h"
#include "fluidsim.h"

/* The stall semantics every simulated model follows (issue 35), named in
 * the JSON of the commands that run them: a throttled writer's I/O phase
 * is a volume and waits; computing applications compute on. */
#define BBS_STALL_SEMANTICS "writers-wait"

#endif
