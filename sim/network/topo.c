/* topo.c: 1-D dragonfly topology, CODES wiring rule and presets (the
 * wiring files' bytes are src/formats/wiring.c's).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "topo.h"

#define GIB 1073741824.0

int
bbs_net_params_check(const bbs_net_params *par, char *err)
{
    if (par->g < 2 || par->a < 1 || par->p < 1 || par->h < 1)
        return bb_seterr(err, BB_EINVAL,
                         "dragonfly shape g=%d a=%d p=%d h=%d: need g >= 2 and a, p, h >= 1",
                         par->g, par->a, par->p, par->h);
    if (par->g > BBS_NET_MAX_GROUPS)
        return bb_seterr(err, BB_EINVAL, "dragonfly of %d groups: at most %d", par->g,
                         BBS_NET_MAX_GROUPS);
    if ((double)par->g * par->a * par->p > INT_MAX / 4
        || (double)par->g * par->a * (par->a + par->h) > INT_MAX / 4)
        return bb_seterr(err, BB_EINVAL, "dragonfly g=%d a=%d p=%d h=%d is too large",
                         par->g, par->a, par->p, par->h);
    if (!(par->cn_bw_Bps > 0) || !(par->local_bw_Bps > 0) || !(par->global_bw_Bps > 0))
        return bb_seterr(err, BB_EINVAL, "link bandwidths must be > 0 (terminal %g, local %g, "
                         "global %g B/s)", par->cn_bw_Bps, par->local_bw_Bps,
                         par->global_bw_Bps);
    if (!(par->router_delay_s >= 0) || !(par->cn_delay_s >= 0) || !(par->local_delay_s >= 0)
        || !(par->global_delay_s >= 0))
        return bb_seterr(err, BB_EINVAL, "delays must be >= 0");
    if (!(par->port_chunk_bytes >= 0 && par->port_chunk_bytes < 1e15))
        return bb_seterr(err, BB_EINVAL, "the router's chunk must be >= 0 B and finite");
    if (!(par->cn_vc_bytes >= 0 && par->cn_vc_bytes < 1e15) || !(par->local_vc_bytes >= 0
        && par->local_vc_bytes < 1e15) || !(par->global_vc_bytes >= 0 && par->global_vc_bytes < 1e15))
        return bb_seterr(err, BB_EINVAL, "virtual-channel buffers must be >= 0 B and finite");
    if (par->bb_per_group < 0 || par->bb_per_group >= par->a * par->p)
        return bb_seterr(err, BB_EINVAL,
                         "%d burst-buffer nodes per group: need 0 <= k < a*p = %d",
                         par->bb_per_group, par->a * par->p);
    if (par->compute_per_group < 0 || par->compute_per_group > par->a * par->p)
        return bb_seterr(err, BB_EINVAL,
                         "%d compute nodes per group: need 0 <= k <= a*p = %d",
                         par->compute_per_group, par->a * par->p);
    return BB_OK;
}

double
bbs_net_topo_estimate(const bbs_net_params *par)
{
    double g = par->g, a = par->a, p = par->p, h = par->h;
    double R = g * a, N = R * p;
    double links = 2 * N + g * a * (a - 1) + R * h;

    /* per link: ends, kind, multiplicity, capacity (and the fabric's state
     * later, about as much again); per node: kind and index; router-local
     * table; two g x g int tables; the wiring, held twice */
    return links * 2.0 * (4 + 4 + 1 + 4 + 8) + N * 5.0 + R * a * 4.0 + g * g * 8.0
           + (g * a * (a - 1) + R * h) * 2.0 * 3.0 * 4.0 * 2.0;
}

void
bbs_net_wiring_free(bbs_net_wiring *w)
{
    if (!w)
        return;
    free(w->intra);
    free(w->inter);
    memset(w, 0, sizeof *w);
}

int
bbs_net_wiring_generate(int g, int a, int h, bbs_net_wiring *w, char *err)
{
    size_t k = 0;
    int i = 0;

    memset(w, 0, sizeof *w);
    if (g < 2 || a < 1 || h < 1)
        return bb_seterr(err, BB_EINVAL, "dragonfly g=%d a=%d h=%d: need g >= 2, a, h >= 1",
                         g, a, h);
    if ((a * h) % (g - 1) != 0)
        return bb_seterr(err, BB_EINVAL,
                         "CODES' wiring rule needs a*h = %d to be a multiple of g-1 = %d "
                         "(one or more links between every pair of groups)", a * h, g - 1);
    w->nintra = (size_t)a * (a - 1);
    w->ninter = (size_t)g * a * h;
    w->intra = malloc((w->nintra ? w->nintra : 1) * sizeof *w->intra);
    w->inter = malloc(w->ninter * sizeof *w->inter);
    if (!w->intra || !w->inter) {
        bbs_net_wiring_free(w);
        return bb_seterr(err, BB_ENOMEM, "out of memory for the wiring");
    }
    for (int s = 0; s < a; s++)
        for (int d = 0; d < a; d++)
            if (s != d) {
                w->intra[k][0] = s;
                w->intra[k][1] = d;
                w->intra[k][2] = 0;
                k++;
            }
    k = 0;
    for (int gi = 0; gi < g; gi++)
        for (int gl = 0; gl < a * h; gl++, i++) {
            int src = (i / h) % a;
            int other = (gi + 1 + gl % (g - 1)) % g; /* the rotated list */
            w->inter[k][0] = gi * a + src;
            w->inter[k][1] = other * a + (a - 1 - src);
            k++;
        }
    return BB_OK;
}

void
bbs_net_topo_free(bbs_net_topo *t)
{
    if (!t)
        return;
    free(t->link_src);
    free(t->link_dst);
    free(t->link_kind);
    free(t->link_mult);
    free(t->link_cap_Bps);
    free(t->local_link);
    free(t->gl_off);
    free(t->gl_link);
    free(t->node_kind);
    free(t->compute_nodes);
    free(t);
}

static int
cmp_pair(const void *x, const void *y)
{
    const int *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Check the records and count distinct router pairs; fills the sorted
 * pair lists (global router ids). */
static int
check_wiring(const bbs_net_params *par, const bbs_net_wiring *w, int *loc, int *glob,
             char *err)
{
    int g = par->g, a = par->a, h = par->h, R = g * a;

    for (size_t i = 0; i < w->nintra; i++) {
        int s = w->intra[i][0], d = w->intra[i][1];
        if (s < 0 || s >= a || d < 0 || d >= a)
            return bb_seterr(err, BB_EDATA,
                             "intra-group wiring record %zu: router %d -> %d is out of range "
                             "0..%d (a = %d routers per group)", i + 1, s, d, a - 1, a);
        if (s == d)
            return bb_seterr(err, BB_EDATA, "intra-group wiring record %zu: router %d links "
                             "to itself", i + 1, s);
        loc[2 * i] = s;
        loc[2 * i + 1] = d;
    }
    qsort(loc, w->nintra, 2 * sizeof(int), cmp_pair);
    /* all-to-all: every ordered pair present at least once */
    {
        size_t k = 0;
        for (int s = 0; s < a; s++)
            for (int d = 0; d < a; d++) {
                if (s == d)
                    continue;
                while (k < w->nintra && (loc[2 * k] < s || (loc[2 * k] == s && loc[2 * k + 1] < d)))
                    k++;
                if (k >= w->nintra || loc[2 * k] != s || loc[2 * k + 1] != d)
                    return bb_seterr(err, BB_EDATA,
                                     "intra-group wiring has no link from router %d to %d: a "
                                     "1-D dragonfly group is all-to-all (a = %d)", s, d, a);
            }
    }
    if (w->ninter != (size_t)R * h)
        return bb_seterr(err, BB_EDATA,
                         "inter-group wiring has %zu links, expected g*a*h = %d*%d*%d = %d "
                         "(h global channels per router)", w->ninter, g, a, h, R * h);
    {
        int *cnt = calloc((size_t)R, sizeof(int));
        if (!cnt)
            return bb_seterr(err, BB_ENOMEM, "out of memory");
        for (size_t i = 0; i < w->ninter; i++) {
            int s = w->inter[i][0], d = w->inter[i][1];
            if (s < 0 || s >= R || d < 0 || d >= R) {
                free(cnt);
                return bb_seterr(err, BB_EDATA,
                                 "inter-group wiring record %zu: router %d -> %d is out of range "
                                 "0..%d (g*a = %d routers)", i + 1, s, d, R - 1, R);
            }
            if (s / a == d / a) {
                free(cnt);
                return bb_seterr(err, BB_EDATA,
                                 "inter-group wiring record %zu: router %d -> %d stays in group %d",
                                 i + 1, s, d, s / a);
            }
            cnt[s]++;
            glob[2 * i] = s;
            glob[2 * i + 1] = d;
        }
        for (int r = 0; r < R; r++)
            if (cnt[r] != h) {
                int c = cnt[r];
                free(cnt);
                return bb_seterr(err, BB_EDATA,
                                 "inter-group wiring: router %d has %d global links, expected "
                                 "h = %d", r, c, h);
            }
        free(cnt);
    }
    qsort(glob, w->ninter, 2 * sizeof(int), cmp_pair);
    /* symmetric: the multiset of (s,d) equals that of (d,s) */
    for (size_t i = 0; i < w->ninter;) {
        size_t j = i, m, lo = 0, hi = w->ninter, cnt_rev = 0;
        int key[2];
        while (j < w->ninter && glob[2 * j] == glob[2 * i] && glob[2 * j + 1] == glob[2 * i + 1])
            j++;
        m = j - i;
        key[0] = glob[2 * i + 1];
        key[1] = glob[2 * i];
        while (lo < hi) { /* lower bound of key */
            size_t mid = (lo + hi) / 2;
            if (cmp_pair(glob + 2 * mid, key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        while (lo + cnt_rev < w->ninter && cmp_pair(glob + 2 * (lo + cnt_rev), key) == 0)
            cnt_rev++;
        if (cnt_rev != m)
            return bb_seterr(err, BB_EDATA,
                             "inter-group wiring is not symmetric: %zu link(s) %d -> %d but %zu "
                             "back", m, glob[2 * i], glob[2 * i + 1], cnt_rev);
        i = j;
    }
    return BB_OK;
}

int
bbs_net_topo_build(const bbs_net_params *par, const bbs_net_wiring *w_in, bbs_net_topo **out,
                   char *err)
{
    bbs_net_wiring gen = { 0 };
    const bbs_net_wiring *w = w_in;
    bbs_net_topo *t = NULL;
    int *loc = NULL, *glob = NULL, *seen = NULL;
    int rc, g, a, p, R, N, nl = 0, ngl = 0;

    *out = NULL;
    if ((rc = bbs_net_params_check(par, err)) != BB_OK)
        return rc;
    g = par->g;
    a = par->a;
    p = par->p;
    R = g * a;
    N = R * p;
    if (!w) {
        if ((rc = bbs_net_wiring_generate(g, a, par->h, &gen, err)) != BB_OK)
            return rc;
        w = &gen;
    }
    rc = BB_ENOMEM;
    loc = malloc((w->nintra + 1) * 2 * sizeof(int));
    glob = malloc((w->ninter + 1) * 2 * sizeof(int));
    t = calloc(1, sizeof *t);
    if (!loc || !glob || !t) {
        bb_seterr(err, rc, "out of memory building the topology");
        goto out;
    }
    if ((rc = check_wiring(par, w, loc, glob, err)) != BB_OK)
        goto out;
    /* distinct pairs */
    for (size_t i = 0; i < w->nintra; i++)
        if (i == 0 || cmp_pair(loc + 2 * i, loc + 2 * (i - 1)) != 0)
            nl++;
    for (size_t i = 0; i < w->ninter; i++)
        if (i == 0 || cmp_pair(glob + 2 * i, glob + 2 * (i - 1)) != 0)
            ngl++;
    t->par = *par;
    t->nodes = N;
    t->routers = R;
    t->nlocal = nl * g;
    t->nglobal = ngl;
    t->nlinks = 2 * N + t->nlocal + t->nglobal;
    rc = BB_ENOMEM;
    t->link_src = malloc((size_t)t->nlinks * sizeof(int));
    t->link_dst = malloc((size_t)t->nlinks * sizeof(int));
    t->link_kind = malloc((size_t)t->nlinks);
    t->link_mult = malloc((size_t)t->nlinks * sizeof(int));
    t->link_cap_Bps = malloc((size_t)t->nlinks * sizeof(double));
    t->local_link = malloc((size_t)R * a * sizeof(int));
    t->gl_off = calloc((size_t)g * g + 1, sizeof(int));
    t->gl_link = malloc((size_t)(ngl ? ngl : 1) * sizeof(int));
    t->node_kind = malloc((size_t)N);
    t->compute_nodes = malloc((size_t)N * sizeof(int));
    seen = calloc((size_t)g * g, sizeof(int));
    if (!t->link_src || !t->link_dst || !t->link_kind || !t->link_mult || !t->link_cap_Bps
        || !t->local_link || !t->gl_off || !t->gl_link || !t->node_kind || !t->compute_nodes
        || !seen) {
        bb_seterr(err, rc, "out of memory building the topology (%d links)", t->nlinks);
        goto out;
    }
    for (int n = 0; n < N; n++) {
        int r = n / p;
        t->link_src[n] = -1 - n;
        t->link_dst[n] = r;
        t->link_kind[n] = BBS_NET_LINK_INJ;
        t->link_src[N + n] = r;
        t->link_dst[N + n] = -1 - n;
        t->link_kind[N + n] = BBS_NET_LINK_EJ;
        t->link_mult[n] = t->link_mult[N + n] = 1;
        t->link_cap_Bps[n] = par->cn_bw_Bps;
        t->link_cap_Bps[N + n] = par->cn_bw_Bps;
        int off = n % (a * p);
        t->node_kind[n] = off < par->bb_per_group ? BBS_NET_NODE_BB : 0;
        if (par->compute_per_group > 0 ? off < par->compute_per_group : off >= par->bb_per_group)
            t->node_kind[n] |= BBS_NET_NODE_COMPUTE;
        if (t->node_kind[n] & BBS_NET_NODE_COMPUTE)
            t->compute_nodes[t->ncompute++] = n;
    }
    for (int i = 0; i < R * a; i++)
        t->local_link[i] = -1;
    {
        int id = 2 * N;
        for (int gi = 0; gi < g; gi++)
            for (size_t i = 0; i < w->nintra; i++) {
                int s = gi * a + loc[2 * i], d = gi * a + loc[2 * i + 1];
                if (i > 0 && cmp_pair(loc + 2 * i, loc + 2 * (i - 1)) == 0) {
                    t->link_mult[id - 1]++;
                    t->link_cap_Bps[id - 1] += par->local_bw_Bps;
                    continue;
                }
                t->link_src[id] = s;
                t->link_dst[id] = d;
                t->link_kind[id] = BBS_NET_LINK_LOCAL;
                t->link_mult[id] = 1;
                t->link_cap_Bps[id] = par->local_bw_Bps;
                t->local_link[s * a + loc[2 * i + 1]] = id;
                id++;
            }
        for (size_t i = 0; i < w->ninter; i++) {
            int s = glob[2 * i], d = glob[2 * i + 1];
            if (i > 0 && cmp_pair(glob + 2 * i, glob + 2 * (i - 1)) == 0) {
                t->link_mult[id - 1]++;
                t->link_cap_Bps[id - 1] += par->global_bw_Bps;
                continue;
            }
            t->link_src[id] = s;
            t->link_dst[id] = d;
            t->link_kind[id] = BBS_NET_LINK_GLOBAL;
            t->link_mult[id] = 1;
            t->link_cap_Bps[id] = par->global_bw_Bps;
            t->gl_off[(s / a) * g + d / a + 1]++;
            id++;
        }
    }
    for (int i = 0; i < g * g; i++)
        t->gl_off[i + 1] += t->gl_off[i];
    for (int l = 2 * N + t->nlocal; l < t->nlinks; l++) {
        int x = t->link_src[l] / a, y = t->link_dst[l] / a;
        t->gl_link[t->gl_off[x * g + y] + seen[x * g + y]++] = l;
    }
    for (int x = 0; x < g; x++)
        for (int y = 0; y < g; y++)
            if (x != y && seen[x * g + y] == 0) {
                rc = bb_seterr(err, BB_EDATA,
                               "inter-group wiring leaves group %d without a link to group %d: "
                               "not a 1-D dragonfly", x, y);
                goto out;
            }
    *out = t;
    t = NULL;
    rc = BB_OK;
out:
    free(seen);
    free(loc);
    free(glob);
    bbs_net_wiring_free(&gen);
    bbs_net_topo_free(t);
    return rc;
}

double
bbs_net_link_wire_Bps(const bbs_net_topo *t, int l)
{
    const bbs_net_params *par = &t->par;
    int k = t->link_kind[l];
    double bw = k == BBS_NET_LINK_LOCAL ? par->local_bw_Bps
                : k == BBS_NET_LINK_GLOBAL ? par->global_bw_Bps : par->cn_bw_Bps;
    return bw * t->link_mult[l];
}

static const char *const preset_names[] = { "graph500-72", "mfnetsim-1056", "balanced-16k",
                                            NULL };

const char *const *
bbs_net_preset_names(void)
{
    return preset_names;
}

int
bbs_net_preset(const char *name, bbs_net_params *par, char *err)
{
    memset(par, 0, sizeof *par);
    if (strcmp(name, "graph500-72") == 0) {
        /* Paper 002 Table IV: 72 nodes, 7-port routers (h = 2 global, p = 2
         * injection, 3 local), 4 routers per group, 9 groups, 40 Gb/s
         * QDR/FDR10 InfiniBand links, latencies 50/500 cycles local/global
         * and 200 cycles per router.  The cycle time is not given: 1 ns is
         * assumed. */
        par->g = 9;
        par->a = 4;
        par->p = 2;
        par->h = 2;
        par->cn_bw_Bps = par->local_bw_Bps = par->global_bw_Bps = 40e9 / 8;
        par->router_delay_s = 200e-9;
        par->cn_delay_s = 50e-9;
        par->local_delay_s = 50e-9;
        par->global_delay_s = 500e-9;
        par->bb_per_group = 0;
    } else if (strcmp(name, "mfnetsim-1056") == 0) {
        /* Paper 001 Table 2 and MFNetSim's dally-1056-min.conf: 33 groups x
         * 8 routers x 4 nodes, h = 4; cn 16, local 5.25, global 4.7 GiB/s
         * as CODES reads the file (the paper text says 4.37 GiB/s, i.e.
         * 4.7 GB/s); CODES' default router delay 100 ns; a link latency
         * of one chunk (the file's chunk_size, 4,096 B) at the link's
         * bandwidth, the default of dragonfly-dally on the kronos-union
         * branch MFNetSim builds (cn_delay, local_delay, global_delay:
         * every chunk arrives that long after its serialization,
         * router_packet_send).
         * Its LP groups: per group 2 codes-store servers and 30 clients on
         * 32 terminals, mapped group-modulo (servers on the clients'
         * terminals 0 and 1, terminals 30 and 31 idle). */
        par->g = 33;
        par->a = 8;
        par->p = 4;
        par->h = 4;
        par->cn_bw_Bps = 16.0 * GIB;
        par->local_bw_Bps = 5.25 * GIB;
        par->global_bw_Bps = 4.7 * GIB;
        par->router_delay_s = 100e-9;
        par->cn_delay_s = 4096 / par->cn_bw_Bps;
        par->local_delay_s = 4096 / par->local_bw_Bps;
        par->global_delay_s = 4096 / par->global_bw_Bps;
        par->bb_per_group = 2;
        par->compute_per_group = 30;
        /* its cn_vc_size, local_vc_size, global_vc_size */
        par->cn_vc_bytes = 32768;
        par->local_vc_bytes = par->global_vc_bytes = 16384;
    } else if (strcmp(name, "balanced-16k") == 0) {
        /* Kim et al.'s balanced dragonfly a = 2p = 2h with p = 8: 129
         * groups of 16 routers, 16,512 nodes, every link 16 GiB/s. */
        par->g = 129;
        par->a = 16;
        par->p = 8;
        par->h = 8;
        par->cn_bw_Bps = par->local_bw_Bps = par->global_bw_Bps = 16.0 * GIB;
        par->router_delay_s = 100e-9;
        par->bb_per_group = 0;
    } else {
        return bb_seterr(err, BB_EINVAL,
                         "unknown topology preset '%s' (expected graph500-72, mfnetsim-1056 "
                         "or balanced-16k, or a CODES .conf file)", name);
    }
    return BB_OK;
}

const char *
bbs_net_link_kind_name(int kind)
{
    switch (kind) {
    case BBS_NET_LINK_INJ: return "injection";
    case BBS_NET_LINK_EJ: return "ejection";
    case BBS_NET_LINK_LOCAL: return "local";
    case BBS_NET_LINK_GLOBAL: return "global";
    default: return "?";
    }
}
