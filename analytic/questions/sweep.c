/* sweep.c: evaluation of one grid point (sweep.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cost.h"
#include "sweep.h"

void
bba_sweep_eval_point(const bba_sweep_point *p, bba_sweep_out *out)
{
    memset(out, 0, sizeof *out);
    out->status = bba_front_idle(p->front, p->S_bytes, &p->drain, &out->a, out->err);
}

int
bba_sweep_cost(const bba_sweep_point *pts, size_t n, const bba_solver_opts *so, bba_cost *tot,
               char *err)
{
    const bba_front *last = NULL;
    double theta = 0;

    memset(tot, 0, sizeof *tot);
    for (size_t i = 0; i < n; i++) {
        const bba_model *m = bba_front_chain(pts[i].front);
        bba_cost c;
        long S;
        int rc;

        if (m == NULL)   /* the fluid model: phases, not sizes */
            continue;
        if ((rc = bba_front_quanta(pts[i].front, pts[i].S_bytes, &S, err)) != BB_OK)
            return rc;
        if (pts[i].front != last)   /* a grid's points share their fronts */
            theta = bba_cost_decay(m);
        last = pts[i].front;
        bba_cost_eval_decay(m, S, so, &pts[i].drain, theta, &c);
        tot->ops += c.ops;
        tot->S_quanta = fmax(tot->S_quanta, c.S_quanta);
        tot->states = fmax(tot->states, c.states);
        tot->power_steps = fmax(tot->power_steps, c.power_steps);
        tot->burst_units = fmax(tot->burst_units, c.burst_units);
        tot->walk_units = fmax(tot->walk_units, c.walk_units);
        tot->evaluations++;
    }
    return BB_OK;
}
