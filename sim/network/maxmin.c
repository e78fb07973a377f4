/* maxmin.c: progressive filling with a lazy heap of links.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

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
    double *rem;
    int *cnt, *ver, *loff, *lflows, *fill;
    unsigned char *frozen;
    hent *heap;
    int nheap;
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
    free(ws->loff);
    free(ws->lflows);
    free(ws->fill);
    free(ws->frozen);
    free(ws->heap);
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
        || bbs_grow((void **)&ws->lflows, sizeof(int), &ws->cap_path, (size_t)(np + 1)))
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

int
bbs_net_maxmin_solve(const bbs_net_mm_problem *pb, bbs_net_mm_ws *ws, double *rate,
                     int *bottleneck, unsigned char *saturated, char *err)
{
    int nl = pb->nlinks, nf = pb->nflows, np, left = nf;

    if (nl < 0 || nf < 0)
        return bb_seterr(err, BB_EINVAL, "max-min: %d flows, %d links", nf, nl);
    np = pb->path_off[nf];

    if (ensure(ws, nl, nf, np)
        || bbs_grow((void **)&ws->heap, sizeof(hent), &ws->cap_heap, (size_t)(np + nl + 1)))
        return bb_seterr(err, BB_ENOMEM, "out of memory in max-min solver (%d flows, %d links)",
                         nf, nl);
    memset(ws->cnt, 0, (size_t)nl * sizeof(int));
    memset(ws->frozen, 0, (size_t)nf);
    for (int f = 0; f < nf; f++) {
        if (pb->path_off[f + 1] <= pb->path_off[f])
            return bb_seterr(err, BB_EINVAL, "max-min: flow %d has an empty path", f);
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->cnt[pb->path[k]]++;
    }
    /* link -> flows (CSR; a flow appears once per occurrence) */
    ws->loff[0] = 0;
    for (int l = 0; l < nl; l++) {
        ws->loff[l + 1] = ws->loff[l] + ws->cnt[l];
        ws->fill[l] = ws->loff[l];
        ws->rem[l] = pb->cap[l];
        ws->ver[l] = 0;
    }
    for (int f = 0; f < nf; f++)
        for (int k = pb->path_off[f]; k < pb->path_off[f + 1]; k++)
            ws->lflows[ws->fill[pb->path[k]]++] = f;
    if (saturated)
        memset(saturated, 0, (size_t)nl);
    ws->nheap = 0;
    for (int l = 0; l < nl; l++)
        if (ws->cnt[l] > 0)
            heap_push(ws, ws->rem[l] / ws->cnt[l], l, 0);
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
            }
            for (int j = pb->path_off[f]; j < pb->path_off[f + 1]; j++) {
                int m = pb->path[j];
                /* push once per link: only for the occurrence that sees the
                 * latest version (the last one listed) */
                if (m != l && ws->cnt[m] > 0) {
                    int last = 1;
                    for (int q = j + 1; q < pb->path_off[f + 1]; q++)
                        if (pb->path[q] == m)
                            last = 0;
                    if (last)
                        heap_push(ws, ws->rem[m] > 0 ? ws->rem[m] / ws->cnt[m] : 0, m,
                                  ws->ver[m]);
                }
            }
        }
        ws->cnt[l] = 0;
    }
    return BB_OK;
}
