/* rng.h: reproducible random streams for the simulator, one GSL generator
 * per (seed, unit, entity).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Derivation (documented so that any unit can be replayed anywhere, e.g. on
 * another MPI rank):
 *     key = mix(mix(mix(seed) ^ unit) ^ entity)
 * where mix(x) is the splitmix64 output function applied to
 * x + 0x9E3779B97F4A7C15 (Steele, Lea and Flood 2014).  The key (64 bits)
 * seeds a GSL generator with gsl_rng_set.  The default generator type is
 * bbs_rng_xoshiro256, xoshiro256** (Blackman and Vigna 2018) wrapped as a
 * gsl_rng_type: 32 bytes of state, a full 64-bit seed (GSL's mt19937 keeps
 * only 32 bits of the seed, which would make collisions between 10^5
 * streams likely), state filled from the key by four splitmix64 steps.  Any
 * gsl_rng_type can be asked for instead.
 *
 * Because each stream depends only on (seed, unit, entity), adding an
 * entity, or drawing more from one, never changes another's numbers, and a
 * unit's draws do not depend on the thread or rank that runs it.
 *
 * Draw counts: each gsl_rng_get / gsl_rng_uniform / gsl_rng_uniform_pos on a
 * xoshiro256 stream advances it by exactly one step; bbs_rng_bernoulli and
 * bbs_rng_uniform_ab use exactly one uniform each (tests/t_engine.c). */
#ifndef BBSIZE_SIM_RNG_H
#define BBSIZE_SIM_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* Entity namespaces: models combine a class with an index so that two
 * models never share a stream, e.g. BBS_ENTITY(BBS_ECLASS_APP, i). */
#define BBS_ENTITY(cls, index) ((((uint64_t)(cls)) << 48) | ((uint64_t)(index) & 0xFFFFFFFFFFFFull))
enum {
    BBS_ECLASS_PLATFORM = 1, /* sim/bb: the platform's own draws (lazy EPS) */
    BBS_ECLASS_APP = 2,      /* sim/bb and sim/workload: application i */
    BBS_ECLASS_STORAGE = 3,  /* sim/storage: device or node i */
    BBS_ECLASS_NETWORK = 4,  /* sim/network: routing / placement draws */
    BBS_ECLASS_FAILURE = 5,  /* sim/storage: failure and repair times */
    BBS_ECLASS_WORKLOAD = 6, /* sim/workload: generators, rank i */
    BBS_ECLASS_SETUP = 7     /* per-unit set-up draws (e.g. generated periods) */
};

/* The xoshiro256** generator as a GSL type (get: upper 32 bits of one step;
 * get_double: 53 bits of one step, in [0, 1)). */
extern const gsl_rng_type *bbs_rng_xoshiro256;

/* bbs_rng_mix: the splitmix64 output function of x + golden gamma. */
uint64_t bbs_rng_mix(uint64_t x);

/* bbs_rng_key: the 64-bit key of stream (seed, unit, entity) (see above). */
uint64_t bbs_rng_key(uint64_t seed, uint64_t unit, uint64_t entity);

/* bbs_rng_stream_new: allocate a generator of type t (NULL: xoshiro256)
 * seeded with bbs_rng_key(seed, unit, entity).  Returns NULL when out of
 * memory.  Free with gsl_rng_free. */
gsl_rng *bbs_rng_stream_new(const gsl_rng_type *t, uint64_t seed,
                            uint64_t unit, uint64_t entity);

/* bbs_rng_stream_reset: reseed an existing generator to stream
 * (seed, unit, entity), as if newly allocated (reuse across units). */
void bbs_rng_stream_reset(gsl_rng *r, uint64_t seed, uint64_t unit, uint64_t entity);

/* bbs_rng_bernoulli: 1 with probability p (one uniform; p <= 0 gives 0 and
 * p >= 1 gives 1, still drawing one uniform so draw counts do not depend on
 * p). */
int bbs_rng_bernoulli(gsl_rng *r, double p);

/* bbs_rng_uniform_ab: uniform in [a, b) (one uniform). */
double bbs_rng_uniform_ab(gsl_rng *r, double a, double b);

#endif
