/* quanta.c: sizes in quanta (quanta.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>

#include "chain.h"
#include "fftwh.h"
#include "onoff.h"
#include "quanta.h"

long
bba_size_quanta(double bytes, double quantum_bytes)
{
    double x = bytes / quantum_bytes;

    if (isnan(x))
        return 0;
    /* A size within rounding of a whole number of quanta is that number. */
    if (fabs(x - nearbyint(x)) < 1e-9 * (x > 1 ? x : 1))
        x = nearbyint(x);
    if (x >= (double)LONG_MAX / 2)
        return LONG_MAX / 2;
    if (x <= -(double)LONG_MAX / 2)
        return -(LONG_MAX / 2);
    return (long)floor(x);
}

void
bba_drain_quanta(const bb_drain *d, long S, double quantum_bytes, bb_drain *out)
{
    double T = 0;

    if (d->kind == BB_DRAIN_LAZY) {
        if (d->unit == BB_DRAIN_BYTES)
            T = (double)bba_size_quanta(d->threshold, quantum_bytes);
        else if (d->unit == BB_DRAIN_QUANTA)
            T = d->threshold;
        else {
            T = floor(d->threshold * (double)S);
            T = T > (double)S ? (double)S : T < 0 ? 0 : T;
        }
    }
    *out = (bb_drain){ .kind = d->kind, .unit = BB_DRAIN_QUANTA, .threshold = T, .eps = d->eps };
}

/* (budget - b0) / (b1 - b0) in [0, cap]; the whole cap without a budget. */
static long
linear_cap(double budget, double b0, double b1, double cap)
{
    double s;

    if (!(budget > 0))
        return (long)cap;
    s = (budget - b0) / (b1 - b0);
    if (!(s > 0))
        return 0;
    return (long)fmin(s, cap);
}

long
bba_model_s_max(const bba_model *m, const bba_solver_opts *so)
{
    double b0, b1;

    if (m->onoff) {
        bba_onoff_estimate(m->onoff, 0, NULL, &b0, NULL);
        bba_onoff_estimate(m->onoff, 1, NULL, &b1, NULL);
        return linear_cap(so->mem_limit_bytes / 2.0, b0, b1, (double)INT_MAX / 2);
    }
    if (so->kind == BBA_SOLVER_FFT) {
        b0 = bba_fftwh_bytes(m->M, m->B, 0, so);
        b1 = bba_fftwh_bytes(m->M, m->B, 1, so);
        return linear_cap(so->mem_limit_bytes, b0, b1, (double)INT_MAX / 4);
    }
    bba_chain_estimate(0, m->B, m->M, NULL, NULL, &b0);
    bba_chain_estimate(1, m->B, m->M, NULL, NULL, &b1);
    return linear_cap(so->mem_limit_bytes / 3.0, b0, b1, (double)INT_MAX / 2);
}
