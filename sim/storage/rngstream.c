/* rngstream.c: storage random streams (rngstream.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rng.h"
#include "rngstream.h"

gsl_rng *
bbs_storage_rng_new(uint64_t seed, uint64_t unit, uint64_t entity)
{
    return bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_STORAGE, entity));
}
