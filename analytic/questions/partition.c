/* partition.c: static partitions against the shared buffer (partition.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "front.h"
#include "partition.h"

double
bba_partition_round(double bytes, double granularity_bytes)
{
    if (!(granularity_bytes > 0) || !isfinite(bytes))
        return bytes;
    return ceil(bytes / granularity_bytes * (1 - 1e-12)) * granularity_bytes;
}

static long
gcd_long(long a, long b)
{
    while (b != 0) {
        long t = a % b;

        a = b;
        b = t;
    }
    return a;
}

void
bba_partition_free(bba_partition *p)
{
    if (p == NULL)
        return;
    for (size_t g = 0; g < p->ngroups; g++) {
        if (p->table)
            free(p->table[g]);
        if (p->answers)
            free(p->answers[g]);
    }
    free(p->table);
    free(p->answers);
    free(p->k);
    free(p->k_lo);
    free(p->k_hi);
    free(p->searches);
    free(p->k_fair);
    free(p->lower);
    free(p->cap);
    free(p->pfs_bw_Bps);
    free(p->bb_bw_Bps);
    free(p->bytes);
    free(p->a);
    memset(p, 0, sizeof *p);
}

/* The tables costed before the first group's search (cost.h): every
 * share of every group a size search from the last size (answer.h
 * bba_front_size_within), each costed as BBA_PART_SEARCH_EVALS
 * evaluations of the shared buffer's search (bba_cost_search on its
 * model, at the shared resolution: a group's model is smaller, its sizes
 * at small shares larger), plus the shared buffer's own search, which
 * has run (silent: this estimate is the run's one line).  Measured on
 * data/workloads/groups.csv at the defaults: 302 searches, 3.8
 * evaluations each.  The fluid model: each search its build and search
 * (the front's fluid_flops), at least BBA_PART_FLUID_SEARCH_OPS. */
static int
admit_tables(const bba_front *f, const bba_question *base, bba_partition *out, char *err)
{
    const bba_question *q = &f->q;
    double searches = 0, per, shared;
    bba_cost c;

    for (size_t g = 0; g < out->ngroups; g++)
        if (out->table[g] != NULL && out->k_hi[g] > 0)
            searches += out->k_hi[g] - out->k_lo[g] + 1;
    if (bba_front_kind(f) == BBA_MODEL_FLUID) {
        /* a search's fixed work (its build's allocations and LAPACK
         * calls, its bracket) whatever the phases: 27 us measured per
         * search on one-application groups (--steps 10000: 0.54 s, 20,002
         * searches, estimated at 0.0008 s from the flops alone) */
        per = shared = fmax(f->fluid_flops, BBA_PART_FLUID_SEARCH_OPS);
    } else {
        bb_drain ps;

        front_spec_of(&q->drain, &ps);
        bba_cost_search(&f->model, q->target, &ps, &q->so, &c);
        shared = c.ops;
        per = c.evaluations > BBA_PART_SEARCH_EVALS
                  ? c.ops * BBA_PART_SEARCH_EVALS / c.evaluations : c.ops;
    }
    out->est_ops = searches * per + shared;
    if (q->so.max_ops > 0 && !(searches * per <= q->so.max_ops))
        return bb_seterr(err, BB_ETOOBIG, "the partition's tables would take about %.2g "
                         "operations (%.0f size searches, one per share of each group, each "
                         "about %.2g), more than the bound of %.3g: give fewer steps or lower "
                         "the resolution, or raise the operation bound", searches * per,
                         searches, per, q->so.max_ops);
    if (base->so.announce != NULL)
        base->so.announce(base->so.announce_ctx, out->est_ops);
    return BB_OK;
}

int
bba_partition_begin(const bba_partition_spec *sp, bba_partition *out, char *err)
{
    const bba_question *q = sp->base;
    const size_t G = sp->ngroups;
    double *load = NULL, B = q->pf.pfs_bw_Bps;
    size_t *count = NULL;
    bba_front *f = NULL;
    long sum_lo = 0;
    int rc, K;

    memset(out, 0, sizeof *out);
    if (G == 0)
        return bb_seterr(err, BB_EINVAL, "no group");
    if (sp->steps < (int)G || sp->steps > 100000)
        return bb_seterr(err, BB_EINVAL, "%d bandwidth steps for %zu groups: at least one "
                         "each, at most 100000", sp->steps, G);
    if (sp->granularity_bytes < 0 || !isfinite(sp->granularity_bytes))
        return bb_seterr(err, BB_EINVAL, "granularity %g bytes is negative",
                         sp->granularity_bytes);
    load = calloc(G, sizeof *load);
    count = calloc(G, sizeof *count);
    if (load == NULL || count == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < q->n; i++) {
        if (sp->group[i] >= G) {
            rc = bb_seterr(err, BB_EINVAL, "application %zu: group %zu of %zu", i + 1,
                           sp->group[i] + 1, G);
            goto out;
        }
        /* added once per application of its count: the sum of the rows
         * written out, to the last bit */
        for (long k = 0; k < bba_app_count(&q->apps[i]); k++)
            load[sp->group[i]] += q->apps[i].p * q->apps[i].bw_Bps;
        count[sp->group[i]]++;
    }
    for (size_t g = 0; g < G; g++)
        if (count[g] == 0) {
            rc = bb_seterr(err, BB_EINVAL, "group %zu has no application", g + 1);
            goto out;
        }
    /* the shared buffer: it settles the quantisation every group shares;
     * its search is announced with the tables' (admit_tables) */
    {
        bba_question sq = *q;

        sq.so.announce = NULL;
        rc = bba_front_new(&sq, &f, err);
    }
    if (rc != BB_OK)
        goto out;
    out->shared_status = bba_front_size(f, q->target, &q->drain, &out->shared, err);
    if (out->shared_status != BB_OK && out->shared_status != BB_EINFEASIBLE) {
        rc = out->shared_status;
        goto out;
    }
    out->shared_bytes = out->shared_status == BB_OK
                            ? bba_partition_round(out->shared.S_bytes, sp->granularity_bytes)
                            : NAN;
    out->model = bba_front_kind(f);
    out->resolution = out->model == BBA_MODEL_FLUID ? 0 : bba_front_platform(f)->resolution;
    K = sp->steps;
    if (out->resolution > 0 && out->resolution % K != 0)
        K = (int)gcd_long(out->resolution, K);
    if (K < (int)G) {
        rc = bb_seterr(err, BB_EINVAL, "the resolution %ld has only %d steps in common with "
                       "%d: fewer than the %zu groups; give a resolution or a number of steps "
                       "such that the steps divide the resolution", out->resolution, K, sp->steps, G);
        goto out;
    }
    out->steps = K;
    out->ngroups = G;
    out->k = calloc(G, sizeof *out->k);
    out->k_lo = calloc(G, sizeof *out->k_lo);
    out->k_hi = calloc(G, sizeof *out->k_hi);
    out->searches = calloc(G, sizeof *out->searches);
    out->table = calloc(G, sizeof *out->table);
    out->answers = calloc(G, sizeof *out->answers);
    out->pfs_bw_Bps = calloc(G, sizeof *out->pfs_bw_Bps);
    out->bb_bw_Bps = calloc(G, sizeof *out->bb_bw_Bps);
    out->bytes = calloc(G, sizeof *out->bytes);
    out->a = calloc(G, sizeof *out->a);
    out->k_fair = calloc(G, sizeof *out->k_fair);
    out->lower = calloc(G, sizeof *out->lower);
    out->cap = calloc(G, sizeof *out->cap);
    if (!out->k || !out->k_lo || !out->k_hi || !out->searches || !out->table || !out->answers
        || !out->pfs_bw_Bps || !out->bb_bw_Bps || !out->bytes || !out->a || !out->k_fair
        || !out->lower || !out->cap) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto out;
    }
    /* B_g = k B / K must exceed the group's expected load; a group that
     * writes nothing (load 0: every application p = 0 or no bandwidth)
     * needs no share and no capacity (k = 0, size 0, idle 0) */
    for (size_t g = 0; g < G; g++) {
        double k0 = floor(load[g] * K / B) + 1;

        out->k_lo[g] = !(load[g] > 0) ? 0 : k0 < 1 ? 1 : k0 > K ? K + 1 : (int)k0;
        sum_lo += out->k_lo[g];
    }
    out->feasible = sum_lo <= K;
    out->bound = INFINITY;
    /* the shares of the bound: the steps left after the least shares, in
     * proportion to the loads (largest remainders) */
    if (out->feasible) {
        long left = K - sum_lo, given = 0;
        double total = 0;

        for (size_t g = 0; g < G; g++)
            total += load[g];
        for (size_t g = 0; g < G; g++) {
            double x = !(load[g] > 0) ? 0 : (double)left * load[g] / total;

            out->k_fair[g] = out->k_lo[g] + (int)floor(x);
            given += (long)floor(x);
        }
        while (total > 0 && given < left) {   /* the remainder, one step at a time */
            size_t best = 0;
            double rb = -1;

            for (size_t g = 0; g < G; g++) {
                double x = !(load[g] > 0) ? 0 : (double)left * load[g] / total;
                double r = x - (double)(out->k_fair[g] - out->k_lo[g]);

                if (load[g] > 0 && r > rb) {
                    rb = r;
                    best = g;
                }
            }
            out->k_fair[best]++;
            given++;
        }
    }
    for (size_t g = 0; g < G; g++)
        out->cap[g] = INFINITY;
    for (size_t g = 0; g < G; g++) {
        size_t n;

        out->k_hi[g] = out->k_lo[g] == 0 ? 0 : (int)(K - (sum_lo - out->k_lo[g]));
        if (out->k_hi[g] < out->k_lo[g])
            continue;   /* nothing to tabulate: infeasible */
        n = (size_t)(out->k_hi[g] - out->k_lo[g] + 1);
        out->table[g] = malloc(n * sizeof *out->table[g]);
        out->answers[g] = calloc(n, sizeof *out->answers[g]);
        if (out->table[g] == NULL || out->answers[g] == NULL) {
            rc = bb_seterr(err, BB_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t j = 0; j < n; j++)
            out->table[g][j] = out->k_hi[g] == 0 ? 0 : INFINITY;   /* no load: 0 B */
    }
    rc = admit_tables(f, q, out, err);
out:
    bba_front_free(f);
    free(load);
    free(count);
    return rc;
}

/* The question of group g alone, its applications copied into *apps
 * (freed by the caller). */
static int
group_question(const bba_partition_spec *sp, const bba_partition *out, size_t g,
               bba_question *q, bba_app **apps, char *err)
{
    const bba_question *base = sp->base;
    size_t n = 0;

    *q = *base;
    *apps = malloc(base->n * sizeof **apps);
    if (*apps == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    for (size_t i = 0; i < base->n; i++)
        if (sp->group[i] == g)
            (*apps)[n++] = base->apps[i];
    q->apps = *apps;
    q->n = n;
    q->progress = NULL;
    q->model = out->model;
    q->time_unit_given = 1;   /* the warning's size at twice the unit: not asked */
    return BB_OK;
}

/* S_g(k) into the table (rounded) and its answer: BB_OK, BB_EINFEASIBLE
 * or BB_ETOOBIG (above the cap, or memory's bound), or an error. */
static int
tabulate(const bba_partition_spec *sp, bba_partition *out, size_t g, bba_question *q, int k,
         double hint, char *err)
{
    const bba_question *base = sp->base;
    bba_front *f = NULL;
    bba_answer *a = &out->answers[g][out->k_hi[g] - k];
    int rc, K = out->steps;

    q->pf.pfs_bw_Bps = base->pf.pfs_bw_Bps * k / K;
    q->pf.bb_bw_Bps = base->pf.bb_bw_Bps * k / K;
    if (out->resolution > 0)
        q->pf.resolution = out->resolution / K * k;
    rc = bba_front_new(q, &f, err);
    if (rc == BB_OK)
        rc = bba_front_size_within(f, q->target, &q->drain, hint,
                                   isfinite(out->cap[g]) ? out->cap[g] : 0, a, err);
    bba_front_free(f);
    out->searches[g]++;
    if (rc == BB_OK && isfinite(out->cap[g]) && a->S_bytes > out->cap[g])
        rc = BB_ETOOBIG;   /* the cap in whole quanta may round below a size */
    if (rc == BB_OK)
        out->table[g][out->k_hi[g] - k] = bba_partition_round(a->S_bytes,
                                                               sp->granularity_bytes);
    return rc;
}

int
bba_partition_bound(const bba_partition_spec *sp, bba_partition *out, size_t g, char *err)
{
    bba_question q;
    bba_app *apps = NULL;
    int rc;

    if (out->table == NULL || out->table[g] == NULL || out->k_hi[g] == 0)
        return BB_OK;   /* no load: nothing to search */
    if ((rc = group_question(sp, out, g, &q, &apps, err)) != BB_OK)
        return rc;
    rc = tabulate(sp, out, g, &q, out->k_hi[g], 0, err);
    if (rc == BB_EINFEASIBLE || rc == BB_ETOOBIG) {
        out->k_lo[g] = out->k_hi[g] + 1;   /* no share of g meets the target */
        rc = BB_OK;
    } else if (rc == BB_OK && out->k_fair[g] != out->k_hi[g]) {
        rc = tabulate(sp, out, g, &q, out->k_fair[g], out->answers[g][0].S_bytes, err);
        if (rc == BB_EINFEASIBLE || rc == BB_ETOOBIG)
            rc = BB_OK;   /* no bound from these shares */
    }
    free(apps);
    return rc;
}

void
bba_partition_caps(bba_partition *out)
{
    double U = 0, L = 0;

    out->bound = INFINITY;
    if (!out->feasible)
        return;
    for (size_t g = 0; g < out->ngroups; g++) {
        if (out->k_lo[g] > out->k_hi[g])
            return;
        out->lower[g] = out->table[g][0];
        U += out->table[g][out->k_hi[g] - out->k_fair[g]];
        L += out->lower[g];
    }
    if (!isfinite(U))
        return;
    out->bound = U;
    for (size_t g = 0; g < out->ngroups; g++)
        out->cap[g] = U - (L - out->lower[g]);
}

int
bba_partition_group(const bba_partition_spec *sp, bba_partition *out, size_t g, char *err)
{
    bba_question q;
    bba_app *apps = NULL;
    double hint, prev, prev2 = -1;
    int rc = BB_OK;

    if (out->table == NULL || out->table[g] == NULL || out->k_lo[g] > out->k_hi[g]
        || out->k_hi[g] == 0)
        return BB_OK;
    if ((rc = group_question(sp, out, g, &q, &apps, err)) != BB_OK)
        return rc;
    prev = out->answers[g][0].S_bytes;   /* k_hi: bba_partition_bound's */
    for (int k = out->k_hi[g] - 1; k >= out->k_lo[g]; k--) {
        double *t = &out->table[g][out->k_hi[g] - k];

        if (isfinite(*t) && *t <= out->cap[g]) {   /* the bound's share */
            prev2 = prev;
            prev = out->answers[g][out->k_hi[g] - k].S_bytes;
            continue;
        }
        *t = INFINITY;
        /* the guess: the last two sizes extrapolated (sizes grow smoothly
         * as the share shrinks), within a few quanta of the answer */
        hint = prev2 >= 0 && prev > prev2 ? 2 * prev - prev2 : prev;
        rc = tabulate(sp, out, g, &q, k, hint, err);
        if (rc == BB_EINFEASIBLE || rc == BB_ETOOBIG) {
            /* this share and every smaller one: unavailable */
            out->table[g][out->k_hi[g] - k] = INFINITY;
            out->k_lo[g] = k + 1;
            rc = BB_OK;
            break;
        }
        if (rc != BB_OK)
            break;
        prev2 = prev;
        prev = out->answers[g][out->k_hi[g] - k].S_bytes;
    }
    free(apps);
    return rc;
}

int
bba_partition_solve(const bba_partition_spec *sp, bba_partition *out, char *err)
{
    int rc = bba_partition_begin(sp, out, err);

    for (size_t g = 0; rc == BB_OK && g < out->ngroups; g++)
        rc = bba_partition_bound(sp, out, g, err);
    if (rc == BB_OK)
        bba_partition_caps(out);
    for (size_t g = 0; rc == BB_OK && g < out->ngroups; g++)
        rc = bba_partition_group(sp, out, g, err);
    if (rc == BB_OK)
        rc = bba_partition_finish(sp, out, err);
    return rc;
}

int
bba_partition_finish(const bba_partition_spec *sp, bba_partition *out, char *err)
{
    const size_t G = out->ngroups;
    const int K = out->steps;
    double *F = NULL, *Fn = NULL;
    int *choice = NULL, rc = BB_OK, c;

    out->total_bytes = NAN;
    if (!out->feasible)
        return BB_OK;
    F = malloc(((size_t)K + 1) * sizeof *F);
    Fn = malloc(((size_t)K + 1) * sizeof *Fn);
    choice = malloc(G * ((size_t)K + 1) * sizeof *choice);
    if (F == NULL || Fn == NULL || choice == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the partition table");
        goto out;
    }
    /* F(c): the least total of the groups so far with c steps handed out */
    for (c = 0; c <= K; c++)
        F[c] = c == 0 ? 0 : INFINITY;
    for (size_t g = 0; g < G; g++) {
        for (c = 0; c <= K; c++) {
            int *ch = &choice[g * ((size_t)K + 1) + (size_t)c];

            Fn[c] = INFINITY;
            *ch = -1;
            if (out->table[g] == NULL)
                continue;
            for (int k = out->k_lo[g]; k <= out->k_hi[g] && k <= c; k++) {
                double v = F[c - k] + out->table[g][out->k_hi[g] - k];

                if (v < Fn[c]) {   /* ties: the fewest steps, deterministic */
                    Fn[c] = v;
                    *ch = k;
                }
            }
        }
        memcpy(F, Fn, ((size_t)K + 1) * sizeof *F);
    }
    /* every group without load: nothing handed out (F[0] = 0) */
    c = K;
    {
        int loaded = 0;

        for (size_t g = 0; g < G; g++)
            loaded |= out->k_hi[g] > 0;
        if (!loaded)
            c = 0;
    }
    if (!isfinite(F[c])) {
        out->feasible = 0;
        goto out;
    }
    out->total_bytes = F[c];
    for (size_t g = G; g-- > 0;) {
        int k = choice[g * ((size_t)K + 1) + (size_t)c];

        out->k[g] = k;
        out->a[g] = out->answers[g][out->k_hi[g] - k];
        out->bytes[g] = out->table[g][out->k_hi[g] - k];
        out->pfs_bw_Bps[g] = sp->base->pf.pfs_bw_Bps * k / K;
        out->bb_bw_Bps[g] = sp->base->pf.bb_bw_Bps * k / K;
        c -= k;
    }
out:
    free(F);
    free(Fn);
    free(choice);
    return rc;
}
