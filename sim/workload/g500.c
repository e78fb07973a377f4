/* g500.c: the Graph500 BFS communication model (CCPE 2017 / FOGSim).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "grow.h"
#include "rng.h"
#include "workload/g500.h"

static const bbs_g500_arch archs[] = {
    { "altamira", 1.5e-9, "Altamira, IBM iDataplex dx360m4, Xeon E5-2670 @2.6GHz" },
    { "i5-5200u", 2.25e-9, "Intel Core i5-5200U @2.2GHz" },
    { "xeon-e5-2620", 2.4e-9, "Intel Xeon E5-2620 @2GHz" },
    { "mont-blanc", 15e-9, "Mont-Blanc prototype, Samsung Exynos 5, ARM Cortex-A15 @1.7GHz" },
};
#define NARCHS (sizeof archs / sizeof archs[0])

const bbs_g500_arch *
bbs_g500_arch_all(size_t *n)
{
    *n = NARCHS;
    return archs;
}

const bbs_g500_arch *
bbs_g500_arch_find(const char *name)
{
    for (size_t i = 0; i < NARCHS; i++)
        if (!strcasecmp(name, archs[i].name))
            return &archs[i];
    return NULL;
}

const char *bbs_g500_arch_names(void) { return "altamira, i5-5200u, xeon-e5-2620, mont-blanc"; }

void
bbs_g500_params_init(bbs_g500_params *p)
{
    memset(p, 0, sizeof *p);
    p->scale = 22;
    p->edgefactor = 16;
    p->nodes = 72;
    p->coalescing = 256;
    p->tq_s = 1.5e-9;
    p->eqset = BBS_G500_EQ_KRONECKER;
    p->max_levels = 9;
    p->query_bytes = 16;
    p->signal_bytes = 4096;
}

/* ---- the Kronecker profile [ours] ---- */

/* The Graph500 generator's initiator: P(bit of src, bit of dst) = A, B;
 * C, D for (0,0), (0,1); (1,0), (1,1). */
#define KA 0.57
#define KB 0.19
#define KC 0.19
#define KD 0.05

enum { KW = 41 };   /* types: 0..s 1-bits, s <= 40 */

typedef struct {
    int s;
    double N[KW], lam[KW], K[KW][KW];
} kron_types;

static void
kron_types_init(kron_types *T, int s, int f)
{
    double q0 = KB / (KA + KB), q1 = KD / (KC + KD); /* P(other end's bit = 1 | own 0, 1) */

    T->s = s;
    /* N_w vertices with w 1-bits, of mean degree lam_w = 2 f 2^s (A+B)^(s-w)
     * (C+D)^w (the row sums; B = C, so in- and out-degrees agree) */
    for (int w = 0; w <= s; w++) {
        T->N[w] = exp(lgamma(s + 1.0) - lgamma(w + 1.0) - lgamma(s - w + 1.0));
        T->lam[w] = 2.0 * f * ldexp(1, s) * pow(KA + KB, s - w) * pow(KC + KD, w);
    }
    /* K[w][v]: the type of the other end of an edge-end at a type-w vertex,
     * bit by bit independent: Bin(s - w, q0) + Bin(w, q1) */
    for (int w = 0; w <= s; w++) {
        double a[KW + 1] = { 1 }, b[KW + 1];
        for (int i = 0; i < s; i++) {
            double q = i < s - w ? q0 : q1;
            memset(b, 0, sizeof b);
            for (int k = 0; k <= i; k++) {
                b[k] += a[k] * (1 - q);
                b[k + 1] += a[k] * q;
            }
            memcpy(a, b, sizeof a);
        }
        for (int v = 0; v <= s; v++)
            T->K[w][v] = a[v];
    }
}

/* The mean-field BFS from level-1 arrivals A (edge-ends per type, consumed):
 * out[l] for l = 1..nl-1.  An edge-end arriving at type w lands on a
 * uniform stub of the type, so a vertex of degree k is first reached with
 * probability 1 - exp(-k t), t = arrivals so far / stubs of the type; with
 * Poisson(lam) degrees, the vertices first reached while t grows from t1
 * to t2 hold S (e^{-t1 - lam (1 - e^{-t1})} - (the same at t2)) edge-ends,
 * S = N lam, all explored at that level and sent on through K. */
static void
kron_run(const kron_types *T, double *A, double *out, int nl)
{
    double H[KW] = { 0 }, An[KW];
    int s = T->s;

    for (int l = 1; l < nl; l++) {
        double El = 0;
        for (int v = 0; v <= s; v++)
            An[v] = 0;
        for (int w = 0; w <= s; w++) {
            double S = T->N[w] * T->lam[w], t1, t2, Ew;
            if (!(S > 0) || A[w] <= 0) {
                H[w] += A[w];
                continue;
            }
            t1 = H[w] / S;
            t2 = (H[w] + A[w]) / S;
            Ew = S * (exp(-t1 - T->lam[w] * (1 - exp(-t1)))
                      - exp(-t2 - T->lam[w] * (1 - exp(-t2))));
            H[w] += A[w];
            El += Ew;
            for (int v = 0; v <= s; v++)
                An[v] += Ew * T->K[w][v];
        }
        out[l] = El;
        memcpy(A, An, sizeof An);
    }
}

int
bbs_g500_kron_profile(int s, int f, double dr, double *out, int nl)
{
    kron_types *T;
    double post[KW], p1[KW], T1[KW + 1], A[KW], *run, lmax = -INFINITY, z = 0;

    if (s < 1 || s > KW - 1 || f < 1 || !(dr >= 1) || !isfinite(dr) || nl < 1)
        return BB_EINVAL;
    T = malloc(sizeof *T);
    run = malloc((size_t)nl * sizeof *run);
    if (!T || !run) {
        free(T);
        free(run);
        return BB_ENOMEM;
    }
    kron_types_init(T, s, f);
    /* the root's type given its degree: N_w Poisson(dr; lam_w); then the
     * type of a neighbour of the root */
    for (int w = 0; w <= s; w++) {
        post[w] = log(T->N[w]) + dr * log(T->lam[w]) - T->lam[w];
        lmax = fmax(lmax, post[w]);
    }
    for (int w = 0; w <= s; w++)
        z += post[w] = exp(post[w] - lmax);
    for (int v = 0; v <= s; v++) {
        p1[v] = 0;
        for (int w = 0; w <= s; w++)
            p1[v] += post[w] / z * T->K[w][v];
    }
    /* Averaged over the type v of the root's neighbour of lowest type (the
     * largest mean degree): the lowest of dr independent types is v with
     * probability T1(v)^dr - T1(v+1)^dr, T1(v) = P(type >= v); one edge-end
     * goes to v, the other dr - 1 to the types >= v in proportion.  A root
     * of small degree sees a BFS whose speed depends on the neighbours it
     * has, led by its largest one, and the mean of those fronts is not the
     * front of the mean: for dr = 1 the mixture is exact, for large dr it
     * tends to the plain mean field. */
    T1[s + 1] = 0;
    for (int v = s; v >= 0; v--)
        T1[v] = T1[v + 1] + p1[v];
    for (int l = 0; l < nl; l++)
        out[l] = l == 0 ? dr : 0;
    for (int v = 0; v <= s; v++) {
        double pm = pow(fmin(T1[v], 1), dr) - pow(fmin(T1[v + 1], 1), dr);
        if (!(pm > 1e-14) || !(T1[v] > 0))
            continue;
        for (int u = 0; u <= s; u++)
            A[u] = u >= v ? (dr - 1) * p1[u] / T1[v] : 0;
        A[v] += 1;
        kron_run(T, A, run, nl);
        for (int l = 1; l < nl; l++)
            out[l] += pm * run[l];
    }
    free(T);
    free(run);
    return BB_OK;
}

/* ---- equations 4-16 ---- */

double
bbs_g500_level_mean(const bbs_g500_params *p, int l, double dr)
{
    double s = p->scale, f = p->edgefactor, ld = log(dr), C;

    if (p->eqset == BBS_G500_EQ_KRONECKER) {
        double prof[65];
        if (l < 0 || l > 64 || bbs_g500_kron_profile(p->scale, p->edgefactor, fmax(dr, 1), prof,
                                                     l + 1) != BB_OK)
            return 0;   /* out of memory, or out of range (checked by the plan) */
        return prof[l];
    }
    double A = -0.133 + 0.0046 * s + exp(0.01257 * f - 0.1829 * s - exp(1.75 - 0.7 * l));
    double B = 2 - l * (0.91 + 0.002 * f - 0.012 * s);

    if (p->eqset == BBS_G500_EQ_CCPE)
        C = exp(1 + (1 + 0.004 * f) * (-0.81 + 0.8411 * log(s))) * exp(-(l - 2.8) * (l - 2.8) / 30);
    else
        C = exp(1 + (1 + 0.004 * f) * (-1.105 + 1.01 * log(s)) * exp(-(l - 3.2) * (l - 3.2) / 8));
    return exp(A * ld * ld + B * ld + C);
}

static double
f1(const bbs_g500_params *p, int l, double ld)
{
    double s = p->scale, f = p->edgefactor;
    double D = 0.002 * s - 0.14 - (0.015 * s - 0.285) * (0.56 + 0.033 * f) * (l - 1);
    double F = 0.97 - (l - 1) * (4.438 - 0.168 * s) * (0.83 + 0.01 * f);
    double G = ((2.1 + l) * (5.35 + 0.093 * s) - 13.625) * (1.23 - (2.9 + 0.69 * l) / f);
    return D * ld * ld + F * ld + G;
}

static double
f2(const bbs_g500_params *p, int l, double dr)
{
    double s = p->scale, f = p->edgefactor;
    /* FOGSim computes s/10 on an int: integer division (MODELS.md 2.4) */
    double s10 = p->eqset == BBS_G500_EQ_CCPE ? s / 10.0 : (double)(p->scale / 10);
    double H = ldexp(1.0, l) * (0.011 + 0.00012 * f) * exp(1.7 - s10);
    double J = 1 - exp((1 - 0.012 * f) * (9.55 - 1.3 * l - s * (0.6 - 0.1 * l)));
    double K = 13 * (0.062 * s - 0.046) * (2 - 0.24 * l) - J;
    return K / pow(dr, H) + J;
}

double
bbs_g500_level_sigma(const bbs_g500_params *p, int l, double dr)
{
    double ld = log(dr);

    if (p->eqset == BBS_G500_EQ_KRONECKER)
        return 0;   /* the profile is the mean given the root; see g500.h */

    if (l <= 1)
        return exp(f1(p, 1, ld));
    if (l == 2)
        return fmax(exp(f1(p, 2, ld)), exp(f1(p, 1, ld)));
    if (l == 3)
        return fmax(exp(f1(p, 2, ld)), exp(f2(p, 4, dr)));
    return exp(f2(p, l, dr));
}

double
bbs_g500_nprime(int n, double q)
{
    return n * (1 - pow(1 - 1.0 / n, q));
}

long
bbs_g500_messages(int n, double q, int cs)
{
    double np;

    if (q <= 0)
        return 0;
    np = fmax(1, round(bbs_g500_nprime(n, q)));
    return (long)(np * ceil(q / (np * cs)));
}

/* ---- the plan ---- */

void
bbs_g500_plan_free(bbs_g500_plan *pl)
{
    if (!pl)
        return;
    for (int l = 0; l < pl->nlevels; l++) {
        free(pl->levels[l].first);
        free(pl->levels[l].msgs);
    }
    free(pl->levels);
    free(pl);
}

typedef struct {
    bbs_g500_msg *m;
    size_t n, cap;
} msgbuf;

static int
push(msgbuf *b, int dst, uint32_t q)
{
    if (bbs_grow((void **)&b->m, sizeof *b->m, &b->cap, b->n + 1))
        return BB_ENOMEM;
    b->m[b->n].dst = dst;
    b->m[b->n].queries = q;
    b->n++;
    return BB_OK;
}

/* Node `src` sends q queries to np distinct destinations drawn uniformly
 * among the others (partial Fisher-Yates on perm), coalesced by cs. */
static int
emit_node(msgbuf *b, int n, int src, uint64_t q, int cs, int *perm, gsl_rng *r, uint64_t *sent)
{
    long np;

    if (q == 0)
        return BB_OK;
    np = (long)fmax(1, round(bbs_g500_nprime(n, (double)q)));
    if (np > n - 1)
        np = n - 1;
    if ((uint64_t)np > q)
        np = (long)q;
    for (int i = 0, k = 0; i < n; i++)
        if (i != src)
            perm[k++] = i;
    for (long d = 0; d < np; d++) {
        long j = d + (long)gsl_rng_uniform_int(r, (unsigned long)(n - 1 - d));
        int t = perm[d];
        uint64_t qd = q / (uint64_t)np + ((uint64_t)d < q % (uint64_t)np ? 1 : 0);

        perm[d] = perm[j];
        perm[j] = t;
        while (qd > 0) {
            uint32_t c = qd > (uint64_t)cs ? (uint32_t)cs : (uint32_t)qd;
            if (push(b, perm[d], c))
                return BB_ENOMEM;
            qd -= c;
            *sent += c;
        }
    }
    return BB_OK;
}

long
bbs_g500_draw_root_degree(const bbs_g500_params *p, gsl_rng *r)
{
    double d, s = p->scale, lf = log(p->edgefactor / 16.0);

    if (p->rootlaw == BBS_G500_ROOT_KRONECKER) {
        double mu = 1.80 - 0.03 * (s - 18) + 0.57 * lf, sg = 1.95 + 0.012 * (s - 18) + 0.18 * lf;
        d = round(exp(mu + gsl_ran_gaussian(r, sg > 0.1 ? sg : 0.1)));
    } else {
        d = ceil(gsl_ran_lognormal(r, s * log(0.3604) + 1.0661704 * s, 0.079313065 * s));
    }
    return (long)fmin(fmax(1, d), ldexp(1, p->scale));
}

static int
check_params(const bbs_g500_params *p, char *err)
{
    if (p->scale < 1 || p->scale > 40)
        return bb_seterr(err, BB_EINVAL, "Graph500 scale must be in [1, 40] (got %d)", p->scale);
    if (p->edgefactor < 1 || p->edgefactor > 1024)
        return bb_seterr(err, BB_EINVAL, "Graph500 edgefactor must be in [1, 1024] (got %d)",
                         p->edgefactor);
    if (p->nodes < 2)
        return bb_seterr(err, BB_EINVAL, "Graph500 needs at least 2 processes (got %d)", p->nodes);
    if (p->coalescing < 1)
        return bb_seterr(err, BB_EINVAL, "coalescing size must be >= 1 (got %d)", p->coalescing);
    if (!(p->tq_s >= 0) || !isfinite(p->tq_s))
        return bb_seterr(err, BB_EINVAL, "query time must be >= 0 s (got %g)", p->tq_s);
    if (p->max_levels < 2 || p->max_levels > 64)
        return bb_seterr(err, BB_EINVAL, "max levels must be in [2, 64] (got %d)", p->max_levels);
    if (p->root_degree < 0)
        return bb_seterr(err, BB_EINVAL, "root degree must be > 0 (got %ld)", p->root_degree);
    return BB_OK;
}

int
bbs_g500_plan_new(bbs_g500_plan **out, const bbs_g500_params *p, uint64_t seed, uint64_t unit,
                  char *err)
{
    bbs_g500_plan *pl;
    gsl_rng *setup = NULL, **rr = NULL;
    int *perm = NULL, rc = BB_OK, n = p->nodes;
    double *qn = NULL, *prof = NULL;
    double frac, remaining, expect = 0;
    int cap_levels;

    *out = NULL;
    if ((rc = check_params(p, err)))
        return rc;
    pl = calloc(1, sizeof *pl);
    cap_levels = p->tail == BBS_G500_TAIL_KEEP ? 64 : p->max_levels;
    if (pl)
        pl->levels = calloc((size_t)cap_levels, sizeof *pl->levels);
    perm = malloc((size_t)n * sizeof *perm);
    rr = calloc((size_t)n, sizeof *rr);
    qn = malloc((size_t)n * sizeof *qn);
    setup = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_SETUP, 500));
    if (!pl || !pl->levels || !perm || !rr || !qn || !setup) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (!(rr[i] = bbs_rng_stream_new(NULL, seed, unit, BBS_ENTITY(BBS_ECLASS_WORKLOAD, i)))) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
    pl->p = *p;
    frac = (n - 1.0) / n;
    pl->budget = ldexp((double)p->edgefactor, p->scale + 1) * frac;
    /* root degree */
    pl->root_degree = p->root_degree > 0 ? p->root_degree : bbs_g500_draw_root_degree(p, setup);
    pl->root_node = (int)gsl_rng_uniform_int(setup, (unsigned long)n);
    if (p->eqset == BBS_G500_EQ_KRONECKER) { /* the whole profile at once */
        prof = malloc((size_t)cap_levels * sizeof *prof);
        if (!prof || bbs_g500_kron_profile(p->scale, p->edgefactor, (double)pl->root_degree, prof,
                                           cap_levels) != BB_OK) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
    }
    remaining = pl->budget;
    for (int l = 0; l < cap_levels; l++) {
        bbs_g500_level *L = &pl->levels[l];
        msgbuf b = { 0 };
        double dr = (double)pl->root_degree, drift = 0, qsum, scale;
        int tail = 0;

        if (l > 0) { /* FOGSim's end rule, checked before starting level l */
            int stop = remaining < 1 || l >= p->max_levels
                       || (l - 1 >= 5 && remaining <= 0.1 * pl->budget);
            if (stop && (p->tail != BBS_G500_TAIL_KEEP || remaining < 1))
                break;
            tail = stop;
            /* KEEP: past the peak (a level smaller than the one before),
             * the rest is the tail */
            if (p->tail == BBS_G500_TAIL_KEEP && l >= 3
                && pl->levels[l - 1].queries < pl->levels[l - 2].queries)
                tail = 1;
        }
        L->first = calloc((size_t)n + 1, sizeof *L->first);
        if (!L->first) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto done;
        }
        pl->nlevels = l + 1;
        if (l == 0) {
            uint64_t q0 = (uint64_t)ceil(dr * frac);
            L->mean = dr;
            expect = pl->budget - (double)q0;
            for (int i = 0; i < n; i++) {
                L->first[i] = b.n;
                if (i == pl->root_node && emit_node(&b, n, i, q0, p->coalescing, perm, rr[i], &L->queries)) {
                    free(b.m);
                    rc = bb_seterr(err, BB_ENOMEM, "out of memory");
                    goto done;
                }
            }
        } else {
            /* KEEP: a level takes at most 1 - rho of what remains, so the
             * BFS always has a next level; tail levels take exactly that
             * (the rest at the last level or under one query per process) */
            double room = p->tail == BBS_G500_TAIL_KEEP ? (1 - BBS_G500_TAIL_RHO) * remaining
                                                        : remaining;
            if (tail) {
                int last = l == cap_levels - 1 || room < n;
                L->mean = (last ? remaining : ceil(room)) / frac;
                L->sigma = 0;
            } else {
                L->mean = fmin(prof ? prof[l] : bbs_g500_level_mean(p, l, dr),
                               ceil(room / frac));
                L->sigma = bbs_g500_level_sigma(p, l, dr);
            }
            drift = remaining - expect;
            qsum = 0;
            for (int i = 0; i < n && tail; i++) { /* even spread, no draws */
                double T = round(n * L->mean * frac / n);
                qn[i] = floor(T / n) + (i < fmod(T, n) ? 1 : 0);
                qsum += qn[i];
            }
            for (int i = 0; i < n && !tail; i++) {
                double q, pq;
                do
                    q = L->mean + (L->sigma > 0 ? gsl_ran_gaussian_ziggurat(rr[i], L->sigma) : 0);
                while (q < 0);
                q *= frac;
                if (q + drift > 0 && !tail)
                    q += drift;
                pq = 1 - pow(1 - 1.0 / n, q);
                if (gsl_rng_uniform(rr[i]) < pq)
                    q = round(q / fmax(1, n * pq));
                else
                    q = 0;
                qn[i] = q;
                qsum += q;
            }
            /* the paper's cap: the BFS explores at most 2 E edges in all */
            if (!tail && qsum > room) { /* scale down, integer shares by largest remainders */
                double target = floor(fmax(0, room)), got = 0;
                scale = target / qsum;
                for (int i = 0; i < n; i++) {
                    double x = qn[i] * scale;
                    qn[i] = qn[i] > 0 ? -(floor(x) + 1) : 0; /* mark senders */
                    got += floor(x);
                }
                for (int i = 0; i < n; i++) {
                    if (qn[i] < 0) {
                        qn[i] = -qn[i] - 1;
                        if (got < target) {
                            qn[i] += 1;
                            got += 1;
                        }
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                L->first[i] = b.n;
                if (emit_node(&b, n, i, (uint64_t)qn[i], p->coalescing, perm, rr[i],
                              &L->queries)) {
                    free(b.m);
                    rc = bb_seterr(err, BB_ENOMEM, "out of memory");
                    goto done;
                }
            }
            expect -= L->mean * frac;
        }
        L->first[n] = b.n;
        L->msgs = b.m;
        L->nmsgs = b.n;
        remaining -= (double)L->queries;
        pl->queries += L->queries;
        pl->messages += L->nmsgs;
    }
done:
    for (int i = 0; rr && i < n; i++)
        gsl_rng_free(rr[i]);
    free(rr);
    free(qn);
    free(prof);
    free(perm);
    if (setup)
        gsl_rng_free(setup);
    if (rc) {
        bbs_g500_plan_free(pl);
        return rc;
    }
    *out = pl;
    return BB_OK;
}
