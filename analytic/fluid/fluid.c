/* fluid.c: the fluid model (fluid.h): classes and phases, evaluation,
 * the limits as S grows (the measures from a boundary solution are in
 * fluid_meas.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "fluid_classes.h"
#include "fluid_int.h"

/* Rates within this fraction of B are B: a phase of zero drift (sums of
 * decimal rates round). */
#define ZERO_DRIFT_REL 1e-12
/* The greedy model's fallback on its truncated model (bba_fluid_eval)
 * solves the whole boundary system, 2P unknowns: at most this many phases
 * (2/3 (2P)^3 = 5.7e10 flops and 270 MB a size) */
#define FALLBACK_PHASES_MAX 2048.0
/* ... and on a model of several classes without rare phases solved
 * whole, whose fast route fails seldom (its estimate costs the fallback
 * always): at most this many phases, so that an estimate stays near the
 * run it bounds (2/3 (2P)^3 = 5.7e9 flops a size) */
#define FALLBACK_SEVERAL_MAX 1024.0
/* LAPACK's 32-bit indices address P^2 entries */
#define PHASES_MAX 46340L

typedef bba_fluid_src cls_in;

/* The classes checked; constant sources into *r0; the distinct ones with
 * a phase into out (fluid_classes.h).  Returns how many, or -1 with err
 * set. */
static long
gather(const bba_fluid_class *c, size_t n, cls_in *out, double *r0, char *err)
{
    *r0 = 0.0;
    for (size_t i = 0; i < n; i++) {
        const bba_fluid_class *x = &c[i];

        if (bba_fluid_class_check(x, i, err) != BB_OK)
            return -1;
        if (x->count != 0 && x->p == 1.0 && x->rate_Bps != 0.0)
            *r0 += x->count * x->rate_Bps;
    }
    return (long)bba_fluid_srcs(c, n, out);
}

static double
phase_count(const cls_in *c, long nc)
{
    double P = 1.0;

    for (long i = 0; i < nc; i++)
        P *= (double)c[i].N + 1.0;
    return P;
}

/* bytes and flops of a model with P phases (separable or dense greedy
 * spectrum) and one size search, at worst (every far mode coupled) */
static void
cost(double P, int dense, double *bytes, double *flops)
{
    /* modes, the two factored blocks, W and Z */
    double b = 4.0 * P * P * 8.0, f = 4.0 / 3.0 * P * P * P + 2.0 * P * P * P;

    if (dense) {
        /* the general spectrum, then the whole boundary system per size
         * (2P unknowns, LU and its refinement copy) */
        b += (5.0 + 8.0) * P * P * 8.0;
        f += 20.0 * P * P * P;
    }
    if (bytes)
        *bytes = b;
    if (flops)
        *flops = f;
}

void
bba_fluid_estimate(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
                   double *phases, double *bytes, double *flops)
{
    cls_in *ci = malloc((n + 1) * sizeof *ci);
    double r0, P = INFINITY, maxr, B = o ? o->pfs_bw_Bps : 0.0;
    long nc;
    int dense = 0;

    if (ci != NULL && (nc = gather(c, n, ci, &r0, NULL)) >= 0) {
        double lmin = 0.0;

        P = phase_count(ci, nc);
        maxr = r0;
        for (long i = 0; i < nc; i++) {
            maxr += (double)ci[i].N * ci[i].b;
            lmin += (double)ci[i].N * fmin(log(ci[i].p), log1p(-ci[i].p));
        }
        dense = o != NULL && o->bb_bw_Bps > 0.0 && maxr - B > o->bb_bw_Bps;
        /* rare phases (the least likely end of every class), or several
         * classes of few phases: the greedy evaluation may fall back on
         * the whole system (bba_fluid_eval), of the model costed
         * (capped: a folded one) */
        {
            double Pc = o != NULL && o->max_phases > 0 && P > (double)o->max_phases
                            ? (double)o->max_phases : P;

            dense |= (lmin < FL_LPI_MIN && Pc <= FALLBACK_PHASES_MAX)
                     || (nc > 1 && Pc <= FALLBACK_SEVERAL_MAX);
        }
    }
    free(ci);
    if (phases)
        *phases = P;
    cost(o != NULL && o->max_phases > 0 && P > (double)o->max_phases ? (double)o->max_phases
                                                                       : P,
         dense, bytes, flops);
}

long
bba_fluid_phases(const bba_fluid *m)
{
    return m->P;
}

double
bba_fluid_mean_rate(const bba_fluid *m)
{
    return m->E;
}

int
bba_fluid_separable(const bba_fluid *m)
{
    return m->greedy != NULL && m->greedy->separable;
}

double
bba_fluid_idle_limit(const bba_fluid *m)
{
    return m->idle_limit;
}

void
bba_fluid_free(bba_fluid *m)
{
    if (m == NULL)
        return;
    free(m->N);
    free(m->lo);
    free(m->src);
    free(m->p);
    free(m->b);
    free(m->lam);
    free(m->mu);
    free(m->stride);
    free(m->rate);
    free(m->pi);
    free(m->share_top);
    free(m->lost);
    free(m->share_in);
    free(m->lost_in);
    free(m->pi_in);
    free(m->pi_top);
    free(m->cls);
    fl_spec_free(m->greedy);
    fl_fast_free(m->fast);
    fl_ma_free(m->ma);
    for (int i = 0; i < m->n_lazy; i++)
        fl_spec_free(m->lazy[i]);
    bba_fluid_free(m->trunc);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* ---- the model ------------------------------------------------------------ */

/* The spectrum below a lazy threshold for eps: from the model's cache,
 * else built and cached; when the cache is full (more EPS values than it
 * holds) built for the caller alone (*own = 1: the caller frees it), as
 * spectra other threads may be using are never evicted. */
static int
lazy_spec(const bba_fluid *m, double eps, fl_spec **out, int *own, char *err)
{
    bba_fluid *mm = (bba_fluid *)m;
    int rc, cap = (int)(sizeof mm->lazy / sizeof mm->lazy[0]);

    *own = 0;
    pthread_mutex_lock(&mm->lock);
    for (int i = 0; i < mm->n_lazy; i++)
        if (mm->lazy[i]->eps == eps) {
            *out = mm->lazy[i];
            pthread_mutex_unlock(&mm->lock);
            return BB_OK;
        }
    rc = fl_spec_build(m, eps, 0, out, err);
    if (rc == BB_OK) {
        if (mm->n_lazy < cap)
            mm->lazy[mm->n_lazy++] = *out;
        else
            *own = 1;
    }
    pthread_mutex_unlock(&mm->lock);
    return rc;
}

int
fl_top_law(const bba_fluid *m, char *err)
{
    bba_fluid *mm = (bba_fluid *)m;
    int rc = BB_OK;

    pthread_mutex_lock(&mm->lock);
    if (mm->pi_top == NULL && mm->n_up > 0)
        rc = fl_law_new(m, m->share_top, &mm->pi_top, err);
    pthread_mutex_unlock(&mm->lock);
    return rc;
}

static int model_truncate(const bba_fluid *m, bba_fluid **out, char *err);

/* The truncated model of m (model_truncate), built on first use */
static int
trunc_model(const bba_fluid *m, const bba_fluid **out, char *err)
{
    bba_fluid *mm = (bba_fluid *)m;
    int rc = BB_OK;

    pthread_mutex_lock(&mm->lock);
    if (mm->trunc == NULL)
        rc = model_truncate(m, &mm->trunc, err);
    *out = mm->trunc;
    pthread_mutex_unlock(&mm->lock);
    return rc;
}

int
bba_fluid_eval(const bba_fluid *m, double S, const bb_drain *pol,
               bba_fluid_result *out, char *err)
{
    fl_sol s;
    double eps = 1.0, T = 0.0;
    int rc;

    assert(pol == NULL || BB_DRAIN_IN(pol, BB_DRAIN_BYTES));
    memset(out, 0, sizeof *out);
    if (!(S >= 0.0 && isfinite(S)))
        return bb_seterr(err, BB_EINVAL, "buffer size %g B is not a finite non-negative "
                         "number", S);
    if (pol != NULL && pol->kind == BB_DRAIN_LAZY) {
        if (!(pol->eps > 0.0 && pol->eps <= 1.0))
            return bb_seterr(err, BB_EINVAL, "lazy EPS %g is not in (0, 1]", pol->eps);
        if (!(pol->threshold >= 0.0 && pol->threshold <= S))
            return bb_seterr(err, BB_EINVAL, "lazy threshold %g B is not in [0, S = %g B]",
                             pol->threshold, S);
        eps = pol->eps;
        T = pol->threshold;
    }
    if (S == 0.0 || m->greedy == NULL) {
        rc = fl_top_law(m, err);
        if (rc == BB_OK)
            fl_trivial(m, S, out);
        return rc;
    }
    if (eps < 1.0 && T > 0.0) {
        fl_spec *sl = NULL;
        const fl_spec *sp[2];
        double x[3] = { 0.0, T, S };
        int own;

        if (m->rare > 0) {
            /* the dense spectra weigh phases by pi^1/2: on the phases a
             * double weighs (model_truncate) */
            rc = trunc_model(m, &m, err);
            if (rc != BB_OK)
                return rc;
            if (m->greedy == NULL) {
                rc = fl_top_law(m, err);
                if (rc == BB_OK)
                    fl_trivial(m, S, out);
                return rc;
            }
        }
        rc = lazy_spec(m, eps, &sl, &own, err);
        if (rc != BB_OK)
            return rc;
        sp[0] = sl;
        sp[1] = m->greedy;
        rc = fl_solve_dense(m, T >= S ? 1 : 2, sp, x, &s, err);
        if (rc == BB_OK) {
            rc = fl_measures(m, &s, eps, out, err);
            fl_sol_free(&s);
        }
        if (own)
            fl_spec_free(sl);
        return rc;
    }
    if (m->C == 1 && m->P > 100 && fl_class_eval(m, S, out, 1e-8))
        return BB_OK; /* one large class: modes where this bound exceeds 1e-8 */
    if (m->binds) {
        /* a general spectrum (complex pairs): the whole system */
        const fl_spec *sp[1] = { m->greedy };
        double x[2] = { 0.0, S };

        rc = fl_solve_dense(m, 1, sp, x, &s, err);
    } else {
        rc = fl_solve_fast(m, S, &s, err);
    }
    if (rc == BB_OK) {
        rc = fl_measures(m, &s, 1.0, out, err);
        fl_sol_free(&s);
    }
    if (((m->rare > 0 && m->P <= FALLBACK_PHASES_MAX)
         || (m->C > 1 && !m->binds && m->P <= FALLBACK_SEVERAL_MAX))
        && (rc != BB_OK || !(out->residual <= 1e-8))) {
        /* the whole system: on the phases a double weighs when a class's
         * rarest phases no double holds; else on the model itself, where
         * the fast route's factored blocks lose the accuracy on some
         * models of several classes (41 x 11 phases, E/B 0.75: a
         * residual of 1.1 at 1 TB, 2.6e-15 solved whole) */
        const bba_fluid *t = m;
        bba_fluid_result r;
        const fl_spec *sp[1];
        double x[2] = { 0.0, S };
        char e2[BB_ERRLEN];

        if ((m->rare > 0 && trunc_model(m, &t, e2) != BB_OK) || t->greedy == NULL)
            return rc;
        sp[0] = t->greedy;
        if (fl_solve_dense(t, 1, sp, x, &s, e2) != BB_OK)
            return rc;
        if (fl_measures(t, &s, 1.0, &r, e2) == BB_OK &&
            (rc != BB_OK || r.residual < out->residual)) {
            *out = r;
            rc = BB_OK;
        }
        fl_sol_free(&s);
    }
    return rc;
}

/* The idle limit when the buffer fills (positive mean drift): as S grows
 * the content stays near S and the lower boundary decouples, so the
 * limit is the stall fraction of the process reflected at S alone.  It is
 * the model at a size where every mode has decayed by e^-64 across the
 * buffer (the log scaling makes any size safe).  One greedy evaluation. */
static int
limit_full(const bba_fluid *m, double *lim, char *err)
{
    const fl_spec *g = m->greedy;
    double zmin = INFINITY;
    bba_fluid_result r;
    int rc;

    for (long k = 0; k < g->m; k++)
        if (g->z[k] != 0.0)
            zmin = fmin(zmin, fabs(g->z[k]));
    if (!isfinite(zmin) || zmin <= 0.0)
        return bb_seterr(err, BB_ENOCONV, "the fluid model's limit as the buffer grows "
                         "has no decaying mode");
    rc = bba_fluid_eval(m, fmin(64.0 / zmin, 1e300), NULL, &r, err);
    if (rc == BB_OK)
        *lim = r.idle;
    return rc;
}

/* A model's class arrays (C entries each), its phase arrays unset */
static bba_fluid *
model_alloc(long P, int C)
{
    bba_fluid *m = calloc(1, sizeof *m);

    if (m == NULL)
        return NULL;
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        free(m);
        return NULL;
    }
    m->P = P;
    m->C = C;
    m->N = malloc((size_t)(C + 1) * sizeof *m->N);
    m->lo = malloc((size_t)(C + 1) * sizeof *m->lo);
    m->src = malloc((size_t)(C + 1) * sizeof *m->src);
    m->p = malloc((size_t)(C + 1) * sizeof *m->p);
    m->b = malloc((size_t)(C + 1) * sizeof *m->b);
    m->lam = malloc((size_t)(C + 1) * sizeof *m->lam);
    m->mu = malloc((size_t)(C + 1) * sizeof *m->mu);
    m->stride = malloc((size_t)(C + 1) * sizeof *m->stride);
    m->rate = malloc((size_t)P * sizeof *m->rate);
    m->pi = malloc((size_t)P * sizeof *m->pi);
    m->cls = malloc((size_t)P * sizeof *m->cls);
    m->share_top = malloc((size_t)P * sizeof *m->share_top);
    m->lost = malloc((size_t)P * sizeof *m->lost);
    m->share_in = malloc((size_t)P * sizeof *m->share_in);
    m->lost_in = malloc((size_t)P * sizeof *m->lost_in);
    m->pi_in = malloc((size_t)P * sizeof *m->pi_in);
    if (m->N == NULL || m->lo == NULL || m->src == NULL || m->p == NULL || m->b == NULL ||
        m->lam == NULL || m->mu == NULL || m->stride == NULL || m->rate == NULL ||
        m->pi == NULL || m->cls == NULL || m->share_top == NULL || m->lost == NULL ||
        m->share_in == NULL || m->lost_in == NULL || m->pi_in == NULL) {
        bba_fluid_free(m);
        return NULL;
    }
    return m;
}

/* The phases of a model whose class arrays are set (N, lo, src, p, b,
 * lam, mu; r0, B, Bbb, E): strides, rates, the phase law (restricted
 * and renormalised when truncated), the classes of drift, the laws of
 * Q' and Q^S and the greedy spectrum; the limit as S grows for a model
 * that is not truncated (a truncated one serves lazy evaluations only). */
static int
model_phases(bba_fluid *m, char *err)
{
    long st = 1;
    double lmax = -INFINITY, lsum = 0.0, *lp = NULL;
    int rc = BB_OK;

    for (int c = 0; c < m->C; c++) {
        m->stride[c] = st;
        st *= m->N[c] + 1;
    }
    if (m->truncated && (lp = malloc((size_t)m->P * sizeof *lp)) == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->P);
    for (long f = 0; f < m->P; f++) {
        long rem = f;
        double r = m->r0, l = 0.0;

        for (int c = 0; c < m->C; c++) {
            long k = rem % (m->N[c] + 1) + m->lo[c];
            int N = m->src[c];

            rem /= m->N[c] + 1;
            r += (double)k * m->b[c];
            l += fl_log_binom(N, k, m->p[c]);
        }
        m->rate[f] = r;
        m->rare += l < FL_LPI_MIN;
        if (lp != NULL) {
            lp[f] = l;
            lmax = fmax(lmax, l);
        } else
            m->pi[f] = exp(l);
        m->share_top[f] = m->share_in[f] = 1.0;
        m->lost[f] = m->lost_in[f] = 0.0;
        if (fabs(r - m->B) <= ZERO_DRIFT_REL * m->B) {
            m->cls[f] = FL_ZERO;
            m->n_zero++;
        } else if (r > m->B) {
            m->cls[f] = FL_UP;
            m->n_up++;
            /* the writers wait: each writes B / r of its offer, so the
             * I/O of the phase is stalled (r - B)/r of its time at S */
            m->share_top[f] = m->B / r;
            m->lost[f] = (r - m->B) / r;
            if (r - m->B > m->Bbb) {
                /* below a full buffer they write B + B_BB */
                m->binds = 1;
                m->share_in[f] = (m->B + m->Bbb) / r;
                m->lost_in[f] = (r - m->B - m->Bbb) / r;
            }
        } else {
            m->cls[f] = FL_DOWN;
            m->n_down++;
        }
    }
    if (lp != NULL) {
        /* the law of the truncated chain: pi restricted, renormalised */
        for (long f = 0; f < m->P; f++)
            lsum += exp(lp[f] - lmax);
        for (long f = 0; f < m->P; f++)
            m->pi[f] = exp(lp[f] - lmax - log(lsum));
        free(lp);
    }
    {
        double *work = NULL;

        if (m->binds)
            rc = fl_law(m, m->share_in, m->pi_in, &work, err);
        else
            memcpy(m->pi_in, m->pi, (size_t)m->P * sizeof *m->pi);
        if (rc == BB_OK && m->n_up > 0 && (m->n_down == 0 || fl_law_narrow(m))) {
            m->pi_top = malloc((size_t)m->P * sizeof *m->pi_top);
            rc = m->pi_top == NULL ? bb_seterr(err, BB_ENOMEM, "out of memory for %ld "
                                               "phases", m->P)
                                   : fl_law(m, m->share_top, m->pi_top, &work, err);
        }
        free(work);
        if (rc != BB_OK)
            return rc;
    }
    if (m->n_up > 0 && m->n_down > 0) {
        rc = fl_spec_build(m, 1.0, !m->truncated, &m->greedy, err);
        if (rc != BB_OK)
            return rc;
    }
    if (m->truncated)
        return BB_OK;
    /* the limit as S grows: when the buffer fills (the mean drift under
     * the law of Q' is positive: E > B where B_BB binds nowhere) the PFS
     * drains B all the time and every byte is written (work
     * conservation), X -> B; otherwise the buffer is stable (or null
     * recurrent at zero drift) and the writers lose only where B_BB
     * binds: sum_f pi'_f lost_in_f */
    m->idle_limit = 0.0;
    if (m->n_up > 0 && m->n_down == 0) {
        for (long f = 0; f < m->P; f++)
            m->idle_limit += m->pi_top[f] * m->lost[f];
    } else if (m->n_up > 0 && m->greedy->drift > 0.0) {
        rc = limit_full(m, &m->idle_limit, err);
    } else
        for (long f = 0; f < m->P; f++)
            m->idle_limit += m->pi_in[f] * m->lost_in[f];
    return rc;
}

/* The model on the phases a double weighs (lazy draining, and greedy
 * draining's fallback): each class
 * keeps the ON counts whose binomial probability is at least
 * e^(FL_LPI_MIN / C) (a unimodal law: one run of counts), so every phase
 * kept has log pi >= FL_LPI_MIN, and its chain is the class's truncated
 * there (no birth at the top count, no death at the bottom one): the
 * law of a reversible chain truncated is its own restricted and
 * renormalised, and the mass dropped, below N e^(FL_LPI_MIN / C) per
 * class, bounds what any measure can move. */
static double
trunc_levels(const bba_fluid *m, int *lo, int *hi)
{
    double beta = FL_LPI_MIN / m->C, P = 1.0;

    for (int c = 0; c < m->C; c++) {
        int N = m->src[c];

        lo[c] = 0;
        hi[c] = N;
        while (lo[c] < N && fl_log_binom(N, lo[c], m->p[c]) < beta)
            lo[c]++;
        while (hi[c] > lo[c] && fl_log_binom(N, hi[c], m->p[c]) < beta)
            hi[c]--;
        P *= (double)(hi[c] - lo[c] + 1);
    }
    return P;
}

static int
model_truncate(const bba_fluid *m, bba_fluid **out, char *err)
{
    int lo[FL_CLASSES_MAX], hi[FL_CLASSES_MAX];
    double P = trunc_levels(m, lo, hi);
    bba_fluid *t;
    int rc;

    *out = NULL;
    t = model_alloc((long)P, m->C);
    if (t == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fluid model");
    t->truncated = 1;
    t->r0 = m->r0;
    t->B = m->B;
    t->Bbb = m->Bbb;
    t->E = m->E;
    t->mem_limit = m->mem_limit;
    t->idle_limit = m->idle_limit;
    for (int c = 0; c < m->C; c++) {
        t->N[c] = hi[c] - lo[c];
        t->lo[c] = lo[c];
        t->src[c] = m->src[c];
        t->p[c] = m->p[c];
        t->b[c] = m->b[c];
        t->lam[c] = m->lam[c];
        t->mu[c] = m->mu[c];
    }
    rc = model_phases(t, err);
    if (rc == BB_OK && t->rare > 0)
        rc = bb_seterr(err, BB_EDATA, "fluid model: %ld phases of the truncated model "
                       "are still below the double range", t->rare);
    if (rc != BB_OK) {
        bba_fluid_free(t);
        return rc;
    }
    *out = t;
    return BB_OK;
}

int
bba_fluid_new(const bba_fluid_class *c, size_t n, const bba_fluid_opts *o,
              bba_fluid **out, char *err)
{
    cls_in *ci = NULL;
    bba_fluid *m = NULL;
    double r0, Pd, bytes;
    long nc;
    int rc = BB_OK;

    *out = NULL;
    if (o == NULL || !(o->pfs_bw_Bps > 0.0 && isfinite(o->pfs_bw_Bps)))
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %g B/s is not a finite positive "
                         "number", o ? o->pfs_bw_Bps : 0.0);
    if (!(o->bb_bw_Bps >= 0.0 && isfinite(o->bb_bw_Bps)))
        return bb_seterr(err, BB_EINVAL, "burst-buffer bandwidth %g B/s is not a finite "
                         "non-negative number (0: unlimited)", o->bb_bw_Bps);
    if (o->max_phases < 0)
        return bb_seterr(err, BB_EINVAL, "phase bound %ld is negative", o->max_phases);
    ci = malloc((n + 1) * sizeof *ci);
    if (ci == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu classes", n);
    nc = gather(c, n, ci, &r0, err);
    if (nc < 0) {
        free(ci);
        return BB_EINVAL;
    }
    Pd = phase_count(ci, nc);
    bba_fluid_estimate(c, n, o, NULL, &bytes, NULL);
    if ((o->max_phases > 0 && Pd > (double)o->max_phases) || Pd > (double)PHASES_MAX) {
        free(ci);
        return bb_seterr(err, BB_ETOOBIG, "the fluid model has %.0f phases, above the "
                         "bound of %ld", Pd, o->max_phases > 0 && o->max_phases < PHASES_MAX
                         ? o->max_phases : PHASES_MAX);
    }
    if (o->mem_limit_bytes > 0.0 && bytes > o->mem_limit_bytes) {
        free(ci);
        return bb_seterr(err, BB_ETOOBIG, "the fluid model of %.0f phases needs about "
                         "%.3g GB, above the memory limit of %.3g GB", Pd, bytes / 1e9,
                         o->mem_limit_bytes / 1e9);
    }
    m = model_alloc((long)Pd, (int)nc);
    if (m == NULL) {
        free(ci);
        return bb_seterr(err, BB_ENOMEM, "out of memory for the fluid model");
    }
    m->r0 = r0;
    m->B = o->pfs_bw_Bps;
    m->Bbb = o->bb_bw_Bps > 0.0 ? o->bb_bw_Bps : INFINITY;
    m->mem_limit = o->mem_limit_bytes;
    m->E = r0;
    for (long i = 0; i < nc; i++) {
        m->N[i] = m->src[i] = (int)ci[i].N;
        m->lo[i] = 0;
        m->p[i] = ci[i].p;
        m->b[i] = ci[i].b;
        m->mu[i] = 1.0 / ci[i].L;
        m->lam[i] = ci[i].p / ((1.0 - ci[i].p) * ci[i].L);
        m->E += (double)ci[i].N * ci[i].p * ci[i].b;
    }
    free(ci);
    rc = model_phases(m, err);
    if (rc != BB_OK)
        bba_fluid_free(m);
    else
        *out = m;
    return rc;
}

/* The limit where B_BB = x binds and the buffer is stable: sum_f
 * pi'_f lost'_f with pi' the law of Q' at x (fluid_top.c); share and law
 * P doubles of scratch, *work the law's.  NAN when the law cannot be had. */
static double
bw_limit(const bba_fluid *m, double x, double *share, double *law, double **work)
{
    double h = 0.0;
    char err[BB_ERRLEN];

    for (long f = 0; f < m->P; f++) {
        double r = m->rate[f];

        share[f] = m->cls[f] == FL_UP && r - m->B > x ? (m->B + x) / r : 1.0;
    }
    if (fl_law(m, share, law, work, err) != BB_OK)
        return NAN;
    for (long f = 0; f < m->P; f++)
        if (share[f] < 1.0) /* lost_f scales with 1 - c: (r - B - x)/(r - B) of it */
            h += law[f] * m->lost[f] * (m->rate[f] - m->B - x) / (m->rate[f] - m->B);
    return h;
}

/* The smallest B_BB for a target under waiting writers, E <= B.  The
 * limit at bandwidth x is h(x) (bw_limit) while the buffer is stable.
 * h(0+) is the idle fraction of a buffer of size 0 (the content never
 * rises: every phase above B writes B), h is 0 beyond the largest excess
 * r_f - B, and non-increasing between: the target's crossing is
 * bracketed and closed by Illinois steps on g = ln(h / target), which a
 * tail of phases makes far straighter than h itself (about 8 laws where
 * h took 20); the end where h is 0 (g = -inf) is first halved until it
 * is finite. */
int
bba_fluid_bbbw_min(const bba_fluid *m, double target, double *bbbw, char *err)
{
    double h0 = 0.0, emax = 0.0, lo, hi, glo, ghi, *share, *law, *work = NULL;
    int side = 0, rc;

    *bbbw = NAN;
    if (!(target > 0.0 && target < 1.0))
        return bb_seterr(err, BB_EINVAL, "target idle fraction %g is not in (0, 1)", target);
    if ((rc = fl_top_law(m, err)) != BB_OK)
        return rc;
    for (long f = 0; f < m->P; f++)
        if (m->cls[f] == FL_UP) {
            h0 += m->pi_top[f] * m->lost[f];
            emax = fmax(emax, m->rate[f] - m->B);
        }
    if (h0 <= target) {
        *bbbw = 0.0;
        return BB_OK;
    }
    if (m->E > m->B)
        return bb_seterr(err, BB_EINFEASIBLE, "E = %.6g B/s > B = %.6g B/s: the buffer "
                         "fills as it grows; the smallest burst-buffer bandwidth for a "
                         "target is computed only when E < B", m->E, m->B);
    share = malloc((size_t)2 * (size_t)m->P * sizeof *share);
    if (share == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    law = share + m->P;
    lo = 0.0;
    glo = log(h0 / target);
    hi = emax;
    ghi = -INFINITY;
    for (int it = 0; it < 200 && hi - lo > 1e-13 * emax; it++) {
        double x = isfinite(ghi) ? lo + (hi - lo) * glo / (glo - ghi) : 0.5 * (lo + hi);
        double hx, gx;

        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        hx = bw_limit(m, x, share, law, &work);
        if (isnan(hx)) {
            free(share);
            free(work);
            return bb_seterr(err, BB_ENOMEM, "out of memory for a phase law");
        }
        gx = hx > 0.0 ? log(hx / target) : -INFINITY;
        if (gx <= 0.0) {
            hi = x;
            ghi = gx;
            if (side == -1 && isfinite(gx))
                glo *= 0.5;
            side = -1;
        } else {
            lo = x;
            glo = gx;
            if (side == 1 && isfinite(ghi))
                ghi *= 0.5;
            side = 1;
        }
    }
    free(share);
    free(work);
    *bbbw = hi; /* the feasible end */
    return BB_OK;
}
