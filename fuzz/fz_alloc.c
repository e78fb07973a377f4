/* fz_alloc.c: fuzz harness for allocation files (`[placement] file` of
 * bbsize-scenario(5), `bbsize netload --alloc`; src/formats/alloc_file.c)
 * on a small dragonfly (4 groups x 2 routers x 2 terminals, 16 compute
 * nodes, built once).  Checks alloc_file.h's promise: an accepted file
 * has at least one job, its jobs' offsets ascend, and every rank sits on
 * a distinct compute node.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "alloc_file.h"
#include "bb_error.h"
#include "fuzz.h"

static bbs_net_topo *
topo(void)
{
    static bbs_net_topo *t;
    bbs_net_params par;
    char err[BB_ERRLEN];

    if (t)
        return t;
    memset(&par, 0, sizeof par);
    par.g = 4, par.a = 2, par.h = 3, par.p = 2;
    par.cn_bw_Bps = par.local_bw_Bps = par.global_bw_Bps = 1e9;
    par.router_delay_s = 1e-7;
    FZ_CHECK(bbs_net_topo_build(&par, NULL, &t, err) == BB_OK);
    return t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN], used[64];
    const bbs_net_topo *t = topo();
    bbs_net_placement pl;

    if (bbs_net_alloc_parse(t, (const char *)data, size, "fuzz.alloc", &pl, err) != BB_OK)
        return 0;
    FZ_CHECK(pl.njobs >= 1 && pl.job_off[0] == 0);
    memset(used, 0, sizeof used);
    for (int j = 0; j < pl.njobs; j++) {
        FZ_CHECK(pl.job_off[j + 1] > pl.job_off[j]);
        for (int k = pl.job_off[j]; k < pl.job_off[j + 1]; k++) {
            int n = pl.node[k];
            FZ_CHECK(n >= 0 && n < (int)sizeof used && !used[n]);
            used[n] = 1;
        }
    }
    bbs_net_placement_free(&pl);
    return 0;
}
