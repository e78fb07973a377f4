/* onoff_solve.c: the stationary solve of the ON/OFF-modulated chain
 * (onoff.h): aggregation-disaggregation over the levels, the first level
 * chain by the FFT solver, GMRES where the phases are slow, damped power
 * steps, and the measures (onoff_int.h names the other files).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "fftwh.h"
#include "krylov.h"
#include "onoff_int.h"
#include "stationary.h"

/* Weight of x P in a smoothing step (below); SMOOTH_DAMP_FFT on the FFT
 * path, whose steps are most of the cost (a phase mode at 0.9 per step
 * relaxes at 0.905 instead of 0.92: 17% fewer steps). */
#define SMOOTH_DAMP 0.8
#define SMOOTH_DAMP_FFT 0.95

/* The first level chain, every level's phases at the stationary phase
 * distribution, approximated by the scalar chain of chain.h for the load
 * law of all applications made memoryless (its stalls are whole units and
 * land below S, this chain's last their excess over B and land at S: the
 * two differ only near S, and GMRES or the aggregation corrects it;
 * measured: the same iterations and time as a banded solve of the exact
 * level chain on the README example at 60 and 30 s): solve it by the FFT
 * Wiener-Hopf solver (fftwh.h) into xi (S + 1, normalised over the normal states).  Returns
 * BB_OK, or an error after which the caller solves it by banded GTH. */
static int
first_solve_fft(const bba_onoff_work *w, double *xi)
{
    const bba_onoff *m = w->m;
    long S = w->S, U = m->M > m->B ? m->M - m->B : 0, nf = 0;
    size_t n = m->n0;
    double *dist = NULL, *pi = NULL, *pf = NULL, tot = 0;
    long *bf = NULL;
    bba_solver_opts so;
    bba_measures me;
    bba_solve_info info;
    char err[BB_ERRLEN];
    int rc = BB_ENOMEM;

    for (size_t c = 0; c < m->n_classes; c++)
        n += (size_t)m->N[c];
    dist = calloc((size_t)m->M + 1, sizeof *dist);
    pi = malloc(((size_t)S + (size_t)U + 1) * sizeof *pi);
    bf = malloc((n + 1) * sizeof *bf);
    pf = malloc((n + 1) * sizeof *pf);
    if (!dist || !pi || !bf || !pf)
        goto out;
    for (size_t i = 0; i < m->n0; i++, nf++) {
        bf[nf] = m->b0[i];
        pf[nf] = m->p0[i];
    }
    for (size_t c = 0; c < m->n_classes; c++)
        for (int i = 0; i < m->N[c]; i++, nf++) {
            bf[nf] = m->b[c];
            pf[nf] = m->p[c];
        }
    for (long f = 0; f < m->n_phases; f++)
        for (long k = 0; k <= m->M0; k++)
            dist[m->phase_load[f] + k] += m->phase_pi[f] * m->D0[k];
    rc = BB_EDATA;
    if (!(dist[0] > 0) && S > 0)
        goto out; /* never drains below B: let GTH say so */
    bba_solver_defaults(&so);
    so.kind = BBA_SOLVER_FFT;
    rc = bba_fftwh_eval(dist, m->M, m->B, S, n, bf, pf, w->pol, &so, NULL, &me, &info, pi, err);
    if (rc != BB_OK)
        goto out;
    for (long j = 0; j <= S; j++)
        tot += pi[j] > 0 ? pi[j] : 0;
    rc = tot > 0 ? BB_OK : BB_EDATA;
    for (long j = 0; j <= S && rc == BB_OK; j++)
        xi[j] = (pi[j] > 0 ? pi[j] : 0) / tot;
out:
    free(dist);
    free(pi);
    free(bf);
    free(pf);
    return rc;
}

/* The level chain with the phases of each level weighted by x (or by the
 * stationary phase distribution where x has no mass), as a bba_chain with
 * n_states = S + 1 and band [j - B, j + U]; solved by banded GTH. */
static int
coarse_solve(bba_onoff_work *w, const double *x, bba_chain *c, double *acc, double *xi,
             char *err)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, U = c->M - B, pos = 0;
    bba_solver_opts so;
    bba_solve_info info;

    for (long j = 0; j <= S; j++) {
        const double *xj = x + j * P;
        double mass = 0;
        long base = j - B;

        for (long f = 0; f < P; f++)
            mass += xj[f];
        memset(acc, 0, (size_t)(B + U + 1) * sizeof *acc);
        for (long f = 0; f < P; f++) {
            double wf = mass > 0 ? xj[f] / mass : m->phase_pi[f];

            if (wf == 0)
                continue;
            bba_onoff_spread(m, j, m->phase_load[f], S, w->pol, wf, acc, base, NULL, 0, 0,
                             NULL);
        }
        c->rowptr[j] = (int)pos;
        for (long d = 0; d <= B + U; d++)
            if (acc[d] != 0) {
                c->col[pos] = (int)(base + d);
                c->val[pos] = acc[d];
                pos++;
            }
    }
    c->rowptr[S + 1] = (int)pos;
    c->nnz = pos;
    bba_solver_defaults(&so);
    so.kind = BBA_SOLVER_BANDED;
    so.tol = 1e-9;
    return bba_stationary_solve(c, &so, xi, &info, err);
}

/* The measures of x (normalised over the normal states) in
 * O((S + 1) P + M): with tail(t) = Pr(k0 > t) and
 * G(t) = sum_{k0 > t} D0[k0] (k0 - t) = tail(t) + G(t + 1), the mean
 * excess over t, a state (j, f) stalls G(S + B - j - kf)/B units on
 * average (a stall lasts its excess over B, onoff_step.c) and is quiet
 * (l >= j) when j = 0 or k0 >= B - kf; lazy draining below the threshold
 * adds (1 - EPS) Pr(k0 < B - kf) to the quiet probability of j > 0 (its
 * loads k <= B never stall).  Per unit (Z = 1 + the mean stall of a
 * normal unit, stall units counted) the stalled fraction, the idle
 * fraction, is stall/Z = 1 - 1/Z (measures.h). */
static void
measures(bba_onoff_work *w, const double *x, bba_measures *me)
{
    const bba_onoff *m = w->m;
    long S = w->S, P = w->P, B = m->B, M0 = m->M0, kmax = 0;
    long t0, nt;
    double stall = 0, quiet = 0, load = 0, p0 = 0, pS = 0, Z, *tail, *G;
    int lazy = w->pol->kind == BB_DRAIN_LAZY && w->pol->threshold > 0;
    double lazy_keep = lazy ? 1.0 - w->pol->eps : 0;

    for (long f = 0; f < P; f++)
        if (m->phase_load[f] > kmax)
            kmax = m->phase_load[f];
    t0 = B - kmax - 1 < 0 ? B - kmax - 1 : 0; /* smallest t needed */
    nt = M0 - t0 + 1 + B;
    tail = malloc((size_t)nt * sizeof *tail);
    G = malloc((size_t)nt * sizeof *G);
    if (tail == NULL || G == NULL) {
        free(tail);
        free(G);
        me->idle = me->stalled = NAN;
        return;
    }
    /* tail[t - t0] for t0 <= t < t0 + nt; G likewise, 0 for t >= M0. */
    for (long i = nt - 1; i >= 0; i--) {
        long t = t0 + i;

        tail[i] = t >= M0 ? 0 : (t + 1 < 0 ? 1.0 : tail[i + 1] + m->D0[t + 1]);
        if (t < 0)
            tail[i] = 1.0;
    }
    for (long i = nt - 1; i >= 0; i--)
        G[i] = t0 + i >= M0 ? 0 : tail[i] + (i + 1 < nt ? G[i + 1] : 0);
    for (long j = 0; j <= S; j++)
        for (long f = 0; f < P; f++) {
            double xv = x[j * P + f];
            long kf = m->phase_load[f], t = S + B - j - kf;

            if (xv == 0)
                continue;
            load += (double)j * xv;
            if (j == 0)
                p0 += xv;
            if (j == S)
                pS += xv;
            stall += xv * (t >= M0 ? 0 : G[t - t0]) / (double)B;
            quiet += j == 0 ? xv : xv * (B - kf - 1 >= M0 ? 0 : tail[B - kf - 1 - t0]);
            /* Algorithm 4 below the threshold: a load k < B that would
             * have lowered the buffer keeps it with probability 1 - EPS
             * (k = B keeps it anyway; k > B moves as greedy) */
            if (lazy && j > 0 && j < w->pol->threshold && B - kf - 1 >= 0)
                quiet += xv * lazy_keep
                         * (1.0 - (B - kf - 1 >= M0 ? 0 : tail[B - kf - 1 - t0]));
        }
    free(tail);
    free(G);
    Z = 1.0 + stall;
    me->stalled = stall / Z;
    me->idle = me->stalled;
    me->quiet = quiet / Z;
    me->mean_load = load;
    me->p_empty = p0 / Z;
    me->p_full = me->stalled + pS / Z;
}

int
bba_onoff_eval(const bba_onoff *m, long S, const bb_drain *pol,
               const bba_onoff_opts *o, bba_eval_result *out, double **pi_out,
               char *err)
{
    bba_onoff_work w;
    bba_chain c;
    bba_krylov *kw = NULL;
    double *x = NULL, *y = NULL, *xsave = NULL, *xi = NULL, *acc = NULL, bytes;
    double res = INFINITY;
    long P = m->n_phases, U = bba_onoff_max_excess(m), it;
    size_t cells;
    long nsmooth = o->smooth > 0 ? o->smooth : 1;
    double tol = o->tol, damp = SMOOTH_DAMP;
    double ops_apply, ops_coarse;
    int rc = BB_OK;

    assert(BB_DRAIN_IN(pol, BB_DRAIN_QUANTA));
    memset(out, 0, sizeof *out);
    memset(&w, 0, sizeof w);
    memset(&c, 0, sizeof c);
    if (pi_out)
        *pi_out = NULL;
    if (S < 0)
        return bb_seterr(err, BB_EINVAL, "buffer size %ld quanta is negative", S);
    if (m->phase_load == NULL)
        return bb_seterr(err, BB_EINVAL, "a classes-only model (%ld phases) cannot be solved",
                         m->n_phases);
    if (pol->kind == BB_DRAIN_LAZY && (pol->threshold < 0 || pol->threshold > S))
        return bb_seterr(err, BB_EINVAL, "threshold %ld quanta is outside [0, %ld]",
                         (long)pol->threshold, S);
    if (pol->kind == BB_DRAIN_LAZY && !(pol->eps >= 0.0 && pol->eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "EPS %g is outside [0, 1]", pol->eps);
    bba_onoff_estimate(m, S, o, &bytes, NULL);
    if ((o->mem_limit_bytes > 0 && bytes > o->mem_limit_bytes)
        || ((double)S + 1.0) * ((double)m->B + (double)U + 1.0) >= 2147483647.0)
        return bb_seterr(err, BB_ETOOBIG, "the modulated chain at %ld quanta has %ld "
                         "levels x %ld phases and needs %.3g GB (limit %.3g GB)",
                         S, S + 1, P, bytes / 1e9, o->mem_limit_bytes / 1e9);
    cells = (size_t)(S + 1) * (size_t)P;
    w.m = m;
    w.clamp = 1;
    w.S = S;
    w.U = U;
    w.P = P;
    w.pol = pol;
    x = bba_big_alloc(cells * sizeof *x, 0);
    y = bba_big_alloc(cells * sizeof *y, 0);
    xsave = bba_big_alloc(cells * sizeof *xsave, 0);
    w.z = bba_big_alloc((cells + (size_t)(U + 1) * (size_t)P) * sizeof *w.z, 0);
    w.zflag = malloc((size_t)U + 1);
    w.tmp = malloc(3 * (size_t)P * sizeof *w.tmp);
    w.ktmp = bba_big_alloc(cells * sizeof *w.ktmp, 0);
    w.Kp = calloc((size_t)U + 1, sizeof *w.Kp);
    xi = malloc((size_t)(S + 1) * sizeof *xi);
    acc = malloc((size_t)(m->B + U + 1) * sizeof *acc);
    c.rowptr = malloc((size_t)(S + 2) * sizeof *c.rowptr);
    c.col = bba_big_alloc((size_t)(S + 1) * (size_t)(m->B + U + 1) * sizeof *c.col, 0);
    c.val = bba_big_alloc((size_t)(S + 1) * (size_t)(m->B + U + 1) * sizeof *c.val, 0);
    if (!x || !y || !xsave || !w.z || !w.zflag || !w.tmp || !w.ktmp || !w.Kp || !xi || !acc || !c.rowptr
        || !c.col || !c.val) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the modulated chain (%.3g GB)",
                       bytes / 1e9);
        goto out;
    }
    for (long s = 0; s <= U; s++) {
        w.Kp[s] = calloc(m->n_classes + 1, sizeof *w.Kp[s]);
        if (w.Kp[s] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for kernel powers");
            goto out;
        }
        for (size_t cl = 0; cl < m->n_classes; cl++) {
            int r = m->N[cl] + 1;

            w.Kp[s][cl] = malloc((size_t)r * (size_t)r * sizeof(double));
            if (w.Kp[s][cl] == NULL) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for kernel powers");
                goto out;
            }
            /* a landing after a stall of s/B units: H^(s/B) K (the
             * writers wait) */
            bba_onoff_stall_kernel(m, cl, (double)s / (double)m->B, w.Kp[s][cl]);
        }
    }
    c.S = S;
    c.B = m->B;
    c.M = m->B + U;
    c.n_states = S + 1;

    /* Balance the work: a level-chain solve costs (S+1) U B, a smoothing
     * step (S+1) P (M0 + 1 + sum_c (N_c + 1)); with all applications
     * bursty (M0 = 0) the solve is hundreds of steps, and the phase modes
     * need that many steps anyway (40-unit bursts: 0.98 per step).  So
     * smooth at least as long as one solve costs (measured: 3.5x faster
     * on three classes of 16-40-unit bursts at S = 4110). */
    ops_apply = bba_onoff_step_ops(m, S, pol, o);
    {
        if (bba_onoff_fft_chosen(m, S, o)) {
            w.conv = bba_fftconv_new(m->D0, m->M0 + 1, S + 1);
            w.xcol = malloc((size_t)(S + 1) * sizeof *w.xcol);
            w.ccol = malloc((size_t)(S + 1 + m->M0) * sizeof *w.ccol);
            w.lw = malloc(2 * ((size_t)m->B + 1) * sizeof *w.lw);
            if (!w.conv || !w.xcol || !w.ccol || !w.lw) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory for the level convolution");
                goto out;
            }
            damp = SMOOTH_DAMP_FFT;
            /* GMRES's basis when it fits the memory limit (else the
             * smoothing alone goes on). */
            double slow = 0;

            for (size_t cl = 0; cl < m->n_classes; cl++) {
                double a = 1.0 / m->L[cl], cc = a * m->p[cl] / (1.0 - m->p[cl]);

                if (fabs(1.0 - a - cc) > slow)
                    slow = fabs(1.0 - a - cc);
            }
            if ((o->krylov == 1 || (o->krylov < 0
                     && (slow > 0.85 || P >= 32
                         || (pol->kind == BB_DRAIN_LAZY && pol->threshold > 0))))
                && (o->mem_limit_bytes <= 0
                    || bytes + bba_krylov_bytes((long)cells, BBA_ONOFF_GMRES_M)
                           <= o->mem_limit_bytes))
                kw = bba_krylov_alloc((long)cells, BBA_ONOFF_GMRES_M);
            /* Below a lazy threshold, the level blocks' preconditioner
             * (bba_onoff_lazy_prec_new: P^2 doubles twice). */
            if (kw != NULL && pol->kind == BB_DRAIN_LAZY && pol->threshold > 0
                && P <= BBA_ONOFF_LAZY_PREC_MAX_P)
                (void)bba_onoff_lazy_prec_new(&w); /* else unpreconditioned */
        }
    }
    ops_coarse = (double)(U > 0 ? U : 1) * (double)m->B + (double)P * ((double)m->M0 + 1.0);
    /* With the FFT convolution a step is cheap beside a level solve
     * (banded GTH, whose constant the count above understates), and the
     * phase modes need a few hundred steps anyway: smooth 8 times longer
     * (measured: one aggregation iteration instead of 8 on the paper's
     * workload with 10-unit bursts, 3x faster). */
    if (w.conv)
        ops_apply /= 8;
    if (ops_coarse / ops_apply > (double)nsmooth)
        nsmooth = ops_coarse / ops_apply > 1024 ? 1024 : (long)(ops_coarse / ops_apply);

    /* Start from the stationary phase distribution at every level: the
     * first level chain is then the memoryless chain of DIST. */
    for (long j = 0; j <= S; j++)
        memcpy(x + j * P, m->phase_pi, (size_t)P * sizeof *x);
    for (it = 1; it <= o->max_iter; it++) {
        double prev = res;
        int accepted = 1;

        /* Aggregation-disaggregation (Koury, McAllister and Stewart) is not
         * guaranteed to converge: with the conditional phase weights of an
         * early iterate, the level chain can drift upward where the true
         * one does not (measured: 40-unit bursts at S = 9920 sent the
         * level marginal to 1e-108 at 0 and then NaN), or cycle with the
         * smoothing (one application at S = 600).  So a correction is kept
         * only when it lowers the residual, else the iterate before it
         * goes on with pure damped power steps, which always converge. */
        if (it > 1)
            memcpy(xsave, x, cells * sizeof *x);
        if (it == 1 && w.conv && first_solve_fft(&w, xi) == BB_OK)
            rc = BB_OK;
        else
            rc = coarse_solve(&w, x, &c, acc, xi, err);
        if (rc != BB_OK && it == 1)
            goto out;
        if (rc == BB_OK) {
            for (long j = 0; j <= S; j++) {
                double mass = 0, *xj = x + j * P;

                for (long f = 0; f < P; f++)
                    mass += xj[f];
                for (long f = 0; f < P; f++)
                    xj[f] = mass > 0 ? xi[j] * xj[f] / mass : xi[j] * m->phase_pi[f];
            }
        } else {
            accepted = 0;
        }
        rc = BB_OK;
        if (it == 1 && kw != NULL) {
            res = bba_onoff_gmres(&w, kw, x, y, tol);
            if (res <= tol)
                break;
        }
        for (long s = 0; s < nsmooth; s++) {
            double *sw;

            /* A damped step x <- (1 - w) x + w x P: the same fixed point,
             * but no eigenvalue on the unit circle, so that a periodic
             * chain (deterministic loads, as in the hand-worked case at
             * some sizes) converges too. */
            res = bba_onoff_apply(&w, x, y);
            if (s == 0 && it > 1 && accepted && !(res <= prev)) {
                memcpy(x, xsave, cells * sizeof *x);
                accepted = 0;
                res = bba_onoff_apply(&w, x, y);
            }
            for (size_t i = 0; i < cells; i++)
                y[i] = (1.0 - damp) * x[i] + damp * y[i];
            sw = x;
            x = y;
            y = sw;
            if (res <= tol)
                break;
        }
        if (res <= tol)
            break;
        /* When an iteration gains less than half, smooth twice as long. */
        if ((!accepted || !(res < 0.5 * prev)) && nsmooth < 4096)
            nsmooth *= 2;
    }
    out->solve.iterations = it > o->max_iter ? o->max_iter : it;
    out->solve.residual = res;
    out->solve.peak_bytes = bytes;
    if (!(res <= tol)) {
        rc = bb_seterr(err, BB_ENOCONV, "the modulated chain did not converge in %ld "
                       "aggregation iterations (residual %.3g, tolerance %.3g)",
                       o->max_iter, res, tol);
        goto out;
    }
    out->S = S;
    out->threshold = pol->kind == BB_DRAIN_LAZY ? pol->threshold : 0;
    out->n_states = (S + 1 + U) * P;
    out->nnz = 0;
    measures(&w, x, &out->meas);
    if (pi_out) {
        *pi_out = x;
        x = NULL;
    }
out:
    if (w.Kp) {
        for (long s = 0; s <= U; s++) {
            if (w.Kp[s] == NULL)
                continue;
            for (size_t cl = 0; cl < m->n_classes; cl++)
                free(w.Kp[s][cl]);
            free(w.Kp[s]);
        }
        free(w.Kp);
    }
    free(x);
    free(y);
    free(xsave);
    free(w.z);
    free(w.zflag);
    free(w.tmp);
    free(w.ktmp);
    bba_krylov_free(kw);
    bba_fftconv_free(w.conv);
    free(w.xcol);
    free(w.ccol);
    free(w.lw);
    free(w.pinv[0]);
    free(w.pinv[1]);
    free(xi);
    free(acc);
    free(c.rowptr);
    free(c.col);
    free(c.val);
    return rc;
}
