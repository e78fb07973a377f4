/* onoff.c: the ON/OFF-modulated chain's model: classes of identical
 * bursty applications, their kernels, the phases and D0 (onoff.h); the
 * solve is in onoff_solve.c (onoff_int.h names every file).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "dist.h"
#include "onoff_int.h"
/* A memoryless application: its phase is a fresh draw every unit. */
static int
memoryless(double p, double L)
{
    return L <= 0 || fabs(L * (1.0 - p) - 1.0) <= 1e-12;
}

void
bba_onoff_free(bba_onoff *m)
{
    if (m == NULL)
        return;
    if (m->K)
        for (size_t c = 0; c < m->n_classes; c++)
            free(m->K[c]);
    free(m->K);
    free(m->b);
    free(m->p);
    free(m->L);
    free(m->N);
    free(m->phase_load);
    free(m->phase_pi);
    free(m->D0);
    free(m->b0);
    free(m->p0);
    memset(m, 0, sizeof *m);
}

/* K(mm, m') for a class of N applications: of the mm ON, s stay ON
 * (Binomial(mm, 1 - a)); of the N - mm OFF, m' - s switch ON
 * (Binomial(N - mm, c)).  Each pmf is evaluated once per row (O(N^2)
 * pmf values, not one pair per term: 1.4 million pairs of lnchoose for
 * N = 200) and the row summed over s ascending, C(N + 3, 3) multiply-adds.
 * w: N + 1 doubles of scratch. */
static void
class_kernel(int N, double a, double c, double *K, double *w)
{
    int r = N + 1;

    for (int mm = 0; mm <= N; mm++) {
        double *row = K + (size_t)mm * (size_t)r;

        for (int j = 0; j <= N - mm; j++)
            w[j] = gsl_ran_binomial_pdf((unsigned)j, c, (unsigned)(N - mm));
        for (int m2 = 0; m2 <= N; m2++)
            row[m2] = 0;
        for (int st = 0; st <= mm; st++) {
            double ps = gsl_ran_binomial_pdf((unsigned)st, 1.0 - a, (unsigned)mm);

            for (int j = 0; j <= N - mm; j++)
                row[st + j] += ps * w[j];
        }
    }
}

/* The per-class rate of OFF -> ON per unit, c = a p/(1 - p) capped at 1
 * (as the kernels are built). */
static double
class_on_rate(const bba_onoff *m, size_t c)
{
    double a = 1.0 / m->L[c], cc = a * m->p[c] / (1.0 - m->p[c]);

    return cc > 1 ? 1 : cc;
}

int
bba_onoff_init(bba_onoff *m, size_t n, const long *b, const double *p,
               const double *L, long B, int all_phases, long max_phases,
               char *err)
{
    long *b0 = NULL;
    double *p0 = NULL, P;
    size_t n0 = 0;
    int rc = BB_OK;

    memset(m, 0, sizeof *m);
    if (B <= 0)
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %ld quanta is not positive", B);
    m->B = B;
    m->b = malloc((n + 1) * sizeof *m->b);
    m->p = malloc((n + 1) * sizeof *m->p);
    m->L = malloc((n + 1) * sizeof *m->L);
    m->N = calloc(n + 1, sizeof *m->N);
    b0 = malloc((n + 1) * sizeof *b0);
    p0 = malloc((n + 1) * sizeof *p0);
    if (!m->b || !m->p || !m->L || !m->N || !b0 || !p0) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        double lo;
        size_t c;

        if (!(p[i] >= 0 && p[i] <= 1) || b[i] < 0) {
            rc = bb_seterr(err, BB_EINVAL, "application %zu: p = %g or b = %ld out of range",
                           i + 1, p[i], b[i]);
            goto out;
        }
        m->mean_load += p[i] * (double)b[i];
        if (b[i] == 0 || p[i] <= 0 || p[i] >= 1
            || (!all_phases && memoryless(p[i], L[i]))) {
            b0[n0] = b[i];
            p0[n0] = p[i];
            n0++;
            continue;
        }
        {
            double Li = L[i] > 0 ? L[i] : 1.0 / (1.0 - p[i]);

            lo = p[i] / (1.0 - p[i]) > 1 ? p[i] / (1.0 - p[i]) : 1;
            if (!(Li >= lo * (1.0 - 1e-12))) {
                char bl[40], blo[40];

                bb_fmt_apart(Li, lo, bl, blo, sizeof bl);
                rc = bb_seterr(err, BB_EINVAL, "application %zu: burst %s time units is "
                               "below max(1, p/(1-p)) = %s", i + 1, bl, blo);
                goto out;
            }
            for (c = 0; c < m->n_classes; c++)
                if (m->b[c] == b[i] && m->p[c] == p[i] && m->L[c] == Li)
                    break;
            if (c == m->n_classes) {
                m->b[c] = b[i];
                m->p[c] = p[i];
                m->L[c] = Li;
                m->n_classes++;
            }
            m->N[c]++;
        }
    }
    P = 1;
    for (size_t c = 0; c < m->n_classes; c++)
        P *= m->N[c] + 1;
    if (max_phases >= 0 && ((max_phases > 0 && P > (double)max_phases) || P > 1e15)) {
        rc = bb_seterr(err, BB_ETOOBIG, "the applications with bursts form %zu classes "
                       "and %.4g phases, over the limit of %ld", m->n_classes, P, max_phases);
        goto out;
    }
    m->n_phases = P < 9e18 ? (long)P : LONG_MAX;
    m->K = calloc(m->n_classes + 1, sizeof *m->K);
    if (max_phases >= 0) {
        m->phase_load = malloc((size_t)m->n_phases * sizeof *m->phase_load);
        m->phase_pi = malloc((size_t)m->n_phases * sizeof *m->phase_pi);
    }
    if (!m->K || (max_phases >= 0 && (!m->phase_load || !m->phase_pi))) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for %ld phases", m->n_phases);
        goto out;
    }
    /* the kernels: (N_c + 1)^2 doubles and C(N_c + 3, 3) multiply-adds a
     * class, not built for the classes-only model (max_phases < 0), which
     * 200 identical applications made a 1.4 s setup and 3,000 a minute */
    for (size_t c = 0; max_phases >= 0 && c < m->n_classes; c++) {
        int r = m->N[c] + 1;
        double *w = malloc((size_t)r * sizeof *w);

        m->K[c] = malloc((size_t)r * (size_t)r * sizeof *m->K[c]);
        if (m->K[c] == NULL || w == NULL) {
            free(w);
            rc = bb_seterr(err, BB_ENOMEM, "out of memory for a class kernel");
            goto out;
        }
        class_kernel(m->N[c], 1.0 / m->L[c], class_on_rate(m, c), m->K[c], w);
        free(w);
    }
    for (size_t c = 0; c < m->n_classes; c++)
        m->M += (long)m->N[c] * m->b[c];
    /* Phases in mixed radix, class 0 fastest. */
    for (long f = 0; max_phases >= 0 && f < m->n_phases; f++) {
        long rest = f, load = 0;
        double pr = 1;

        for (size_t c = 0; c < m->n_classes; c++) {
            int mc = (int)(rest % (m->N[c] + 1));

            rest /= m->N[c] + 1;
            load += mc * m->b[c];
            pr *= gsl_ran_binomial_pdf((unsigned)mc, m->p[c], (unsigned)m->N[c]);
        }
        m->phase_load[f] = load;
        m->phase_pi[f] = pr;
    }
    if (n0 > 0) {
        rc = bba_dist_support(n0, b0, &m->M0, err);
        if (rc != BB_OK)
            goto out;
    }
    m->D0 = malloc(((size_t)m->M0 + 1) * sizeof *m->D0);
    if (m->D0 == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for a load distribution");
        goto out;
    }
    if (n0 > 0)
        bba_dist_compute(n0, b0, p0, m->M0, m->D0);
    else
        m->D0[0] = 1.0;
    m->M += m->M0;
    m->n0 = n0;
    m->b0 = b0;
    m->p0 = p0;
    b0 = NULL;
    p0 = NULL;
out:
    free(b0);
    free(p0);
    if (rc != BB_OK)
        bba_onoff_free(m);
    return rc;
}

void
bba_onoff_stall_kernel(const bba_onoff *m, size_t c, double tau, double *out)
{
    int N = m->N[c], r = N + 1;
    /* ON within tau units: 1 - (1 - c)^tau, accurate for small c */
    double q = -expm1(tau * log1p(-class_on_rate(m, c)));
    const double *K = m->K[c];

    if (!(tau > 0)) {
        memcpy(out, K, (size_t)r * (size_t)r * sizeof *out);
        return;
    }
    /* H^tau(mm, mm + s) = Binomial(N - mm, q)(s): the ON stay ON, each OFF
     * turns ON within the stall with probability q.  Then K.  Each pmf
     * once, each row summed over s ascending: O(N^2) pmf values and
     * N^3 / 2 multiply-adds */
    for (int mm = 0; mm <= N; mm++) {
        double *row = out + (size_t)mm * (size_t)r;

        for (int m2 = 0; m2 <= N; m2++)
            row[m2] = 0;
        for (int s = 0; mm + s <= N; s++) {
            double ps = gsl_ran_binomial_pdf((unsigned)s, q, (unsigned)(N - mm));
            const double *kr = K + (size_t)(mm + s) * (size_t)r;

            for (int m2 = 0; m2 <= N; m2++)
                row[m2] += ps * kr[m2];
        }
    }
}

void
bba_onoff_defaults(bba_onoff_opts *o)
{
    o->tol = 1e-13;
    o->max_iter = 2000;
    o->smooth = 4;
    o->mem_limit_bytes = 0;
    o->fft = -1;
    o->krylov = -1;
}

long
bba_onoff_max_excess(const bba_onoff *m)
{
    return m->M > m->B ? m->M - m->B : 0;
}

int
bba_onoff_fft_chosen(const bba_onoff *m, long S, const bba_onoff_opts *o)
{
    double nf = (double)S + (double)m->M0 + 1.0;
    int fft = o ? o->fft : -1;

    return fft == 1 || (fft < 0 && m->M0 > 0
                        && 6.0 * log2(nf) * nf / ((double)S + 1.0) < (double)m->M0 + 1.0);
}

double
bba_onoff_step_ops(const bba_onoff *m, long S, const bb_drain *pol, const bba_onoff_opts *o)
{
    double P = (double)m->n_phases, sr = 0, nf = (double)S + (double)m->M0 + 1.0, ops;

    for (size_t c = 0; c < m->n_classes; c++)
        sr += m->N[c] + 1;
    if (!bba_onoff_fft_chosen(m, S, o))
        return P * ((double)m->M0 + 1.0 + sr);
    ops = P * (6.0 * log2(nf) * nf / ((double)S + 1.0) + sr);
    if (pol != NULL && pol->kind == BB_DRAIN_LAZY && pol->threshold > 0)
        ops += P * (double)pol->threshold * ((double)m->B + 1.0) / ((double)S + 1.0);
    return ops;
}

void
bba_onoff_estimate(const bba_onoff *m, long S, const bba_onoff_opts *o,
                   double *bytes, double *ops_per_iter)
{
    double lv = (double)S + 1.0, P = (double)m->n_phases;
    double U = (double)bba_onoff_max_excess(m), W = (double)m->B + U + 1.0;
    double sr = 0, sk = 0;

    for (size_t c = 0; c < m->n_classes; c++) {
        sr += m->N[c] + 1;
        sk += (double)(m->N[c] + 1) * (double)(m->N[c] + 1);
    }
    /* five (S + 1) P vectors, the stall landings (U + 1) P and their kernels
     * (U + 1) sum_c (N_c + 1)^2, the level chain's band */
    if (bytes)
        *bytes = (5.0 * lv * P + (U + 1.0) * (P + sk)) * sizeof(double)
                 + lv * W * (2.0 * sizeof(double) + sizeof(int));
    if (ops_per_iter)
        *ops_per_iter = (1.0 + (o ? o->smooth : 4)) * (lv + U) * P * ((double)m->M0 + 1.0 + sr)
                        + lv * W * (double)m->B;
}
