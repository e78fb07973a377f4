/* parfor.c: bba_parfor (parfor.h) on POSIX threads.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include "parfor.h"

typedef struct {
    int (*fn)(void *, long, long, int);
    void *ctx;
    long lo, hi;
    int t, rc;
} chunk;

static void *
run(void *arg)
{
    chunk *c = arg;

    c->rc = c->fn(c->ctx, c->lo, c->hi, c->t);
    return NULL;
}

int
bba_par_threads(long n, long grain)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN), t = grain > 0 ? n / grain : n;

    if (cpus < 1)
        cpus = 1;
    if (t > cpus)
        t = cpus;
    if (t > BBA_PAR_MAX)
        t = BBA_PAR_MAX;
    return t < 1 ? 1 : (int)t;
}

int
bba_parfor(long n, long grain, int (*fn)(void *ctx, long lo, long hi, int t), void *ctx)
{
    int T = bba_par_threads(n, grain), rc = 0;
    chunk c[BBA_PAR_MAX];
    pthread_t th[BBA_PAR_MAX];
    int started[BBA_PAR_MAX] = { 0 };

    for (int t = 0; t < T; t++) {
        c[t] = (chunk){ fn, ctx, n * t / T, n * (t + 1) / T, t, 0 };
        if (t > 0)
            started[t] = pthread_create(&th[t], NULL, run, &c[t]) == 0;
    }
    run(&c[0]);
    for (int t = 1; t < T; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            run(&c[t]);
    }
    for (int t = 0; t < T && rc == 0; t++)
        rc = c[t].rc;
    return rc;
}
