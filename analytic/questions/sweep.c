/* sweep.c: evaluation of one grid point (sweep.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "sweep.h"

void
bba_sweep_eval_point(const bba_sweep_point *p, bba_sweep_out *out)
{
    memset(out, 0, sizeof *out);
    out->status = bba_front_idle(p->front, p->S_bytes, &p->drain, &out->a, out->err);
}
