/* fluid_classes.c: the fluid classes' check and merge (fluid_classes.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "bb_error.h"
#include "fluid_classes.h"

int
bba_fluid_class_has_phase(const bba_fluid_class *x)
{
    return x->count > 0 && x->p > 0.0 && x->p < 1.0 && x->rate_Bps > 0.0;
}

int
bba_fluid_class_check(const bba_fluid_class *x, size_t i, char *err)
{
    if (!(x->rate_Bps >= 0.0 && isfinite(x->rate_Bps)))
        return bb_seterr(err, BB_EINVAL, "class %zu: rate %g B/s is not a finite non-negative "
                         "number", i + 1, x->rate_Bps);
    if (!(x->p >= 0.0 && x->p <= 1.0))
        return bb_seterr(err, BB_EINVAL, "class %zu: p = %g is not in [0, 1]", i + 1, x->p);
    if (x->count < 0)
        return bb_seterr(err, BB_EINVAL, "class %zu: count %d is negative", i + 1, x->count);
    if (bba_fluid_class_has_phase(x) && !(x->burst_s > 0.0 && isfinite(x->burst_s)))
        return bb_seterr(err, BB_EINVAL, "class %zu: burst %g s is not a finite positive "
                         "duration", i + 1, x->burst_s);
    return BB_OK;
}

size_t
bba_fluid_class_find(const bba_fluid_class *c, size_t n, const bba_fluid_class *x)
{
    size_t j;

    for (j = 0; j < n; j++)
        if (c[j].rate_Bps == x->rate_Bps && c[j].p == x->p && c[j].burst_s == x->burst_s)
            break;
    return j;
}

size_t
bba_fluid_srcs(const bba_fluid_class *c, size_t n, bba_fluid_src *out)
{
    size_t nu = 0;

    for (size_t i = 0; i < n; i++) {
        size_t j;

        if (!bba_fluid_class_has_phase(&c[i]))
            continue;
        for (j = 0; j < nu; j++)
            if (out[j].b == c[i].rate_Bps && out[j].p == c[i].p && out[j].L == c[i].burst_s)
                break;
        if (j == nu)
            out[nu++] = (bba_fluid_src){ c[i].rate_Bps, c[i].p, c[i].burst_s, 0 };
        out[j].N += c[i].count;
    }
    return nu;
}
