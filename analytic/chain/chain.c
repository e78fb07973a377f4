/* chain.c: greedy and lazy burst-buffer chains as sparse rows (chain.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bigalloc.h"
#include "chain.h"

void
bba_chain_estimate(long S, long B, long M, long *n_states, long *nnz_max,
                   double *bytes)
{
    long over = M > B ? M - B : 0;
    double n = (double)S + (double)over + 1.0;
    /* a normal row: M + 1 loads, plus "stay" for a lazy row */
    double nnz = ((double)S + 1.0) * ((double)M + 2.0) + (double)over;

    if (n_states)
        *n_states = S + over + 1;
    if (nnz_max)
        *nnz_max = nnz > (double)LONG_MAX ? LONG_MAX : (long)nnz;
    if (bytes)
        *bytes = (n + 1.0) * sizeof(int) + nnz * (sizeof(int) + sizeof(double))
                 + ((double)M + 1.0) * sizeof(double);
}

void
bba_chain_free(bba_chain *c)
{
    if (c == NULL)
        return;
    free(c->rowptr);
    free(c->col);
    free(c->val);
    free(c);
}

/* Accumulate the transitions out of normal state j into acc[l - base],
 * base = max(j - B, 0), for l = base .. max(j + M - B, base) (or j for a
 * lazy row when M < B).  acc has max(M, B) + 1 slots. */
static void
normal_row(const double *dist, long M, long B, long j, const bb_drain *pol,
           double *acc, long *base_out, long *width_out)
{
    long lo = j - B; /* destination of load 0 */
    long base = lo > 0 ? lo : 0;
    long hi = j + M - B > base ? j + M - B : base; /* highest destination */
    int lazy_here = pol->kind == BB_DRAIN_LAZY && j < pol->threshold;
    long width;

    if (lazy_here && j > hi)
        hi = j; /* staying put, when M < B */
    width = hi - base + 1;

    memset(acc, 0, (size_t)width * sizeof *acc);
    for (long k = 0; k <= M; k++) {
        double pk = dist[k];
        long l;

        if (pk == 0.0)
            continue;
        l = lo + k;
        if (l < 0)
            l = 0;
        if (lazy_here && k <= B) {
            /* Algorithm 4, lines 3-8: below the threshold the buffer drains
             * only with probability EPS; otherwise its load stays at j. */
            acc[j - base] += (1.0 - pol->eps) * pk;
            acc[l - base] += pol->eps * pk;
        } else {
            acc[l - base] += pk;
        }
    }
    *base_out = base;
    *width_out = width;
}

int
bba_chain_build(const double *dist, long M, long B, long S,
                const bb_drain *pol, double mem_limit_bytes,
                bba_chain **out, char *err)
{
    bba_chain *c = NULL;
    double *acc = NULL;
    long n_states, nnz_max, pos = 0;
    double bytes;
    int rc = BB_OK;

    assert(BB_DRAIN_IN(pol, BB_DRAIN_QUANTA));
    *out = NULL;
    if (S < 0)
        return bb_seterr(err, BB_EINVAL, "buffer size %ld quanta is negative", S);
    if (B <= 0)
        return bb_seterr(err, BB_EINVAL, "PFS bandwidth %ld quanta is not positive", B);
    if (M < 0)
        return bb_seterr(err, BB_EINVAL, "total bandwidth %ld quanta is negative", M);
    if (pol->kind == BB_DRAIN_LAZY && (pol->threshold < 0 || pol->threshold > S))
        return bb_seterr(err, BB_EINVAL,
                         "threshold %ld quanta is outside [0, %ld]", (long)pol->threshold, S);
    if (pol->kind == BB_DRAIN_LAZY && !(pol->eps >= 0.0 && pol->eps <= 1.0))
        return bb_seterr(err, BB_EINVAL, "EPS %g is outside [0, 1]", pol->eps);

    bba_chain_estimate(S, B, M, &n_states, &nnz_max, &bytes);
    if ((double)n_states >= (double)INT_MAX || (double)nnz_max >= (double)INT_MAX
        || (mem_limit_bytes > 0 && bytes > mem_limit_bytes))
        return bb_seterr(err, BB_ETOOBIG,
                         "the chain would have %ld states and up to %.3g transitions, "
                         "needing %.3g GB (limit %.3g GB)",
                         n_states, (double)nnz_max, bytes / 1e9,
                         mem_limit_bytes > 0 ? mem_limit_bytes / 1e9 : 0.0);

    c = calloc(1, sizeof *c);
    acc = malloc((size_t)((M > B ? M : B) + 1) * sizeof *acc);
    if (c == NULL || acc == NULL) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory for the chain");
        goto out;
    }
    c->S = S;
    c->B = B;
    c->M = M;
    c->n_states = n_states;
    c->pol = *pol;
    if (c->pol.kind != BB_DRAIN_LAZY)
        c->pol.threshold = 0;
    c->rowptr = malloc((size_t)(n_states + 1) * sizeof *c->rowptr);
    c->col = bba_big_alloc((size_t)(nnz_max > 0 ? nnz_max : 1) * sizeof *c->col, 0);
    c->val = bba_big_alloc((size_t)(nnz_max > 0 ? nnz_max : 1) * sizeof *c->val, 0);
    if (c->rowptr == NULL || c->col == NULL || c->val == NULL) {
        rc = bb_seterr(err, BB_ENOMEM,
                       "out of memory for a chain of %ld states (%.3g GB)",
                       n_states, bytes / 1e9);
        goto out;
    }

    for (long j = 0; j < n_states; j++) {
        c->rowptr[j] = (int)pos;
        if (j <= S) {
            long base, width;

            normal_row(dist, M, B, j, &c->pol, acc, &base, &width);
            for (long d = 0; d < width; d++) {
                if (acc[d] == 0.0)
                    continue;
                c->col[pos] = (int)(base + d);
                c->val[pos] = acc[d];
                pos++;
            }
        } else {
            /* Overflow: every application stalls; the buffer drains B. */
            c->col[pos] = (int)(j - B > 0 ? j - B : 0);
            c->val[pos] = 1.0;
            pos++;
        }
    }
    c->rowptr[n_states] = (int)pos;
    c->nnz = pos;
out:
    free(acc);
    if (rc != BB_OK)
        bba_chain_free(c);
    else
        *out = c;
    return rc;
}

double
bba_chain_row_sum(const bba_chain *c, long j)
{
    double s = 0;

    for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
        s += c->val[q];
    return s;
}

int
bba_chain_check_reachable(const bba_chain *c, char *err)
{
    long n = c->n_states;
    int *cnt = NULL, *src = NULL, *queue = NULL;
    char *seen = NULL;
    long head = 0, tail = 0, j;
    int rc = BB_OK;

    /* Fast path: if every state has a transition to a lower one (row
     * columns are sorted, so look at the first), every state reaches 0 by
     * induction.  This is the case whenever all p_i < 1 (Theorems 2, 4). */
    for (j = 1; j < n; j++)
        if (c->rowptr[j] == c->rowptr[j + 1] || c->col[c->rowptr[j]] >= j)
            break;
    if (j == n)
        return BB_OK;

    cnt = calloc((size_t)n + 1, sizeof *cnt);
    src = malloc((size_t)(c->nnz > 0 ? c->nnz : 1) * sizeof *src);
    queue = malloc((size_t)n * sizeof *queue);
    seen = calloc((size_t)n, 1);
    if (!cnt || !src || !queue || !seen) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory checking the chain");
        goto out;
    }
    /* Reverse adjacency (who can jump into each state), counting sort. */
    for (long q = 0; q < c->nnz; q++)
        cnt[c->col[q] + 1]++;
    for (long l = 0; l < n; l++)
        cnt[l + 1] += cnt[l];
    for (j = 0; j < n; j++)
        for (int q = c->rowptr[j]; q < c->rowptr[j + 1]; q++)
            src[cnt[c->col[q]]++] = (int)j;
    for (long l = n; l > 0; l--)
        cnt[l] = cnt[l - 1];
    cnt[0] = 0;

    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        int l = queue[head++];

        for (int q = cnt[l]; q < cnt[l + 1]; q++)
            if (!seen[src[q]]) {
                seen[src[q]] = 1;
                queue[tail++] = src[q];
            }
    }
    if (tail < n) {
        j = 0;
        while (seen[j])
            j++;
        if (c->pol.kind == BB_DRAIN_LAZY && c->pol.eps == 0.0 && c->pol.threshold > 0
            && j < c->pol.threshold)
            rc = bb_seterr(err, BB_EDATA,
                           "buffer load %ld (quanta) never drains: EPS = 0 keeps the "
                           "buffer full below the threshold; use EPS > 0", j);
        else
            rc = bb_seterr(err, BB_EDATA,
                           "the buffer can never empty from load %ld quanta: the "
                           "applications with p = 1 alone write at least the PFS "
                           "bandwidth, so the chain has no unique stationary "
                           "distribution", j);
    }
out:
    free(cnt);
    free(src);
    free(queue);
    free(seen);
    return rc;
}
