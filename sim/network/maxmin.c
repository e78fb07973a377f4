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
    size_t cap_flows, cap_path, cap_heap;
    double *rem, *lkey;          /* lkey: the key of the link's live entry */
    int *cnt, *ver, *loff, *lflows, *fill;
    unsigned char *frozen;
    hent *heap;
    int nheap;
    /* strict priority: the stages' subproblems (flows, path entries and
     * links of one class, or of the leftovers) */
    double *bound;               /* per flow: its rate so far */
    int *fbk;                    /* per flow: the link that set it */
    double *use;                 /* per link and class: the class's rate */
    int *sf, *soff, *spath;      /* subproblem: its flows, paths */
    int *slink, *smap;           /* sub link -> link (-1: a flow's own cap);
                                    link -> sub link (-1: none) */
    double *scap, *srate;
    int *sbk;
    int *ord, *ef;               /* path entries by class (in flow and path
                                    order within a class); entry -> flow */
    int cstart[BBS_NET_MM_CLASSES + 1]; /* class c's entries: ord[cstart[c] ..] */
    unsigned char *lcls, *lsolid; /* per link: the classes on it, those with
                                     an entry that is not a gap entry (bits) */
    size_t c_lcls, c_lsolid;
    size_t c_bound, c_fbk, c_use, c_sf, c_soff, c_spath, c_slink, c_smap, c_scap, c_srate, c_sbk;
    size_t c_ord, c_ef;
};
bbs_net_mm_ws *
bbs_net_mm_ws_alloc(void)
{
    return calloc(1, sizeof(bbs_net_mm_ws));
}

void
bbs_net_mm_ws_free(bbs_net_mm_ws *ws)
{
    if (!ws)
        return;
    free(ws->rem);
    free(ws->cnt);
    free(ws->ver);
    free(ws->lkey);
    free(ws->loff);
    free(ws->lflows);
    free(ws->fill);
    free(ws->frozen);
    free(ws->heap);
    free(ws->bound);
    free(ws->fbk);
    free(ws->use);
    free(ws->sf);
    free(ws->soff);
    free(ws->spath);
    free(ws->slink);
    free(ws->smap);
    free(ws->scap);
    free(ws->srate);
    free(ws->sbk);
    free(ws->ord);
    free(ws->ef);
    free(ws->lcls);
    free(ws->lsolid);
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
        RE(rem, sizeof(double)) RE(lkey, sizeof(double)) RE(cnt, sizeof(int))
        RE(ver, sizeof(int)) RE(fill, sizeof(int)) RE(loff, sizeof(int))
#undef RE
        ws->cap_links = n;
    }
    if (bbs_grow((void **)&ws->frozen, 1, &ws->cap_flows, (size_t)(nf + 1))
        || bbs_grow((void **)&ws->lflows, sizeof(int), &ws->cap_path, (size_t)(np + 1)))
        return -1;
    return 0;
}

/* before: whether entry a comes out of the heap ahead of b (least key,
 * ties by link index), without a branch */
static inline int
before(const hent *a, const hent *b)
{
    return (a->key < b->key) | ((a->key == b->key) & (a->link < b->link));
}

/* sift_up: the entry e into the hole at i, moved towards the root */
static void
sift_up(hent *h, int i, hent e)
{
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!before(&e, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

/* sift_down: the entry e into the hole at i of a heap of n, moved
 * towards the leaves */
static void
sift_down(hent *h, int n, int i, hent e)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        c += c + 1 < n && before(&h[c + 1], &h[c]);
        if (!before(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

static void
heap_push(bbs_net_mm_ws *ws, double key, int link, int ver)
{
    hent e = { key, link, ver };

    sift_up(ws->heap, ws->nheap++, e);
}

/* heap_pop: the least entry.  The hole left at the root goes down to a
 * leaf along the lesser children, then the last entry rises into it from
 * there (Floyd): the last entry belongs near the leaves, so this takes
 * about half the comparisons of sifting it down from the root. */
static hent
heap_pop(bbs_net_mm_ws *ws)
{
    hent *h = ws->heap, top = h[0], last = h[--ws->nheap];
    int i = 0, n = ws->nheap;

    if (n == 0)
        return top;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        c += c + 1 < n && before(&h[c + 1], &h[c]);
        h[i] = h[c];
        i = c;
    }
    sift_up(h, i, last);
    return top;
}

/* heap_build: the heap of the nheap entries in ws->heap, in O(nheap) */
static void
heap_build(bbs_net_mm_ws *ws)
{
    for (int i = ws->nheap / 2 - 1; i >= 0; i--)
        sift_down(ws->heap, ws->nheap, i, ws->heap[i]);
}

static int solve_plain(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                       int *bottleneck, unsigned char *saturated, char *err);
static int index_links(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, char *err);
static void fill(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
                 unsigned char *saturated);

/* What the lower classes leave of a link, and what a link has left over,
 * are differences of sums of rates: a difference below this share of the
 * link is their rounding, and is none (a flow would otherwise get a rate
 * of a few bytes per second and end a billion seconds later). */
#define ROUNDING 1e-12

/* grow_prio: room for nf flows, nl links and np path entries in the
 * stages' subproblems (a subproblem has at most nl + nf links: the real
 * ones and one cap per flow). */
static int
grow_prio(bbs_net_mm_ws *ws, int nf, int nl, int np)
{
    size_t f1 = (size_t)nf + 2, l1 = (size_t)nl + (size_t)nf + 1, e1 = (size_t)np + f1;
#define G(field, n) bbs_grow((void **)&ws->field, sizeof *ws->field, &ws->c_##field, (n))
    return G(bound, f1) || G(fbk, f1) || G(sf, f1) || G(soff, f1) || G(srate, f1)
           || G(sbk, f1) || G(slink, l1) || G(scap, l1) || G(smap, l1) || G(spath, e1)
           || G(ord, e1) || G(ef, e1) || G(lcls, l1) || G(lsolid, l1) || G(use, ((size_t)nl + 1) * BBS_NET_MM_CLASSES) ? -1 : 0;
#undef G
}

/* sub_solve: plain water-filling of the subproblem in ws (nsf flows with
 * paths soff/spath over nsl links of capacity scap): srate, sbk. */
static int
sub_solve(bbs_net_mm_ws *ws, int nsf, int nsl, char *err)
{
    bbs_net_mm_problem sp = { nsf, nsl, ws->soff, ws->spath, ws->scap, NULL, NULL, NULL, 0 };
    int rc = index_links(&sp, ws, err);

    if (rc == BB_OK)
        fill(&sp, ws, ws->srate, ws->sbk, NULL);
    return rc;
}

/* sub_link: the subproblem's link for pb's link l (added with capacity
 * room when new). */
static int
sub_link(bbs_net_mm_ws *ws, int l, double room, int *nsl)
{
    if (ws->smap[l] < 0) {
        ws->smap[l] = *nsl;
        ws->slink[*nsl] = l;
        ws->scap[*nsl] = room > 0 ? room : 0;
        (*nsl)++;
    }
    return ws->smap[l];
}

double
bbs_net_mm_gap_share(double win, double chunk, int m)
{
    return win > 0 && chunk > 0 && m > 0 ? chunk / (m * win + chunk) : 0;
}

double
bbs_net_mm_gap_wait_s(double cap, double win, int m)
{
    return m * win / cap;
}

/* gap_reserve: what the classes up to c leave on link l for the classes
 * above it by strict priority's gaps (maxmin.h), bytes/s. */
static double
gap_reserve(const bbs_net_mm_problem *pb, const bbs_net_mm_ws *ws, int l, int c)
{
    unsigned upto = (2u << c) - 1, m = 0;

    if (!pb->gap || !pb->win || !(pb->win[l] > 0) || !(ws->lcls[l] & ~upto)
        || (ws->lsolid[l] & upto))
        return 0;
    for (unsigned b = ws->lcls[l] & upto; b; b &= b - 1)
        m++;
    return pb->cap[l] * bbs_net_mm_gap_share(pb->win[l], pb->chunk, (int)m);
}

/* stage: step 1 of maxmin.h for class c: fill the entries of class c on
 * what the lower classes leave (ws->use, their rates), each flow at most
 * ws->bound; updates bound and fbk of the flows that have such entries. */
static int
stage(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, int c, char *err)
{
    int C = BBS_NET_MM_CLASSES, nsf = 0, nsl = 0, np = 0, rc;

    ws->soff[0] = 0;
    for (int i = ws->cstart[c]; i < ws->cstart[c + 1];) {
        int f = ws->ef[ws->ord[i]];
        double least = INFINITY;  /* the least room of its links here */
        for (; i < ws->cstart[c + 1] && ws->ef[ws->ord[i]] == f; i++) {
            int l = pb->path[ws->ord[i]], v = ws->smap[l];
            if (v < 0) { /* the link's room, once a stage */
                double room = pb->cap[l] - gap_reserve(pb, ws, l, c);
                for (int q = 0; q < c; q++)
                    room -= ws->use[l * C + q];
                if (room <= ROUNDING * pb->cap[l])
                    room = 0;
                v = sub_link(ws, l, room, &nsl);
            }
            ws->spath[np++] = v;
            least = fmin(least, ws->scap[v]);
        }
        /* its own link, what its earlier classes gave, where it can bind
         * (below the least room: a flow never gets more than that) */
        if (ws->bound[f] < least) {
            ws->slink[nsl] = -1;
            ws->scap[nsl] = ws->bound[f];
            ws->spath[np++] = nsl++;
        }
        ws->sf[nsf++] = f;
        ws->soff[nsf] = np;
    }
    rc = sub_solve(ws, nsf, nsl, err);
    for (int i = 0; i < nsl; i++)
        if (ws->slink[i] >= 0)
            ws->smap[ws->slink[i]] = -1;
    if (rc != BB_OK)
        return rc;
    for (int i = 0; i < nsf; i++) {
        int f = ws->sf[i], l = ws->slink[ws->sbk[i]];
        ws->bound[f] = ws->srate[i];
        if (l >= 0)
            ws->fbk[f] = l;
    }
    return BB_OK;
}

static int
solve_priority(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
               unsigned char *saturated, char *err)
{
    int nl = pb->nlinks, nf = pb->nflows, C = BBS_NET_MM_CLASSES, np, rc, nsf = 0, nsl = 0;
    int present[BBS_NET_MM_CLASSES] = { 0 };

    if (nf < 0 || nl < 0)
        return bb_seterr(err, BB_EINVAL, "max-min: %d flows, %d links", nf, nl);
    np = pb->path_off[nf];
    for (int f = 0; f < nf; f++)
        if (pb->path_off[f + 1] <= pb->path_off[f])
            return bb_seterr(err, BB_EINVAL, "max-min: flow %d has an empty path", f);
    for (int k = 0; k < np; k++)
        if (pb->cls[k] >= C)
            return bb_seterr(err, BB_EINVAL, "max-min: class %d (0..%d)", pb->cls[k], C - 1);
    if (grow_prio(ws, nf, nl, np))
        return bb_seterr(err, BB_ENOMEM, "out of memory in max-min solver (%d flows)", nf);
    /* the entries by class, each class in flow and path order */
    {
        int fill_at[BBS_NET_MM_CLASSES + 1] = { 0 };
        for (int k = 0; k < np; k++)
            fill_at[pb->cls[k] + 1]++;
        for (int c = 0; c < C; c++) {
            present[c] = fill_at[c + 1] > 0;
            fill_at[c + 1] += fill_at[c];
        }
        memcpy(ws->cstart, fill_at, sizeof ws->cstart);
        for (int f = 0; f < nf; f++)
            for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++) {
                ws->ef[k] = f;
                ws->ord[fill_at[pb->cls[k]]++] = k;
            }
    }
    for (int f = 0; f < nf; f++) {
        ws->bound[f] = INFINITY;
        ws->fbk[f] = -1;
    }
    for (int l = 0; l < nl; l++) {
        ws->smap[l] = -1;
        ws->lcls[l] = ws->lsolid[l] = 0;
    }
    for (int k = 0; k < np; k++) {
        ws->lcls[pb->path[k]] |= (unsigned char)(1u << pb->cls[k]);
        if (!pb->gap || !pb->gap[k])
            ws->lsolid[pb->path[k]] |= (unsigned char)(1u << pb->cls[k]);
    }
    /* step 1, class by class; use[l C + q] holds the rates of class q < c */
    for (int c = 0; c < C; c++) {
        if (!present[c])
            continue;
        for (int l = 0; l < nl; l++)
            for (int q = 0; q < c; q++)
                ws->use[l * C + q] = 0;
        for (int i = 0; i < ws->cstart[c]; i++) {
            int k = ws->ord[i];
            ws->use[pb->path[k] * C + pb->cls[k]] += ws->bound[ws->ef[k]];
        }
        if ((rc = stage(pb, ws, c, err)) != BB_OK)
            return rc;
    }
    /* step 2: the leftovers, ws->use[l C] now holding each link's */
    for (int l = 0; l < nl; l++)
        ws->use[l * C] = pb->cap[l];
    for (int f = 0; f < nf; f++)
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->use[pb->path[k] * C] -= ws->bound[f];
    for (int l = 0; l < nl; l++)
        if (ws->use[l * C] <= ROUNDING * pb->cap[l])
            ws->use[l * C] = 0;
    /* a flow with a full link stays where step 1 left it (it would get no
     * increment, and taking none it changes no other's), held by its
     * class's link if full, else by the first full link on its path; the
     * others fill the leftovers */
    ws->soff[0] = 0;
    np = 0;
    for (int f = 0; f < nf; f++) {
        int full = ws->use[ws->fbk[f] * C] == 0 ? ws->fbk[f] : -1;
        rate[f] = ws->bound[f];
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1] && full < 0; k++)
            if (ws->use[pb->path[k] * C] == 0)
                full = pb->path[k];
        if (full >= 0) {
            ws->fbk[f] = full;
            continue;
        }
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->spath[np++] = sub_link(ws, pb->path[k], ws->use[pb->path[k] * C], &nsl);
        ws->sf[nsf++] = f;
        ws->soff[nsf] = np;
    }
    rc = sub_solve(ws, nsf, nsl, err);
    for (int i = 0; i < nsl; i++)
        ws->smap[ws->slink[i]] = -1;
    if (rc != BB_OK)
        return rc;
    for (int i = 0; i < nsf; i++) {
        rate[ws->sf[i]] += ws->srate[i];
        ws->fbk[ws->sf[i]] = ws->slink[ws->sbk[i]];
    }
    if (bottleneck)
        memcpy(bottleneck, ws->fbk, (size_t)nf * sizeof(int));
    if (saturated) {
        memset(saturated, 0, (size_t)nl);
        for (int f = 0; f < nf; f++)
            saturated[ws->fbk[f]] = 1;
    }
    return BB_OK;
}

int
bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                     int *bottleneck, unsigned char *saturated, char *err)
{
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
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->lflows[ws->fill[pb->path[k]]++] = f;
    return BB_OK;
}

/* key: a link's fair share now, what is left of it over its unfrozen
 * flows. */
static double
key(const bbs_net_mm_ws *ws, int l)
{
    return ws->rem[l] > 0 ? ws->rem[l] / ws->cnt[l] : 0;
}

/* live_push: link l's live heap entry, at key k (an earlier one is stale). */
static void
live_push(bbs_net_mm_ws *ws, int l, double k)
{
    ws->lkey[l] = k;
    heap_push(ws, k, l, ++ws->ver[l]);
}

/* freeze: the unfrozen flows through link l at rate s (l their
 * bottleneck), their share taken off every link they cross; with heap,
 * a link whose key fell below its live entry's (by rounding: the key only
 * grows otherwise) gets a new one.  Returns how many. */
static int
freeze(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, int l, double s, double *rate,
       int *bottleneck, unsigned char *saturated, int heap)
{
    int n = 0;

    for (int k = ws->loff[l]; k < ws->loff[l + 1]; k++) {
        int f = ws->lflows[k];
        if (ws->frozen[f])
            continue;
        ws->frozen[f] = 1;
        n++;
        rate[f] = s;
        if (bottleneck)
            bottleneck[f] = l;
        if (saturated)
            saturated[l] = 1;
        for (int j = pb->path_off[f]; j < pb->path_off[f + 1]; j++) {
            int m = pb->path[j];
            ws->rem[m] -= s;
            ws->cnt[m]--;
            if (heap && m != l && ws->cnt[m] > 0 && key(ws, m) < ws->lkey[m])
                live_push(ws, m, key(ws, m));
        }
    }
    ws->cnt[l] = 0;
    return n;
}

/* Up to this many links, fill finds the least key by a scan of the links
 * (the size of the components an update of a few flows re-solves, where
 * the heap's ordering costs more than the scan); beyond, by the heap.
 * Either takes the links in the same order (the scan is faster up to
 * about 90 links, measured on random problems of paths of 5 links). */
#define SCAN_LINKS 64

/* fill: progressive filling of pb on the lists index_links built: the
 * link of least key (ties by link index) freezes its flows at its key,
 * again until every flow is frozen.  The heap holds one live entry per
 * link with unfrozen flows, keyed at most its key now: a link's key only
 * grows as flows freeze elsewhere (each takes at most the key of every
 * link it crosses; where rounding takes it below its entry, the link gets
 * a new one), so an entry is a lower bound, and the live entry on top
 * whose link's key has not grown holds the least key of all; one whose
 * key grew goes back at its key.  A link goes back when it reaches the
 * top, not at every flow that freezes on it. */
static void
fill(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate, int *bottleneck,
     unsigned char *saturated)
{
    int nl = pb->nlinks, nf = pb->nflows, left = nf;

    memset(ws->frozen, 0, (size_t)nf);
    if (saturated)
        memset(saturated, 0, (size_t)nl);
    for (int l = 0; l < nl; l++) {
        ws->cnt[l] = ws->loff[l + 1] - ws->loff[l];
        ws->rem[l] = pb->cap[l];
    }
    if (nl <= SCAN_LINKS) {
        while (left > 0) {
            int best = -1;
            double bk = 0;
            for (int l = 0; l < nl; l++)
                if (ws->cnt[l] > 0) {
                    double k = key(ws, l);
                    if (best < 0 || k < bk) {
                        best = l;
                        bk = k;
                    }
                }
            if (best < 0)
                break;
            left -= freeze(pb, ws, best, bk, rate, bottleneck, saturated, 0);
        }
        return;
    }
    ws->nheap = 0;
    for (int l = 0; l < nl; l++) {
        ws->ver[l] = 1;
        if (ws->cnt[l] > 0) {
            hent e = { key(ws, l), l, 1 };
            ws->lkey[l] = e.key;
            ws->heap[ws->nheap++] = e;
        }
    }
    heap_build(ws);
    while (left > 0 && ws->nheap > 0) {
        hent e = heap_pop(ws);
        int l = e.link;
        double s;

        if (e.ver != ws->ver[l] || ws->cnt[l] == 0)
            continue; /* stale, or done */
        s = key(ws, l);
        if (s > e.key) {
            live_push(ws, l, s); /* grew: back at its key */
            continue;
        }
        left -= freeze(pb, ws, l, s, rate, bottleneck, saturated, 1);
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
