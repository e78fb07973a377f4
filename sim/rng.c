/* rng.c: stream keys (splitmix64) and xoshiro256** as a GSL generator
 * type (rng.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rng.h"

uint64_t
bbs_rng_mix(uint64_t x)
{
    /* splitmix64 (Steele, Lea and Flood 2014; Vigna's reference code). */
    uint64_t z = x + 0x9E3779B97F4A7C15ull;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t
bbs_rng_key(uint64_t seed, uint64_t unit, uint64_t entity)
{
    return bbs_rng_mix(bbs_rng_mix(bbs_rng_mix(seed) ^ unit) ^ entity);
}

typedef struct {
    uint64_t s[4];
} xoshiro_state;

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman and Vigna 2018, public-domain reference). */
static inline uint64_t
xoshiro_next(xoshiro_state *st)
{
    uint64_t *s = st->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void
xoshiro_set(void *vstate, unsigned long seed)
{
    xoshiro_state *st = vstate;
    uint64_t x = (uint64_t)seed;

    /* Four splitmix64 steps fill the state (never all zero in practice:
     * splitmix64 is a bijection of its counter). */
    for (int i = 0; i < 4; i++) {
        x += 0x9E3779B97F4A7C15ull;
        st->s[i] = bbs_rng_mix(x - 0x9E3779B97F4A7C15ull);
    }
    if ((st->s[0] | st->s[1] | st->s[2] | st->s[3]) == 0)
        st->s[0] = 1;
}

static unsigned long
xoshiro_get(void *vstate)
{
    return (unsigned long)(xoshiro_next(vstate) >> 32);
}

static double
xoshiro_get_double(void *vstate)
{
    return (double)(xoshiro_next(vstate) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type xoshiro_type = {
    "xoshiro256**", 0xFFFFFFFFUL, 0, sizeof(xoshiro_state),
    xoshiro_set, xoshiro_get, xoshiro_get_double
};

const gsl_rng_type *bbs_rng_xoshiro256 = &xoshiro_type;

gsl_rng *
bbs_rng_stream_new(const gsl_rng_type *t, uint64_t seed, uint64_t unit, uint64_t entity)
{
    gsl_rng *r = gsl_rng_alloc(t ? t : bbs_rng_xoshiro256);

    if (r)
        gsl_rng_set(r, (unsigned long)bbs_rng_key(seed, unit, entity));
    return r;
}

void
bbs_rng_stream_reset(gsl_rng *r, uint64_t seed, uint64_t unit, uint64_t entity)
{
    gsl_rng_set(r, (unsigned long)bbs_rng_key(seed, unit, entity));
}

int
bbs_rng_bernoulli(gsl_rng *r, double p)
{
    return gsl_rng_uniform(r) < p;
}

double
bbs_rng_uniform_ab(gsl_rng *r, double a, double b)
{
    return a + (b - a) * gsl_rng_uniform(r);
}
