/* b_onoff.c: accuracy of the effective-bandwidth approximation of the
 * bursts model (analytic/onoff/effbw.h) against the exact modulated chain, in
 * buffer-size terms, for both corrections (the decay rate's and the
 * many-sources one, effbw.h): eight applications of the default workload's shape
 * (quanta at R = 100), the first NB bursty with mean ON run L units; for
 * targets 1e-3, 1e-5, 1e-7 the exact size beside the size the
 * approximation gives when k = 0..KMAX burst classes are kept exact.
 * Usage: bench/b_onoff L NB KMAX   (e.g. 5 4 3: about a minute)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "bbanalytic.h"

/* S where v crosses t, interpolating log v linearly between grid points. */
static double
cross(const double *S, const double *v, int n, double t)
{
    for (int i = 1; i < n; i++)
        if (v[i] <= t) {
            double f = (log(v[i - 1]) - log(t)) / (log(v[i - 1]) - log(v[i]));

            return S[i - 1] + f * (S[i] - S[i - 1]);
        }
    return NAN;
}

/* `many`: the case of tests/cli_onoff.sh, seven burst classes (128
 * phases, B = 10 quanta), which the CLI answers approximately (4 classes
 * kept exact in 16 phases) but the library can still solve exactly: the
 * approximation against the exact idle at S = 0..40 quanta. */
static int
many(void)
{
    long b[7];
    double p[7], L[7], th;
    char err[BB_ERRLEN];
    bba_onoff full, red;
    bba_effbw_approx *ms = NULL, *dc = NULL;
    bba_onoff_opts o;
    bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };

    for (int i = 0; i < 7; i++) {
        b[i] = lround((50.0 + 10 * i) / 10); /* (40 + 10 i) B/s at R = 10 */
        p[i] = 0.01 * (i + 1);
        L[i] = 3 + i;
    }
    bba_onoff_defaults(&o);
    o.tol = 1e-12;
    if (bba_onoff_init(&full, 7, b, p, L, 10, 0, 0, err) != BB_OK
        || bba_effbw_decay(&full, &th, err) != BB_OK
        || bba_effbw_reduce(7, b, p, L, 10, th, 4, 0, &red, err) != BB_OK
        || bba_effbw_approx_new(&red, 7, b, p, L, BBA_EFFBW_MANY_SOURCES, &ms, err) != BB_OK
        || bba_effbw_approx_new(&red, 7, b, p, L, BBA_EFFBW_DECAY, &dc, err) != BB_OK) {
        fprintf(stderr, "%s\n", err);
        return 70;
    }
    printf("| S (quanta) | exact (128 phases) | decay rate (16 phases) | error "
           "| many-sources (16 phases) | error |\n");
    for (long S = 0; S <= 40; S += 10) {
        bba_eval_result re, rr;
        double ap, am;

        if (bba_onoff_eval(&full, S, &g, &o, &re, NULL, err) != BB_OK
            || bba_onoff_eval(&red, S, &g, &o, &rr, NULL, err) != BB_OK) {
            fprintf(stderr, "%s\n", err);
            return 70;
        }
        ap = rr.meas.idle * bba_effbw_approx_factor(dc, S, &g);
        am = rr.meas.idle * bba_effbw_approx_factor(ms, S, &g);
        printf("| %ld | %.4g | %.4g | %+.1f%% | %.4g | %+.1f%% |\n", S, re.meas.idle, ap,
               100 * (ap / re.meas.idle - 1), am, 100 * (am / re.meas.idle - 1));
    }
    bba_effbw_approx_free(ms);
    bba_effbw_approx_free(dc);
    bba_onoff_free(&full);
    bba_onoff_free(&red);
    return 0;
}

int
main(int argc, char **argv)
{
    const long b[8] = { 55, 21, 11, 8, 28, 69, 83, 110 };
    const double p[8] = { 0.05, 0.10, 0.08, 0.15, 0.12, 0.03, 0.04, 0.02 };
    const double tg[3] = { 1e-3, 1e-5, 1e-7 };
    double L[8], Lb, th, Sv[64], ex[64], ap[8][64], am[8][64];
    int nb, kmax, n = 0;
    char err[BB_ERRLEN];
    bba_onoff full;
    bba_onoff_opts o;
    bb_drain g = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0 };

    if (argc == 2 && strcmp(argv[1], "many") == 0)
        return many();
    if (argc != 4) {
        fprintf(stderr, "usage: b_onoff L NB KMAX | b_onoff many\n");
        return 64;
    }
    gsl_set_error_handler_off();
    Lb = atof(argv[1]);
    nb = atoi(argv[2]);
    kmax = atoi(argv[3]);
    if (kmax > 7 || nb > 8 || nb < 0 || kmax < 0)
        return 64;
    for (int i = 0; i < 8; i++)
        L[i] = i < nb ? fmax(Lb, 1) : 0;
    bba_onoff_defaults(&o);
    o.tol = 1e-12;
    if (bba_onoff_init(&full, 8, b, p, L, 100, 0, 0, err) != BB_OK
        || bba_effbw_decay(&full, &th, err) != BB_OK) {
        fprintf(stderr, "%s\n", err);
        return 70;
    }
    for (long S = 0; S <= 600; S += 25) {
        bba_eval_result r;

        if (bba_onoff_eval(&full, S, &g, &o, &r, NULL, err) != BB_OK) {
            fprintf(stderr, "%s\n", err);
            return 70;
        }
        Sv[n] = (double)S;
        ex[n++] = r.meas.idle;
    }
    for (int k = 0; k <= kmax; k++) {
        bba_onoff red;
        bba_effbw_approx *ms = NULL, *dc = NULL;

        if (bba_effbw_reduce(8, b, p, L, 100, th, (size_t)k, 0, &red, err) != BB_OK
            || bba_effbw_approx_new(&red, 8, b, p, L, BBA_EFFBW_MANY_SOURCES, &ms, err) != BB_OK
            || bba_effbw_approx_new(&red, 8, b, p, L, BBA_EFFBW_DECAY, &dc, err) != BB_OK) {
            fprintf(stderr, "%s\n", err);
            return 70;
        }
        for (int i = 0; i < n; i++) {
            bba_eval_result r;

            if (bba_onoff_eval(&red, (long)Sv[i], &g, &o, &r, NULL, err) != BB_OK) {
                fprintf(stderr, "%s\n", err);
                return 70;
            }
            am[k][i] = r.meas.idle * bba_effbw_approx_factor(ms, (long)Sv[i], &g);
            ap[k][i] = r.meas.idle * bba_effbw_approx_factor(dc, (long)Sv[i], &g);
        }
        bba_effbw_approx_free(ms);
        bba_effbw_approx_free(dc);
        bba_onoff_free(&red);
    }
    printf("| L | bursty | target | exact size | correction |");
    for (int k = 0; k <= kmax; k++)
        printf(" k = %d |", k);
    printf("\n");
    for (int t = 0; t < 3; t++) {
        double se = cross(Sv, ex, n, tg[t]);

        for (int meth = 0; meth < 2; meth++) {
            printf("| %g | %d | %g | %.1f | %s |", Lb, nb, tg[t], se,
                   meth ? "many-sources" : "decay rate");
            for (int k = 0; k <= kmax; k++) {
                double sa = cross(Sv, meth ? am[k] : ap[k], n, tg[t]);

                if (isnan(sa))
                    printf(" > 600 |");
                else
                    printf(" %+.1f%% |", 100 * (sa / se - 1));
            }
            printf("\n");
        }
    }
    bba_onoff_free(&full);
    return 0;
}
