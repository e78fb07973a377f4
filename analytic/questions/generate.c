/* generate.c: the paper's random workloads (generate.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bb_error.h"
#include "generate.h"

int
bba_generate_paper(size_t n, double p_max, double alpha, double pfs_bw_Bps,
                   double d_min_s, unsigned long seed, bba_app *apps, char *err)
{
    gsl_rng *r;
    double load = 0;

    if (n == 0)
        return bb_seterr(err, BB_EINVAL, "no application to generate");
    if (!(p_max > 0 && p_max <= 1))
        return bb_seterr(err, BB_EINVAL, "p_max %g is not in (0, 1]", p_max);
    if (!(alpha > 0))
        return bb_seterr(err, BB_EINVAL, "load ratio %g is not positive", alpha);
    if (!(pfs_bw_Bps > 0))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g is not positive", pfs_bw_Bps);
    r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the generator");
    gsl_rng_set(r, seed);
    for (size_t i = 0; i < n; i++) {
        memset(&apps[i], 0, sizeof apps[i]);
        snprintf(apps[i].name, sizeof apps[i].name, "app%zu", i + 1);
        apps[i].p = p_max * gsl_rng_uniform_pos(r);
        apps[i].bw_Bps = gsl_rng_uniform_pos(r);
        if (d_min_s > 0)
            apps[i].period_s = d_min_s * (1.0 + gsl_rng_uniform(r));
        load += apps[i].p * apps[i].bw_Bps;
    }
    for (size_t i = 0; i < n; i++)
        apps[i].bw_Bps *= alpha * pfs_bw_Bps / load;
    gsl_rng_free(r);
    return BB_OK;
}
