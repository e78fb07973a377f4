/* b_fluid_approx.c: the folded fluid model (analytic/fluid/fluid_approx.h)
 * beyond exact reach, through the front door (answer.h) as `bbsize`
 * answers, against a truth measured elsewhere (bench/approx_truth.sh:
 * the fluid simulator, 95% intervals under 10%).
 * Usage:
 *   bench/b_fluid_approx list SEED COUNT   the workloads, one line each
 *   bench/b_fluid_approx csv SEED I        workload I as a workload file
 *   bench/b_fluid_approx grid SEED COUNT   "I S" for the sizes where the
 *       truth is measured: 0 and 0.6, 1, 1.5 times the reference
 *       size (the folded model's size for idle 1e-3 when the grid was
 *       made; its high size when that is 0)
 *   bench/b_fluid_approx exact SEED COUNT GRID MAXP   the exact solver's
 *       idle fraction at the grid's points (GRID: "I S" lines) of the
 *       workloads of at most MAXP phases, as truth lines
 *   bench/b_fluid_approx predict SEED COUNT GRID   "I S idle" the front
 *       door's idle fraction at the grid's points (GRID: "I S" lines), to
 *       size each point's simulated horizon (bench/approx_truth.sh)
 *   bench/b_fluid_approx eval SEED COUNT TRUTH   the table, the coverage
 *       per half and "raw" lines (half, workload, truth, its low end,
 *       idle, the hull, the folded shares, the bufferless bound at 0,
 *       the prefactor rho) from which bench/approx.sh calibrates C
 * Workload I depends on SEED and I alone; it is in the calibration half
 * when (I / 5) is even, else in the validation half (each block of five
 * has every kind).  Kinds (I mod 5): 0 heavy-tailed mix (13 to 40
 * distinct applications, Pareto(1.5) rates); 1 one dominant class (8 to
 * 40 copies of a large application) with many small ones (one class of
 * copies or 10 to 30 distinct); 2 near overload (13 to 30 distinct, the
 * paper's generator at E/B 0.88 to 0.92); 3 many identical classes (5 to
 * 30 classes of 5 to 100 copies); 4 a few kinds repeated (5 to 8 kinds of
 * 2 to 4 copies).  Every workload has more than 4,096 phases, greedy
 * draining, B = 1 TB/s.
 * Points: the idle fraction at each grid size (is the truth inside the
 * printed interval?) and the size for idle 1e-3 (is the truth's size,
 * log-linear between the grid sizes around it, inside [S_low, S_high]?),
 * the latter only where the truth measured crosses the target (a
 * workload whose deeper points are not yet simulated has none).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbanalytic.h"

#define TB 1e12
#define TARGET 1e-3
#define NMAX 64
#define WMAX 200
#define GRID 4

static const double grid_f[GRID] = { 0, 0.6, 1.0, 1.5 };

/* splitmix64 */
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
    return ((double)(mix(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double
logu(unsigned long long *s, double a, double b)
{
    return exp(log(a) + (log(b) - log(a)) * unif(s));
}

typedef struct {
    bba_app a[NMAX];
    size_t n;
    int kind;
    double load;
    char tag[96];
} workload;

static const char *const kinds[] = { "heavy-tailed", "dominant class", "near overload",
                                     "identical classes", "kinds repeated" };

static double
phases(const workload *w)
{
    double P = 1;

    for (size_t i = 0; i < w->n; i++)
        P *= w->a[i].count + 1.0;
    return P;
}

/* scale the rates of apps [from, to) so that they carry load E (B/s) */
static void
scale(workload *w, size_t from, size_t to, double E)
{
    double e = 0;

    for (size_t i = from; i < to; i++)
        e += w->a[i].count * w->a[i].p * w->a[i].bw_Bps;
    for (size_t i = from; i < to; i++)
        w->a[i].bw_Bps *= E / e;
}

static void
add(workload *w, double p, double b, double L, long count)
{
    bba_app *x = &w->a[w->n++];

    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "a%zu", w->n);
    x->p = p;
    x->bw_Bps = b;
    x->burst_s = L;
    x->count = count;
}

/* heavy-tailed distinct applications: Pareto(1.5) rates, p and L
 * log-uniform */
static void
heavy(workload *w, unsigned long long *s, int n, double pmax)
{
    for (int j = 0; j < n; j++)
        add(w, logu(s, 0.005, pmax), fmin(pow(unif(s), -1 / 1.5), 50.0), logu(s, 5, 300), 1);
}

static int
make(unsigned long long seed, int i, workload *w, char *err)
{
    unsigned long long s = seed * 0x100000001b3ULL + (unsigned long long)i * 7919ULL + 1;
    int rc;

    memset(w, 0, sizeof *w);
    w->kind = i % 5;
    switch (w->kind) {
    case 0: {
        static const double loads[] = { 0.5, 0.65, 0.8 };

        w->load = loads[mix(&s) % 3];
        heavy(w, &s, 13 + (int)(mix(&s) % 28), 0.2);
        scale(w, 0, w->n, w->load * TB);
        break;
    }
    case 1: {
        static const double loads[] = { 0.3, 0.5, 0.7 };
        long Nd = 8 + (long)(mix(&s) % 33);
        double share = 0.4 + 0.4 * unif(&s);

        w->load = loads[mix(&s) % 3];
        add(w, 0.02 + 0.06 * unif(&s), 1, logu(&s, 30, 300), Nd);
        scale(w, 0, 1, share * w->load * TB);
        if (mix(&s) % 2) {
            long Ns = (long)ceil(4097.0 / (Nd + 1)) + (long)(mix(&s) % 300);

            add(w, logu(&s, 0.005, 0.05), 1, logu(&s, 5, 60), Ns);
        } else {
            heavy(w, &s, 13 + (int)(mix(&s) % 18), 0.05);
        }
        scale(w, 1, w->n, (1 - share) * w->load * TB);
        break;
    }
    case 2: {
        static const double loads[] = { 0.88, 0.9, 0.92 }, pm[] = { 0.1, 0.3 },
                            L0[] = { 1, 10, 60 };
        int n = 13 + (int)(mix(&s) % 18);
        double L = L0[mix(&s) % 3];

        w->load = loads[mix(&s) % 3];
        rc = bba_generate_paper((size_t)n, pm[mix(&s) % 2], w->load, TB, 0,
                                (unsigned long)(mix(&s) % 1000000), w->a, err);
        if (rc != BB_OK)
            return rc;
        w->n = (size_t)n;
        for (int j = 0; j < n; j++) {
            w->a[j].burst_s = L * (0.5 + 1.5 * unif(&s));
            w->a[j].count = 1;
        }
        break;
    }
    case 3: {
        static const double loads[] = { 0.5, 0.7, 0.85 };
        int K = 5 + (int)(mix(&s) % 26);

        w->load = loads[mix(&s) % 3];
        for (int j = 0; j < K; j++)
            add(w, logu(&s, 0.005, 0.1), fmin(pow(unif(&s), -1 / 1.5), 20.0), logu(&s, 5, 300),
                5 + (long)(mix(&s) % 96));
        scale(w, 0, w->n, w->load * TB);
        break;
    }
    default: {
        static const double loads[] = { 0.5, 0.7, 0.85 }, L0[] = { 10, 60 };
        int K = 5 + (int)(mix(&s) % 4);
        double L = L0[mix(&s) % 2];

        w->load = loads[mix(&s) % 3];
        rc = bba_generate_paper((size_t)K, 0.3, w->load, TB, 0,
                                (unsigned long)(mix(&s) % 1000000), w->a, err);
        if (rc != BB_OK)
            return rc;
        w->n = (size_t)K;
        for (int j = 0; j < K; j++) {
            w->a[j].burst_s = L * (0.5 + 1.5 * unif(&s));
            w->a[j].count = 2 + (long)(mix(&s) % 3);
        }
        for (int j = 0; phases(w) <= 4096; j = (j + 1) % K)
            w->a[j].count++;
        /* the same load with the copies */
        for (int j = 0; j < K; j++)
            w->a[j].bw_Bps /= (double)w->a[j].count;
        scale(w, 0, w->n, w->load * TB);
        break;
    }
    }
    {
        long apps = 0;

        for (size_t j = 0; j < w->n; j++)
            apps += w->a[j].count;
        snprintf(w->tag, sizeof w->tag, "%d: %s, %ld apps in %zu rows, E/B %.2f", i,
                 kinds[w->kind], apps, w->n, w->load);
    }
    return BB_OK;
}

static int
front(const workload *w, bba_front **f, char *err)
{
    bba_question q;

    bba_question_init(&q);
    q.apps = w->a;
    q.n = w->n;
    q.pf.pfs_bw_Bps = 1 * TB;
    q.pf.time_unit_s = 1;
    q.time_unit_given = 1;
    q.model = BBA_MODEL_FLUID;
    return bba_front_new(&q, f, err);
}

static int
write_csv(const workload *w)
{
    printf("#@ pfs-bw = 1 TB/s\nname,p,bw,burst,count\n");
    for (size_t i = 0; i < w->n; i++)
        printf("%s,%.17g,%.17gB/s,%.17gs,%ld\n", w->a[i].name, w->a[i].p, w->a[i].bw_Bps,
               w->a[i].burst_s, w->a[i].count);
    return 0;
}

/* the workload's rows as fluid classes c[0..w->n - 1] */
static void
to_classes(const workload *w, bba_fluid_class *c)
{
    for (size_t i = 0; i < w->n; i++) {
        c[i].rate_Bps = w->a[i].bw_Bps;
        c[i].p = w->a[i].p;
        c[i].burst_s = w->a[i].burst_s;
        c[i].count = (int)w->a[i].count;
    }
}

/* the reference size for the grid (above) */
static int
ref_size(const workload *w, double *S, char *err)
{
    bba_front *f = NULL;
    bb_drain d = { 0, 0, 0, 0.01 };
    bba_answer a;
    int rc = front(w, &f, err);

    if (rc == BB_OK && (rc = bba_front_size(f, TARGET, &d, &a, err)) == BB_OK)
        *S = a.S_bytes > 0 ? a.S_bytes : a.S_high_bytes;
    bba_front_free(f);
    if (rc != BB_OK) {
        /* the front door's folded model not solved to accuracy there: the
         * coarser folding within an eighth of the budget, its own size */
        bba_fluid_class c[NMAX];
        bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
        bb_drain ps;
        bba_fluid_approx *fa = NULL;
        bba_fluid_result at;
        int ev;

        fprintf(stderr, "b_fluid_approx: %s; the reference from the folding within %d phases\n",
                err, BBA_FLUID_APPROX_PHASES / 8);
        to_classes(w, c);
        memset(&ps, 0, sizeof ps);
        rc = bba_fluid_approx_new(c, w->n, &o, BBA_FLUID_APPROX_PHASES / 8, &fa, err);
        if (rc == BB_OK)
            rc = bba_fluid_size_min(bba_fluid_approx_model(fa), TARGET, &ps, 0.01, 0, NULL, NULL,
                                    S, &at, &ev, err);
        bba_fluid_approx_free(fa);
    }
    return rc;
}

typedef struct {
    int i;
    double S, idle, lo, hi;
} truth;

static int
cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return a < b ? -1 : a > b;
}

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* the truth's log idle at S, log-linear between the grid points around S
 * (beyond the grid: from its last two points); NAN without two points */
static double
truth_at(const truth *t, int n, double S)
{
    int j = 1;

    if (n < 2)
        return NAN;
    while (j < n - 1 && t[j].S < S)
        j++;
    if (!(t[j].idle > 0 && t[j - 1].idle > 0))
        return NAN;
    return log(t[j - 1].idle) + (S - t[j - 1].S) * (log(t[j].idle) - log(t[j - 1].idle))
                                    / (t[j].S - t[j - 1].S);
}

typedef struct {
    int pts[2], cov[2], szs[2], szcov[2], meets;
    int kw[5], kpts[5], kcov[5]; /* per kind: workloads with a truth, idle points, held */
    double hw[WMAX * (GRID + 1)];
    int nhw;
    int fails;
    char raw[WMAX * GRID][160];
    int nraw;
} tally;

/* the folded model as the front door builds it (answer.c) */
static int
approx(const workload *w, bba_fluid_approx **fa, char *err)
{
    bba_fluid_class c[NMAX];
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };

    to_classes(w, c);
    return bba_fluid_approx_new(c, w->n, &o, BBA_FLUID_APPROX_PHASES, fa, err);
}

static int
eval(unsigned long long seed, int first, int count, const char *path, char *err)
{
    static truth T[WMAX * GRID];
    int nt = 0;
    FILE *fp = fopen(path, "r");
    tally t;
    char line[256];

    if (fp == NULL) {
        fprintf(stderr, "b_fluid_approx: cannot open %s\n", path);
        return 1;
    }
    while (fgets(line, sizeof line, fp) && nt < WMAX * GRID) {
        truth x;

        if (line[0] == '#')
            continue;
        if (sscanf(line, "%d %lg %lg %lg %lg", &x.i, &x.S, &x.idle, &x.lo, &x.hi) == 5)
            T[nt++] = x;
    }
    fclose(fp);
    memset(&t, 0, sizeof t);
    printf("| workload | half | phases | size approx [interval] | size truth | points: S, "
           "truth, approx [interval] | folding |\n| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = first; i < first + count; i++) {
        workload w;
        bba_front *f = NULL;
        bba_fluid_approx *fa = NULL;
        bb_drain d = { 0, 0, 0, 0.01 };
        bba_answer a;
        truth tw[GRID];
        int m = 0, half = (i / 5) % 2;
        double lt_lo, lt_hi, Sx = NAN;
        char desc[512];

        for (int k = 0; k < nt; k++)
            if (T[k].i == i && m < GRID)
                tw[m++] = T[k];
        if (m == 0)
            continue;
        if (make(seed, i, &w, err) != BB_OK || front(&w, &f, err) != BB_OK
            || approx(&w, &fa, err) != BB_OK
            || bba_front_size(f, TARGET, &d, &a, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
            bba_front_free(f);
            bba_fluid_approx_free(fa);
            t.fails++;
            continue;
        }
        bba_front_describe(f, desc, sizeof desc);
        t.kw[w.kind]++;
        lt_lo = a.S_low_bytes > 0 ? truth_at(tw, m, a.S_low_bytes) : log(tw[0].idle);
        lt_hi = isfinite(a.S_high_bytes) ? truth_at(tw, m, a.S_high_bytes) : -INFINITY;
        {   /* the truth's size, log-linear between grid points */
            for (int k = 1; k < m; k++)
                if (tw[k].idle <= TARGET && tw[k - 1].idle > TARGET) {
                    double y0 = log(tw[k - 1].idle), y1 = log(tw[k].idle);

                    Sx = tw[k - 1].S + (log(TARGET) - y0) * (tw[k].S - tw[k - 1].S) / (y1 - y0);
                }
            if (tw[0].idle <= TARGET)
                Sx = 0;
        }
        {   /* a size point only where the truth measured crosses the target */
            int in = lt_lo >= log(TARGET) - 1e-12 && lt_hi <= log(TARGET) + 1e-12;

            if (isfinite(Sx)) {
                t.szs[half]++;
                t.szcov[half] += in;
            }
            printf("| %s | %s | %.3g | %.4g [%.4g, %.4g] TB%s | %.4g TB |", w.tag,
                   half ? "val." : "cal.", phases(&w), a.S_bytes / TB, a.S_low_bytes / TB,
                   a.S_high_bytes / TB, !isfinite(Sx) ? "" : in ? "" : " **out**", Sx / TB);
        }
        for (int k = 0; k < m; k++) {
            bba_answer b;
            bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
            double hl, hh, s0l, s0h;
            int in;

            if (bba_front_idle(f, tw[k].S, &d, &b, err) != BB_OK) {
                fprintf(stderr, "b_fluid_approx: workload %d at %g: %s\n", i, tw[k].S, err);
                t.fails++;
                continue;
            }
            if (bba_fluid_approx_hull(fa, tw[k].S, &pol, b.idle, &hl, &hh, err) != BB_OK) {
                fprintf(stderr, "b_fluid_approx: workload %d at %g: %s\n", i, tw[k].S, err);
                t.fails++;
                continue;
            }
            in = tw[k].idle >= b.idle_low && tw[k].idle <= b.idle_high;
            /* the printed interval meets the truth's own 95% interval */
            t.meets += tw[k].hi >= b.idle_low && tw[k].lo <= b.idle_high;
            bba_fluid_approx_stall0(fa, &s0l, &s0h);
            snprintf(t.raw[t.nraw++], sizeof t.raw[0],
                     "raw %d %d %.6g %.6g %.6g %.6g %.6g %.4f %.4f %.6g %.6g", half, i, tw[k].idle,
                     tw[k].lo, b.idle, hl, hh, bba_fluid_approx_folded(fa),
                     bba_fluid_approx_folded_load(fa), tw[k].S == 0 ? s0h : 0.0,
                     bba_fluid_approx_prefactor(fa));
            t.pts[half]++;
            t.cov[half] += in;
            t.kpts[w.kind]++;
            t.kcov[w.kind] += in;
            t.hw[t.nhw++] = b.idle > 0 ? 0.5 * (b.idle_high - b.idle_low) / b.idle : 0;
            printf(" %.3g TB: %.3g, %.3g [%.3g, %.3g]%s;", tw[k].S / TB, tw[k].idle, b.idle,
                   b.idle_low, b.idle_high, in ? "" : " **no**");
        }
        printf(" | %s |\n", desc);
        fflush(stdout);
        bba_front_free(f);
        bba_fluid_approx_free(fa);
    }
    {
        int P = t.pts[0] + t.pts[1] + t.szs[0] + t.szs[1];
        int C = t.cov[0] + t.cov[1] + t.szcov[0] + t.szcov[1];

        printf("\ncoverage: %d of %d points (%.1f%%): idle %d of %d, size %d of %d; "
               "calibration half %d of %d, validation half %d of %d\n", C, P, 100.0 * C / P,
               t.cov[0] + t.cov[1], t.pts[0] + t.pts[1], t.szcov[0] + t.szcov[1],
               t.szs[0] + t.szs[1], t.cov[0] + t.szcov[0], t.pts[0] + t.szs[0],
               t.cov[1] + t.szcov[1], t.pts[1] + t.szs[1]);
        printf("idle points whose interval meets the truth's 95%% interval: %d of %d\n", t.meets,
               t.pts[0] + t.pts[1]);
        printf("by kind (workloads answered with a truth: idle points held):");
        for (int k = 0; k < 5; k++)
            printf("%s %s %d: %d of %d", k ? ";" : "", kinds[k], t.kw[k], t.kcov[k], t.kpts[k]);
        printf("\n");
        printf("median relative half-width of the idle interval: %.1f%%\n",
               100 * median(t.hw, t.nhw));
        if (t.fails)
            printf("failures: %d\n", t.fails);
        printf("\nraw (half, workload, truth, its 95%% low end, approx idle, least and largest "
               "over the variants, folded share of the effect and of the load, the bufferless "
               "upper bound at S = 0), for calibration:\n");
        for (int k = 0; k < t.nraw; k++)
            printf("%s\n", t.raw[k]);
    }
    return 0;
}

/* The grid file ("I S" lines) opened for reading, or NULL with a line on
 * stderr. */
static FILE *
open_grid(const char *grid)
{
    FILE *fp = fopen(grid, "r");

    if (fp == NULL)
        fprintf(stderr, "b_fluid_approx: cannot open %s\n", grid);
    return fp;
}

/* The exact solver without its phase cap, for the workloads of at most
 * maxp phases: "I S idle idle idle 0 0 exact" at each "I S" of the grid
 * file (the truth's format, bench/approx_truth.sh). */
static int
exact(unsigned long long seed, int count, const char *grid, double maxp, char *err)
{
    FILE *fp = open_grid(grid);
    int last = -1, rc = BB_OK, i;
    double S;
    bba_fluid *m = NULL;
    workload w;

    if (fp == NULL)
        return 1;
    while (fscanf(fp, "%d %lg", &i, &S) == 2) {
        bba_fluid_class c[NMAX];
        bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
        bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
        bba_fluid_result r;

        if (i >= count)
            break;
        if (i != last) {
            bba_fluid_free(m);
            m = NULL;
            last = i;
            if ((rc = make(seed, i, &w, err)) != BB_OK)
                break;
            if (phases(&w) > maxp)
                continue;
            to_classes(&w, c);
            if ((rc = bba_fluid_new(c, w.n, &o, &m, err)) != BB_OK) {
                fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
                rc = BB_OK;
                continue;
            }
        }
        if (m == NULL)
            continue;
        if (bba_fluid_eval(m, S, &pol, &r, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: workload %d at %g: %s\n", i, S, err);
            continue;
        }
        printf("%d %.9g %.17g %.17g %.17g 0 0 exact\n", i, S, r.idle, r.idle, r.idle);
        fflush(stdout);
    }
    bba_fluid_free(m);
    fclose(fp);
    if (rc != BB_OK)
        fprintf(stderr, "b_fluid_approx: %s\n", err);
    return rc != BB_OK;
}

/* The front door's idle fraction at each "I S" of the grid file (of
 * workloads I < count): "I S idle" lines. */
static int
predict(unsigned long long seed, int count, const char *grid, char *err)
{
    FILE *fp = open_grid(grid);
    int last = -1, rc = BB_OK, i;
    double S;
    bba_front *f = NULL;
    workload w;

    if (fp == NULL)
        return 1;
    while (rc == BB_OK && fscanf(fp, "%d %lg", &i, &S) == 2) {
        bb_drain d = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0, .eps = 0.01 };
        bba_answer a;

        if (i >= count)
            break;
        if (i != last) {
            bba_front_free(f);
            f = NULL;
            last = i;
            if ((rc = make(seed, i, &w, err)) != BB_OK || (rc = front(&w, &f, err)) != BB_OK)
                break;
        }
        if (bba_front_idle(f, S, &d, &a, err) != BB_OK) {
            /* not answered: the caller sizes the point without a prediction */
            fprintf(stderr, "b_fluid_approx: workload %d at %g: %s\n", i, S, err);
            a.idle = NAN;
        }
        printf("%d %.9g %.6g\n", i, S, a.idle);
        fflush(stdout);
    }
    bba_front_free(f);
    fclose(fp);
    if (rc != BB_OK)
        fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
    return rc != BB_OK;
}

int
main(int argc, char **argv)
{
    char err[BB_ERRLEN];
    const char *mode = argc > 1 ? argv[1] : "";
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int n = argc > 3 ? atoi(argv[3]) : 0;
    workload w;

    if (argc < 4 || n < 0 || n > WMAX) {
        fprintf(stderr, "usage: b_fluid_approx list|csv|grid|eval|predict|exact SEED COUNT|I [TRUTH|GRID [MAXP]]\n");
        return 64;
    }
    if (strcmp(mode, "csv") == 0) {
        if (make(seed, n, &w, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: %s\n", err);
            return 1;
        }
        return write_csv(&w);
    }
    if (strcmp(mode, "eval") == 0 && argc > 4)
        return eval(seed, 0, n, argv[4], err);
    if (strcmp(mode, "predict") == 0 && argc > 4)
        return predict(seed, n, argv[4], err);
    if (strcmp(mode, "exact") == 0 && argc > 5)
        return exact(seed, n, argv[4], atof(argv[5]), err);
    for (int i = 0; i < n; i++) {
        double S = NAN;

        if (make(seed, i, &w, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
            return 1;
        }
        if (strcmp(mode, "list") == 0) {
            printf("%s, %.3g phases\n", w.tag, phases(&w));
            continue;
        }
        if (ref_size(&w, &S, err) != BB_OK) {
            fprintf(stderr, "b_fluid_approx: workload %d: %s\n", i, err);
            return 1;
        }
        for (int k = 0; k < GRID; k++)
            printf("%d %.9g\n", i, grid_f[k] * S);
        fflush(stdout);
    }
    return 0;
}
