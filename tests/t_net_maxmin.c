/* t_net_maxmin.c: max-min fair sharing (water-filling) and the flow-level
 * fabric on the engine: hand-worked cases, a dumb reference, capacity and
 * byte conservation.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bb_error.h"
#include "engine.h"
#include "network/bbsnet.h"
#include "rng.h"

/* solve_cls: rates (and bottlenecks, saturated links; bk and sat may be
 * NULL) of a problem with classes cls (NULL: none); solve: without. */
static void
solve_cls_bk(int nf, int nl, const int *off, const int *path, const double *cap,
             const unsigned char *cls, double *rate, int *bk, unsigned char *sat)
{
    bbs_net_mm_problem pb = { nf, nl, off, path, cap, cls };
    bbs_net_mm_ws *ws = bbs_net_mm_ws_alloc();
    char err[BB_ERRLEN];

    assert_int_equal(bbs_net_maxmin_solve(&pb, ws, rate, bk, sat, err), BB_OK);
    bbs_net_mm_ws_free(ws);
}

static void
solve_cls(int nf, int nl, const int *off, const int *path, const double *cap,
          const unsigned char *cls, double *rate, unsigned char *sat)
{
    solve_cls_bk(nf, nl, off, path, cap, cls, rate, NULL, sat);
}

static void
solve(int nf, int nl, const int *off, const int *path, const double *cap, double *rate,
      unsigned char *sat)
{
    solve_cls(nf, nl, off, path, cap, NULL, rate, sat);
}

/* Strict priority by sequential water-filling (maxmin.h), worked by hand.
 * (a) one link of 1: f0 class 0, f1 class 1: f0 takes it all, f1 gets 0.
 * (b) f0 (class 0) also crosses a link of 0.4: f0 = 0.4, f1 the 0.6 left.
 * (c) f0 held on a later class: class 0 on link 0, class 1 on link 1
 *     (0.4); f1 class 1 on link 0.  Class 0 gives f0 link 0's 1; class 1
 *     finds link 0 full (f1 0) and holds f0 to 0.4 on link 1; link 0's
 *     leftover 0.6 goes to f1, the only flow that can grow: 0.4, 0.6 (what
 *     strict priority gives), bottlenecks link 1 and link 0.
 * (d) classes alike: the plain fair shares, 0.5 each.
 * (e) f0 first on link 0 and second on link 1, f1 the other way, both
 *     links 1: class 0 gives each its link's 1, class 1 then finds both
 *     links full: 0, 0; the leftovers (1 on each link) are shared: 0.5
 *     each, whatever the order.
 * (f) three classes on one link of 3: f0 (class 0) held to 1 by link 1,
 *     f1 (class 1) to 1.5 by link 2, f2 (class 2) the 0.5 left.
 * (g) no resolution: f0 (class 0) held by link 1 to 0.9995 of link 0
 *     leaves f1 (class 1) 0.0005.
 * (h) the departure from strict priority: link 0 (1) carries g and f on
 *     class 0 and h on class 3; f is held to 0.1 on link 1 (class 3).
 *     Class 0: g = f = 0.5; class 3: h finds link 0 full (0), f goes to
 *     0.1; link 0's leftover 0.4 is shared by g and h, 0.2 each: g 0.7,
 *     h 0.2 (strict priority would give g 0.9, h 0). */
static void
test_priority_classes(void **state)
{
    double rate[3];
    int bk[3];
    unsigned char sat[3];

    (void)state;
    {
        int off[] = { 0, 1, 2 }, path[] = { 0, 0 };
        double cap[] = { 1 };
        unsigned char cls[] = { 0, 1 };
        solve_cls(2, 1, off, path, cap, cls, rate, NULL);
        assert_true(rate[0] == 1);
        assert_true(rate[1] == 0);
    }
    for (int later = 0; later < 2; later++) { /* (b), then (c) */
        int off[] = { 0, 2, 3 }, path[] = { 0, 1, 0 };
        double cap[] = { 1, 0.4 };
        unsigned char cls[] = { 0, (unsigned char)later, 1 };
        solve_cls_bk(2, 2, off, path, cap, cls, rate, bk, sat);
        assert_float_equal(rate[0], 0.4, 1e-15);
        assert_float_equal(rate[1], 0.6, 1e-15);
        assert_int_equal(bk[0], 1);
        assert_int_equal(bk[1], 0);
        assert_int_equal(sat[0], 1);
        assert_int_equal(sat[1], 1);
    }
    {
        int off[] = { 0, 1, 2 }, path[] = { 0, 0 };
        double cap[] = { 1 };
        unsigned char cls[] = { 1, 1 };
        solve_cls(2, 1, off, path, cap, cls, rate, NULL);
        assert_true(rate[0] == 0.5 && rate[1] == 0.5);
    }
    for (int swap = 0; swap < 2; swap++) {
        int off[] = { 0, 2, 4 }, path[] = { 0, 1, 0, 1 };
        double cap[] = { 1, 1 };
        unsigned char cls[2][4] = { { 0, 1, 1, 0 }, { 1, 0, 0, 1 } };
        solve_cls(2, 2, off, path, cap, cls[swap], rate, NULL);
        assert_true(rate[0] == 0.5 && rate[1] == 0.5);
    }
    {
        int off[] = { 0, 2, 4, 5 }, path[] = { 0, 1, 0, 2, 0 };
        double cap[] = { 3, 1, 1.5 };
        unsigned char cls[] = { 0, 0, 1, 0, 2 };
        solve_cls(3, 3, off, path, cap, cls, rate, NULL);
        assert_true(rate[0] == 1);
        assert_true(rate[1] == 1.5);
        assert_float_equal(rate[2], 0.5, 1e-15);
    }
    {
        int off[] = { 0, 2, 3 }, path[] = { 0, 1, 0 };
        double cap[] = { 1, 0.9995 };
        unsigned char cls[] = { 0, 0, 1 };
        solve_cls(2, 2, off, path, cap, cls, rate, NULL);
        assert_true(rate[0] == 0.9995);
        assert_float_equal(rate[1], 0.0005, 1e-15);
    }
    {
        /* g: link 0 class 0; f: link 0 class 0, link 1 class 3; h: link 0 class 3 */
        int off[] = { 0, 1, 3, 4 }, path[] = { 0, 0, 1, 0 };
        double cap[] = { 1, 0.1 };
        unsigned char cls[] = { 0, 0, 3, 3 };
        solve_cls_bk(3, 2, off, path, cap, cls, rate, bk, NULL);
        assert_float_equal(rate[0], 0.7, 1e-15);
        assert_float_equal(rate[1], 0.1, 1e-15);
        assert_float_equal(rate[2], 0.2, 1e-15);
        assert_int_equal(bk[1], 1);
        assert_int_equal(bk[0], 0);
        assert_int_equal(bk[2], 0);
    }
    /* bad input: an empty path, a class out of range */
    {
        int off[] = { 0, 1, 1 }, path[] = { 0 };
        double cap[] = { 1 };
        unsigned char cls[] = { 0 }, bad[] = { BBS_NET_MM_CLASSES, 0 };
        bbs_net_mm_problem pb = { 2, 1, off, path, cap, cls };
        bbs_net_mm_ws *ws = bbs_net_mm_ws_alloc();
        char err[BB_ERRLEN];
        assert_int_equal(bbs_net_maxmin_solve(&pb, ws, rate, NULL, NULL, err), BB_EINVAL);
        assert_non_null(strstr(err, "flow 1 has an empty path"));
        off[2] = 2;
        pb.path = (int[]){ 0, 0 };
        pb.cls = bad;
        assert_int_equal(bbs_net_maxmin_solve(&pb, ws, rate, NULL, NULL, err), BB_EINVAL);
        assert_non_null(strstr(err, "class 4"));
        bbs_net_mm_ws_free(ws);
    }
}

/* 3 flows over 2 links: A (10) carries f0, f1; B (4) carries f1, f2.
 * By hand: B's fair share 4/2 = 2 < A's 10/2 = 5, so f1 = f2 = 2, then f0
 * takes A's remaining 10 - 2 = 8. */
static void
test_three_flows_two_links(void **state)
{
    int off[] = { 0, 1, 3, 4 }, path[] = { 0, 0, 1, 1 };
    double cap[] = { 10, 4 }, rate[3];
    unsigned char sat[2];

    (void)state;
    solve(3, 2, off, path, cap, rate, sat);
    assert_float_equal(rate[0], 8, 1e-12);
    assert_float_equal(rate[1], 2, 1e-12);
    assert_float_equal(rate[2], 2, 1e-12);
    assert_int_equal(sat[0], 1);
    assert_int_equal(sat[1], 1);
}

/* Bertsekas & Gallager's style of example: L0 (1) carries f0, f1; L1 (2)
 * carries f0, f2, f3; L2 (5) carries f3 only.  L0 fills first at 1/2
 * (f0 = f1 = 0.5); L1 then has 1.5 for f2, f3: 0.75 each; L2 is not full. */
static void
test_textbook_chain(void **state)
{
    int off[] = { 0, 2, 3, 4, 6 }, path[] = { 0, 1, 0, 1, 1, 2 };
    double cap[] = { 1, 2, 5 }, rate[4];
    unsigned char sat[3];

    (void)state;
    solve(4, 3, off, path, cap, rate, sat);
    assert_float_equal(rate[0], 0.5, 1e-12);
    assert_float_equal(rate[1], 0.5, 1e-12);
    assert_float_equal(rate[2], 0.75, 1e-12);
    assert_float_equal(rate[3], 0.75, 1e-12);
    assert_int_equal(sat[2], 0);
}

/* A dumb reference: repeat { every link's share = remaining / unfrozen
 * flows on it, every capped flow's share = its cap (fcap, NULL: none,
 * INFINITY: no cap); freeze the flows of the smallest share } with O(L F)
 * scans. */
static void
reference_capped(int nf, int nl, const int *off, const int *path, const double *cap,
                 const double *fcap, double *rate)
{
    double *rem = malloc((size_t)nl * sizeof(double));
    int *frozen = calloc((size_t)nf, sizeof(int)), left = nf;

    memcpy(rem, cap, (size_t)nl * sizeof(double));
    while (left > 0) {
        int best = -1, bestf = -1;
        double bs = INFINITY;
        for (int l = 0; l < nl; l++) {
            int n = 0;
            for (int f = 0; f < nf; f++)
                if (!frozen[f])
                    for (int k = off[f]; k < off[f + 1]; k++)
                        n += path[k] == l;
            if (n > 0 && rem[l] / n < bs) {
                bs = fmax(rem[l], 0) / n;
                best = l;
            }
        }
        for (int f = 0; fcap && f < nf; f++)
            if (!frozen[f] && fcap[f] < bs) {
                bs = fcap[f];
                best = -1;
                bestf = f;
            }
        for (int f = 0; f < nf; f++) {
            int on = f == bestf;
            if (frozen[f])
                continue;
            for (int k = off[f]; k < off[f + 1]; k++)
                on |= path[k] == best;
            if (!on)
                continue;
            frozen[f] = 1;
            left--;
            rate[f] = bs;
            for (int k = off[f]; k < off[f + 1]; k++)
                rem[path[k]] -= bs;
        }
    }
    free(rem);
    free(frozen);
}

static void
reference(int nf, int nl, const int *off, const int *path, const double *cap, double *rate)
{
    reference_capped(nf, nl, off, path, cap, NULL, rate);
}

/* The slow reference of strict priority (maxmin.h), written from its
 * definition alone: per class c present, the flows with an entry of class
 * c, their class-c entries as paths, on what the entries of lower classes
 * leave, each capped at its rate so far; then every flow (those that
 * cannot grow included: their increment is 0) fills the leftovers in equal
 * increments; rooms and leftovers below 1e-12 of the link read as 0. */
static void
reference_priority(int nf, int nl, const int *off, const int *path, const double *cap,
                   const unsigned char *cls, double *rate)
{
    double *bound = malloc((size_t)nf * sizeof(double)), *room = malloc((size_t)nl * sizeof(double));
    double *scap = malloc((size_t)nf * sizeof(double)), *srate = malloc((size_t)nf * sizeof(double));
    int *soff = malloc((size_t)(nf + 1) * sizeof(int)), *spath = malloc((size_t)off[nf] * sizeof(int));
    int *sf = malloc((size_t)nf * sizeof(int));

    for (int f = 0; f < nf; f++)
        bound[f] = INFINITY;
    for (int c = 0; c < BBS_NET_MM_CLASSES; c++) {
        int nsf = 0, np = 0;
        for (int l = 0; l < nl; l++)
            room[l] = cap[l];
        for (int f = 0; f < nf; f++)
            for (int k = off[f]; k < off[f + 1]; k++)
                if (cls[k] < c)
                    room[path[k]] -= bound[f];
        for (int l = 0; l < nl; l++)
            if (room[l] <= 1e-12 * cap[l])
                room[l] = 0;
        soff[0] = 0;
        for (int f = 0; f < nf; f++) {
            int has = 0;
            for (int k = off[f]; k < off[f + 1]; k++)
                if (cls[k] == c) {
                    spath[np++] = path[k];
                    has = 1;
                }
            if (has) {
                scap[nsf] = bound[f];
                sf[nsf++] = f;
                soff[nsf] = np;
            }
        }
        if (nsf == 0)
            continue;
        reference_capped(nsf, nl, soff, spath, room, scap, srate);
        for (int i = 0; i < nsf; i++)
            bound[sf[i]] = srate[i];
    }
    for (int l = 0; l < nl; l++)
        room[l] = cap[l];
    for (int f = 0; f < nf; f++)
        for (int k = off[f]; k < off[f + 1]; k++)
            room[path[k]] -= bound[f];
    for (int l = 0; l < nl; l++)
        if (room[l] <= 1e-12 * cap[l])
            room[l] = 0;
    reference(nf, nl, off, path, room, rate);
    for (int f = 0; f < nf; f++)
        rate[f] += bound[f];
    free(bound);
    free(room);
    free(scap);
    free(srate);
    free(soff);
    free(spath);
    free(sf);
}

/* random_sized: lo to hi links of capacity U(0.5, 10.5), up to mf flows
 * with paths of up to ml distinct links; with cls, a random class per
 * path entry (drawn right after its link). */
static void
random_sized(gsl_rng *r, int lo, int hi, int mf, int ml, int *nl, int *nf, double *cap,
             int *off, int *path, unsigned char *cls)
{
    int np = 0;
    *nl = lo + (int)gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1));
    *nf = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)mf);
    for (int l = 0; l < *nl; l++)
        cap[l] = 0.5 + 10 * gsl_rng_uniform(r);
    off[0] = 0;
    for (int f = 0; f < *nf; f++) {
        int len = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)ml);
        for (int k = 0; k < len; k++) {
            int l = (int)gsl_rng_uniform_int(r, (unsigned long)*nl), dup = 0;
            for (int j = off[f]; j < np; j++)
                dup |= path[j] == l;
            if (dup)
                continue;
            if (cls)
                cls[np] = (unsigned char)gsl_rng_uniform_int(r, BBS_NET_MM_CLASSES);
            path[np++] = l;
        }
        off[f + 1] = np;
    }
}

/* random_instance: 1 to 12 links, up to 20 flows, paths of up to 4. */
static void
random_instance(gsl_rng *r, int *nl, int *nf, double *cap, int *off, int *path,
                unsigned char *cls)
{
    random_sized(r, 1, 12, 20, 4, nl, nf, cap, off, path, cls);
}

/* fill finds the least key by a scan up to 64 links (maxmin.c's
 * SCAN_LINKS) and by its heap beyond.  Instances of 65 to 160 links (up
 * to 300 flows, paths of up to 6): the reference's rates, with and
 * without classes.  An instance of n = 8 to 64 links and n flows of 5
 * links each (a link may come twice), capacities of 1 to 4 (ties between
 * links, and shares such as 4/3 that round), without classes, padded with
 * 70 idle links (no flow: past the scan's size, through the heap) gives
 * bit for bit the rates, the bottlenecks and the saturated links it gives
 * alone. */
static void
test_heap_sizes(void **state)
{
    enum { L = 160, F = 300 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 17, 0, 0);
    int *off = malloc((F + 1) * sizeof(int)), *path = malloc(F * 6 * sizeof(int));
    int *bk = malloc(F * sizeof(int)), *bk2 = malloc(F * sizeof(int));
    unsigned char *cls = malloc(F * 6), sat[L], sat2[L];
    double cap[L], *rate = malloc(F * sizeof(double)), *ref = malloc(F * sizeof(double));

    (void)state;
    for (int trial = 0; trial < 60; trial++) {
        int nl, nf;
        random_sized(r, 65, L, F, 6, &nl, &nf, cap, off, path, trial % 2 ? cls : NULL);
        if (trial % 2) {
            solve_cls(nf, nl, off, path, cap, cls, rate, NULL);
            reference_priority(nf, nl, off, path, cap, cls, ref);
        } else {
            solve(nf, nl, off, path, cap, rate, NULL);
            reference(nf, nl, off, path, cap, ref);
        }
        for (int f = 0; f < nf; f++)
            assert_float_equal(rate[f], ref[f], 1e-9 * (1 + ref[f]));
    }
    for (int trial = 0; trial < 3000; trial++) {
        int nl = 8 + (int)gsl_rng_uniform_int(r, 57), nf = nl;
        for (int l = 0; l < nl + 70; l++)
            cap[l] = l < nl ? 1 + (double)gsl_rng_uniform_int(r, 4) : 1;
        off[0] = 0;
        for (int f = 0; f < nf; f++) {
            for (int k = 0; k < 5; k++)
                path[5 * f + k] = (int)gsl_rng_uniform_int(r, (unsigned long)nl);
            off[f + 1] = 5 * (f + 1);
        }
        solve_cls_bk(nf, nl, off, path, cap, NULL, rate, bk, sat);
        solve_cls_bk(nf, nl + 70, off, path, cap, NULL, ref, bk2, sat2);
        assert_memory_equal(rate, ref, (size_t)nf * sizeof(double));
        assert_memory_equal(bk, bk2, (size_t)nf * sizeof(int));
        assert_memory_equal(sat, sat2, (size_t)nl);
        for (int l = nl; l < nl + 70; l++)
            assert_int_equal(sat2[l], 0);
    }
    free(off);
    free(path);
    free(bk);
    free(bk2);
    free(cls);
    free(rate);
    free(ref);
    gsl_rng_free(r);
}

static void
test_random_vs_reference(void **state)
{
    gsl_rng *r = bbs_rng_stream_new(NULL, 11, 0, 0);

    (void)state;
    for (int trial = 0; trial < 200; trial++) {
        int nl, nf, off[21], path[21 * 4];
        double cap[12], rate[20], ref[20];
        random_instance(r, &nl, &nf, cap, off, path, NULL);
        solve(nf, nl, off, path, cap, rate, NULL);
        reference(nf, nl, off, path, cap, ref);
        for (int f = 0; f < nf; f++)
            assert_float_equal(rate[f], ref[f], 1e-9 * (1 + ref[f]));
    }
    gsl_rng_free(r);
}

/* Strict priority on random instances (up to 12 links, 20 flows, paths of
 * up to 4 links with random classes):
 * - equal to the slow reference (reference_priority) to 1e-12 of the
 *   largest capacity;
 * - feasible, and every flow has a full link on its path;
 * - the same rates, to 1e-12, with the flows in reverse order and each
 *   path's entries reversed;
 * - a solve in a workspace that solved other problems before gives the
 *   same bits as one in a fresh workspace (nothing is kept between
 *   solves). */
static void
test_priority_random(void **state)
{
    gsl_rng *r = bbs_rng_stream_new(NULL, 12, 0, 0);
    bbs_net_mm_ws *used = bbs_net_mm_ws_alloc();

    (void)state;
    for (int trial = 0; trial < 400; trial++) {
        int nl, nf, off[21], path[21 * 4], poff[21], ppath[21 * 4];
        unsigned char cls[21 * 4], pcls[21 * 4];
        double cap[12], rate[20], ref[20], prate[20], again[20], use[12], cmax = 0;
        char err[BB_ERRLEN];
        random_instance(r, &nl, &nf, cap, off, path, cls);
        for (int l = 0; l < nl; l++)
            cmax = fmax(cmax, cap[l]);
        solve_cls(nf, nl, off, path, cap, cls, rate, NULL);
        reference_priority(nf, nl, off, path, cap, cls, ref);
        for (int f = 0; f < nf; f++)
            if (fabs(rate[f] - ref[f]) > 1e-12 * cmax)
                fail_msg("trial %d flow %d: %.17g, reference %.17g", trial, f, rate[f], ref[f]);
        for (int l = 0; l < nl; l++)
            use[l] = 0;
        for (int f = 0; f < nf; f++)
            for (int k = off[f]; k < off[f + 1]; k++)
                use[path[k]] += rate[f];
        for (int l = 0; l < nl; l++)
            assert_true(use[l] <= cap[l] * (1 + 1e-12));
        for (int f = 0; f < nf; f++) {
            int full = 0;
            for (int k = off[f]; k < off[f + 1]; k++)
                full |= use[path[k]] >= cap[path[k]] * (1 - 1e-12);
            assert_true(full);
        }
        /* reversed: flow f becomes nf - 1 - f, its entries backwards */
        int np = 0;
        poff[0] = 0;
        for (int g = 0; g < nf; g++) {
            int f = nf - 1 - g;
            for (int k = off[f + 1] - 1; k >= off[f]; k--) {
                ppath[np] = path[k];
                pcls[np++] = cls[k];
            }
            poff[g + 1] = np;
        }
        solve_cls(nf, nl, poff, ppath, cap, pcls, prate, NULL);
        for (int f = 0; f < nf; f++)
            if (fabs(prate[nf - 1 - f] - rate[f]) > 1e-12 * cmax)
                fail_msg("trial %d flow %d: %.17g reversed, %.17g", trial, f,
                         prate[nf - 1 - f], rate[f]);
        {
            bbs_net_mm_problem pb = { nf, nl, off, path, cap, cls };
            assert_int_equal(bbs_net_maxmin_solve(&pb, used, again, NULL, NULL, err), BB_OK);
            assert_memory_equal(again, rate, (size_t)nf * sizeof(double));
        }
    }
    bbs_net_mm_ws_free(used);
    gsl_rng_free(r);
}

/* The wait at an output port (bbs_net_md1_wait_s), by hand: capacity
 * 1e9 B/s, 4,096-B packets (S = 4.096 us), buffers of 16 KiB.
 * (a) one channel at 0.5e9: rho S / (2 (1 - rho)) = S / 2.
 * (b) at 0.9e9 it would be 4.5 S = 18.4 us, past the buffer ahead,
 *     16384 / 1e9 = 16.4 us: 16.4 us.
 * (c) four channels at 0.3, 0.2, 0, 0.1 (x 1e9), rho = 0.6: channel 0
 *     waits 0.6 S / (2 x 1 x 0.7) = 3 S / 7; channel 1 0.6 S / (2 x 0.7 x
 *     0.5) = 6 S / 7; channel 3 0.6 S / (2 x 0.5 x 0.4) = 1.5 S; the
 *     buffer bound of channel 3, 16384 / (1e9 x 0.5) = 32.8 us, is far.
 * (d) channel 0 full: channel 1 waits its buffer at the whole link,
 *     16384 / 1e9 (the starvation is the fabric's other wait).
 * (e) nothing on the port: 0.
 * (f) channels 0 and 1 at 0.5 and 0.45: channel 1 would wait 0.95 S /
 *     (2 x 0.5 x 0.05) = 19 S = 77.8 us; its buffer goes at the half the
 *     link channel 0 leaves: 16384 / 0.5e9 = 32.8 us. */
static void
test_md1_wait(void **state)
{
    const double S = 4096 / 1e9;
    double one[1] = { 0.5e9 }, four[4] = { 0.3e9, 0.2e9, 0, 0.1e9 }, full[4] = { 1e9, 0, 0, 0 };
    double none[4] = { 0 };

    (void)state;
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, one, 1, 0), S / 2, 1e-18);
    one[0] = 0.9e9;
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, one, 1, 0), 16384 / 1e9, 1e-18);
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, four, 4, 0), 3 * S / 7, 1e-18);
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, four, 4, 1), 6 * S / 7, 1e-18);
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, four, 4, 3), 1.5 * S, 1e-18);
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, full, 4, 1), 16384 / 1e9, 1e-18);
    assert_true(bbs_net_md1_wait_s(1e9, 4096, 16384, none, 4, 2) == 0);
    four[0] = 0.5e9;
    four[1] = 0.45e9;
    four[3] = 0;
    assert_float_equal(bbs_net_md1_wait_s(1e9, 4096, 16384, four, 4, 1), 16384 / 0.5e9, 1e-18);
}

/* A small dragonfly: 3 groups x 2 routers x 1 node, h = 1, all links 1 GB/s,
 * no delays. */
static bbs_net_topo *
small_topo(void)
{
    bbs_net_params par;
    bbs_net_topo *t;
    char err[BB_ERRLEN];

    memset(&par, 0, sizeof par);
    par.g = 3;
    par.a = 2;
    par.p = 1;
    par.h = 1;
    par.cn_bw_Bps = par.local_bw_Bps = par.global_bw_Bps = 1e9;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    return t;
}

typedef struct {
    int n;
    double t_end[16];
    int64_t tag[16];
    double bytes;
} done_log;

static int
log_done(bbs_engine *e, const bbs_net_flow_info *info, void *ctx)
{
    done_log *d = ctx;

    (void)e;
    d->t_end[d->n] = info->t_end_s;
    d->tag[d->n] = info->tag;
    d->bytes += info->bytes;
    d->n++;
    return BB_OK;
}

/* Two flows from node 0 share its injection link (1 GB/s): sizes 1 GB and
 * 2 GB.  By hand: 0.5 GB/s each until the first ends at 2 s; the second
 * then has 1 GB left at 1 GB/s and ends at 3 s.  A third flow from node 1
 * to node 2 starting at 0.5 s shares nothing on the injection side. */
static void
test_fabric_hand_timeline(void **state)
{
    bbs_net_topo *t = small_topo();
    bbs_engine *e;
    bbs_net_fabric *f;
    done_log d = { 0 };
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 1, 0, 0);
    char err[BB_ERRLEN];
    int id;

    (void)state;
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&f, t, e, log_done, &d, err), BB_OK);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 0, 3, 1e9, 1, &id, err), BB_OK);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 0, 5, 2e9, 2, NULL, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 0.5), BB_OK);
    assert_float_equal(bbs_net_fabric_flow_rate(f, id), 0.5e9, 1);
    assert_int_equal(bbs_net_fabric_check(f, 1e-9, err), BB_OK);
    /* flows 1 and 2 are held at their first link: nothing is backed up */
    for (int l = 0; l < t->nlinks; l++)
        assert_true(bbs_net_fabric_backed_Bps(f, l) == 0);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 1, 2, 0.25e9, 3, NULL, err), BB_OK);
    assert_int_equal(bbs_engine_run(e, 0.6), BB_OK);
    {
        /* flow 3 is held at the global link (third on its path, below):
         * it backs up its injection and first local link at 0.5 GB/s,
         * and nothing after its bottleneck */
        int p3[BBS_NET_MAX_PATH];
        int l3 = bbs_net_route(t, &mo, 1, 2, r, NULL, p3, NULL);
        assert_int_equal(l3, 5);
        assert_float_equal(bbs_net_fabric_backed_Bps(f, p3[0]), 0.5e9, 1);
        assert_float_equal(bbs_net_fabric_backed_Bps(f, p3[1]), 0.5e9, 1);
        assert_true(bbs_net_fabric_backed_Bps(f, p3[3]) == 0);
        assert_true(bbs_net_fabric_backed_Bps(f, p3[4]) == 0);
        assert_int_equal(bbs_engine_run(e, 1.5), BB_OK);   /* flow 3 has ended */
        assert_true(bbs_net_fabric_backed_Bps(f, p3[0]) == 0);
        assert_true(bbs_net_fabric_backed_Bps(f, p3[1]) == 0);
    }
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_OK);
    assert_int_equal(d.n, 3);
    /* By hand from CODES' rule (g=3, a=2, h=1; node n = router n, group
     * n/2): group 0's link to group 1 is router 0 -> router 3, to group 2
     * router 1 -> 4; group 1's link to group 2 is router 2 -> 5.  Flow 1
     * (0 -> 3) is inj, global 0->3, ej; flow 3 (1 -> 2) is inj, local 1->0,
     * global 0->3, local 3->2, ej: they share the global link.  At 0.5 s
     * that link's fair share is 0.5 GB/s, as is the injection link's, so
     * flows 1 and 2 keep 0.5 GB/s and flow 3 gets 0.5 GB/s: 0.25 GB ends
     * at 1.0 s; flows 1 and 2 end at 2 s and 3 s as before. */
    {
        int p3[BBS_NET_MAX_PATH];
        int l3 = bbs_net_route(t, &mo, 1, 2, r, NULL, p3, NULL);
        assert_int_equal(l3, 5);
        assert_int_equal(t->link_kind[p3[2]], BBS_NET_LINK_GLOBAL);
        assert_int_equal(t->link_src[p3[2]], 0);
        assert_int_equal(t->link_dst[p3[2]], 3);
        assert_int_equal(d.tag[0], 3);
        assert_float_equal(d.t_end[0], 1.0, 1e-9);
    }
    assert_int_equal(d.tag[1], 1);
    assert_float_equal(d.t_end[1], 2.0, 1e-9);
    assert_int_equal(d.tag[2], 2);
    assert_float_equal(d.t_end[2], 3.0, 1e-9);
    /* every byte sent is delivered: ejection links carried 3.25 GB */
    bbs_net_fabric_flush(f, bbs_engine_now(e));
    {
        double ej = 0, inj = 0;
        for (int l = 0; l < t->nlinks; l++) {
            bbs_net_link_stat st;
            bbs_net_fabric_link_stat(f, l, &st);
            if (t->link_kind[l] == BBS_NET_LINK_EJ)
                ej += st.bytes;
            if (t->link_kind[l] == BBS_NET_LINK_INJ)
                inj += st.bytes;
        }
        assert_float_equal(ej, 3.25e9, 1);
        assert_float_equal(inj, 3.25e9, 1);
        assert_float_equal(d.bytes, 3.25e9, 1e-3);
    }
    bbs_net_fabric_free(f);
    bbs_engine_free(e);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Strict channel priority in the fabric, on the 6-router system of the
 * hand timeline (every link 1 GB/s).  Flow A (node 1 -> 3, 1 GB) is inj,
 * local 1->0, global 0->3, ej: channel 0 on the local link (still in its
 * source group).  Flow B (4 -> 0, 0.5 GB) is inj, global 4->1, local 1->0,
 * ej: channel 3 on that local link (arrived in its destination group).
 * With priority A takes the local link whole and B starves until A ends
 * at 1 s, then B's 0.5 GB ends at 1.5 s.  At 0.25 s a packet on channel 1
 * at the local link waits for A's 0.75 GB left at 1 GB/s, 0.75 s; so does
 * a packet behind B on channel 0 before it (B's packets fill that buffer
 * and drain when A is gone); on channel 1 of the global link nothing is
 * held.  Without priority the two share the local link, 0.5 GB/s each: B
 * ends at 1 s, A at 1.5 s, and B backs up its first two links at 0.5
 * GB/s: 16 KiB behind it wait 16384 / 0.5e9 s. */
static void
test_fabric_vc_priority(void **state)
{
    bbs_net_topo *t = small_topo();
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    int pa[BBS_NET_MAX_PATH], pb[BBS_NET_MAX_PATH];
    unsigned char va[BBS_NET_MAX_PATH], vb[BBS_NET_MAX_PATH];
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_route(t, &mo, 1, 3, NULL, NULL, pa, NULL), 4);
    assert_int_equal(bbs_net_route(t, &mo, 4, 0, NULL, NULL, pb, NULL), 4);
    bbs_net_path_vc(t, pa, 4, BBS_NET_VC_GROUP, va);
    bbs_net_path_vc(t, pb, 4, BBS_NET_VC_GROUP, vb);
    assert_int_equal(pa[1], pb[2]);   /* the shared local link 1 -> 0 */
    assert_int_equal(t->link_kind[pa[1]], BBS_NET_LINK_LOCAL);
    assert_int_equal(va[1], 0);
    assert_int_equal(vb[2], 3);
    for (int prio = 1; prio >= 0; prio--) {
        bbs_engine *e;
        bbs_net_fabric *f;
        done_log d = { 0 };
        int ida, idb;

        assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
        assert_int_equal(bbs_net_fabric_new(&f, t, e, log_done, &d, err), BB_OK);
        bbs_net_fabric_set_vc_priority(f, prio, BBS_NET_VC_GROUP);
        assert_int_equal(bbs_net_fabric_start(f, 1, 3, 1e9, pa, 4, 1, 1, &ida, err), BB_OK);
        assert_int_equal(bbs_net_fabric_start(f, 4, 0, 0.5e9, pb, 4, 1, 2, &idb, err), BB_OK);
        assert_int_equal(bbs_engine_run(e, 0.25), BB_OK);
        assert_int_equal(bbs_net_fabric_check(f, 1e-9, err), BB_OK);
        if (prio) {
            assert_float_equal(bbs_net_fabric_flow_rate(f, ida), 1e9, 1);
            assert_true(bbs_net_fabric_flow_rate(f, idb) == 0);
            assert_float_equal(bbs_net_fabric_starve_wait_s(f, pa[1], 1), 0.75, 1e-9);
            assert_true(bbs_net_fabric_starve_wait_s(f, pa[1], 0) == 0);
            assert_float_equal(bbs_net_fabric_hol_wait_s(f, pb[1], 0, 16384), 0.75, 1e-9);
            assert_float_equal(bbs_net_fabric_hol_wait_s(f, pb[0], 0, 16384), 0.75, 1e-9);
            assert_true(bbs_net_fabric_hol_wait_s(f, pb[1], 1, 16384) == 0);
            assert_true(bbs_net_fabric_hol_wait_s(f, pb[2], 1, 16384) == 0);
        } else {
            assert_float_equal(bbs_net_fabric_flow_rate(f, idb), 0.5e9, 1);
            assert_true(bbs_net_fabric_starve_wait_s(f, pa[1], 1) == 0);
            assert_float_equal(bbs_net_fabric_hol_wait_s(f, pb[1], 0, 16384), 16384 / 0.5e9,
                               1e-12);
            assert_float_equal(bbs_net_fabric_hol_wait_s(f, pb[0], 0, 16384), 16384 / 0.5e9,
                               1e-12);
        }
        assert_int_equal(bbs_engine_run(e, INFINITY), BB_OK);
        assert_int_equal(d.n, 2);
        assert_int_equal(d.tag[0], prio ? 1 : 2);
        assert_float_equal(d.t_end[0], 1.0, 1e-9);
        assert_int_equal(d.tag[1], prio ? 2 : 1);
        assert_float_equal(d.t_end[1], 1.5, 1e-9);
        bbs_net_fabric_free(f);
        bbs_engine_free(e);
    }
    bbs_net_topo_free(t);
}

/* The starvation wait just before a lower channel's flow ends: flow A (1
 * -> 3) alone on channel 0 of the local link 1 -> 0 (1 GB/s) from a time
 * t0 with b bytes ends at T = t0 + b / 1e9; one unit of the clock before
 * T the wait of a packet on channel 1 there is what A has left over the
 * capacity, rounding included: 0, or a wait that the clock can add to now
 * (else a message would look again at the same instant for ever).  Over
 * 2,000 random t0 and b. */
static void
test_fabric_starve_rounding(void **state)
{
    bbs_net_topo *t = small_topo();
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 13, 0, 0);
    int pa[BBS_NET_MAX_PATH], bad = 0, waited = 0;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bbs_net_route(t, &mo, 1, 3, NULL, NULL, pa, NULL), 4);
    for (int k = 0; k < 2000; k++) {
        bbs_engine *e;
        bbs_net_fabric *f;
        double t0 = 1e-3 * gsl_rng_uniform(r), b = 1e4 + 1e7 * gsl_rng_uniform(r), now, w;
        int id;

        assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
        assert_int_equal(bbs_net_fabric_new(&f, t, e, NULL, NULL, err), BB_OK);
        bbs_net_fabric_set_vc_priority(f, 1, BBS_NET_VC_GROUP);
        assert_int_equal(bbs_engine_run(e, t0), BB_OK);
        assert_int_equal(bbs_net_fabric_start(f, 1, 3, b, pa, 4, 1, 1, &id, err), BB_OK);
        assert_int_equal(bbs_engine_run(e, nextafter(t0 + b / 1e9, 0)), BB_OK);
        now = bbs_engine_now(e);
        w = bbs_net_fabric_starve_wait_s(f, pa[1], 1);
        if (bbs_net_fabric_flow_rate(f, id) > 0) {
            bad += !(w == 0 || now + w > now);
            waited += w > 0;
        }
        bbs_net_fabric_free(f);
        bbs_engine_free(e);
    }
    assert_int_equal(bad, 0);
    assert_true(waited > 0);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* The port's wait behind lower channels that leave a sliver: global links
 * of 0.999 GB/s hold flow A (1 -> 3, 1e6 B, channel 0 on the local link
 * 1 -> 0 of 1 GB/s) to 0.999 GB/s, so channel 1 there is left 0.1% of
 * the link.  Its 16-KiB buffer would take 16384 / 1e6 s = 16.4 ms at that,
 * but A ends: the wait is at most what A has left at the link's capacity
 * plus the buffer at it, 1e6 / 1e9 + 16384 / 1e9 = 1.016384 ms.  Without
 * priority one channel at utilisation 0.999 waits the buffer, 16.384 us. */
static void
test_fabric_queue_sliver(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    int pa[BBS_NET_MAX_PATH];
    char err[BB_ERRLEN];

    (void)state;
    memset(&par, 0, sizeof par);
    par.g = 3;
    par.a = 2;
    par.p = 1;
    par.h = 1;
    par.cn_bw_Bps = par.local_bw_Bps = 1e9;
    par.global_bw_Bps = 0.999e9;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(bbs_net_route(t, &mo, 1, 3, NULL, NULL, pa, NULL), 4);
    for (int prio = 1; prio >= 0; prio--) {
        bbs_engine *e;
        bbs_net_fabric *f;
        double w;
        assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
        assert_int_equal(bbs_net_fabric_new(&f, t, e, NULL, NULL, err), BB_OK);
        bbs_net_fabric_set_vc_priority(f, prio, BBS_NET_VC_GROUP);
        assert_int_equal(bbs_net_fabric_start(f, 1, 3, 1e6, pa, 4, 1, 1, NULL, err), BB_OK);
        assert_int_equal(bbs_engine_run(e, 0), BB_OK);
        w = bbs_net_fabric_queue_wait_s(f, pa[1], 1, 4096, 16384);
        assert_float_equal(w, prio ? 1e6 / 1e9 + 16384 / 1e9 : 16384 / 1e9, 1e-15);
        bbs_net_fabric_free(f);
        bbs_engine_free(e);
    }
    bbs_net_topo_free(t);
}

/* bbs_net_path_vc, by hand.  The legacy rule reads only the link kinds, so
 * its paths are made of one terminal (T), local (L) and global (G) link of
 * the 6-router system: minimal T L G L T: 0 0 0 1 0; non-minimal with one
 * local hop in the intermediate group, T L G L G L T: 0 0 0 1 1 3 0; two
 * there, T L G L L G L T: 0 0 0 1 2 1 3 0; within a group, T L T: 0 0 0.
 * The group rule (kronos-union) on routed paths of the 6-router system
 * (groups {0,1}, {2,3}, {4,5} of routers = nodes; global links 0-3, 1-4,
 * 2-5): node 1 -> 3 (inj, 1->0, 0->3, ej): 0 0 1 3 (the global hop
 * follows a local one in the source group, the ejection is in the
 * destination group); 4 -> 0 (inj, 4->1, 1->0, ej): 0 0 3 3; 0 -> 1
 * within a group (inj, 0->1, ej): 0 0 1; and the non-minimal 0 -> 2
 * through group {4,5}: inj, 0->1 (0), 1->4 (1), 4->5 (2), 5->2 (2),
 * 2 -> ej (3). */
static void
test_path_vc(void **state)
{
    bbs_net_topo *t = small_topo();
    int kind[3] = { -1, -1, -1 }; /* a terminal, a local, a global link */
    static const char *const paths[4] = { "TLGLT", "TLGLGLT", "TLGLLGLT", "TLT" };
    static const char *const want[4] = { "00010", "0001130", "00012130", "000" };
    /* routers of each group path: -1 the terminal at either end */
    static const int rpath[4][7] = { { 1, 0, 3, -1 }, { 4, 1, 0, -1 }, { 0, 1, -1 },
                                     { 0, 1, 4, 5, 2, -1 } };
    static const int rsrc[4] = { 1, 4, 0, 0 };
    static const char *const gwant[4] = { "0013", "0033", "001", "001223" };

    (void)state;
    for (int l = 0; l < t->nlinks; l++) {
        int k = t->link_kind[l] == BBS_NET_LINK_LOCAL ? 1
                : t->link_kind[l] == BBS_NET_LINK_GLOBAL ? 2 : 0;
        if (kind[k] < 0)
            kind[k] = l;
    }
    assert_true(kind[0] >= 0 && kind[1] >= 0 && kind[2] >= 0);
    for (int p = 0; p < 4; p++) {
        int path[BBS_NET_MAX_PATH], len = (int)strlen(paths[p]);
        unsigned char vc[BBS_NET_MAX_PATH];
        for (int i = 0; i < len; i++)
            path[i] = kind[paths[p][i] == 'T' ? 0 : paths[p][i] == 'L' ? 1 : 2];
        bbs_net_path_vc(t, path, len, BBS_NET_VC_LEGACY, vc);
        for (int i = 0; i < len; i++)
            if (vc[i] != want[p][i] - '0')
                fail_msg("%s: link %d on channel %d, want %c", paths[p], i, vc[i], want[p][i]);
    }
    for (int p = 0; p < 4; p++) {
        int path[BBS_NET_MAX_PATH], len = 0, r = rsrc[p];
        unsigned char vc[BBS_NET_MAX_PATH];
        path[len++] = BBS_NET_INJ(t, r);
        for (int i = 1; rpath[p][i] >= 0; i++) {
            int l = -1;
            for (int m = 0; m < t->nlinks; m++)
                if (t->link_src[m] == rpath[p][i - 1] && t->link_dst[m] == rpath[p][i])
                    l = m;
            assert_true(l >= 0);
            path[len++] = l;
            r = rpath[p][i];
        }
        path[len++] = BBS_NET_EJ(t, r);
        assert_int_equal(len, (int)strlen(gwant[p]));
        bbs_net_path_vc(t, path, len, BBS_NET_VC_GROUP, vc);
        for (int i = 0; i < len; i++)
            if (vc[i] != gwant[p][i] - '0')
                fail_msg("path %d: link %d on channel %d, want %c", p, i, vc[i], gwant[p][i]);
    }
    bbs_net_topo_free(t);
}

/* Many random flows on the 72-node system: at sampled times no link is over
 * capacity and every flow has a bottleneck (max-min optimality); at the end
 * every byte is delivered, on each link class as routed. */
static void
test_fabric_random_invariants(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_engine *e;
    bbs_net_fabric *f;
    done_log d = { 0 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 5, 0, 0);
    char err[BB_ERRLEN];
    double sent = 0;
    int k = 0;

    (void)state;
    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&f, t, e, NULL, &d, err), BB_OK);
    for (double now = 0; now < 2e-3; now += 1e-4) {
        assert_int_equal(bbs_engine_run(e, now), BB_OK);
        assert_int_equal(bbs_net_fabric_check(f, 1e-9, err), BB_OK);
        for (int i = 0; i < 30; i++, k++) {
            int s = (int)gsl_rng_uniform_int(r, 72), dst = (int)gsl_rng_uniform_int(r, 71);
            bbs_net_route_opts o = { k % 3, 0, 2 };
            double bytes = 1e4 + 1e6 * gsl_rng_uniform(r);
            if (dst >= s)
                dst++;
            assert_int_equal(bbs_net_fabric_route_start(f, &o, r, s, dst, bytes, k, NULL, err),
                             BB_OK);
            sent += bytes;
        }
    }
    assert_int_equal(bbs_engine_run(e, 2.05e-3), BB_OK);
    assert_int_equal(bbs_net_fabric_check(f, 1e-9, err), BB_OK);
    assert_true(bbs_net_fabric_active(f) > 0);
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_OK);
    assert_int_equal(bbs_net_fabric_active(f), 0);
    bbs_net_fabric_flush(f, bbs_engine_now(e));
    {
        double ej = 0;
        for (int l = 0; l < t->nlinks; l++) {
            bbs_net_link_stat st;
            bbs_net_fabric_link_stat(f, l, &st);
            if (t->link_kind[l] == BBS_NET_LINK_EJ)
                ej += st.bytes;
            assert_true(st.saturated_s <= bbs_engine_now(e) + 1e-12);
        }
        assert_float_equal(ej, sent, sent * 1e-9);
    }
    bbs_net_fabric_free(f);
    bbs_engine_free(e);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Local recomputation never exceeds a capacity either. */
static void
test_fabric_local_mode_feasible(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_engine *e;
    bbs_net_fabric *f;
    gsl_rng *r = bbs_rng_stream_new(NULL, 6, 0, 0);
    char err[BB_ERRLEN];
    int k = 0;

    (void)state;
    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&f, t, e, NULL, NULL, err), BB_OK);
    bbs_net_fabric_set_exact_limit(f, 0);
    for (double now = 0; now < 2e-3; now += 1e-4) {
        assert_int_equal(bbs_engine_run(e, now), BB_OK);
        /* capacity only: tol 1e-6 for the running sums */
        {
            int rc = bbs_net_fabric_check(f, 1e-6, err);
            if (rc != BB_OK)
                assert_null(strstr(err, "capacity"));
        }
        for (int i = 0; i < 30; i++, k++) {
            int s = (int)gsl_rng_uniform_int(r, 72), dst = (int)gsl_rng_uniform_int(r, 71);
            bbs_net_route_opts o = { BBS_NET_ROUTE_MIN, 0, 2 };
            if (dst >= s)
                dst++;
            assert_int_equal(bbs_net_fabric_route_start(f, &o, r, s, dst, 5e5, k, NULL, err),
                             BB_OK);
        }
    }
    assert_int_equal(bbs_engine_run(e, INFINITY), BB_OK);
    assert_int_equal(bbs_net_fabric_active(f), 0);
    bbs_net_fabric_free(f);
    bbs_engine_free(e);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

/* Bad input to the fabric. */
static void
test_fabric_bad_input(void **state)
{
    bbs_net_topo *t = small_topo();
    bbs_engine *e;
    bbs_net_fabric *f;
    bbs_net_route_opts mo = { BBS_NET_ROUTE_MIN, 0, 1 };
    gsl_rng *r = bbs_rng_stream_new(NULL, 1, 0, 0);
    char err[BB_ERRLEN];
    int path[2] = { 0, 99 };

    (void)state;
    assert_int_equal(bbs_engine_new(&e, 0, err), BB_OK);
    assert_int_equal(bbs_net_fabric_new(&f, t, e, NULL, NULL, err), BB_OK);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 0, 0, 1, 0, NULL, err), BB_EINVAL);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 0, 6, 1, 0, NULL, err), BB_EINVAL);
    assert_int_equal(bbs_net_fabric_route_start(f, &mo, r, 0, 1, -1, 0, NULL, err), BB_EINVAL);
    assert_int_equal(bbs_net_fabric_start(f, 0, 1, 1, path, 2, 1, 0, NULL, err), BB_EINVAL);
    assert_non_null(strstr(err, "99"));
    bbs_net_fabric_free(f);
    bbs_engine_free(e);
    gsl_rng_free(r);
    bbs_net_topo_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_flows_two_links),
        cmocka_unit_test(test_priority_classes),
        cmocka_unit_test(test_textbook_chain),
        cmocka_unit_test(test_random_vs_reference),
        cmocka_unit_test(test_heap_sizes),
        cmocka_unit_test(test_priority_random),
        cmocka_unit_test(test_md1_wait),
        cmocka_unit_test(test_fabric_hand_timeline),
        cmocka_unit_test(test_fabric_vc_priority),
        cmocka_unit_test(test_fabric_starve_rounding),
        cmocka_unit_test(test_fabric_queue_sliver),
        cmocka_unit_test(test_path_vc),
        cmocka_unit_test(test_fabric_random_invariants),
        cmocka_unit_test(test_fabric_local_mode_feasible),
        cmocka_unit_test(test_fabric_bad_input),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
