/* testutil.h: helpers shared by the analytic test programs: random
 * workloads in quanta and a model built from them, a fluid model of
 * classes on a PFS bandwidth, a search's progress checked as it is told.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_TESTS_TESTUTIL_H
#define BBSIZE_TESTS_TESTUTIL_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "bbanalytic.h"

typedef struct {
    size_t n;
    long b[32];
    double p[32];
    long B;
} tu_workload;

/* A random workload: n apps, b ~ U{1..bmax} quanta, p ~ U(0, pmax), with
 * PFS bandwidth B quanta.  Deterministic in seed. */
static inline void
tu_random(tu_workload *w, size_t n, long bmax, double pmax, long B, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(r, seed);
    w->n = n;
    w->B = B;
    for (size_t i = 0; i < n; i++) {
        w->b[i] = 1 + (long)gsl_rng_uniform_int(r, (unsigned long)bmax);
        w->p[i] = pmax * gsl_rng_uniform_pos(r);
    }
    gsl_rng_free(r);
}

static inline void
tu_model(bba_model *m, const tu_workload *w)
{
    char err[BB_ERRLEN];

    assert_int_equal(bba_model_init(m, w->n, w->b, w->p, w->B, 0, err), BB_OK);
}

/* tu_assert_rel: |x - ref| <= tol |ref|, printing both on failure. */
static inline void
tu_assert_rel(double x, double ref, double tol)
{
    if (!(fabs(x - ref) <= tol * fabs(ref)))
        print_error("%.17g vs %.17g: relative error %.3g above %g\n", x, ref,
                    fabs(x - ref) / fabs(ref), tol);
    assert_true(fabs(x - ref) <= tol * fabs(ref));
}

static inline void
tu_solver(bba_solver_opts *so, bba_solver_kind kind)
{
    bba_solver_defaults(so);
    so->kind = kind;
    so->tol = 1e-13;
    so->max_iter = 2000000;
}

/* A search's progress as it tells it (sizing.h bba_progress), checked by
 * tu_progress_record (a bba_progress_fn): solves counting 1, 2, ... after
 * the start's 0, bounds never rising nor below the solves made, a search
 * of the answer's outside settling.  most: the last (the lowest) bound. */
typedef struct {
    int calls, solves, most;
} tu_progress_rec;

static inline void
tu_progress_record(void *ctx, const bba_progress *p)
{
    tu_progress_rec *r = ctx;

    assert_int_equal(p->solves, r->calls == 0 ? 0 : r->solves + 1);
    assert_true(p->solves_max >= p->solves);
    if (r->calls > 0)
        assert_true(p->solves_max <= r->most);
    assert_int_equal(p->resolution, 0);
    assert_int_equal(p->stage, BBA_STAGE_ANSWER);
    r->calls++;
    r->solves = p->solves;
    r->most = p->solves_max;
}

/* The fluid model of the n classes c on B bytes/s of PFS and Bbb of
 * burst-buffer bandwidth (0: unlimited), other options at their defaults
 * (greedy draining); fails the test, with the library's message, when the
 * model is refused. */
static inline bba_fluid *
tu_fluid_bb(const bba_fluid_class *c, size_t n, double B, double Bbb)
{
    bba_fluid_opts o = { B, Bbb, 0, 0 };
    bba_fluid *m = NULL;
    char err[BB_ERRLEN];
    int rc = bba_fluid_new(c, n, &o, &m, err);

    if (rc != BB_OK)
        print_error("bba_fluid_new: %s\n", err);
    assert_int_equal(rc, BB_OK);
    return m;
}

/* tu_fluid_bb with an unlimited burst-buffer bandwidth. */
static inline bba_fluid *
tu_fluid(const bba_fluid_class *c, size_t n, double B)
{
    return tu_fluid_bb(c, n, B, 0);
}

/* Three classes of 12 copies (36 sources, p 0.02, 0.04, 0.06, bursts 20,
 * 30, 40 s) whose mean load is 0.12 of pfs_Bps: the exact model has 2,197
 * phases and its stall at S = 0 lies far in the bufferless tail. */
static inline void
tu_fluid_tail36(bba_fluid_class c[3], double pfs_Bps)
{
    for (int i = 0; i < 3; i++) {
        c[i].p = 0.02 + 0.02 * i;
        c[i].rate_Bps = 0.12 * pfs_Bps / 36 / c[i].p;
        c[i].burst_s = 20 + 10 * i;
        c[i].count = 12;
    }
}

#endif
