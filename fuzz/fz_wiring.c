/* fz_wiring.c: fuzz harness for CODES' binary wiring files (intra- and
 * inter-group connections, src/formats/wiring.c) and the checks that turn
 * them into a dragonfly.  Input: 4 bytes (g, a, h, split), then the intra
 * file's bytes up to the split point, then the inter file's.  The shape is
 * kept small (g <= 9, a <= 8, h <= 4) so that a run stays fast.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "fuzz.h"
#include "wiring.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN];
    bbs_net_params par;
    bbs_net_wiring wi, we, w;
    bbs_net_topo *t = NULL;
    size_t n, split;

    if (size < 4)
        return 0;
    memset(&par, 0, sizeof par);
    par.g = 2 + data[0] % 8;
    par.a = 1 + data[1] % 8;
    par.h = 1 + data[2] % 4;
    par.p = 2;
    par.cn_bw_Bps = par.local_bw_Bps = par.global_bw_Bps = 1e9;
    par.router_delay_s = 1e-7;
    n = size - 4;
    split = n * data[3] / 255;
    memset(&wi, 0, sizeof wi);
    memset(&we, 0, sizeof we);
    if (bbs_net_wiring_parse_intra(&wi, data + 4, split, "fuzz-intra", err) == BB_OK
        && bbs_net_wiring_parse_inter(&we, data + 4 + split, n - split, "fuzz-inter", err)
               == BB_OK) {
        w.nintra = wi.nintra;
        w.intra = wi.intra;
        w.ninter = we.ninter;
        w.inter = we.inter;
        if (bbs_net_topo_build(&par, &w, &t, err) == BB_OK)
            bbs_net_topo_free(t);
    }
    bbs_net_wiring_free(&wi);
    bbs_net_wiring_free(&we);
    return 0;
}
