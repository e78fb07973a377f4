/* crosscheck.c: the implied (p, b) and the agreement rule of `bbsize
 * validate` (crosscheck.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

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
