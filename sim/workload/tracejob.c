/* tracejob.c: Graph500, file loads and VEF traces as scenario jobs (their
 * keys are read by src/formats/job_keys.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "workload/tracejob.h"

static const char *const names[BBS_TJ_N] = { "graph500", "fileload", "vef" };

int
bbs_tracejob_parse_kind(const char *name, int *kind, char *err)
{
    for (int k = 0; k < BBS_TJ_N; k++)
        if (!strcasecmp(name, names[k])) {
            *kind = k;
            return BB_OK;
        }
    return bb_seterr(err, BB_EINVAL, "unknown model '%s' (known: graph500, fileload, vef)", name);
}

const char *bbs_tracejob_name(int kind) { return kind >= 0 && kind < BBS_TJ_N ? names[kind] : "?"; }

void
bbs_tracejob_defaults(bbs_tracejob *j, int kind)
{
    memset(j, 0, sizeof *j);
    j->kind = kind;
    bbs_g500_params_init(&j->g);
    bbs_fileload_init(&j->f);
}

int
bbs_tracejob_generate(const bbs_tracejob *j, bbs_wl *w, const char *name, int ranks,
                      uint64_t seed, uint64_t unit, int *job_out, char *err)
{
    if (j->kind == BBS_TJ_GRAPH500) {
        bbs_g500_params p = j->g;
        bbs_g500_plan *pl;
        int rc;

        p.nodes = ranks;
        if ((rc = bbs_g500_plan_new(&pl, &p, seed, unit, err)))
            return rc;
        rc = bbs_tracegen_g500(w, name, pl, job_out, err);
        bbs_g500_plan_free(pl);
        return rc;
    }
    if (j->kind == BBS_TJ_FILELOAD) {
        bbs_fileload f = j->f;
        f.ranks = ranks;
        return bbs_tracegen_fileload(w, name, &f, seed, unit, job_out, err);
    }
    return bb_seterr(err, BB_EINVAL, "a vef job's trace '%s' is read by the caller (bbs_tracegen_vef)",
                     j->trace);
}
