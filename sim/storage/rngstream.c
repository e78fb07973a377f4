/* rngstream.c: storage random streams (rngstream.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rngstream.h"

/* splitmix64 output function of x + golden gamma (Steele, Lea, Flood 2014) */
static uint64_t
mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

gsl_rng *
bbs_storage_rng_new(uint64_t seed, uint64_t unit, uint64_t entity)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    uint64_t key = mix(mix(mix(seed) ^ unit) ^ ((3ull << 48) | entity));

    if (r)
        gsl_rng_set(r, (unsigned long)(key ^ (key >> 32)));
    return r;
}
