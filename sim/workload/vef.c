/* vef.c: a VEF trace as data (vef.h): names, totals, release.  The text
 * is read by src/formats/vef_file.c.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "workload/vef.h"

static const char *kind_names[] = { "MPI", "DCNW", "CDCNW", "FLOWS", "HOROVOD" };
static const char *op_names[] = { "BROADCAST", "REDUCE", "ALLREDUCE", "GATHER",
                                  "SCATTER", "ALLGATHER", "BARRIER", "ALLTOALL" };
static const char *dep_names[] = { "INDEPENDENT", "COLLECTIVE", "SEND", "RECEIVE" };

const char *bbs_vef_kind_name(int k) { return k >= 0 && k <= 4 ? kind_names[k] : "?"; }
const char *bbs_vef_op_name(int op) { return op >= 0 && op < BBS_VEF_OP_NOPS ? op_names[op] : "?"; }
const char *bbs_vef_dep_name(int d) { return d >= 0 && d <= 3 ? dep_names[d] : "?"; }

void
bbs_vef_free(bbs_vef *v)
{
    if (!v)
        return;
    if (v->comm)
        for (int k = 0; k < v->ncomm; k++)
            free(v->comm[k]);
    free(v->comm);
    free(v->comm_size);
    free(v->msgs);
    for (size_t c = 0; c < v->ncoll; c++)
        free(v->colls[c].parts);
    free(v->colls);
    free(v->classes);
    free(v->layer);
    free(v);
}

uint64_t
bbs_vef_p2p_bytes(const bbs_vef *v)
{
    uint64_t t = 0;
    for (long i = 0; v->kind == BBS_VEF_MPI && i < v->nmsgs; i++)
        t += v->msgs[i].bytes;
    return t;
}
