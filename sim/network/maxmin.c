/* maxmin.c: progressive filling with a lazy heap of links.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "grow.h"
#include "maxmin.h"

typedef struct {
    double key;
    int link;
    int ver;
} hent;

struct bbs_net_mm_ws {
    int cap_links;
    size_t cap_flows, cap_path, cap_last, cap_heap;
    double *rem;
    int *cnt, *ver, *loff, *lflows, *fill;
    unsigned char *frozen, *last; /* last: per path entry, the path's last
                                     occurrence of its link */
    hent *heap;
    int nheap;
    /* strict priority: (link, class) pairs */
    size_t cap_pairs, cap_ppath, cap_pflows;
    int *pair_of, *ppath;        /* link * CLASSES + class -> pair; pair path */
    int *pair_link, *pair_cls;   /* pair -> link, class */
    double *pcap, *use, *scale, *ptgt; /* ptgt: a pair's target in the last pass */
    unsigned char *psat;
    int passes;                  /* of the last solve */
};

bbs_net_mm_ws *
bbs_net_mm_ws_alloc(void)
{
    return calloc(1, sizeof(bbs_net_mm_ws));
}

int
bbs_net_mm_ws_passes(const bbs_net_mm_ws *ws)
{
    return ws->passes;
}

void
bbs_net_mm_ws_free(bbs_net_mm_ws *ws)
{
    if (!ws)
        return;
    free(ws->rem);
    free(ws->cnt);
    free(ws->ver);
    free(ws->loff);
    free(ws->lflows);
    free(ws->fill);
    free(ws->frozen);
    free(ws->last);
    free(ws->heap);
    free(ws->pair_of);
    free(ws->ppath);
    free(ws->pair_link);
    free(ws->pair_cls);
    free(ws->pcap);
    free(ws->use);
    free(ws->scale);
    free(ws->ptgt);
    free(ws->psat);
    free(ws);
}

static int
ensure(bbs_net_mm_ws *ws, int nl, int nf, int np)
{
    if (nl + 1 > ws->cap_links) {
        int n = nl + 1 + (nl + 1) / 2 + 16;
        void *p;
#define RE(field, elem) \
        if (!(p = realloc(ws->field, (size_t)n * (elem)))) return -1; \
        ws->field = p;
        RE(rem, sizeof(double)) RE(cnt, sizeof(int)) RE(ver, sizeof(int))
        RE(fill, sizeof(int)) RE(loff, sizeof(int))
#undef RE
        ws->cap_links = n;
    }
    if (bbs_grow((void **)&ws->frozen, 1, &ws->cap_flows, (size_t)(nf + 1))
        || bbs_grow((void **)&ws->lflows, sizeof(int), &ws->cap_path, (size_t)(np + 1))
        || bbs_grow((void **)&ws->last, 1, &ws->cap_last, (size_t)(np + 1)))
        return -1;
    return 0;
}

static void
heap_push(bbs_net_mm_ws *ws, double key, int link, int ver)
{
    int i = ws->nheap++;
    hent e = { key, link, ver };

    while (i > 0) {
        int parent = (i - 1) / 2;
        if (ws->heap[parent].key < key
            || (ws->heap[parent].key == key && ws->heap[parent].link <= link))
            break;
        ws->heap[i] = ws->heap[parent];
        i = parent;
    }
    ws->heap[i] = e;
}

static hent
heap_pop(bbs_net_mm_ws *ws)
{
    hent top = ws->heap[0], last = ws->heap[--ws->nheap];
    int i = 0, n = ws->nheap;

    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && (ws->heap[c + 1].key < ws->heap[c].key
                          || (ws->heap[c + 1].key == ws->heap[c].key
                              && ws->heap[c + 1].link < ws->heap[c].link)))
            c++;
        if (last.key < ws->heap[c].key
            || (last.key == ws->heap[c].key && last.link <= ws->heap[c].link))
            break;
        ws->heap[i] = ws->heap[c];
        i = c;
    }
    if (n > 0)
        ws->heap[i] = last;
    return top;
}

static int solve_plain(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                       int *bottleneck, unsigned char *saturated, char *err);
static int index_links(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, char *err);
static void fill(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
                 unsigned char *saturated);

/* use[l * C + c]: the rate of class c on link l. */
static void
class_use(const bbs_net_mm_problem *pb, const double *rate, double *use)
{
    int C = BBS_NET_MM_CLASSES;
    memset(use, 0, (size_t)pb->nlinks * C * sizeof(double));
    for (int f = 0; f < pb->nflows; f++)
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            use[pb->path[k] * C + pb->cls[k]] += rate[f];
}

/* room_left: what the classes before c leave of link l's capacity cap
 * (ws->use from class_use; may be negative). */
static double
room_left(const bbs_net_mm_ws *ws, double cap, int l, int c)
{
    for (int q = 0; q < c; q++)
        cap -= ws->use[l * BBS_NET_MM_CLASSES + q];
    return cap;
}

/* solve_unclassed: pb solved as plain max-min, its classes ignored; the
 * pairs' kept capacities reset (keep_caps). */
static int
solve_unclassed(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, int npair, double *rate,
                int *bottleneck, unsigned char *saturated, char *err);

/* keep_caps: write each pair's capacity back to pb->cls_cap (if given),
 * where the next solve of these links starts; reset: the link's (-1). */
static void
keep_caps(const bbs_net_mm_problem *pb, const bbs_net_mm_ws *ws, int npair, int reset)
{
    if (pb->cls_cap)
        for (int v = 0; v < npair; v++)
            pb->cls_cap[ws->pair_link[v] * BBS_NET_MM_CLASSES + ws->pair_cls[v]] =
                reset ? -1 : ws->pcap[v];
}

static int
solve_priority(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
               unsigned char *saturated, char *err)
{
    int nl = pb->nlinks, nf = pb->nflows, C = BBS_NET_MM_CLASSES, np, npair = 0, rc;
    int stale = 0, cmax = 0;      /* stale: ws->use is not of rate */
    double capmax = 0;
    size_t nlc = (size_t)nl * C;
    bbs_net_mm_problem vp;

    if (nf < 0 || nl < 0)
        return bb_seterr(err, BB_EINVAL, "max-min: %d flows, %d links", nf, nl);
    np = pb->path_off[nf];
    if (bbs_grow((void **)&ws->pair_of, sizeof(int), &ws->cap_pairs, nlc + 1)
        || bbs_grow((void **)&ws->ppath, sizeof(int), &ws->cap_ppath, (size_t)np + 1)
        || bbs_grow((void **)&ws->scale, sizeof(double), &ws->cap_pflows, (size_t)nf + 1))
        return bb_seterr(err, BB_ENOMEM, "out of memory in max-min solver (%d flows)", nf);
    /* the arrays sized by pairs follow pair_of's capacity */
    if (!(ws->pair_link = realloc(ws->pair_link, ws->cap_pairs * sizeof(int)))
        || !(ws->pair_cls = realloc(ws->pair_cls, ws->cap_pairs * sizeof(int)))
        || !(ws->pcap = realloc(ws->pcap, ws->cap_pairs * sizeof(double)))
        || !(ws->use = realloc(ws->use, ws->cap_pairs * sizeof(double)))
        || !(ws->ptgt = realloc(ws->ptgt, ws->cap_pairs * sizeof(double)))
        || !(ws->psat = realloc(ws->psat, ws->cap_pairs)))
        return bb_seterr(err, BB_ENOMEM, "out of memory in max-min solver (%d flows)", nf);
    for (size_t i = 0; i < nlc; i++)
        ws->pair_of[i] = -1;
    for (int k = 0; k < np; k++) {
        int l = pb->path[k], c = pb->cls[k];
        if (c >= C)
            return bb_seterr(err, BB_EINVAL, "max-min: class %d (0..%d)", c, C - 1);
        if (ws->pair_of[l * C + c] < 0) {
            ws->pair_link[npair] = l;
            ws->pair_cls[npair] = c;
            ws->pair_of[l * C + c] = npair++;
        }
        ws->ppath[k] = ws->pair_of[l * C + c];
    }
    for (int v = 0; v < npair; v++) {
        int l = ws->pair_link[v];
        double c0 = pb->cls_cap ? pb->cls_cap[l * C + ws->pair_cls[v]] : -1;
        ws->pcap[v] = c0 >= 0 && c0 < pb->cap[l] ? c0 : pb->cap[l];
    }
    vp = (bbs_net_mm_problem){ nf, npair, pb->path_off, ws->ppath, ws->pcap, NULL, NULL };
    {
        /* no link with two classes: plain max-min */
        int mixed = 0;
        for (int v = 0; v < npair && !mixed; v++)
            for (int c = 0; c < C && !mixed; c++)
                if (c != ws->pair_cls[v] && ws->pair_of[ws->pair_link[v] * C + c] >= 0)
                    mixed = 1;
        if (!mixed)
            return solve_unclassed(pb, ws, npair, rate, bottleneck, saturated, err);
    }
    if ((rc = index_links(&vp, ws, err)) != BB_OK)
        return rc;
    for (int it = 0; it < BBS_NET_MM_PRIO_ITERS; it++) {
        int moved = 0;
        ws->passes = it + 1;
        fill(&vp, ws, rate, bottleneck, ws->psat);
        class_use(pb, rate, ws->use);
        for (int v = 0; v < npair; v++) {
            int l = ws->pair_link[v];
            double c0 = pb->cap[l], left = room_left(ws, c0, l, ws->pair_cls[v]);
            double to;
            if (left < 0)
                left = 0;
            /* halfway: two classes that hold each other back on two links
             * settle between, instead of starving each other in turn; a
             * target that held still over a pass is where the halving
             * goes: all the way there */
            to = it > 0 && fabs(left - ws->ptgt[v]) <= BBS_NET_MM_PRIO_RES * c0
                 ? left : 0.5 * (ws->pcap[v] + left);
            ws->ptgt[v] = left;
            if (fabs(to - ws->pcap[v]) > BBS_NET_MM_PRIO_RES * c0)
                moved = 1;
            ws->pcap[v] = to;
        }
        if (!moved)
            break;
    }
    /* below the passes' resolution a pair is starved (maxmin.h), and a
     * rate that small is not one to wait behind: the fabric's head-of-line
     * wait, buffer / rate, would come out at a tenth of a second for
     * 16 KiB behind a pair halved 16 times */
    for (int v = 0; v < npair; v++) {
        if (ws->pcap[v] > 0 && ws->pcap[v] < BBS_NET_MM_PRIO_RES * pb->cap[ws->pair_link[v]]) {
            ws->pcap[v] = 0;
            stale = 1;
        }
        if (ws->pair_cls[v] > cmax)
            cmax = ws->pair_cls[v];
    }
    if (stale)
        fill(&vp, ws, rate, bottleneck, ws->psat);
    /* feasible, class by class: what exceeds the room the earlier classes
     * leave on a link is scaled down there (ws->use is stale once rates
     * change) */
    for (int c = 1; c <= cmax; c++) {
        int over = 0;
        if (stale)
            class_use(pb, rate, ws->use);
        stale = 0;
        for (int f = 0; f < nf; f++)
            ws->scale[f] = 1;
        for (int f = 0; f < nf; f++)
            for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++) {
                int l = pb->path[k];
                double room, u = ws->use[l * C + c];
                if (pb->cls[k] != c)
                    continue;
                room = room_left(ws, pb->cap[l], l, c);
                if (room < 0)
                    room = 0;
                if (u > room * (1 + 1e-12) && u > 0) {
                    double s = room / u;
                    if (s < ws->scale[f])
                        ws->scale[f] = s;
                    over = 1;
                }
            }
        if (over) {
            for (int f = 0; f < nf; f++)
                rate[f] *= ws->scale[f];
            stale = 1;
        }
    }
    /* a flow below the passes' resolution (of its links' capacity: what
     * the halving and the scaling leave) is starved, and must be
     * starved by someone: an earlier class using at least half of one of
     * its links; otherwise (the passes did not settle) fall back to plain
     * max-min rather than park it for nothing */
    if (stale)
        class_use(pb, rate, ws->use);
    for (int l = 0; l < nl; l++)
        capmax = fmax(capmax, pb->cap[l]);
    for (int f = 0; f < nf; f++) {
        int held = 0;
        double most = 0;
        if (rate[f] >= BBS_NET_MM_PRIO_RES * capmax)
            continue; /* at least that share of every link */
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            most = fmax(most, pb->cap[pb->path[k]]);
        if (rate[f] >= BBS_NET_MM_PRIO_RES * most)
            continue;
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1] && !held; k++) {
            int l = pb->path[k];
            held = room_left(ws, pb->cap[l], l, pb->cls[k]) <= 0.5 * pb->cap[l];
        }
        if (!held)
            return solve_unclassed(pb, ws, npair, rate, bottleneck, saturated, err);
        rate[f] = 0;
    }
    keep_caps(pb, ws, npair, 0);
    if (bottleneck)
        for (int f = 0; f < nf; f++)
            bottleneck[f] = ws->pair_link[bottleneck[f]];
    if (saturated) {
        memset(saturated, 0, (size_t)nl);
        for (int v = 0; v < npair; v++)
            if (ws->psat[v])
                saturated[ws->pair_link[v]] = 1;
    }
    return BB_OK;
}

static int
solve_unclassed(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, int npair, double *rate,
                int *bottleneck, unsigned char *saturated, char *err)
{
    bbs_net_mm_problem plain = *pb;

    keep_caps(pb, ws, npair, 1);
    plain.cls = NULL;
    plain.cls_cap = NULL;
    return solve_plain(&plain, ws, rate, bottleneck, saturated, err);
}

int
bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                     int *bottleneck, unsigned char *saturated, char *err)
{
    ws->passes = 0;
    if (pb->cls)
        return solve_priority(pb, ws, rate, bottleneck, saturated, err);
    return solve_plain(pb, ws, rate, bottleneck, saturated, err);
}

/* index: the link -> flows lists of pb (CSR in ws->loff, ws->lflows; a
 * flow appears once per occurrence), which fill reuses while pb's paths
 * stay the same. */
static int
index_links(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, char *err)
{
    int nl = pb->nlinks, nf = pb->nflows, np;

    if (nl < 0 || nf < 0)
        return bb_seterr(err, BB_EINVAL, "max-min: %d flows, %d links", nf, nl);
    np = pb->path_off[nf];
    if (ensure(ws, nl, nf, np)
        || bbs_grow((void **)&ws->heap, sizeof(hent), &ws->cap_heap, (size_t)(np + nl + 1)))
        return bb_seterr(err, BB_ENOMEM, "out of memory in max-min solver (%d flows, %d links)",
                         nf, nl);
    memset(ws->cnt, 0, (size_t)nl * sizeof(int));
    for (int f = 0; f < nf; f++) {
        if (pb->path_off[f + 1] <= pb->path_off[f])
            return bb_seterr(err, BB_EINVAL, "max-min: flow %d has an empty path", f);
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->cnt[pb->path[k]]++;
    }
    ws->loff[0] = 0;
    for (int l = 0; l < nl; l++) {
        ws->loff[l + 1] = ws->loff[l] + ws->cnt[l];
        ws->fill[l] = ws->loff[l];
    }
    for (int f = 0; f < nf; f++)
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++) {
            ws->lflows[ws->fill[pb->path[k]]++] = f;
            ws->last[k] = 1;
            for (int q = k + 1; q < pb->path_off[f + 1]; q++)
                if (pb->path[q] == pb->path[k])
                    ws->last[k] = 0;
        }
    return BB_OK;
}

/* fill: progressive filling of pb on the lists index_links built. */
static void
fill(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
     unsigned char *saturated)
{
    int nl = pb->nlinks, nf = pb->nflows, left = nf;

    memset(ws->frozen, 0, (size_t)nf);
    if (saturated)
        memset(saturated, 0, (size_t)nl);
    ws->nheap = 0;
    for (int l = 0; l < nl; l++) {
        ws->cnt[l] = ws->loff[l + 1] - ws->loff[l];
        ws->rem[l] = pb->cap[l];
        ws->ver[l] = 0;
        if (ws->cnt[l] > 0)
            heap_push(ws, ws->rem[l] / ws->cnt[l], l, 0);
    }
    while (left > 0 && ws->nheap > 0) {
        hent e = heap_pop(ws);
        int l = e.link;
        double s;

        if (e.ver != ws->ver[l] || ws->cnt[l] == 0)
            continue; /* stale */
        s = e.key;
        if (s < 0)
            s = 0;
        for (int k = ws->loff[l]; k < ws->loff[l + 1]; k++) {
            int f = ws->lflows[k];
            if (ws->frozen[f])
                continue;
            ws->frozen[f] = 1;
            left--;
            rate[f] = s;
            if (bottleneck)
                bottleneck[f] = l;
            if (saturated)
                saturated[l] = 1;
            for (int j = pb->path_off[f]; j < pb->path_off[f + 1]; j++) {
                int m = pb->path[j];
                ws->rem[m] -= s;
                ws->cnt[m]--;
                ws->ver[m]++;
                /* push once per link, at its last occurrence: the key
                 * then has every occurrence taken off */
                if (ws->last[j] && m != l && ws->cnt[m] > 0)
                    heap_push(ws, ws->rem[m] > 0 ? ws->rem[m] / ws->cnt[m] : 0, m, ws->ver[m]);
            }
        }
        ws->cnt[l] = 0;
    }
}

static int
solve_plain(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
            int *bottleneck, unsigned char *saturated, char *err)
{
    int rc = index_links(pb, ws, err);

    if (rc == BB_OK)
        fill(pb, ws, rate, bottleneck, saturated);
    return rc;
}
