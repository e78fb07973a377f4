/* b_kronecker.c: measures real Graph500 Kronecker graphs (initiator
 * A = 0.57, B = C = 0.19, vertex labels permuted) against the Graph500
 * model: the root degree law (eqs. 18-19 versus bbsize's Kronecker law)
 * and the mean explored edges per BFS level and root-degree bucket (1,
 * 2-3, 4-15, 16-63, 64-255, 256+), against FOGSim's equations (truncated
 * at what remains of 2E) and the Kronecker profile (g500.h), as the ratio
 * model / measured of the means over the bucket's roots (each model
 * evaluated at its root's degree).  Roots: uniform among vertices of
 * degree >= 1 (as Graph500), then extra ones for buckets with fewer than
 * 8.  Usage: b_kronecker [scale [edgefactor [roots [dump]]]]; scale 22
 * takes about 1.1 GB.  With dump, one line per root: R,s,f,degree, then
 * the measured edges of levels 0 to 11.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "workload/g500.h"

enum { NLEV = 12, NBUCK = 6, NEXTRA = 8 };

/* Root-degree buckets: 1, 2-3, 4-15, 16-63, 64-255, 256 and more. */
static const char *const bucket_name[NBUCK] = { "1", "2-3", "4-15", "16-63", "64-255", "256+" };

static int
bucket_of(double d)
{
    return d < 2 ? 0 : d < 4 ? 1 : d < 16 ? 2 : d < 64 ? 3 : d < 256 ? 4 : 5;
}

int
main(int argc, char **argv)
{
    int s = argc > 1 ? atoi(argv[1]) : 18, f = argc > 2 ? atoi(argv[2]) : 16;
    int nroots = argc > 3 ? atoi(argv[3]) : 48, dump = argc > 4 && !strcmp(argv[4], "dump");
    uint64_t nv = (uint64_t)1 << s, ne = (uint64_t)f * nv;
    gsl_rng *r = bbs_rng_stream_new(NULL, 2026, 0, 0);
    uint32_t *src = malloc(ne * sizeof *src), *dst = malloc(ne * sizeof *dst);
    uint32_t *perm = malloc(nv * sizeof *perm), *adj, *off, *level, *queue;
    double sumld = 0, sumld2 = 0;
    long nd = 0;
    static double meas[NBUCK][NLEV], fog[NBUCK][NLEV], kro[NBUCK][NLEV];
    static int cnt[NBUCK][NLEV];
    int bk_lo_short = -1;
    bbs_g500_params p;

    if (!src || !dst || !perm || !r)
        return 70;
    /* Kronecker edges (Graph500 reference generator's initiator) */
    for (uint64_t e = 0; e < ne; e++) {
        uint64_t i = 0, j = 0;
        for (int b = 0; b < s; b++) {
            double u = gsl_rng_uniform(r);
            int ii = u >= 0.57 + 0.19, jj = (u >= 0.57 && u < 0.76) || u >= 0.95;
            i = (i << 1) | (uint64_t)ii;
            j = (j << 1) | (uint64_t)jj;
        }
        src[e] = (uint32_t)i;
        dst[e] = (uint32_t)j;
    }
    for (uint64_t v = 0; v < nv; v++)
        perm[v] = (uint32_t)v;
    for (uint64_t v = nv - 1; v > 0; v--) {
        uint64_t k = gsl_rng_uniform_int(r, v + 1);
        uint32_t t = perm[v];
        perm[v] = perm[k];
        perm[k] = t;
    }
    off = calloc(nv + 1, sizeof *off);
    if (!off)
        return 70;
    for (uint64_t e = 0; e < ne; e++) {
        src[e] = perm[src[e]];
        dst[e] = perm[dst[e]];
        if (src[e] != dst[e]) {
            off[src[e] + 1]++;
            off[dst[e] + 1]++;
        }
    }
    for (uint64_t v = 0; v < nv; v++)
        off[v + 1] += off[v];
    adj = malloc((size_t)off[nv] * sizeof *adj);
    level = malloc(nv * sizeof *level);
    queue = malloc(nv * sizeof *queue);
    if (!adj || !level || !queue)
        return 70;
    {
        uint32_t *fill = malloc(nv * sizeof *fill);
        if (!fill)
            return 70;
        memcpy(fill, off, nv * sizeof *fill);
        for (uint64_t e = 0; e < ne; e++)
            if (src[e] != dst[e]) {
                adj[fill[src[e]]++] = dst[e];
                adj[fill[dst[e]]++] = src[e];
            }
        free(fill);
    }
    free(src);
    free(dst);
    bbs_g500_params_init(&p);
    p.scale = s;
    p.edgefactor = f;
    bbs_g500_params_init(&p);
    p.scale = s;
    p.edgefactor = f;
    printf("# scale %d, edgefactor %d: %llu vertices, %llu edges; %d uniform roots of degree "
           ">= 1, then up to %d more per root-degree bucket\n", s, f, (unsigned long long)nv,
           (unsigned long long)ne, nroots, NEXTRA);
    for (int k = 0, tries = 0; tries < 200000000; tries++) {
        uint32_t root = (uint32_t)gsl_rng_uniform_int(r, nv), head = 0, tail = 0;
        double d = off[root + 1] - off[root];
        double edges[NLEV] = { 0 }, kron[NLEV];
        int bk;

        if (d < 1)
            continue;
        bk = bucket_of(d);
        if (k >= nroots) { /* the extra roots: only for buckets still short */
            int need = 0;
            for (int i = 0; i < NBUCK; i++)
                need |= cnt[i][0] < NEXTRA && i >= bk_lo_short;
            if (!need)
                break;
            if (cnt[bk][0] >= NEXTRA)
                continue;
        }
        k++;
        memset(level, 0xff, nv * sizeof *level);
        level[root] = 0;
        queue[tail++] = root;
        while (head < tail) {
            uint32_t v = queue[head++];
            if (level[v] < NLEV)
                edges[level[v]] += off[v + 1] - off[v];
            for (uint32_t a = off[v]; a < off[v + 1]; a++)
                if (level[adj[a]] == UINT32_MAX) {
                    level[adj[a]] = level[v] + 1;
                    queue[tail++] = adj[a];
                }
        }
        /* the model's level l >= 1 explores the edges of the vertices
         * discovered at level l (level 0 = the root's d_r edges); FOGSim's
         * means truncated at what remains of 2E, as in the model */
        if (dump) {
            printf("R,%d,%d,%.0f", s, f, d);
            for (int l = 0; l < NLEV; l++)
                printf(",%.0f", edges[l]);
            printf("\n");
        }
        bbs_g500_kron_profile(s, f, d, kron, NLEV);
        double remf = 2.0 * ne - d;
        for (int l = 0; l < NLEV; l++) {
            double fm = d;
            if (l > 0) {
                p.eqset = BBS_G500_EQ_FOGSIM;
                fm = fmin(bbs_g500_level_mean(&p, l, d), fmax(remf, 0));
                remf -= fm;
            }
            cnt[bk][l]++;
            meas[bk][l] += edges[l];
            fog[bk][l] += fm;
            kro[bk][l] += kron[l];
        }
        if (k == nroots)
            for (int i = 0; i < NBUCK; i++)
                if (cnt[i][0] < NEXTRA)
                    bk_lo_short = bk_lo_short < 0 ? i : bk_lo_short;
        if (k == nroots && bk_lo_short < 0)
            break;
    }
    printf("scale,edgefactor,bucket,level,roots,measured_mean,share_2E,fogsim_ratio,kron_ratio\n");
    for (int i = 0; i < NBUCK; i++)
        for (int l = 0; l < NLEV; l++) {
            if (!cnt[i][l] || meas[i][l] <= 0)
                continue;
            double m = meas[i][l] / cnt[i][l];
            printf("%d,%d,%s,%d,%d,%.6g,%.4f,%.3f,%.3f\n", s, f, bucket_name[i], l, cnt[i][l], m,
                   m / (2.0 * ne), fog[i][l] / meas[i][l], kro[i][l] / meas[i][l]);
        }
    /* the root-degree law from many more roots (no BFS needed) */
    sumld = sumld2 = 0;
    nd = 0;
    while (nd < 200000) {
        uint32_t v = (uint32_t)gsl_rng_uniform_int(r, nv);
        double d = off[v + 1] - off[v];
        if (d < 1)
            continue;
        sumld += log(d);
        sumld2 += log(d) * log(d);
        nd++;
    }
    {
        double m = sumld / nd, sd = sqrt(sumld2 / nd - m * m), lm[2] = { 0, 0 }, ls[2] = { 0, 0 };
        for (int law = 0; law < 2; law++) {
            p.rootlaw = law;
            for (int k = 0; k < 200000; k++) {
                double x = log((double)bbs_g500_draw_root_degree(&p, r));
                lm[law] += x / 200000;
                ls[law] += x * x / 200000;
            }
        }
        printf("# ln(root degree), roots of degree >= 1: measured mean %.3f sd %.3f; eqs. 18-19: "
               "mean %.3f sd %.3f; bbsize kronecker law: mean %.3f sd %.3f\n", m, sd, lm[0],
               sqrt(ls[0] - lm[0] * lm[0]), lm[1], sqrt(ls[1] - lm[1] * lm[1]));
    }
    free(adj);
    free(off);
    free(level);
    free(queue);
    free(perm);
    gsl_rng_free(r);
    return 0;
}
