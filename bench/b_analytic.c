/* b_analytic.c: timing of the analytic core on the paper's setting
 * (n = 20, B = 100 quanta, p_max = 0.1, load ratio 0.8).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: b_analytic [S] [solver: umfpack|gs|power] [R]
 * Prints one line per measurement with the wall time in seconds. */
#include "config.h"

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
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
    long S = argc > 1 ? atol(argv[1]) : 3000;
    const char *solver = argc > 2 ? argv[2] : "umfpack";
    long R = argc > 3 ? atol(argv[3]) : 100;
    size_t n = 20;
    bba_app apps[20];
    bba_platform pf = { 100.0, 0, 1.0, R };
    bba_quantized q;
    bba_model m;
    bba_solver_opts so;
    bba_policy pol = { 0, 0, 0.01 };
    bba_eval_result r;
    char err[BB_ERRLEN];
    double t0, t1;

    gsl_set_error_handler_off();
    if (bba_generate_paper(n, 0.1, 0.8, 100.0, 0, 1, apps, err) != BB_OK
        || bba_quantize(apps, n, &pf, &q, err) != BB_OK
        || bba_model_init(&m, n, q.b, q.p, q.B, 0, err) != BB_OK) {
        fprintf(stderr, "b_analytic: %s\n", err);
        return 1;
    }
    bba_solver_defaults(&so);
    if (strcmp(solver, "gs") == 0)
        so.kind = BBA_SOLVER_GAUSS_SEIDEL;
    if (strcmp(solver, "banded") == 0)
        so.kind = BBA_SOLVER_BANDED;
    printf("M=%ld E=%.2f B=%ld\n", m.M, m.mom.mean, m.B);
    t0 = now();
    if (bba_eval(&m, S, &pol, &so, &r, NULL, err) != BB_OK) {
        fprintf(stderr, "b_analytic: %s\n", err);
        return 1;
    }
    t1 = now();
    printf("eval S=%ld solver=%s states=%ld nnz=%ld idle=%.6e quiet=%.6f residual=%.2e iters=%ld time=%.3f s\n",
           S, solver, r.n_states, r.nnz, r.meas.idle, r.meas.quiet, r.solve.residual,
           r.solve.iterations, t1 - t0);
    bba_model_free(&m);
    bba_quantized_free(&q);
    return 0;
}
