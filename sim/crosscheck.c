/* crosscheck.c: the implied (p, b), the agreement rule and the one rule
 * of a validation's length (crosscheck.h).
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
    /* how much more would decide: the rule's length (crosscheck.h), at the
     * dispersion measured, or of independent units when nothing was seen */
    if (out->v.kind == BBS_INCONCLUSIVE && units_per_rep > 0) {
        double D, need = bbs_rerun_units(x, ci, BBS_INCONCLUSIVE, n, units_per_rep, tol, 1, &D);

        if (need > 0 && isfinite(need)) {
            out->v.more_units = ceil(fmax(need - units_per_rep, 0.0));
            out->v.more_replications = ceil(fmax(need * n / units_per_rep - n, 0.0));
        }
    }
    out->covered = out->v.kind != BBS_DISAGREES;
    out->below_resolution = out->covered && out->v.below_resolution;
    out->gap = x > 0 ? (ci->mean - x) / x : NAN;
    return BB_OK;
}

double
bbs_stall_cluster(size_t n, const long *b, const double *p, const double *L, long B)
{
    double E = 0, var = 0, M = 0, Lmax = 1, mu, k;

    for (size_t i = 0; i < n; i++) {
        double pi = p[i], bi = (double)b[i], f = 1;

        if (!(pi > 0) || !(bi > 0))
            continue;
        E += pi * bi;
        M += bi;
        if (!(pi < 1))
            continue;
        /* (1 + r) / (1 - r), r = 1 - 1/(L (1 - p)) the ON/OFF chain's
         * autocorrelation per unit: 2 L (1 - p) - 1, 1 when memoryless */
        if (L != NULL && L[i] * (1 - pi) > 1) {
            f = 2 * L[i] * (1 - pi) - 1;
            if (L[i] > Lmax)
                Lmax = L[i];
        }
        var += bi * bi * pi * (1 - pi) * f;
    }
    mu = (double)B - E;
    if (!(mu > 0))
        return INFINITY;
    /* the level walk's relaxation, plus one burst at a full buffer: L
     * overflowing units, each stalled up to (M - B) / B units */
    k = 2 * var / (mu * mu) + Lmax * M / (double)B;
    return k > 1 ? k : 1;
}

int
bbs_horizon_plan_make(const double *x, size_t n, double kappa, double level, double tol,
                      double replications, double floor_units, double budget_units,
                      bbs_horizon_plan *out, char *err)
{
    double H = floor_units, xmin = INFINITY;

    if (!(replications >= 1) || !(kappa >= 1) || !(floor_units >= 1)
        || !(budget_units >= floor_units) || !(tol > 0 && tol < 1)
        || !(level > 0 && level < 1))
        return bb_seterr(err, BB_EINVAL, "horizon plan: %g replications, clustering %g, "
                         "floor %g and budget %g units, tolerance %g, level %g: need "
                         "replications >= 1, clustering >= 1, 1 <= floor <= budget, "
                         "tolerance and level in (0, 1)", replications, kappa, floor_units,
                         budget_units, tol, level);
    out->resolved = 0;
    out->need_units = 0;
    out->unresolved = 0;
    for (size_t k = 0; k < n; k++) {
        double need = INFINITY;

        if (!(x[k] >= 0 && x[k] <= 1 + 1e-9))
            return bb_seterr(err, BB_EINVAL, "the prediction %g is not a fraction in [0, 1]",
                             x[k]);
        if (x[k] == 0 || x[k] >= 1)
            continue;
        /* the rule at the workload's clustering (none with one replication,
         * or when the stalls' runs never end) */
        if (replications >= 2 && isfinite(kappa)
            && bbs_units_for_verdict(x[k], tol, level, replications, kappa, &need, NULL) == BB_OK)
            need /= replications;
        if (x[k] < xmin) {
            xmin = x[k];
            out->need_units = need;
        }
        if (!(need <= budget_units)) {
            out->unresolved++;
            continue;
        }
        if (need > H)
            H = need;
        if (out->resolved == 0 || x[k] < out->resolved)
            out->resolved = x[k];
    }
    /* nothing fits, yet a length would conclude: the longest allowed
     * comes closest (and the one re-run could not be longer) */
    if (out->resolved == 0 && out->unresolved > 0 && isfinite(out->need_units))
        H = floor(budget_units);
    out->horizon_units = ceil(H);
    return BB_OK;
}

void
bbs_ci_cluster_zero(bbs_ci *ci, double n_units, double kappa)
{
    double hi;

    if (!(ci->mean == 0 && ci->lo == 0) || !(kappa > 1))
        return;
    hi = n_units > kappa ? -expm1(kappa / n_units * log(0.5 * (1.0 - ci->level))) : 1.0;
    if (hi > ci->hi) {
        ci->hi = hi;
        ci->half = 0.5 * hi;
    }
}

int
bbs_agreement_judge_clustered(double x, bbs_ci *ci, double n, double units_per_rep,
                              double kappa, double tol, bbs_agreement *out, char *err)
{
    int rc;

    if (!(kappa >= 1))
        return bb_seterr(err, BB_EINVAL, "the stall clustering %g is not >= 1", kappa);
    if (!isfinite(kappa))
        kappa = 1e300;
    bbs_ci_cluster_zero(ci, n * units_per_rep, kappa);
    /* n replications of units_per_rep / kappa independent units */
    rc = bbs_agreement_judge(x, ci, n, units_per_rep / kappa, tol, out, err);
    if (rc == BB_OK && out->v.more_units > 0)
        out->v.more_units = ceil(fmin(out->v.more_units * kappa, 1e300));
    return rc;
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
    *units = fmax(N, dispersion * -log(0.5 * (1 - level)) / x);
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

double
bbs_rerun_units(double x, const bbs_ci *ci, bbs_verdict_kind kind, double n,
                double units_per_rep, double tol, double kappa, double *disp)
{
    double D = bbs_fraction_dispersion(ci, n, units_per_rep), N;

    *disp = NAN;
    if (kind != BBS_INCONCLUSIVE || !(x > 0 && x < 1))
        return 0;
    if (isfinite(D) && D > 0)
        *disp = D;
    else
        D = kappa;   /* nothing measured: the clustering it was judged with */
    if (!isfinite(D) || bbs_units_for_verdict(x, tol, ci->level, n, D, &N, NULL) != BB_OK)
        return INFINITY;
    return N / n;
}
