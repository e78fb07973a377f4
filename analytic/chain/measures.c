/* measures.c: idle and quiet fractions, occupancy (measures.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "measures.h"

void
bba_measures_compute(const bba_chain *c, const double *pi, bba_measures *m)
{
    double idle = 0, quiet = 0, normal = 0, load = 0;

    /* Summed from the top so that small overflow masses are not lost. */
    for (long k = c->n_states - 1; k > c->S; k--)
        idle += pi[k];
    for (long k = 0; k <= c->S; k++) {
        double up = 0;

        for (int q = c->rowptr[k]; q < c->rowptr[k + 1]; q++)
            if (c->col[q] >= k)
                up += c->val[q];
        quiet += pi[k] * (up > 1.0 ? 1.0 : up);
        normal += pi[k];
        load += (double)k * pi[k];
    }
    m->idle = idle;
    m->stalled = idle;
    m->quiet = quiet;
    m->mean_load = normal > 0 ? load / normal : 0;
    m->p_empty = pi[0];
    m->p_full = idle + pi[c->S];
    /* 0 is exact when no load exceeds B; else it underflowed (NAN: the
     * order is not known here) */
    m->log10_idle = idle > 0 ? log10(idle) : c->M <= c->B ? -INFINITY : NAN;
}

long
bba_occupancy_quantile(const bba_chain *c, const double *pi, double q)
{
    double normal = 0, acc = 0;

    for (long k = 0; k <= c->S; k++)
        normal += pi[k];
    for (long k = 0; k <= c->S; k++) {
        acc += pi[k];
        if (acc >= q * normal)
            return k;
    }
    return c->S;
}
