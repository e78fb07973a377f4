/* b_fluid_approx.c: the folded fluid model (analytic/fluid_approx.h)
 * against the exact one on workloads that fit exactly, the approximation
 * forced by a small phase budget; prints one row per workload and the
 * coverage of the printed intervals.
 * Usage: bench/b_fluid_approx [FIRST [COUNT [BUDGET_DIV]]]
 *   workloads FIRST .. FIRST + COUNT - 1 (default 0, 24); each is built
 *   from its index alone (below); the approximation's budget is the exact
 *   phase count / BUDGET_DIV (default 64), at least 32.  Workload i is in
 *   the calibration half when (i / 4) is even, else in the validation
 *   half (each block of four has every kind).
 * Columns: the workload; its half; the phases; the exact and approximate
 * sizes for idle <= 1e-3 and the size interval; at the approximate size,
 * the exact idle and the interval; at half the exact size, the same; the
 * time to build the folded model and find its size; the folding.  Then
 * the coverage per half, the median half-width and errors, and one "raw"
 * line per point (half, ln(exact / approx idle), ln spread, folded share)
 * from which bench/approx.sh calibrates C (fluid_approx.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bbanalytic.h"

#define TB 1e12
#define TARGET 1e-3
#define NMAX 20

/* splitmix64: the workload's parameters from its index */
static unsigned long long
mix(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double
unif(unsigned long long *s)
{
    return (double)(mix(s) >> 11) / 9007199254740992.0;
}

typedef struct {
    bba_fluid_class c[NMAX];
    size_t n;         /* classes */
    int apps;
    double load, pmax, L0, Bbb;
    int lazy;
    char tag[128];
} workload;

/* Workload i: 8 to 11 distinct applications (or 14 to 20 as 7 to 4
 * distinct ones repeated), the paper's generator for p and b (load
 * alpha, p ~ U(0, p_max)), ON periods L0 x U(0.5, 2); some with a buffer
 * bandwidth, some lazy (those small enough for the dense solves). */
static int
make(int i, workload *w, char *err)
{
    static const double loads[] = { 0.5, 0.65, 0.8, 0.9 };
    static const double pmaxs[] = { 0.1, 0.3, 0.5 };
    static const double L0s[] = { 1, 10, 60 };
    unsigned long long s = 0x5eedULL + (unsigned long long)i * 7919ULL;
    bba_app apps[NMAX];
    int distinct, rep = 1, rc;

    memset(w, 0, sizeof *w);
    w->load = loads[mix(&s) % 4];
    w->pmax = pmaxs[mix(&s) % 3];
    w->L0 = L0s[mix(&s) % 3];
    if (i % 4 == 3) {                      /* repeated types, 14 to 20 apps */
        static const int reps[][2] = { { 7, 2 }, { 6, 3 }, { 5, 4 }, { 4, 4 } };
        int k = (int)(mix(&s) % 4);

        distinct = reps[k][0];
        rep = reps[k][1];
    } else if (i % 4 == 1 || i % 4 == 2) {  /* B_BB or lazy: dense solves */
        distinct = 8;
        w->Bbb = i % 4 == 1 ? (0.5 + unif(&s)) * TB : 0;
        w->lazy = i % 4 == 2;
    } else {
        distinct = 8 + (int)(mix(&s) % 4);
    }
    rc = bba_generate_paper((size_t)distinct, w->pmax, w->load, 1 * TB, 0,
                            (unsigned long)(1000 + i), apps, err);
    if (rc != BB_OK)
        return rc;
    for (int j = 0; j < distinct; j++) {
        w->c[j].rate_Bps = apps[j].bw_Bps / rep;
        w->c[j].p = apps[j].p;
        w->c[j].burst_s = w->L0 * (0.5 + 1.5 * unif(&s));
        w->c[j].count = rep;
    }
    w->n = (size_t)distinct;
    w->apps = distinct * rep;
    if (w->Bbb > 0) {   /* 1.1 to 2 times the least that reaches the target */
        bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
        bba_fluid *m = NULL;
        double bw = 0;

        if ((rc = bba_fluid_new(w->c, w->n, &o, &m, err)) != BB_OK)
            return rc;
        rc = bba_fluid_bbbw_min(m, TARGET, &bw, err);
        bba_fluid_free(m);
        if (rc != BB_OK)
            return rc;
        if (bw > 0)
            w->Bbb = bw * (1.1 + 0.9 * unif(&s));
    }
    snprintf(w->tag, sizeof w->tag, "%d: %d apps%s, load %.2f, p<%.1f, L %gs%s%s", i, w->apps,
             rep > 1 ? " (repeated)" : "", w->load, w->pmax, w->L0, w->Bbb > 0 ? ", B_BB" : "",
             w->lazy ? ", lazy" : "");
    return BB_OK;
}

static double
now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* idle of model m at S under the workload's policy */
static int
idle_at(const bba_fluid *m, const workload *w, double S, double *idle, char *err)
{
    bba_fluid_policy pol = { w->lazy, w->lazy ? 0.3 * S : 0, w->lazy ? 0.01 : 1 };
    bba_fluid_result r;
    int rc = bba_fluid_eval(m, S, &pol, &r, err);

    *idle = r.idle;
    return rc;
}

typedef struct {
    int points, covered, sizes, sizes_covered, half_points[2], half_covered[2];
    double raw[2 * 64][4];   /* half, ln(exact / approx), ln spread, folded */
    double hw[2 * 64], err_idle[2 * 64], err_size[64];
    int nhw, nerr, nsz;
} tally;

static int
cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return a < b ? -1 : a > b;
}

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* one point: the interval around the approximation's idle at S, against
 * the exact idle there */
static int
point(const bba_fluid_approx *a, const bba_fluid *ex, const workload *w, double S, int half,
      tally *t, char *err)
{
    bba_fluid_policy pol = { w->lazy, w->lazy ? 0.3 * S : 0, w->lazy ? 0.01 : 1 };
    double tru, apx, lo, hi;
    int rc, in;

    double ls;

    if ((rc = idle_at(ex, w, S, &tru, err)) != BB_OK
        || (rc = idle_at(bba_fluid_approx_model(a), w, S, &apx, err)) != BB_OK
        || (rc = bba_fluid_approx_interval(a, S, &pol, apx, &lo, &hi, err)) != BB_OK
        || (rc = bba_fluid_approx_spread(a, S, &pol, apx, &ls, err)) != BB_OK)
        return rc;
    in = tru >= lo && tru <= hi;
    t->raw[t->points][0] = half;
    t->raw[t->points][1] = log(tru / apx);
    t->raw[t->points][2] = ls;
    t->raw[t->points][3] = bba_fluid_approx_folded(a);
    t->points++;
    t->covered += in;
    t->half_points[half]++;
    t->half_covered[half] += in;
    t->hw[t->nhw++] = apx > 0 ? 0.5 * (hi - lo) / apx : 0;
    t->err_idle[t->nerr++] = apx > 0 ? tru / apx - 1 : 0;
    printf(" | %.3g | %.3g [%.3g, %.3g] %s", tru, apx, lo, hi, in ? "yes" : "**no**");
    return BB_OK;
}

int
main(int argc, char **argv)
{
    int first = argc > 1 ? atoi(argv[1]) : 0, count = argc > 2 ? atoi(argv[2]) : 24;
    double div = argc > 3 ? atof(argv[3]) : 64;
    tally t;
    char err[BB_ERRLEN];

    memset(&t, 0, sizeof t);
    if (count < 1 || count > 64 || div < 1) {
        fprintf(stderr, "b_fluid_approx: COUNT in 1..64, BUDGET_DIV >= 1\n");
        return 64;
    }
    printf("| workload | half | phases exact / folded | size exact | size approx [interval] | "
           "idle exact at approx size | idle approx [interval] | idle exact at half "
           "the exact size | idle approx [interval] | time approx | method |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = first; i < first + count; i++) {
        workload w;
        bba_fluid_opts o;
        bba_fluid *ex = NULL;
        bba_fluid_approx *a = NULL;
        bba_policy_spec ps;
        double Sx, Sa, Slo, Shi, t0, t1;
        long P, budget;
        char desc[256];
        int rc, half = (i / 4) % 2;   /* 0: calibration, 1: validation */

        if (make(i, &w, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
            return 1;
        }
        o.pfs_bw_Bps = 1 * TB;
        o.bb_bw_Bps = w.Bbb;
        o.mem_limit_bytes = 0;
        o.max_phases = 0;
        ps.lazy = w.lazy;
        ps.threshold_frac = w.lazy ? 0.3 : 0;
        ps.eps = w.lazy ? 0.01 : 1;
        if (bba_fluid_new(w.c, w.n, &o, &ex, err) != BB_OK)
            goto fail;
        P = bba_fluid_phases(ex);
        budget = (long)(P / div) < 32 ? 32 : (long)(P / div);
        rc = bba_fluid_size_min(ex, TARGET, &ps, 1e-4, 0, NULL, NULL, &Sx, NULL, NULL, err);
        if (rc != BB_OK)
            goto fail;
        t0 = now();
        if (bba_fluid_approx_new(w.c, w.n, &o, budget, &a, err) != BB_OK)
            goto fail;
        rc = bba_fluid_size_min(bba_fluid_approx_model(a), TARGET, &ps, 1e-4, 0, NULL, NULL,
                                &Sa, NULL, NULL, err);
        if (rc != BB_OK)
            goto fail;
        t1 = now();
        if (bba_fluid_approx_size_interval(a, TARGET, &ps, Sa, NULL, NULL,
                                           &Slo, &Shi, err) != BB_OK)
            goto fail;
        bba_fluid_approx_describe(a, desc, sizeof desc);
        t.sizes++;
        t.sizes_covered += Sx >= Slo && Sx <= Shi;
        t.err_size[t.nsz++] = Sa / Sx - 1;
        printf("| %s | %s | %ld / %ld | %.4g TB | %.4g [%.4g, %.4g] TB%s", w.tag,
               half ? "val." : "cal.", P, bba_fluid_phases(bba_fluid_approx_model(a)), Sx / TB, Sa / TB, Slo / TB,
               Shi / TB, Sx >= Slo && Sx <= Shi ? "" : " **out**");
        if (point(a, ex, &w, Sa, half, &t, err) != BB_OK
            || point(a, ex, &w, 0.5 * Sx, half, &t, err) != BB_OK)
            goto fail;
        printf(" | %.3f s | %s |\n", t1 - t0, desc);
        fflush(stdout);
        bba_fluid_free(ex);
        bba_fluid_approx_free(a);
        continue;
fail:
        fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
        bba_fluid_free(ex);
        bba_fluid_approx_free(a);
        return 1;
    }
    {
        double ae[128], as[64];

        for (int i = 0; i < t.nerr; i++)
            ae[i] = fabs(t.err_idle[i]);
        for (int i = 0; i < t.nsz; i++)
            as[i] = fabs(t.err_size[i]);
        printf("\ncoverage of the idle interval: %d of %d points (%.0f%%); calibration half "
               "%d of %d, validation half %d of %d (%.0f%%)\n", t.covered, t.points,
               100.0 * t.covered / t.points, t.half_covered[0], t.half_points[0],
               t.half_covered[1], t.half_points[1],
               t.half_points[1] ? 100.0 * t.half_covered[1] / t.half_points[1] : NAN);
        printf("coverage of the size interval: %d of %d workloads (%.0f%%)\n", t.sizes_covered,
               t.sizes, 100.0 * t.sizes_covered / t.sizes);
        printf("median relative half-width of the idle interval: %.1f%%\n",
               100 * median(t.hw, t.nhw));
        printf("median |idle error| %.1f%%, median |size error| %.2f%%\n",
               100 * median(ae, t.nerr), 100 * median(as, t.nsz));
        printf("\nraw (half, ln(exact/approx idle), ln spread, folded share), for calibration:\n");
        for (int i = 0; i < t.points; i++)
            printf("raw %d %.6f %.6f %.4f\n", (int)t.raw[i][0], t.raw[i][1], t.raw[i][2],
                   t.raw[i][3]);
    }
    return 0;
}
