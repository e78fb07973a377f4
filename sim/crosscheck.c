/* crosscheck.c: the implied (p, b) and the agreement rule of `bbsize
 * validate` (crosscheck.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "bb_error.h"
#include "crosscheck.h"

int
bbs_implied_pb(const bbs_job_demand *J, double *p, double *b_Bps, char *err)
{
    if (!(J->elapsed_s >= 0 && J->write_s >= 0 && J->bytes_written >= 0) ||
        !isfinite(J->elapsed_s) || !isfinite(J->write_s) || !isfinite(J->bytes_written))
        return bb_seterr(err, BB_EINVAL, "elapsed %g s, write time %g s, %g bytes written: "
                         "each must be finite and >= 0", J->elapsed_s, J->write_s,
                         J->bytes_written);
    *p = J->elapsed_s > 0 && J->write_s > 0 ? fmin(1.0, J->write_s / J->elapsed_s) : 0;
    *b_Bps = J->write_s > 0 ? J->bytes_written / J->write_s : 0;
    return BB_OK;
}

int
bbs_agreement_judge(double x, const bbs_ci *ci, double n, double units_per_rep, double tol,
                    bbs_agreement *out, char *err)
{
    if (!(x >= -1e-9 && x <= 1 + 1e-9))
        return bb_seterr(err, BB_EINVAL, "the prediction %g is not a fraction in [0, 1]", x);
    x = fmin(fmax(x, 0.0), 1.0);   /* a solver's rounding, not a value */
    if (!(tol > 0))
        return bb_seterr(err, BB_EINVAL, "the tolerance %g is not positive", tol);
    if (!(n >= 1) || !(units_per_rep >= 0))
        return bb_seterr(err, BB_EINVAL, "%g replications of %g time units: need at least "
                         "one replication and a length >= 0", n, units_per_rep);
    bbs_verdict_fraction(x, ci, n, units_per_rep, tol, &out->v);
    out->covered = out->v.kind != BBS_DISAGREES;
    out->below_resolution = out->covered && out->v.below_resolution;
    out->gap = x > 0 ? (ci->mean - x) / x : NAN;
    return BB_OK;
}

const char *
bbs_verdict_name(bbs_verdict_kind k)
{
    switch (k) {
    case BBS_AGREES:
        return "agrees";
    case BBS_DISAGREES:
        return "disagrees";
    case BBS_INCONCLUSIVE:
        return "inconclusive";
    }
    return "unknown";
}

int
bbs_units_for_verdict(double x, double tol, double level, double n, double dispersion,
                      double *units, char *err)
{
    double t, h, N;

    if (!(x > 0 && x < 1))
        return bb_seterr(err, BB_EINVAL, "the prediction %g is not a fraction in (0, 1): no "
                         "length makes its verdict conclusive", x);
    if (!(tol > 0) || !isfinite(tol))
        return bb_seterr(err, BB_EINVAL, "the tolerance %g is not positive", tol);
    if (!(level > 0 && level < 1))
        return bb_seterr(err, BB_EINVAL, "the confidence level %g is not in (0, 1)", level);
    if (!(n >= 2) || !isfinite(n))
        return bb_seterr(err, BB_EINVAL, "%g replications: an interval needs at least 2", n);
    if (!(dispersion > 0) || !isfinite(dispersion))
        return bb_seterr(err, BB_EINVAL, "the dispersion %g is not positive and finite",
                         dispersion);
    t = gsl_cdf_tdist_Pinv(0.5 + 0.5 * level, n - 1);
    h = 0.5 * log1p(tol);
    N = t * t * dispersion / (h * h * x * (1 - x));
    *units = fmax(N, -log(0.5 * (1 - level)) / x);
    return BB_OK;
}

double
bbs_fraction_dispersion(const bbs_ci *ci, double n, double units_per_rep)
{
    double m = ci->mean, t, h;

    if (!(m > 0 && m < 1) || !(n >= 2) || !(units_per_rep > 0) || !(ci->lo > 0 && ci->hi < 1))
        return NAN;
    t = gsl_cdf_tdist_Pinv(0.5 + 0.5 * ci->level, n - 1);
    h = 0.5 * (log(ci->hi / (1 - ci->hi)) - log(ci->lo / (1 - ci->lo)));
    return h * h * n * units_per_rep * m * (1 - m) / (t * t);
}
