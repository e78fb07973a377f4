/* horovod.c: the HOROVOD negotiation-loop model of extended VEF traces.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "rng.h"
#include "workload/horovod.h"
#include "workload/ops.h"

#define CALL(f, ...) do { if (sink->f && (rc = sink->f(sink->ctx, __VA_ARGS__))) goto done; } while (0)

int
bbs_hvd_walk(const bbs_vef *v, int nranks, uint64_t seed, uint64_t unit,
             const bbs_wl_sink *sink, uint64_t *iterations, char *err)
{
    int n = nranks > 0 ? nranks : v->ntasks, rc = BB_OK;
    gsl_rng **r;
    long *sent;
    uint64_t iters = 0;

    if (v->kind != BBS_VEF_HOROVOD)
        return bb_seterr(err, BB_EINVAL, "not a HOROVOD trace");
    if (n < 2)
        return bb_seterr(err, BB_EINVAL, "HOROVOD needs at least 2 ranks (got %d)", n);
    for (int l = 0; l < v->layers; l++)
        if (!(v->layer[l].gatv_prob > 0))
            return bb_seterr(err, BB_EINVAL, "layer %d: GATV_PROB 0 means the negotiation never "
                             "ends", l);
    r = calloc((size_t)n, sizeof *r);
    sent = calloc((size_t)n, sizeof *sent);
    if (!r || !sent) {
        free(r);
        free(sent);
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        if (!(r[i] = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_WORKLOAD, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
    for (long b = 0; b < v->batches; b++)
        for (int l = 0; l < v->layers; l++) {
            const bbs_hvd_layer *P = &v->layer[l];
            long k = (long)((P->gatv_total_bytes + P->gatv_bytes - 1) / P->gatv_bytes);
            int done = 0;

            for (int i = 0; i < n; i++) {
                CALL(compute, i, gsl_ran_exponential(r[i], P->compute_ms * 1e-3));
                sent[i] = 0;
            }
            for (long it = 0; !done; it++) {
                if (it >= BBS_HVD_MAX_ITER) {
                    rc = bb_seterr(err, BB_EINVAL, "layer %d: more than %ld negotiation iterations "
                                   "(GATV_PROB %g too small for GATV_TOTAL_BYTES / GATV_BYTES = %ld)",
                                   l, BBS_HVD_MAX_ITER, P->gatv_prob, k);
                    goto done;
                }
                iters++;
                for (int i = 0; i < n; i++)
                    CALL(coll, i, BBS_COLL_GATHER, 0, BBS_HVD_SIZE_BYTES);
                done = 1;
                for (int i = 0; i < n; i++) {
                    int full = bbs_rng_bernoulli(r[i], P->gatv_prob) && sent[i] < k;
                    sent[i] += full;
                    done &= sent[i] >= k;
                    CALL(coll, i, BBS_COLL_GATHERV, 0,
                         full ? (double)P->gatv_bytes : BBS_HVD_EMPTY_BYTES);
                }
                for (int i = 0; i < n; i++) {
                    CALL(coll, i, BBS_COLL_BCAST, 0, BBS_HVD_SIZE_BYTES);
                    CALL(coll, i, BBS_COLL_BCAST, 0,
                         done ? (double)P->bcast_bytes : BBS_HVD_EMPTY_BYTES);
                }
                for (int i = 0; i < n; i++) {
                    if (done)
                        CALL(coll, i, BBS_COLL_ALLREDUCE, -1, (double)P->ared_kbytes * 1024.0);
                    else
                        CALL(compute, i, gsl_ran_exponential(r[i], P->negotiation_ms * 1e-3));
                }
            }
        }
done:
    for (int i = 0; i < n; i++)
        if (r[i])
            gsl_rng_free(r[i]);
    free(r);
    free(sent);
    if (iterations)
        *iterations = iters;
    return rc;
}
