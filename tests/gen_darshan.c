/* gen_darshan.c: synthetic Darshan text logs from a known ON/OFF process,
 * for the tests and the bench of `bbsize fit darshan`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One application: I/O phases [s_k, s_k + L_k) over a run of T seconds,
 * either periodic (s_k = offset + k P + a uniform jitter in [-J, J],
 * L_k = L) or Markov (ON and OFF times exponential, of means L and M).
 * In a phase each of R ranks makes K transfers that tile it, separated by
 * gaps of G seconds (the last one ends with the phase), each to one of F
 * files of its own (the file turns with the transfer), every fifth a
 * read (the gap shrinks to half a transfer in a phase too short for it);
 * the phase moves bw x L_k bytes, split evenly.  Written as:
 *   dxt      darshan-dxt-parser text (optionally with Lustre OST columns);
 *   heatmap  darshan-parser text: POSIX counters per file and rank, and a
 *            HEATMAP record per rank (Darshan 3.4's: the bytes of a
 *            transfer spread over its bins in proportion to time, at most
 *            200 bins of 0.1 s x 2^k);
 *   parser   the counters alone.
 * --truth FILE writes what the process was, computed here from the
 * phases (not by bbsize's code): phases, p = sum L_k / T, bw = bytes /
 * sum L_k, burst = mean L_k, the slowest rank's transfer time, period.
 * --many N DIR writes N logs of mixed formats and applications (for the
 * bench).  --start EPOCH sets the job's start time (default: from the
 * seed), for logs of jobs that overlap.  Every draw comes from --seed: the simulator's stream (seed,
 * 0, 0) of sim/rng.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "rng.h"

typedef struct {
    const char *format, *exe, *jobid, *truth;
    uint64_t seed;
    int ranks, files, ops, lustre, markov;
    double run, period, jitter, burst, off, bw, gap;
    double start;   /* the job's start time (epoch s); < 0: from the seed */
} spec;

typedef struct {
    double s, e, bytes;
    int rank, file, read;
} op;

static gsl_rng *rng;   /* the simulator's stream (sim/rng.h) of the seed */

static double
unif(void)
{
    return gsl_rng_uniform(rng);
}

static double
expo(double mean)
{
    return -mean * log1p(-unif());
}

static int
cmp_op(const void *a, const void *b)
{
    const op *x = a, *y = b;

    if (x->file != y->file)
        return x->file - y->file;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    if (x->read != y->read)
        return x->read - y->read;   /* writes first */
    return (x->s > y->s) - (x->s < y->s);
}

/* The phases of the process and its transfers; returns the count of
 * transfers in *nops and the phases' total length and count. */
static op *
make_ops(const spec *sp, size_t *nops, double *on_total, long *nphases)
{
    size_t cap = 1024, n = 0;
    op *v = malloc(cap * sizeof *v);
    double t = sp->markov ? expo(sp->off) : sp->period / 2;
    long k = 0, global = 0;

    *on_total = 0;
    for (;; k++) {
        double s, L;

        if (sp->markov)
            s = t;
        else
            s = sp->period / 2 + (double)k * sp->period + sp->jitter * (2 * unif() - 1);
        L = sp->markov ? expo(sp->burst) : sp->burst;
        if (s + L > sp->run - 1)
            break;
        *on_total += L;
        for (int r = 0; r < sp->ranks; r++) {
            double d = L / sp->ops, per = floor(sp->bw * L / (sp->ranks * sp->ops));
            double g = sp->gap < d / 2 ? sp->gap : d / 2;   /* a short Markov phase */

            for (int j = 0; j < sp->ops; j++, global++) {
                if (n == cap)
                    v = realloc(v, (cap *= 2) * sizeof *v);
                v[n].s = s + j * d;
                v[n].e = j + 1 < sp->ops ? s + (j + 1) * d - g : s + L;
                v[n].bytes = per;
                v[n].rank = r;
                v[n].file = (int)((j + k) % sp->files);
                v[n].read = global % 5 == 4;
                n++;
            }
        }
        if (sp->markov)
            t = s + L + expo(sp->off);
    }
    *nops = n;
    *nphases = k;
    return v;
}

static void
header(FILE *fp, const spec *sp)
{
    double t0 = sp->start >= 0 ? sp->start : 1.6e9 + (double)(sp->seed % 100000) * 10;

    fprintf(fp, "# darshan log version: 3.41\n# compression method: ZLIB\n"
                "# exe: /apps/bin/%s -i input.deck\n# uid: 4242\n# jobid: %s\n"
                "# start_time: %.0f\n# end_time: %.0f\n# nprocs: %d\n# run time: %.0f\n",
            sp->exe, sp->jobid, t0, t0 + sp->run - 1, sp->ranks, sp->run);
}

static void
write_dxt(FILE *fp, const spec *sp, op *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_op);
    header(fp, sp);
    fputs("\n# ***************************************************\n# DXT_POSIX module data\n"
          "# ***************************************************\n", fp);
    for (size_t i = 0; i < n;) {
        size_t j = i, w = 0, r = 0;

        while (j < n && v[j].file == v[i].file && v[j].rank == v[i].rank) {
            w += !v[j].read;
            r += v[j].read;
            j++;
        }
        fprintf(fp, "\n# DXT, file_id: %d, file_name: /scratch/%s/out.%d.%d\n", 1000 + v[i].file
                * 100 + v[i].rank, sp->exe, v[i].file, v[i].rank);
        fprintf(fp, "# DXT, rank: %d, hostname: nid%05d\n", v[i].rank, v[i].rank / 4);
        fprintf(fp, "# DXT, write_count: %zu, read_count: %zu\n", w, r);
        fprintf(fp, "# DXT, mnt_pt: /scratch, fs_type: lustre\n");
        if (sp->lustre)
            fprintf(fp, "# DXT, Lustre stripe_size: 1048576, Lustre stripe_count: 2\n"
                        "# DXT, Lustre OST obdidx: 7 8\n");
        fprintf(fp, "# Module    Rank  Wt/Rd  Segment          Offset       Length    Start(s)"
                    "      End(s)%s\n", sp->lustre ? "  [OST]" : "");
        for (size_t k = i, seg = 0; k < j; k++, seg++) {
            if (k > i && v[k].read != v[k - 1].read)
                seg = 0;
            fprintf(fp, "%8s%8d%7s%9zu%16.0f%16.0f%12.4f%12.4f%s\n", "X_POSIX", v[k].rank,
                    v[k].read ? "read" : "write", seg, seg * v[k].bytes, v[k].bytes, v[k].s,
                    v[k].e, sp->lustre ? "  [  7]  [  8]" : "");
        }
        i = j;
    }
}

static void
counter(FILE *fp, int rank, int file, const char *name, double v, const spec *sp)
{
    fprintf(fp, "POSIX\t%d\t%d\tPOSIX_%s\t%.6f\t/scratch/%s/out.%d.%d\t/scratch\tlustre\n", rank,
            1000 + file * 100 + rank, name, v, sp->exe, file, rank);
}

static void
write_parser(FILE *fp, const spec *sp, const op *v, size_t n, int heat)
{
    header(fp, sp);
    fputs("\n# description of POSIX counters: (see darshan-parser)\n", fp);
    for (int f = 0; f < sp->files; f++)
        for (int r = 0; r < sp->ranks; r++) {
            double br = 0, bw = 0, tr = 0, tw = 0;

            for (size_t i = 0; i < n; i++)
                if (v[i].rank == r && v[i].file == f) {
                    if (v[i].read) {
                        br += v[i].bytes;
                        tr += v[i].e - v[i].s;
                    } else {
                        bw += v[i].bytes;
                        tw += v[i].e - v[i].s;
                    }
                }
            counter(fp, r, f, "BYTES_READ", br, sp);
            counter(fp, r, f, "BYTES_WRITTEN", bw, sp);
            counter(fp, r, f, "F_READ_TIME", tr, sp);
            counter(fp, r, f, "F_WRITE_TIME", tw, sp);
            counter(fp, r, f, "F_META_TIME", 0, sp);
            counter(fp, r, f, "F_SLOWEST_RANK_TIME", 0, sp);
        }
    if (!heat)
        return;
    {
        double w = 0.1;
        int nb;
        double *rb, *wb;

        while (sp->run > 200 * w)
            w *= 2;
        nb = (int)ceil(sp->run / w);
        rb = calloc((size_t)nb, sizeof *rb);
        wb = calloc((size_t)nb, sizeof *wb);
        fputs("\n# description of heatmap counters: (see darshan-parser)\n", fp);
        for (int r = 0; r < sp->ranks; r++) {
            memset(rb, 0, (size_t)nb * sizeof *rb);
            memset(wb, 0, (size_t)nb * sizeof *wb);
            for (size_t i = 0; i < n; i++) {
                double len = v[i].e - v[i].s;

                if (v[i].rank != r)
                    continue;
                for (int b = (int)(v[i].s / w); b < nb && b * w < v[i].e; b++) {
                    double lo = fmax(v[i].s, b * w), hi = fmin(v[i].e, (b + 1) * w);
                    double share = len > 0 ? (hi - lo) / len : 1;

                    (v[i].read ? rb : wb)[b] += v[i].bytes * share;
                }
            }
            fprintf(fp, "HEATMAP\t%d\t16592106915301738621\tHEATMAP_F_BIN_WIDTH_SECONDS\t%.6f\t"
                        "heatmap:POSIX\tUNKNOWN\tUNKNOWN\n", r, w);
            for (int b = 0; b < nb; b++)
                fprintf(fp, "HEATMAP\t%d\t16592106915301738621\tHEATMAP_READ_BIN_%d\t%.0f\t"
                            "heatmap:POSIX\tUNKNOWN\tUNKNOWN\n", r, b, rb[b]);
            for (int b = 0; b < nb; b++)
                fprintf(fp, "HEATMAP\t%d\t16592106915301738621\tHEATMAP_WRITE_BIN_%d\t%.0f\t"
                            "heatmap:POSIX\tUNKNOWN\tUNKNOWN\n", r, b, wb[b]);
        }
        free(rb);
        free(wb);
    }
}

static int
generate(const spec *sp, const char *out)
{
    size_t n;
    double on, bytes = 0, slowest = 0;
    long phases;
    op *v;
    FILE *fp = strcmp(out, "-") ? fopen(out, "w") : stdout;

    if (fp == NULL) {
        perror(out);
        return 1;
    }
    if ((rng = bbs_rng_stream_new(NULL, sp->seed, 0, 0)) == NULL) {
        fprintf(stderr, "gen_darshan: out of memory\n");
        return 1;
    }
    v = make_ops(sp, &n, &on, &phases);
    gsl_rng_free(rng);
    for (size_t i = 0; i < n; i++)
        bytes += v[i].bytes;
    for (int r = 0; r < sp->ranks; r++) {
        double t = 0;

        for (size_t i = 0; i < n; i++)
            if (v[i].rank == r)
                t += v[i].e - v[i].s;
        if (t > slowest)
            slowest = t;
    }
    if (strcmp(sp->format, "dxt") == 0)
        write_dxt(fp, sp, v, n);
    else
        write_parser(fp, sp, v, n, strcmp(sp->format, "heatmap") == 0);
    if (fp != stdout && fclose(fp) != 0) {
        perror(out);
        return 1;
    }
    if (sp->truth) {
        FILE *t = fopen(sp->truth, "w");

        if (t == NULL) {
            perror(sp->truth);
            return 1;
        }
        fprintf(t, "phases %ld\np %.9g\nbw %.9g\nburst %.9g\nslowest %.9g\nperiod %.9g\n",
                phases, on / sp->run, on > 0 ? bytes / on : 0, phases ? on / phases : 0,
                slowest, sp->markov ? NAN : sp->period);
        fclose(t);
    }
    free(v);
    return 0;
}

/* --many N DIR: N logs cycling through the formats and 8 applications of
 * 2 process counts each, every one a different seed. */
static int
many(spec base, long count, const char *dir)
{
    static const char *const exes[] = { "lammps", "nek5000", "hacc", "milc",
                                        "namd2", "vasp", "cesm", "wrf" };
    static const char *const formats[] = { "dxt", "heatmap", "parser" };

    for (long i = 0; i < count; i++) {
        spec sp = base;
        char path[4096], job[32];

        sp.seed = base.seed + (uint64_t)i;
        sp.exe = exes[i % 8];
        sp.format = formats[(i / 8) % 3];
        sp.ranks = (int)(4 << ((i / 24) % 2));
        snprintf(job, sizeof job, "%ld", 100000 + i);
        sp.jobid = job;
        sp.period = 60 + 30 * (double)(i % 8);
        sp.burst = 5 + (double)(i % 5);
        snprintf(path, sizeof path, "%s/log-%06ld.txt", dir, i);
        if (generate(&sp, path))
            return 1;
    }
    return 0;
}

int
main(int argc, char **argv)
{
    spec sp = { "dxt", "app", "4242", NULL, 1, 4, 3, 4, 0, 0,
                3600, 600, 0, 60, 540, 1e9, 2e-3, -1 };
    const char *out = "-", *many_dir = NULL;
    long many_n = 0;

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

#define OPT(name) (strcmp(o, name) == 0 && v && ++i)
        if (OPT("--format"))
            sp.format = v;
        else if (OPT("--exe"))
            sp.exe = v;
        else if (OPT("--jobid"))
            sp.jobid = v;
        else if (OPT("--truth"))
            sp.truth = v;
        else if (OPT("--seed"))
            sp.seed = strtoull(v, NULL, 10);
        else if (OPT("--ranks"))
            sp.ranks = atoi(v);
        else if (OPT("--files"))
            sp.files = atoi(v);
        else if (OPT("--ops"))
            sp.ops = atoi(v);
        else if (OPT("--run"))
            sp.run = atof(v);
        else if (OPT("--period"))
            sp.period = atof(v);
        else if (OPT("--jitter"))
            sp.jitter = atof(v);
        else if (OPT("--burst"))
            sp.burst = atof(v);
        else if (OPT("--off"))
            sp.off = atof(v);
        else if (OPT("--bw"))
            sp.bw = atof(v);
        else if (OPT("--gap"))
            sp.gap = atof(v);
        else if (OPT("--start"))
            sp.start = atof(v);
        else if (OPT("-o"))
            out = v;
        else if (strcmp(o, "--markov") == 0)
            sp.markov = 1;
        else if (strcmp(o, "--lustre") == 0)
            sp.lustre = 1;
        else if (strcmp(o, "--many") == 0 && i + 2 < argc) {
            many_n = atol(argv[++i]);
            many_dir = argv[++i];
        } else {
            fprintf(stderr, "gen_darshan: bad argument '%s' (see tests/gen_darshan.c)\n", o);
            return 64;
        }
#undef OPT
    }
    if (sp.ranks < 1 || sp.files < 1 || sp.ops < 1 || !(sp.run > 0) || !(sp.burst > 0)
        || (sp.markov ? !(sp.off > 0) : !(sp.period > sp.burst + 2 * sp.jitter))
        || !(sp.gap >= 0 && sp.gap < sp.burst / sp.ops)) {
        fprintf(stderr, "gen_darshan: inconsistent process (ranks, files, ops >= 1; burst > 0; "
                        "period > burst + 2 jitter or --markov with --off > 0; gap < burst/ops)\n");
        return 64;
    }
    if (many_dir)
        return many(sp, many_n, many_dir);
    return generate(&sp, out);
}
