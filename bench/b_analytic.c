/* b_analytic.c: speed of the analytic core, with ratios against reference
 * runs in the same process: the three stationary solvers on the paper's
 * setting, and the paper's own method (power iteration pi <- pi P on a
 * dense matrix) as the baseline.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: b_analytic [quick]
 * Workloads: the paper's generator (Section 4.3), n applications,
 * p_max = 0.1, load ratio 0.8, B = 100 = R (one quantum = one data unit). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>

#include "bbanalytic.h"

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    bba_quantized q;
    bba_model m;
} setting;

static void
make_setting(setting *s, size_t n, long R, unsigned long seed)
{
    bba_app *apps = calloc(n, sizeof *apps);
    bba_platform pf = { 100.0, 0, 1.0, R };
    char err[BB_ERRLEN];

    if (apps == NULL
        || bba_generate_paper(n, 0.1, 0.8, 100.0, 0, seed, apps, err) != BB_OK
        || bba_quantize(apps, n, &pf, &s->q, err) != BB_OK
        || bba_model_init(&s->m, n, s->q.b, s->q.p, s->q.B, 0, err) != BB_OK) {
        fprintf(stderr, "b_analytic: %s\n", err);
        exit(1);
    }
    free(apps);
}

static void
free_setting(setting *s)
{
    bba_model_free(&s->m);
    bba_quantized_free(&s->q);
}

/* Seconds for one evaluation (median of reps runs). */
static double
time_eval(const setting *s, long S, bba_solver_kind kind, int reps, bba_eval_result *r)
{
    double t[9];
    bba_solver_opts so;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.01 };
    char err[BB_ERRLEN];

    bba_solver_defaults(&so);
    so.kind = kind;
    so.tol = 1e-12;
    for (int i = 0; i < reps; i++) {
        double t0 = now();

        if (bba_eval(&s->m, S, &pol, &so, r, NULL, err) != BB_OK) {
            fprintf(stderr, "b_analytic: %s\n", err);
            exit(1);
        }
        t[i] = now() - t0;
    }
    for (int i = 1; i < reps; i++) /* insertion sort, reps <= 9 */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];

            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return t[reps / 2];
}

/* The paper's method: pi <- pi P with P dense, from the uniform
 * distribution, until max |pi P - pi| <= tol.  Returns seconds and sets
 * *idle and *iters. */
static double
power_dense(const setting *s, long S, double tol, double *idle, long *iters)
{
    bba_chain *c;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.01 };
    char err[BB_ERRLEN];
    double *P, *pi, *nx, t0, t1;
    long n;

    if (bba_chain_build(s->m.dist, s->m.M, s->m.B, S, &pol, 0, &c, err) != BB_OK) {
        fprintf(stderr, "b_analytic: %s\n", err);
        exit(1);
    }
    n = c->n_states;
    P = calloc((size_t)n * (size_t)n, sizeof *P);
    pi = malloc((size_t)n * sizeof *pi);
    nx = malloc((size_t)n * sizeof *nx);
    if (!P || !pi || !nx) {
        fprintf(stderr, "b_analytic: out of memory for a dense %ld x %ld matrix\n", n, n);
        exit(1);
    }
    for (long j = 0; j < n; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            P[(size_t)j * (size_t)n + (size_t)c->col[q]] = c->val[q];
    for (long j = 0; j < n; j++)
        pi[j] = 1.0 / (double)n;
    t0 = now();
    for (*iters = 1;; (*iters)++) {
        double r = 0;

        memset(nx, 0, (size_t)n * sizeof *nx);
        for (long j = 0; j < n; j++) {
            const double *row = P + (size_t)j * (size_t)n;
            double pj = pi[j];

            for (long l = 0; l < n; l++)
                nx[l] += pj * row[l];
        }
        for (long l = 0; l < n; l++) {
            double d = fabs(nx[l] - pi[l]);

            if (d > r)
                r = d;
        }
        memcpy(pi, nx, (size_t)n * sizeof *pi);
        if (r <= tol || *iters >= 1000000)
            break;
    }
    t1 = now();
    *idle = 0;
    for (long j = n - 1; j > S; j--)
        *idle += pi[j];
    free(P);
    free(pi);
    free(nx);
    bba_chain_free(c);
    return t1 - t0;
}

int
main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    setting s;
    bba_eval_result r;
    double tb, tu, tg, tp, idle_p;
    long iters;
    static const char *names[] = { "umfpack", "gauss-seidel", "banded" };

    gsl_set_error_handler_off();
    make_setting(&s, 20, 100, 1);
    printf("# paper setting: n = 20, p_max = 0.1, E/B = 0.8, B = R = 100, M = %ld quanta\n",
           s.m.M);

    printf("\n## solvers at S = 3000 quanta (one bbsize idle evaluation, median of 3)\n");
    tb = time_eval(&s, 3000, BBA_SOLVER_BANDED, 3, &r);
    printf("%-13s %8.3f s  idle %.9e  residual %.1e  states %ld\n", names[2], tb,
           r.meas.idle, r.solve.residual, r.n_states);
    tu = time_eval(&s, 3000, BBA_SOLVER_UMFPACK, 3, &r);
    printf("%-13s %8.3f s  idle %.9e  residual %.1e  (%.1fx banded)\n", names[0], tu,
           r.meas.idle, r.solve.residual, tu / tb);
    tg = time_eval(&s, 3000, BBA_SOLVER_GAUSS_SEIDEL, 1, &r);
    printf("%-13s %8.3f s  idle %.9e  residual %.1e  sweeps %ld  (%.1fx banded)\n",
           names[1], tg, r.meas.idle, r.solve.residual, r.solve.iterations, tg / tb);

    printf("\n## the paper's method: dense power iteration to residual 1e-12\n");
    {
        long S = quick ? 300 : 3000;

        tb = time_eval(&s, S, BBA_SOLVER_BANDED, 3, &r);
        tp = power_dense(&s, S, 1e-12, &idle_p, &iters);
        printf("S = %ld: power %.3f s (%ld iterations, idle %.9e); banded %.4f s "
               "(idle %.9e): banded is %.0fx faster\n",
               S, tp, iters, idle_p, tb, r.meas.idle, tp / tb);
    }

    printf("\n## growth with the buffer size S (banded; time, band memory)\n");
    for (long S = 500; S <= (quick ? 2000 : 16000); S *= 2) {
        double t = time_eval(&s, S, BBA_SOLVER_BANDED, quick ? 1 : 3, &r);

        printf("S = %6ld  %8.3f s  %7.1f MB  idle %.3e\n", S, t,
               r.solve.peak_bytes / 1e6, r.meas.idle);
    }
    free_setting(&s);

    printf("\n## growth with the number of applications n (S = 2000, banded)\n");
    for (size_t n = 10; n <= 40; n *= 2) {
        make_setting(&s, n, 100, 1);
        tb = time_eval(&s, 2000, BBA_SOLVER_BANDED, quick ? 1 : 3, &r);
        printf("n = %2zu  M = %5ld  %8.3f s  %7.1f MB\n", n, s.m.M, tb, r.solve.peak_bytes / 1e6);
        free_setting(&s);
    }

    printf("\n## growth with the resolution R (same buffer: 200 data units, banded)\n");
    for (long R = 100; R <= (quick ? 100 : 1000); R *= 10) {
        make_setting(&s, 20, R, 1);
        tb = time_eval(&s, 2 * R, BBA_SOLVER_BANDED, 1, &r);
        printf("R = %4ld  S = %5ld quanta  M = %6ld  %8.3f s  %7.1f MB  idle %.6e\n", R,
               2 * R, s.m.M, tb, r.solve.peak_bytes / 1e6, r.meas.idle);
        free_setting(&s);
    }
    return 0;
}
