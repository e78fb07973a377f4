/* b_kronecker.c: measures real Graph500 Kronecker graphs (initiator
 * A = 0.57, B = C = 0.19, vertex labels permuted) against the Graph500
 * model: the root degree law (eqs. 18-19 versus bbsize's Kronecker law)
 * and the explored edges per BFS level (eq. 4 with FOGSim's C and with
 * eq. 7 as printed).  Usage: b_kronecker [scale [edgefactor [roots]]].
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "workload/g500.h"

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
    int s = argc > 1 ? atoi(argv[1]) : 18, f = argc > 2 ? atoi(argv[2]) : 16;
    int nroots = argc > 3 ? atoi(argv[3]) : 64;
    uint64_t nv = (uint64_t)1 << s, ne = (uint64_t)f * nv;
    gsl_rng *r = bbs_rng_stream_new(NULL, 2026, 0, 0);
    uint32_t *src = malloc(ne * sizeof *src), *dst = malloc(ne * sizeof *dst);
    uint32_t *perm = malloc(nv * sizeof *perm), *adj, *off, *level, *queue;
    double sumld = 0, sumld2 = 0;
    long nd = 0;
    double ratio_fog[16][256], ratio_ccpe[16][256];
    int nr[16] = { 0 };
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
    printf("# scale %d, edgefactor %d: %llu vertices, %llu edges, %d roots of degree >= 1\n", s,
           f, (unsigned long long)nv, (unsigned long long)ne, nroots);
    printf("root  degree  level  measured_edges  fogsim_mean  ccpe_mean  (means truncated at 2E)\n");
    for (int k = 0; k < nroots;) {
        uint32_t root = (uint32_t)gsl_rng_uniform_int(r, nv), head = 0, tail = 0;
        double d = off[root + 1] - off[root];
        double edges[64] = { 0 };
        int maxl = 0;

        if (d < 1)
            continue;
        k++;
        sumld += log(d);
        sumld2 += log(d) * log(d);
        nd++;
        memset(level, 0xff, nv * sizeof *level);
        level[root] = 0;
        queue[tail++] = root;
        while (head < tail) {
            uint32_t v = queue[head++];
            edges[level[v]] += off[v + 1] - off[v];
            if ((int)level[v] > maxl)
                maxl = (int)level[v];
            for (uint32_t a = off[v]; a < off[v + 1]; a++)
                if (level[adj[a]] == UINT32_MAX) {
                    level[adj[a]] = level[v] + 1;
                    queue[tail++] = adj[a];
                }
        }
        /* the model's level l >= 1 explores the edges of the vertices
         * discovered at level l (level 0 = the root's d_r edges) */
        double remf = 2.0 * ne - d, remc = remf;
        for (int l = 1; l <= maxl && l < 16; l++) {
            double fm, cm;
            /* model means truncated at what remains of 2E, as in the model */
            p.eqset = BBS_G500_EQ_FOGSIM;
            fm = fmin(bbs_g500_level_mean(&p, l, d), fmax(remf, 0));
            remf -= fm;
            p.eqset = BBS_G500_EQ_CCPE;
            cm = fmin(bbs_g500_level_mean(&p, l, d), fmax(remc, 0));
            remc -= cm;
            if (k <= 8)
                printf("%4d  %6.0f  %5d  %14.0f  %11.4g  %9.4g\n", k, d, l, edges[l], fm, cm);
            if (edges[l] > 0.05 * 2 * ne && nr[l] < 256) { /* dominant levels */
                ratio_fog[l][nr[l]] = fm / edges[l];
                ratio_ccpe[l][nr[l]++] = cm / edges[l];
            }
        }
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
    printf("# dominant levels (> 5%% of 2E): median model/measured mean edges\n");
    for (int l = 1; l < 16; l++)
        if (nr[l]) {
            qsort(ratio_fog[l], (size_t)nr[l], sizeof(double), cmp_d);
            qsort(ratio_ccpe[l], (size_t)nr[l], sizeof(double), cmp_d);
            printf("#   level %d (%d roots): fogsim %.3g, ccpe (eq. 7) %.3g\n", l, nr[l],
                   ratio_fog[l][nr[l] / 2], ratio_ccpe[l][nr[l] / 2]);
        }
    free(adj);
    free(off);
    free(level);
    free(queue);
    free(perm);
    gsl_rng_free(r);
    return 0;
}
