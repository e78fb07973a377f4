/* route.c: minimal, Valiant and adaptive routing on the dragonfly.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "bb_error.h"
#include "route.h"

int
bbs_net_route_parse(const char *name, int *kind, char *err)
{
    if (!strcmp(name, "min") || !strcmp(name, "minimal"))
        *kind = BBS_NET_ROUTE_MIN;
    else if (!strcmp(name, "val") || !strcmp(name, "valiant") || !strcmp(name, "nonminimal")
             || !strcmp(name, "non-minimal"))
        *kind = BBS_NET_ROUTE_VAL;
    else if (!strcmp(name, "adaptive") || !strcmp(name, "ugal"))
        *kind = BBS_NET_ROUTE_ADAPTIVE;
    else if (!strcmp(name, "par") || !strcmp(name, "prog-adaptive"))
        *kind = BBS_NET_ROUTE_PAR;
    else
        return bb_seterr(err, BB_EINVAL,
                         "unknown routing '%s' (expected min, val, adaptive or par)", name);
    return BB_OK;
}

const char *
bbs_net_route_name(int kind)
{
    switch (kind) {
    case BBS_NET_ROUTE_MIN: return "min";
    case BBS_NET_ROUTE_VAL: return "val";
    case BBS_NET_ROUTE_ADAPTIVE: return "adaptive";
    case BBS_NET_ROUTE_PAR: return "par";
    default: return "?";
    }
}

int
bbs_net_route_is_adaptive(int kind)
{
    return kind == BBS_NET_ROUTE_ADAPTIVE || kind == BBS_NET_ROUTE_PAR;
}

/* A random group other than x and y (x != y, g >= 3). */
static int
other_group(int g, int x, int y, gsl_rng *rng)
{
    int xi = (int)gsl_rng_uniform_int(rng, (unsigned long)(g - 2));
    int lo = x < y ? x : y, hi = x < y ? y : x;

    if (xi >= lo)
        xi++;
    if (xi >= hi)
        xi++;
    return xi;
}

/* Append the minimal router-level hops from router r to group y (r not in
 * y): [local to the gateway,] global.  Returns the arrival router. */
static int
to_group(const bbs_net_topo *t, int r, int y, gsl_rng *rng, int *path, int *len)
{
    int a = t->par.a, x = r / a;
    int n = bbs_net_topo_nglobal(t, x, y);
    const int *gl = bbs_net_topo_global_links(t, x, y);
    int l = gl[n > 1 ? (int)gsl_rng_uniform_int(rng, (unsigned long)n) : 0];
    int gw = t->link_src[l];

    if (gw != r)
        path[(*len)++] = t->local_link[r * a + gw % a];
    path[(*len)++] = l;
    return t->link_dst[l];
}

static int
minimal(const bbs_net_topo *t, int src, int dst, gsl_rng *rng, int *path)
{
    int a = t->par.a, len = 0;
    int rs = BBS_NET_NODE_ROUTER(t, src), rd = BBS_NET_NODE_ROUTER(t, dst);

    path[len++] = BBS_NET_INJ(t, src);
    if (rs / a != rd / a)
        rs = to_group(t, rs, rd / a, rng, path, &len);
    if (rs != rd)
        path[len++] = t->local_link[rs * a + rd % a];
    path[len++] = BBS_NET_EJ(t, dst);
    return len;
}

static int
valiant(const bbs_net_topo *t, int src, int dst, gsl_rng *rng, int *path)
{
    int a = t->par.a, g = t->par.g, len = 0;
    int rs = BBS_NET_NODE_ROUTER(t, src), rd = BBS_NET_NODE_ROUTER(t, dst);
    int xs = rs / a, xd = rd / a;

    path[len++] = BBS_NET_INJ(t, src);
    if (xs == xd) {
        if (a >= 3 && rs != rd) {
            /* a random router of the group other than both ends */
            int k = (int)gsl_rng_uniform_int(rng, (unsigned long)(a - 2)), m = 0;
            for (int j = 0; j < a; j++) {
                int r = xs * a + j;
                if (r == rs || r == rd)
                    continue;
                if (m++ == k) {
                    path[len++] = t->local_link[rs * a + j];
                    rs = r;
                    break;
                }
            }
        }
    } else if (g >= 3) {
        int xi = other_group(g, xs, xd, rng);
        rs = to_group(t, rs, xi, rng, path, &len);
        rs = to_group(t, rs, xd, rng, path, &len);
    } else {
        rs = to_group(t, rs, xd, rng, path, &len);
    }
    if (rs != rd)
        path[len++] = t->local_link[rs * a + rd % a];
    path[len++] = BBS_NET_EJ(t, dst);
    return len;
}

double
bbs_net_link_vc_bytes(const bbs_net_topo *t, int l)
{
    switch (t->link_kind[l]) {
    case BBS_NET_LINK_INJ: return t->par.cn_vc_bytes;
    case BBS_NET_LINK_LOCAL: return t->par.local_vc_bytes;
    case BBS_NET_LINK_GLOBAL: return t->par.global_vc_bytes;
    default: return 0;
    }
}

int
bbs_net_path_router_hops(const bbs_net_topo *t, const int *path, int len)
{
    int h = 0;

    for (int i = 0; i < len; i++)
        h += t->link_kind[path[i]] >= BBS_NET_LINK_LOCAL;
    return h;
}

int
bbs_net_vc_scheme_parse(const char *name, int *scheme, char *err)
{
    if (!strcmp(name, "group") || !strcmp(name, "kronos-union"))
        *scheme = BBS_NET_VC_GROUP;
    else if (!strcmp(name, "legacy"))
        *scheme = BBS_NET_VC_LEGACY;
    else
        return bb_seterr(err, BB_EINVAL, "unknown channel scheme '%s' (known: group, legacy)",
                         name);
    return BB_OK;
}

const char *
bbs_net_vc_scheme_name(int scheme)
{
    return scheme == BBS_NET_VC_LEGACY ? "legacy" : "group";
}

/* The legacy rule reads only the kinds of the links. */
static void
path_vc_legacy(const bbs_net_topo *t, const int *path, int len, unsigned char *vc)
{
    int globals = 0, last_global = 0;

    for (int i = 0; i < len; i++) {
        int k = t->link_kind[path[i]];
        if (k == BBS_NET_LINK_GLOBAL) {
            vc[i] = (unsigned char)globals;
            globals++;
            last_global = 1;
        } else if (k == BBS_NET_LINK_LOCAL) {
            vc[i] = globals == 0 ? 0 : globals >= 2 ? 3 : last_global ? 1 : 2;
            last_global = 0;
        } else {
            vc[i] = 0;
        }
    }
}

void
bbs_net_path_vc(const bbs_net_topo *t, const int *path, int len, int scheme, unsigned char *vc)
{
    int gs, gd, local = 0;

    if (scheme == BBS_NET_VC_LEGACY) {
        path_vc_legacy(t, path, len, vc);
        return;
    }
    /* the source group is that of the first router, the destination's
     * that of the last (a terminal end is -1 - node) */
    gs = BBS_NET_ROUTER_GROUP(t, t->link_dst[path[0]]);
    gd = BBS_NET_ROUTER_GROUP(t, t->link_src[path[len - 1]]);
    for (int i = 0; i < len; i++) {
        int r = t->link_src[path[i]], g;
        if (r < 0) { /* the terminal's link into its router */
            vc[i] = 0;
            continue;
        }
        g = BBS_NET_ROUTER_GROUP(t, r);
        vc[i] = g == gs ? (unsigned char)(local < 1 ? local : 1) : g == gd ? 3 : 2;
        local += t->link_kind[path[i]] == BBS_NET_LINK_LOCAL;
    }
}

double
bbs_net_path_delay_s(const bbs_net_topo *t, const int *path, int len)
{
    double d = 0;

    for (int i = 0; i < len; i++) {
        switch (t->link_kind[path[i]]) {
        case BBS_NET_LINK_LOCAL: d += t->par.local_delay_s; break;
        case BBS_NET_LINK_GLOBAL: d += t->par.global_delay_s; break;
        default: d += t->par.cn_delay_s; break;
        }
    }
    /* every router-to-router hop enters one more router; plus the first */
    return d + (bbs_net_path_router_hops(t, path, len) + 1) * t->par.router_delay_s;
}

/* UGAL cost: router hops (at least 1) x the most loaded router link. */
static double
cost(const bbs_net_topo *t, const int *path, int len, const int *link_flows)
{
    double worst = 0;
    int hops = 0;

    for (int i = 0; i < len; i++) {
        int l = path[i];
        if (t->link_kind[l] < BBS_NET_LINK_LOCAL)
            continue;
        hops++;
        double q = (link_flows[l] + 1) / t->link_cap_Bps[l];
        if (q > worst)
            worst = q;
    }
    if (hops == 0)
        return 0;
    return hops * worst;
}

int
bbs_net_route(const bbs_net_topo *t, const bbs_net_route_opts *o, int src, int dst,
              gsl_rng *r, const int *link_flows, int *path, int *took_min)
{
    int len;

    if (took_min)
        *took_min = 1;
    switch (o->kind) {
    case BBS_NET_ROUTE_VAL:
        if (took_min)
            *took_min = 0;
        return valiant(t, src, dst, r, path);
    case BBS_NET_ROUTE_PAR:
        return bbs_net_route_par(t, o, src, dst, r, NULL, NULL, path, took_min);
    case BBS_NET_ROUTE_ADAPTIVE:
        len = minimal(t, src, dst, r, path);
        if (link_flows) {
            double cmin = cost(t, path, len, link_flows), best = 0;
            int cand[BBS_NET_MAX_PATH], bl = 0, k = o->candidates > 0 ? o->candidates : 1;
            for (int i = 0; i < k; i++) {
                int tmp[BBS_NET_MAX_PATH];
                int tl = valiant(t, src, dst, r, tmp);
                double c = cost(t, tmp, tl, link_flows);
                if (i == 0 || c < best) {
                    best = c;
                    bl = tl;
                    memcpy(cand, tmp, (size_t)tl * sizeof(int));
                }
            }
            if (cmin > (1.0 + o->bias) * best) {
                memcpy(path, cand, (size_t)bl * sizeof(int));
                len = bl;
                if (took_min)
                    *took_min = 0;
            }
        }
        return len;
    default:
        return minimal(t, src, dst, r, path);
    }
}

/* Progressive adaptive routing (bbs_net_route_par). */
typedef struct {
    const bbs_net_topo *t;
    gsl_rng *r;
    bbs_net_port_occ_fn occ;
    void *ctx;
    int k;                       /* global links polled */
} par_ctx;

/* Keep link l if its occupancy beats the best so far; ties at random,
 * each of n tied links kept with probability 1/n (CODES draws one of the
 * tied best). */
static void
par_consider(const par_ctx *p, int l, int *best, double *bs, int *nties)
{
    double s = p->occ ? p->occ(l, p->ctx) : 0;

    if (*best < 0 || s < *bs) {
        *best = l;
        *bs = s;
        *nties = 1;
    } else if (s == *bs && gsl_rng_uniform_int(p->r, (unsigned long)++*nties) == 0) {
        *best = l;
    }
}

/* The best next hop from router cur towards group y (cur not in y): one of
 * cur's global links to y (the best of k polled at random,
 * dfdally_get_best_from_k_connections), or, when cur has none, the best
 * local link to a router of its group that has one
 * (get_absolute_best_connection_from_conns).  -1 when y cannot be reached
 * (no global link joins the groups).  *score: its occupancy. */
static int
par_towards(const par_ctx *p, int cur, int y, double *score)
{
    const bbs_net_topo *t = p->t;
    int a = t->par.a, x = BBS_NET_ROUTER_GROUP(t, cur), n = bbs_net_topo_nglobal(t, x, y);
    const int *gl = bbs_net_topo_global_links(t, x, y);
    int best = -1, nties = 0, nd = 0;

    *score = 0;
    for (int i = 0; i < n; i++)
        nd += t->link_src[gl[i]] == cur;
    if (nd > 0) {
        /* poll min(k, nd) of cur's nd links without replacement: the i-th
         * is taken with probability (still wanted) / (still left) */
        int want = nd < p->k ? nd : p->k, left = nd;
        for (int i = 0; i < n && want > 0; i++) {
            if (t->link_src[gl[i]] != cur)
                continue;
            if (want < left && gsl_rng_uniform_int(p->r, (unsigned long)left) >= (unsigned long)want) {
                left--;
                continue;
            }
            par_consider(p, gl[i], &best, score, &nties);
            want--;
            left--;
        }
        return best;
    }
    for (int i = 0; i < n; i++) {
        int gw = t->link_src[gl[i]], dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = t->link_src[gl[j]] == gw;
        if (!dup)
            par_consider(p, t->local_link[cur * a + gw % a], &best, score, &nties);
    }
    return best;
}

/* Whether router cur has a global link to group y. */
static int
par_has_global(const bbs_net_topo *t, int cur, int y)
{
    int x = BBS_NET_ROUTER_GROUP(t, cur);
    const int *gl = bbs_net_topo_global_links(t, x, y);

    for (int i = 0; i < bbs_net_topo_nglobal(t, x, y); i++)
        if (t->link_src[gl[i]] == cur)
            return 1;
    return 0;
}

/* A new intermediate group for a router of the source group that has no
 * global link to the one drawn: one of the groups its own global links
 * reach, other than xs and xd, at random (dfdally_select_intermediate_group);
 * -1 when there is none. */
static int
par_repick(const par_ctx *p, int cur, int xs, int xd)
{
    int pick = -1, n = 0;

    for (int y = 0; y < p->t->par.g; y++)
        if (y != xs && y != xd && par_has_global(p->t, cur, y)
            && gsl_rng_uniform_int(p->r, (unsigned long)++n) == 0)
            pick = y;
    return pick;
}

int
bbs_net_route_par(const bbs_net_topo *t, const bbs_net_route_opts *o, int src, int dst,
                  gsl_rng *r, bbs_net_port_occ_fn occ, void *ctx, int *path, int *took_min)
{
    int a = t->par.a, g = t->par.g, len = 0, nonmin = 0;
    int rs = BBS_NET_NODE_ROUTER(t, src), rd = BBS_NET_NODE_ROUTER(t, dst);
    int xs = rs / a, xd = rd / a, cur = rs, xi;
    double factor = 2.0 * (1.0 + o->bias);
    par_ctx p = { t, r, occ, ctx, o->candidates > 0 ? o->candidates : 1 };

    if (took_min)
        *took_min = 1;
    if (xs == xd || g < 3 || !occ)
        return minimal(t, src, dst, r, path);
    path[len++] = BBS_NET_INJ(t, src);
    xi = other_group(g, xs, xd, r);
    /* the routers of the source group: the source, and at most one more */
    for (;;) {
        double smin, snon = 0;
        int lmin = par_towards(&p, cur, xd, &smin), lnon = -1, l;
        if (cur != rs && !par_has_global(t, cur, xi))
            xi = par_repick(&p, cur, xs, xd);
        if (xi >= 0)
            lnon = par_towards(&p, cur, xi, &snon);
        if (nonmin && lnon >= 0)
            l = lnon;
        else if (lnon < 0 || smin <= factor * snon)
            l = lmin;
        else {
            l = lnon;
            nonmin = 1;
        }
        path[len++] = l;
        cur = t->link_dst[l];
        if (t->link_kind[l] == BBS_NET_LINK_GLOBAL)
            break;
    }
    /* minimal from here: an intermediate group's routers, then the
     * destination group's */
    while (BBS_NET_ROUTER_GROUP(t, cur) != xd) {
        double s;
        int l = par_towards(&p, cur, xd, &s);
        path[len++] = l;
        cur = t->link_dst[l];
    }
    if (cur != rd)
        path[len++] = t->local_link[cur * a + rd % a];
    path[len++] = BBS_NET_EJ(t, dst);
    if (took_min)
        *took_min = !nonmin;
    return len;
}
