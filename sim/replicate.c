/* replicate.c: the runner of independent units (replicate.h): the one
 * place that chooses between the MPI runner (bbmpi.h) and threads over a
 * unit pool (pool.h); and the platform at a list of sizes, the simulator's
 * entry for `simulate` and `validate`, dispatched by that runner.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bb_error.h"
#include "bbmpi.h"
#include "pool.h"
#include "quanta.h"
#include "replicate.h"

int
bbs_replicate_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n >= 1 ? (int)(n > 256 ? 256 : n) : 1;
}

int
bbs_replicate_run(size_t n_units, size_t result_size, void *results,
                  bbs_unit_fn fn, const void *ctx, int n_threads,
                  bbs_progress_fn progress, void *pctx, char *err)
{
    bbs_pool p;
    pthread_t *tids = NULL;
    int started = 0, rc;

    if (n_units == 0)
        return BB_OK;
    if (results == NULL || fn == NULL)
        return bb_seterr(err, BB_EINVAL, "replication runner needs results and a unit function");
    memset(results, 0, n_units * result_size);
    /* Started by an MPI launcher on several ranks: every rank is here with
     * the same arguments, and the units go to the ranks (bbmpi.h); units
     * of a unit stay on its rank. */
    if (bbs_mpi_size() > 1 && !bbs_mpi_in_run())
        return bbs_mpi_replicate_run(n_units, result_size, results, fn, ctx, progress, pctx,
                                     err);
    rc = bbs_pool_init(&p, n_units, result_size, results, fn, ctx, progress, pctx, err);
    if (rc != BB_OK)
        return rc;
    if (n_threads <= 0)
        n_threads = bbs_replicate_threads();
    if ((size_t)n_threads > n_units)
        n_threads = (int)n_units;
    if (n_threads > 1) {
        tids = malloc((size_t)n_threads * sizeof *tids);
        if (tids)
            for (; started < n_threads; started++)
                if (pthread_create(&tids[started], NULL, bbs_pool_worker, &p) != 0)
                    break;
    }
    /* With one thread, or if no thread could start, work here. */
    if (started == 0)
        bbs_pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    return bbs_pool_finish(&p, err);
}

/* ---- The platform at a list of buffer sizes (replicate.h) --------------- */

/* What both entries share: the bound before the run (every thread's
 * replication at once), and the run itself, started, timed and reported. */
static int
runs_bound(const bbs_runs_spec *s, double events, double bytes1, const char *detail,
           const char *shrink, char *err)
{
    return bb_bound_test("the simulation", events, bytes1 * (s->threads > 0 ? s->threads : 64),
                         s->max_events, s->max_bytes, detail, shrink, err);
}

static int
runs_execute(const bbs_runs_spec *s, double events, size_t units, size_t result_size,
             void *results, bbs_unit_fn fn, const void *ctx, double *wall_s, char *err)
{
    struct timespec t0, t1;
    int rc;

    if (s->start)
        s->start(s->rctx, events, units);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = bbs_replicate_run(units, result_size, results, fn, ctx, s->threads, s->progress,
                           s->rctx, err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *wall_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return rc;
}

/* A span in whole time units: ceil, with a ratio within 1e-9 of a whole
 * number that number; at most 10^12.  what: "horizon" or "warm-up". */
static int
span_units(const bbs_span *sp, double tu_s, int positive, const char *what, long *out,
           char *err)
{
    double v = sp->seconds ? sp->v / tu_s : sp->v;

    if (v > 1e12)
        return bb_seterr(err, BB_EINVAL, "a %s of %.6g time units is more than 10^12 time "
                         "units: ask for a shorter %s", what, v, what);
    v = ceil(v - 1e-9);
    if (positive && v < 1)
        return bb_seterr(err, BB_EINVAL, "a %s of %.3g time units is not a positive number "
                         "of time units: ask for a longer %s", what,
                         sp->seconds ? sp->v / tu_s : sp->v, what);
    *out = (long)v;
    return BB_OK;
}

/* Everything the sizes share: workload, platform, mode, durations. */
static int
plat_base(bbs_plat_runs *r, const bbs_plat_question *qn, bbs_bb_config *b, char *err)
{
    const bba_quantized *q = qn->q;
    double tu = qn->time_unit_s;
    int rc;

    if ((rc = span_units(&qn->horizon, tu, 1, "horizon", &r->horizon_units, err)) != BB_OK
        || (rc = span_units(&qn->warmup, tu, 0, "warm-up", &r->warmup_units, err)) != BB_OK)
        return rc;
    memset(b, 0, sizeof *b);
    b->n = q->n;
    b->b = q->b;
    b->p = q->p;
    b->B = q->B;
    b->bb_bw = q->bb_bw;
    b->mode = qn->mode;
    b->horizon_units = r->horizon_units;
    b->warmup_units = r->warmup_units;
    b->time_unit_s = tu;
    b->noise = qn->noise;
    b->seed = qn->run.seed;
    if (qn->mode == BBS_BB_ONOFF)
        b->burst_tu = q->burst_tu; /* 1/(1 - p_i) where the file has none */
    if (qn->mode != BBS_BB_PERIODIC)
        return BB_OK;
    if (qn->d_min.v > 0) {
        b->d_min_tu = qn->d_min.seconds ? qn->d_min.v / tu : qn->d_min.v;
        return BB_OK;
    }
    r->period_tu = malloc((q->n ? q->n : 1) * sizeof *r->period_tu);
    if (r->period_tu == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    for (size_t i = 0; i < q->n; i++) {
        /* counts expanded (bba_quantize); a q made by hand without rows
         * is one entry per application */
        size_t j = q->row ? q->row[i] : i;
        const bba_app *a = &qn->apps[j];
        double d = a->period_s;

        if (!(d > 0))
            return bb_seterr(err, BB_EDATA, "%s: application %zu ('%s') has no period: "
                             "periodic mode needs a 'period' column with a positive "
                             "duration, or a minimum period", qn->source, j + 1,
                             a->name);
        r->period_tu[i] = d / tu;
    }
    b->period_tu = r->period_tu;
    return BB_OK;
}

int
bbs_plat_prepare(bbs_plat_runs *r, const bbs_plat_question *qn, char *err)
{
    bbs_bb_config base;
    size_t n = qn->nsizes, R = (size_t)qn->run.replications;
    double by = 0, e1, b1;
    char detail[256];
    int rc;

    memset(r, 0, sizeof *r);
    r->nsizes = n;
    r->replications = R;
    if ((rc = plat_base(r, qn, &base, err)) != BB_OK)
        return rc;
    r->cfg = calloc(n ? n : 1, sizeof *r->cfg);
    r->sum = calloc(n ? n : 1, sizeof *r->sum);
    r->res = calloc((n ? n : 1) * R, sizeof *r->res);
    if (!r->cfg || !r->sum || !r->res)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu x %zu replications", n, R);
    for (size_t k = 0; k < n; k++) {
        bbs_bb_config *c = &r->cfg[k];

        *c = base;
        c->S = bba_size_quanta(qn->S_bytes[k], qn->q->quantum_bytes);
        bba_drain_quanta(&qn->drain, c->S, qn->q->quantum_bytes, &c->pol);
        /* only a threshold in bytes can be above the buffer */
        if (c->pol.kind == BB_DRAIN_LAZY && c->pol.threshold > c->S)
            return bb_seterr(err, BB_EINVAL, "the lazy threshold, %.4g bytes (%ld quanta), is "
                             "larger than the buffer, %.4g bytes (%ld quanta): lower the lazy "
                             "threshold", qn->drain.threshold, (long)c->pol.threshold,
                             qn->S_bytes[k], c->S);
        if ((rc = bbs_bb_check(c, err)) != BB_OK)
            return rc;
    }
    for (size_t k = 0; k < n; k++) {
        bbs_bb_estimate(&r->cfg[k], &e1, &b1);
        r->events += e1 * (double)R;
        if (b1 > by)
            by = b1;
    }
    snprintf(detail, sizeof detail, "%zu size%s x %zu replications of %ld time units%s",
             n, n == 1 ? "" : "s", R, r->horizon_units + r->warmup_units,
             qn->mode == BBS_BB_PERIODIC ? ", two events per period of each application" : "");
    /* bounded before it starts: every thread's replication at once */
    return runs_bound(&qn->run, r->events, by, detail,
                         qn->mode == BBS_BB_PERIODIC
                             ? "a shorter horizon, fewer replications, longer periods or a "
                               "longer minimum period"
                             : "a shorter horizon, a shorter warm-up or fewer replications",
                         err);
}

int
bbs_plat_execute(bbs_plat_runs *r, const bbs_plat_question *qn, char *err)
{
    bbs_bb_grid g = { r->cfg, r->replications };
    int rc = runs_execute(&qn->run, r->events, r->nsizes * r->replications, sizeof *r->res,
                          r->res, bbs_bb_grid_unit, &g, &r->wall_s, err);

    for (size_t k = 0; k < r->nsizes && rc == BB_OK; k++)
        rc = bbs_bb_summarize(r->res + k * r->replications, r->replications, qn->run.confidence,
                              &r->sum[k], err);
    return rc;
}

void
bbs_plat_free(bbs_plat_runs *r)
{
    free(r->period_tu);
    free(r->cfg);
    free(r->res);
    free(r->sum);
    memset(r, 0, sizeof *r);
}

/* ---- The fluid platform at a list of buffer sizes (replicate.h) --------- */

/* Size k's replication r is unit k R + r and uses the streams of
 * replication r (common random numbers across sizes). */
typedef struct {
    const bbs_fluid_config *cfg;
    size_t R;
} fluid_grid;

static int
fluid_grid_unit(size_t u, void *result, const void *vctx, char *err)
{
    const fluid_grid *g = vctx;

    return bbs_fluid_run(&g->cfg[u / g->R], (uint64_t)(u % g->R), result, err);
}

/* Size k's configuration: the shared sources, the policy in bytes, the
 * horizon and warm-up given or derived. */
static int
fluid_config(bbs_fluid_config *c, const bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn,
             size_t k, char *err)
{
    const bb_drain *d = &qn->drain;
    double S = qn->in.S_bytes[k];

    memset(c, 0, sizeof *c);
    c->n = r->src.n;
    c->rate_Bps = r->src.rate_Bps;
    c->p = r->src.p;
    c->on_s = r->src.on_s;
    c->seed = qn->run.seed;
    c->pf.pfs_bw_Bps = qn->in.pf->pfs_bw_Bps;
    c->pf.bb_bw_Bps = qn->in.pf->bb_bw_Bps > 0 ? qn->in.pf->bb_bw_Bps : INFINITY;
    c->pf.size_bytes = S;
    c->pf.drain = bb_drain_bytes(d, S);
    if (c->pf.drain.kind == BB_DRAIN_LAZY && c->pf.drain.threshold > S)
        return bb_seterr(err, BB_EINVAL, "the lazy threshold, %.4g bytes, is larger than "
                         "the buffer, %.4g bytes: lower the lazy threshold",
                         c->pf.drain.threshold, S);
    bbs_fluid_default_times(c, &c->horizon_s, &c->warmup_s);
    if (qn->horizon_given) {
        c->horizon_s = qn->horizon_s;
        c->warmup_s = bbs_fluid_default_warmup(c, c->horizon_s);
    }
    if (qn->warmup_given)
        c->warmup_s = qn->warmup_s;
    return bbs_fluid_check(c, err);
}

int
bbs_fluidplat_prepare(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn, char *err)
{
    size_t n = qn->in.nsizes, R = (size_t)qn->run.replications;
    double by = 0, e1, b1;
    char detail[256];
    int rc;

    memset(r, 0, sizeof *r);
    r->nsizes = n;
    r->replications = R;
    if ((rc = bbs_fluid_sources_make(&r->src, qn->in.apps, qn->in.napps, qn->in.line,
                                     qn->in.source, qn->in.pf->time_unit_s, err)) != BB_OK)
        return rc;
    r->cfg = calloc(n ? n : 1, sizeof *r->cfg);
    r->mix = calloc(n ? n : 1, sizeof *r->mix);
    r->sum = calloc(n ? n : 1, sizeof *r->sum);
    r->res = calloc((n ? n : 1) * (R ? R : 1), sizeof *r->res);
    if (!r->cfg || !r->mix || !r->sum || !r->res)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu x %zu replications", n, R);
    for (size_t k = 0; k < n; k++) {
        if ((rc = fluid_config(&r->cfg[k], r, qn, k, err)) != BB_OK)
            return rc;
        bbs_fluid_mixing(&r->cfg[k], &r->mix[k]);
        bbs_fluid_estimate(&r->cfg[k], &e1, &b1);
        r->events += e1 * (double)R;
        by = fmax(by, b1);
        r->horizon_s = r->cfg[k].horizon_s;
        r->warmup_s = r->cfg[k].warmup_s;
    }
    if (n == 1)
        snprintf(detail, sizeof detail, "%zu replications of %.3g s with %zu ON/OFF sources, "
                 "%.3g phase changes per second", R, r->horizon_s + r->warmup_s,
                 r->src.phased, bbs_fluid_event_rate(&r->cfg[0]));
    else
        snprintf(detail, sizeof detail, "%zu sizes x %zu replications of %.3g s, %.3g phase "
                 "changes per second", n, R, r->horizon_s + r->warmup_s,
                 n ? bbs_fluid_event_rate(&r->cfg[0]) : 0.0);
    /* bounded before it starts: every thread's replication at once */
    return runs_bound(&qn->run, r->events, by, detail,
                         n == 1 ? "a shorter horizon, a shorter warm-up or fewer replications"
                                : "a shorter horizon, a shorter warm-up, fewer replications "
                                  "or fewer sizes", err);
}

int
bbs_fluidplat_execute(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn, char *err)
{
    fluid_grid g = { r->cfg, r->replications };
    int rc = runs_execute(&qn->run, r->events, r->nsizes * r->replications, sizeof *r->res,
                          r->res, fluid_grid_unit, &g, &r->wall_s, err);

    for (size_t k = 0; k < r->nsizes && rc == BB_OK; k++)
        rc = bbs_fluid_summarize(r->res + k * r->replications, r->replications,
                                 qn->run.confidence, &r->sum[k], err);
    return rc;
}

/* validate's prediction at one size: a unit of the pool (a front is
 * read-only), stored by index. */
typedef struct {
    const bba_front *front;
    const double *S;
    const bb_drain *d;
} fluidval_ctx;

int
bbs_valrow_predict(bbs_valrow *row, const bba_front *front, double S_bytes, const bb_drain *d,
                   char *err)
{
    bba_answer a;
    int rc = bba_front_idle(front, S_bytes, d, &a, err);

    if (rc != BB_OK)
        return rc;
    row->S_bytes = a.S_bytes;
    row->S_quanta = a.S_quanta;
    row->analytic = a.idle;
    row->quiet_analytic = a.quiet;
    row->bb_in_analytic_Bps = a.bb_write_Bps;
    return BB_OK;
}

static int
fluidval_unit(size_t k, void *result, const void *vctx, char *err)
{
    const fluidval_ctx *c = vctx;

    return bbs_valrow_predict(result, c->front, c->S[k], c->d, err);
}

int
bbs_fluidplat_validate(bbs_fluidplat_runs *r, const bbs_fluidplat_question *qn,
                       const bba_front *front, double tol, char *err)
{
    size_t n = qn->in.nsizes;
    fluidval_ctx c = { front, qn->in.S_bytes, &qn->drain };
    bbs_valrow *rows = calloc(n ? n : 1, sizeof *rows);
    int rc;

    memset(r, 0, sizeof *r);
    if (rows == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory (%zu rows)", n);
    rc = bbs_replicate_run(n, sizeof *rows, rows, fluidval_unit, &c, qn->run.threads, NULL, NULL,
                           err);
    if (rc != BB_OK) {
        free(rows);
        r->analytic_failed = 1;
        return rc;
    }
    rc = bbs_fluidplat_prepare(r, qn, err);
    r->val = rows;   /* after prepare, which clears r */
    if (rc == BB_OK)
        rc = bbs_fluidplat_execute(r, qn, err);
    for (size_t k = 0; k < n && rc == BB_OK; k++) {
        rows[k].idle = r->sum[k].idle;
        rows[k].quiet_mean = r->sum[k].quiet.mean;
        rows[k].bb_in_Bps = r->sum[k].bb_in_Bps;
        rc = bbs_agreement_judge(rows[k].analytic, &rows[k].idle, (double)r->replications,
                                 r->horizon_s, tol, &rows[k].ag, err);
    }
    return rc;
}

void
bbs_fluidplat_free(bbs_fluidplat_runs *r)
{
    free(r->val);
    bbs_fluid_sources_free(&r->src);
    free(r->cfg);
    free(r->mix);
    free(r->res);
    free(r->sum);
    memset(r, 0, sizeof *r);
}
