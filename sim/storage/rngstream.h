/* rngstream.h: the random streams of the storage models, one GSL generator
 * per (seed, unit, entity): the single place that binds sim/storage to a
 * stream derivation.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_STORAGE_RNGSTREAM_H
#define BBSIZE_SIM_STORAGE_RNGSTREAM_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* bbs_storage_rng_new: a generator for stream (seed, unit, entity) of the
 * storage class: sim/rng.h's xoshiro256** stream (seed, unit,
 * BBS_ENTITY(BBS_ECLASS_STORAGE, entity)); NULL when out of memory.  Free
 * with gsl_rng_free. */
gsl_rng *bbs_storage_rng_new(uint64_t seed, uint64_t unit, uint64_t entity);

#endif
