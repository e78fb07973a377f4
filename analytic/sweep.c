/* sweep.c: multi-threaded evaluation of independent grid points (sweep.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "sweep.h"

typedef struct {
    const bba_sweep_point *pts;
    size_t n;
    const bba_solver_opts *so;
    bba_sweep_out *out;
    bba_sweep_progress_fn cb;
    void *cb_ctx;
    pthread_mutex_t lock;
    size_t next, done;
    size_t first_bad;          /* lowest failing index, n if none */
    char err[BB_ERRLEN];
} sweep_state;

static void *
worker(void *arg)
{
    sweep_state *st = arg;
    char err[BB_ERRLEN];

    for (;;) {
        size_t i;
        int rc;

        pthread_mutex_lock(&st->lock);
        i = st->next++;
        pthread_mutex_unlock(&st->lock);
        if (i >= st->n)
            break;
        err[0] = '\0';
        rc = bba_eval(st->pts[i].model, st->pts[i].S, &st->pts[i].pol, st->so,
                      &st->out[i].r, NULL, err);
        st->out[i].status = rc;
        pthread_mutex_lock(&st->lock);
        if (rc != BB_OK && i < st->first_bad) {
            st->first_bad = i;
            snprintf(st->err, sizeof st->err, "point %zu: %s", i + 1, err);
        }
        st->done++;
        if (st->cb)
            st->cb(st->cb_ctx, st->done, st->n);
        pthread_mutex_unlock(&st->lock);
    }
    return NULL;
}

int
bba_sweep_eval(const bba_sweep_point *pts, size_t n, const bba_solver_opts *so,
               int nthreads, bba_sweep_progress_fn cb, void *cb_ctx,
               bba_sweep_out *out, char *err)
{
    sweep_state st;
    pthread_t *tid = NULL;
    int started = 0, rc = BB_OK;

    if (nthreads < 1)
        return bb_seterr(err, BB_EINVAL, "bba_sweep_eval: %d threads (need >= 1)", nthreads);
    if (n == 0)
        return BB_OK;
    if ((size_t)nthreads > n)
        nthreads = (int)n;
    memset(&st, 0, sizeof st);
    st.pts = pts;
    st.n = n;
    st.so = so;
    st.out = out;
    st.cb = cb;
    st.cb_ctx = cb_ctx;
    st.first_bad = n;
    if (pthread_mutex_init(&st.lock, NULL) != 0)
        return bb_seterr(err, BB_ENOMEM, "bba_sweep_eval: cannot create a mutex");
    if (nthreads > 1) {
        tid = calloc((size_t)nthreads - 1, sizeof *tid);
        if (tid == NULL) {
            pthread_mutex_destroy(&st.lock);
            return bb_seterr(err, BB_ENOMEM, "bba_sweep_eval: out of memory");
        }
        for (int t = 0; t < nthreads - 1; t++) {
            if (pthread_create(&tid[t], NULL, worker, &st) != 0)
                break;  /* the calling thread does the rest */
            started++;
        }
    }
    worker(&st);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    free(tid);
    pthread_mutex_destroy(&st.lock);
    if (st.first_bad < n) {
        rc = st.out[st.first_bad].status;
        bb_seterr(err, rc, "%s", st.err);
    }
    return rc;
}
