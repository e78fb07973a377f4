/* answer_endure.c: the size whose drives last, through the front door
 * (answer.h bba_front_endure, endurance.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "answer.h"
#include "bb_error.h"

#define ENDURE_MAX_STEPS 60

int
bba_front_endure(const bba_front *f, const bba_answer *a, const bb_drain *d,
                 const bba_endurance *e, bba_answer *out, int *binds, char *err)
{
    bba_answer cur = *a;
    int rc;

    *binds = 0;
    *out = *a;
    rc = bba_endurance_check(e, err);
    if (rc != BB_OK)
        return rc;
    if (isnan(a->bb_write_Bps))
        return bb_seterr(err, BB_EINVAL, "the answer carries no volume into the buffer");
    for (int step = 0; step < ENDURE_MAX_STEPS; step++) {
        double need = bba_endurance_bytes(e, cur.bb_write_Bps);
        double q = cur.quantum_bytes;

        /* on the model's grid: whole quanta, rounded up */
        if (q > 0 && isfinite(q))
            need = ceil(need / q * (1 - 1e-12)) * q;
        if (need <= cur.S_bytes) {
            *out = cur;
            return BB_OK;
        }
        *binds = 1;
        if (!isfinite(need))   /* past every size a double holds: nothing to try */
            return bb_seterr(err, BB_ETOOBIG, "the drives' rating needs a buffer larger than "
                             "any size (%.4g B/s written into it at %g drive writes per day; "
                             "the idle target alone %.4g bytes): raise the drives' rating",
                             cur.bb_write_Bps, e->dwpd, a->S_bytes);
        rc = bba_front_idle(f, need, d, &cur, err);
        if (rc != BB_OK) {
            /* the cause is the rating, which the message names first */
            char why[BB_ERRLEN];

            snprintf(why, sizeof why, "%s", err);
            return bb_seterr(err, rc, "the drives' rating needs a buffer of %.4g bytes (the "
                             "idle target alone %.4g), and at that size: %s; or raise the "
                             "drives' rating", need, a->S_bytes, why);
        }
        /* what the size search said beyond the point itself */
        cur.evaluations += out->evaluations;
        cur.idle_limit = a->idle_limit;
        cur.bandwidth_bound = a->bandwidth_bound;
        cur.bb_bw_min_Bps = a->bb_bw_min_Bps;
        cur.S_double_unit_bytes = a->S_double_unit_bytes;
        *out = cur;
    }
    return bb_seterr(err, BB_ENOCONV, "the endurance size did not settle in %d steps (last "
                     "%.6g bytes)", ENDURE_MAX_STEPS, cur.S_bytes);
}
