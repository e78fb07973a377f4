/* bbstep.c: a discrete burst buffer's normal-unit step (bbstep.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bbstep.h"

double
bbs_step_draw(const bb_drain *pol, gsl_rng *rng)
{
    return pol->kind == BB_DRAIN_LAZY ? gsl_rng_uniform(rng) : 0.0;
}

int
bbs_step_drains(const bb_drain *pol, double L, double u)
{
    return !(pol->kind == BB_DRAIN_LAZY && L < pol->threshold) || u < pol->eps;
}

double
bbs_step_into(double S, double L, double ex)
{
    double into = S - L;

    if (into > ex)
        into = ex;
    if (into < 0)
        into = 0;
    return into;
}
