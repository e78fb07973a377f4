/* b_export.c: the paper-setting chain as the linear system the UMFPACK
 * solver factors (P^T - I with the last balance equation replaced by
 * sum(pi) = 1), written as triplets for Octave and SciPy, so that
 * bench/solver.sh times them on the identical chain; and the in-process
 * solve times of the FFT and banded solvers on it.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: b_export R S_QUANTA FILE
 * Output (stdout): one line per solver, "name seconds idle".
 * FILE: "n nnz S" then nnz lines "row col value" (1-based). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int
main(int argc, char **argv)
{
    bba_app apps[20];
    bba_platform pf = { 100.0, 0, 1.0, 100 };
    bba_quantized q;
    bba_model m;
    bba_chain *c = NULL;
    bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_QUANTA, .threshold = 0, .eps = 0.01 };
    char err[BB_ERRLEN];
    long S, nnz = 0;
    FILE *f;

    if (argc != 4) {
        fprintf(stderr, "usage: b_export R S_QUANTA FILE\n");
        return 64;
    }
    gsl_set_error_handler_off();
    pf.resolution = atol(argv[1]);
    S = atol(argv[2]);
    if (bba_generate_paper(20, 0.1, 0.8, 100.0, 0, 1, apps, err) != BB_OK
        || bba_quantize(apps, 20, &pf, &q, err) != BB_OK
        || bba_model_init(&m, q.n, q.b, q.p, q.B, 0, err) != BB_OK
        || bba_chain_build(m.dist, m.M, m.B, S, &pol, 0, &c, err) != BB_OK) {
        fprintf(stderr, "b_export: %s\n", err);
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        bba_solver_opts so;
        bba_eval_result r;
        double t0;

        bba_solver_defaults(&so);
        so.kind = k == 0 ? BBA_SOLVER_FFT : BBA_SOLVER_BANDED;
        so.tol = 1e-12;
        t0 = now();
        if (bba_eval(&m, S, &pol, &so, &r, NULL, err) != BB_OK) {
            fprintf(stderr, "b_export: %s\n", err);
            return 1;
        }
        printf("%s %.4f %.12e\n", k == 0 ? "fft" : "banded", now() - t0, r.meas.idle);
    }
    f = fopen(argv[3], "w");
    if (f == NULL) {
        perror(argv[3]);
        return 73;
    }
    /* count, then write: column j of A is row j of P minus e_j, rows below
     * n - 1 only; then the normalisation row n - 1 */
    for (int pass = 0; pass < 2; pass++) {
        long n = c->n_states;

        if (pass == 1)
            fprintf(f, "%ld %ld %ld\n", n, nnz, S);
        nnz = 0;
        for (long j = 0; j < n; j++) {
            double diag = -1.0;

            for (int p = c->rowptr[j]; p < c->rowptr[j + 1]; p++) {
                long l = c->col[p];

                if (l == j) {
                    diag += c->val[p];
                    continue;
                }
                if (l == n - 1)
                    continue;
                if (pass == 1)
                    fprintf(f, "%ld %ld %.17g\n", l + 1, j + 1, c->val[p]);
                nnz++;
            }
            if (j != n - 1) {
                if (pass == 1)
                    fprintf(f, "%ld %ld %.17g\n", j + 1, j + 1, diag);
                nnz++;
            }
            if (pass == 1)
                fprintf(f, "%ld %ld 1\n", n, j + 1);
            nnz++;
        }
    }
    if (fclose(f) != 0) {
        perror(argv[3]);
        return 74;
    }
    bba_chain_free(c);
    bba_model_free(&m);
    bba_quantized_free(&q);
    return 0;
}
