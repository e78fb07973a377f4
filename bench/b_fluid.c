/* b_fluid.c: one piece of fluid-model work per process, for bench/fluid.sh
 * to time whole (analytic/fluid/fluid.h).
 * Usage: bench/b_fluid CASE [N [K]]
 *   example    size for idle <= 1e-3 on the README's three applications
 *              (PFS 1 TB/s; 1.5 TB/s p 0.10 5 min, 2 TB/s p 0.05 3 min,
 *              0.6 TB/s p 0.20 2 min): 8 phases
 *   threshold  the best lazy threshold (EPS 0.01, grid 10) at that size
 *   sweep      idle at 100 sizes from 0.1 to 3 PB on the example
 *   idle N     idle at 1 PB with each application replaced by N identical
 *              ones of rate K/N of it (K = 2 by default): (N + 1)^3 phases
 *   size N     size for idle <= 1e-3 on that workload
 * Prints the answer on one line.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbanalytic.h"

#define TB 1e12

static bba_fluid *
build(int N, double k, char *err)
{
    bba_fluid_class c[3] = { { k * 1.5 * TB / N, 0.10, 300, N },
                             { k * 2.0 * TB / N, 0.05, 180, N },
                             { k * 0.6 * TB / N, 0.20, 120, N } };
    bba_fluid_opts o = { 1 * TB, 0, 0, 0 };
    bba_fluid *m = NULL;

    if (bba_fluid_new(c, 3, &o, &m, err) != BB_OK)
        return NULL;
    return m;
}

int
main(int argc, char **argv)
{
    char err[BB_ERRLEN];
    const char *what = argc > 1 ? argv[1] : "example";
    int N = argc > 2 ? atoi(argv[2]) : 1, ev = 0, rc;
    double k = argc > 3 ? atof(argv[3]) : (N > 1 ? 2.0 : 1.0), S;
    bba_fluid *m;
    bba_fluid_result r;

    if (N < 1) {
        fprintf(stderr, "b_fluid: N must be positive\n");
        return 64;
    }
    m = build(N, k, err);
    if (m == NULL) {
        fprintf(stderr, "b_fluid: %s\n", err);
        return 1;
    }
    if (strcmp(what, "example") == 0 || strcmp(what, "size") == 0) {
        rc = bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL, &S, &r, &ev, err);
        if (rc == BB_OK)
            printf("phases %ld: size %.5g PB (idle %.4g, %d evaluations, residual %.2g)\n",
                   bba_fluid_phases(m), S / 1e15, r.idle, ev, r.residual);
    } else if (strcmp(what, "idle") == 0) {
        bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };

        rc = bba_fluid_eval(m, 1e15, &pol, &r, err);
        if (rc == BB_OK)
            printf("phases %ld: idle %.6g at 1 PB (residual %.2g)\n", bba_fluid_phases(m),
                   r.idle, r.residual);
    } else if (strcmp(what, "threshold") == 0) {
        bba_fluid_threshold_result t;

        rc = bba_fluid_size_min(m, 1e-3, NULL, 1e-4, 0, NULL, NULL, &S, &r, &ev, err);
        if (rc == BB_OK)
            rc = bba_fluid_threshold_best(m, 1.25 * S, 1e-3, 0.01, 10, 1e-3, NULL, NULL, &t, err);
        if (rc == BB_OK)
            printf("size %.5g PB: best threshold %.5g PB, quiet %.4f (greedy %.4f), "
                   "%d evaluations\n", 1.25 * S / 1e15, t.threshold_bytes / 1e15,
                   t.best.quiet, t.greedy.quiet, t.evaluations);
    } else if (strcmp(what, "sweep") == 0) {
        bb_drain pol = { .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_BYTES, .threshold = 0, .eps = 1 };
        double sum = 0;

        rc = BB_OK;
        for (int i = 0; i < 100 && rc == BB_OK; i++) {
            rc = bba_fluid_eval(m, (0.1 + 2.9 * i / 99.0) * 1e15, &pol, &r, err);
            sum += r.log10_idle;
        }
        if (rc == BB_OK)
            printf("100 sizes: mean log10 idle %.6f\n", sum / 100);
    } else {
        fprintf(stderr, "b_fluid: unknown case '%s'\n", what);
        bba_fluid_free(m);
        return 64;
    }
    if (rc != BB_OK)
        fprintf(stderr, "b_fluid: %s\n", err);
    bba_fluid_free(m);
    return rc == BB_OK ? 0 : 1;
}
