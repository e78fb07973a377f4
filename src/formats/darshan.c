/* darshan.c: darshan-parser text reader and the p, bw estimate (darshan.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_num.h"
#include "darshan.h"
#include "bb_error.h"
#include "grow.h"
#include "units.h"

static const char *const mod_names[BB_DX_NMOD] = { "POSIX", "MPI-IO", "STDIO" };
static const char *const prefixes[BB_DX_NMOD] = { "POSIX_", "MPIIO_", "STDIO_" };

/* Per-rank times on the rank's own files, one module: (rank, time) pairs
 * in input order, summed per rank at the end (sorted), so that memory
 * follows the number of records, not the largest rank number (a dense
 * array indexed by rank took 128 MB for one record of rank 16 million). */
typedef struct {
    long rank;
    double t;
} rank_time;

typedef struct {
    rank_time *p;
    size_t n, cap;
} rank_times;

static int
rank_add(rank_times *rt, long rank, double v)
{
    if (bbs_grow((void **)&rt->p, sizeof *rt->p, &rt->cap, rt->n + 1))
        return -1;
    rt->p[rt->n].rank = rank;
    rt->p[rt->n].t = v;
    rt->n++;
    return 0;
}

static int
cmp_rank(const void *a, const void *b)
{
    long x = ((const rank_time *)a)->rank, y = ((const rank_time *)b)->rank;

    return (x > y) - (x < y);
}

static void
note_unmonitored(bb_darshan_job *j, const char *counter)
{
    size_t len = strlen(j->unmonitored);

    if (strstr(j->unmonitored, counter))
        return;
    snprintf(j->unmonitored + len, sizeof j->unmonitored - len, "%s%s", len ? ", " : "", counter);
}

void
bb_darshan_hdr_init(bb_darshan_hdr *h)
{
    memset(h, 0, sizeof *h);
    h->run_time_s = -1;
    h->start_epoch = -1;
    h->start = h->end = -1;
}

enum bb_status
bb_darshan_hdr_line(bb_darshan_hdr *h, const char *line, const char *path, long lineno,
                    char *err, size_t errlen)
{
    double v;

    if (strncmp(line, "# run time:", 11) == 0) {
        int nrc = bb_num_full(line + 11, &v);
        char val[64];

        if (h->run_line) {
            snprintf(err, errlen, "%s:%ld: field 'run time': given twice (first at line %ld)",
                     path, lineno, h->run_line);
            return BB_EDATA;
        }
        h->run_line = lineno;
        if (nrc != BB_NUM_OK || !(v > 0)) {
            snprintf(val, sizeof val, "%s", line + 11);
            snprintf(err, errlen, "%s:%ld: field 'run time': '%s' %s", path, lineno,
                     bb_trim(val), nrc != BB_NUM_OK ? bb_num_why(nrc)
                     : "is not positive (the job's wall time in seconds)");
            return BB_EDATA;
        }
        h->run_time_s = v;
    } else if (strncmp(line, "# nprocs:", 9) == 0) {
        /* a process count: 0, negative or text is a corrupt header (it
         * read as absent, a class of '?' processes) */
        long n;
        int nrc = bb_num_full_long(line + 9, &n);

        if (nrc != BB_NUM_OK || n < 1 || n > BB_DX_MAX_RANKS) {
            char val[64];

            snprintf(val, sizeof val, "%s", line + 9);
            snprintf(err, errlen, "%s:%ld: field 'nprocs': '%s' %s", path, lineno, bb_trim(val),
                     nrc != BB_NUM_OK ? bb_num_why(nrc)
                     : "is not a process count (a whole number in [1, 16777216])");
            return BB_EDATA;
        }
        h->nprocs = n;
    }
    else if (sscanf(line, "# start_time: %ld", &h->start) == 1)
        h->start_line = lineno;
    else if (sscanf(line, "# end_time: %ld", &h->end) == 1)
        ;
    else if (strncmp(line, "# exe: ", 7) == 0)
        sscanf(line + 7, "%255s", h->exe);
    else if (strncmp(line, "# jobid: ", 9) == 0)
        sscanf(line + 9, "%63s", h->jobid);
    else if (strncmp(line, "# uid: ", 7) == 0)
        sscanf(line + 7, "%31s", h->uid);
    return 0;
}

enum bb_status
bb_darshan_hdr_finish(bb_darshan_hdr *h, const char *path, char *err, size_t errlen)
{
    if (h->start_line)
        h->start_epoch = (double)h->start;
    if (h->run_time_s < 0 && h->start >= 0 && h->end >= h->start)
        h->run_time_s = (double)h->end - (double)h->start + 1;   /* in long, LONG_MAX - 0 + 1
                                                                    overflowed (fz_darshan) */
    if (h->run_time_s < 0 && h->start_line && h->end < h->start) {
        snprintf(err, errlen, "%s:%ld: no '# run time:' line, and end_time %ld is before "
                 "start_time %ld", path, h->start_line, h->end, h->start);
        return BB_EDATA;
    }
    if (!(h->run_time_s > 0)) {
        snprintf(err, errlen, "%s: no '# run time:' header (is this darshan-parser output?)", path);
        return BB_EDATA;
    }
    return 0;
}

/* Heatmap bins of one module and one bin width, summed over records. */
#define HEAT_WIDTHS 4
typedef struct {
    double w;
    double *b;
    size_t n, cap;
    long nz_last;      /* the last bin with bytes, and its line (0: none) */
    long nz_line;
    double max_v;      /* the largest value of one line, its line and counter */
    long max_line;
    char max_ctr[48];
} heat_acc;

typedef struct {
    heat_acc acc[BB_DX_NMOD][HEAT_WIDTHS];
    char rec[64];      /* the record whose width was read last, and its rank */
    long rec_rank;
    int rec_mod;       /* its module, -1 for an API not used */
    double rec_w;      /* its width, 0 before any */
} heat_state;

static void
heat_free(heat_state *hs)
{
    for (int m = 0; m < BB_DX_NMOD; m++)
        for (int k = 0; k < HEAT_WIDTHS; k++)
            free(hs->acc[m][k].b);
}

/* The module of a heatmap record's name ("heatmap:POSIX"), -1 if another. */
static int
heat_module(const char *name)
{
    if (strcmp(name, "heatmap:POSIX") == 0)
        return BB_DX_POSIX;
    if (strcmp(name, "heatmap:MPIIO") == 0 || strcmp(name, "heatmap:MPI-IO") == 0)
        return BB_DX_MPIIO;
    if (strcmp(name, "heatmap:STDIO") == 0)
        return BB_DX_STDIO;
    return -1;
}

/* One HEATMAP record line (f as split by the reader): the width starts a
 * record; a bin adds to its module's sums at the record's width. */
static int
heat_line(heat_state *hs, bb_darshan_job *j, char **f, long rank, double v, const char *path,
          long lineno, char *err, size_t errlen)
{
    const char *ctr = f[3], *name = f[5] ? f[5] : "";
    int m = heat_module(name), k;
    char *endp;
    long bin;
    heat_acc *a;

    if (strcmp(ctr, "HEATMAP_F_BIN_WIDTH_SECONDS") == 0) {
        if (!(v > 0)) {
            snprintf(err, errlen, "%s:%ld: HEATMAP_F_BIN_WIDTH_SECONDS: '%s' is not a positive "
                     "width in seconds", path, lineno, f[4]);
            return BB_EDATA;
        }
        snprintf(hs->rec, sizeof hs->rec, "%s", f[2]);
        hs->rec_rank = rank;
        hs->rec_mod = m;
        hs->rec_w = v;
        return 0;
    }
    if (strncmp(ctr, "HEATMAP_READ_BIN_", 17) == 0)
        ctr += 17;
    else if (strncmp(ctr, "HEATMAP_WRITE_BIN_", 18) == 0)
        ctr += 18;
    else
        return 0;   /* a counter of a later version: not used */
    errno = 0;
    bin = strtol(ctr, &endp, 10);
    if (errno || *endp || endp == ctr || bin < 0 || bin >= BB_DX_MAX_BINS) {
        snprintf(err, errlen, "%s:%ld: counter %s: '%s' is not a bin number (0 to %ld)", path,
                 lineno, f[3], ctr, BB_DX_MAX_BINS - 1);
        return BB_EDATA;
    }
    if (v < 0) {
        snprintf(err, errlen, "%s:%ld: counter %s: %s bytes is negative", path, lineno, f[3], f[4]);
        return BB_EDATA;
    }
    if (hs->rec_w == 0 || strcmp(hs->rec, f[2]) != 0 || hs->rec_rank != rank) {
        snprintf(err, errlen, "%s:%ld: %s of record %s rank %ld comes before its "
                 "HEATMAP_F_BIN_WIDTH_SECONDS (darshan-parser prints the width first)",
                 path, lineno, f[3], f[2], rank);
        return BB_EDATA;
    }
    if (m < 0)
        return 0;
    j->heat_present[m] = 1;
    for (k = 0; k < HEAT_WIDTHS; k++)
        if (hs->acc[m][k].w == hs->rec_w || hs->acc[m][k].w == 0)
            break;
    if (k == HEAT_WIDTHS) {
        snprintf(err, errlen, "%s:%ld: more than %d heatmap bin widths in module %s", path,
                 lineno, HEAT_WIDTHS, name);
        return BB_EDATA;
    }
    a = &hs->acc[m][k];
    a->w = hs->rec_w;
    if ((size_t)bin >= a->n) {
        size_t old = a->cap;

        if (bbs_grow((void **)&a->b, sizeof *a->b, &a->cap, (size_t)bin + 1)) {
            snprintf(err, errlen, "%s: out of memory", path);
            return BB_ENOMEM;
        }
        memset(a->b + old, 0, (a->cap - old) * sizeof *a->b);
        a->n = (size_t)bin + 1;
    }
    a->b[bin] += v;
    if (v > a->max_v) {
        a->max_v = v;
        a->max_line = lineno;
        snprintf(a->max_ctr, sizeof a->max_ctr, "%s", f[3]);
    }
    if (v > 0 && (a->nz_line == 0 || bin > a->nz_last)) {
        a->nz_last = bin;
        a->nz_line = lineno;
    }
    if (!isfinite(a->b[bin])) {
        snprintf(err, errlen, "%s:%ld: heatmap bin %ld of %s sums past the largest double",
                 path, lineno, bin, name);
        return BB_EDATA;
    }
    return 0;
}

/* The heatmap of the modules used, on the coarsest width among them: a
 * bin of width w falls in bin floor(i w / W) of width W (widths nest by
 * powers of 2). */
static int
heat_finish(heat_state *hs, bb_darshan_job *j, const char *path, char *err, size_t errlen)
{
    int mods[2], k;
    double W = 0;
    size_t n = 0;

    j->heat_use_mpiio = !j->heat_present[BB_DX_POSIX] && j->heat_present[BB_DX_MPIIO];
    mods[0] = j->heat_use_mpiio ? BB_DX_MPIIO : BB_DX_POSIX;
    mods[1] = BB_DX_STDIO;
    for (int i = 0; i < 2; i++)
        for (k = 0; k < HEAT_WIDTHS; k++)
            if (hs->acc[mods[i]][k].w > W)
                W = hs->acc[mods[i]][k].w;
    if (W == 0)
        return 0;
    for (int i = 0; i < 2; i++)
        for (k = 0; k < HEAT_WIDTHS; k++) {
            heat_acc *a = &hs->acc[mods[i]][k];
            double r = a->w > 0 ? W / a->w : 0;
            size_t last;

            if (a->w == 0 || a->n == 0)
                continue;
            /* a bin with bytes that starts after the run is not of this
             * run: refused, rather than stretching the run to it */
            if (a->nz_line > 0 && (double)a->nz_last * a->w >= j->hdr.run_time_s) {
                snprintf(err, errlen, "%s:%ld: heatmap bin %ld (width %g s) starts at %.10g s, "
                         "at or past the run time of the header (%.10g s): bytes outside the "
                         "job (a corrupt or edited log?)", path, a->nz_line, a->nz_last, a->w,
                         (double)a->nz_last * a->w, j->hdr.run_time_s);
                return BB_EDATA;
            }
            if (fabs(r - nearbyint(r)) > 1e-6 * r) {
                snprintf(err, errlen, "%s: heatmap bin widths %g s and %g s do not nest (one "
                         "is not a whole multiple of the other)", path, a->w, W);
                return BB_EDATA;
            }
            last = (size_t)((double)(a->n - 1) / nearbyint(r)) + 1;
            if (last > n)
                n = last;
        }
    /* empty bins past the run (darshan keeps a fixed number) do not
     * stretch it either: the heatmap ends with the bin the run ends in */
    if (n > 0 && (double)n * W > j->hdr.run_time_s) {
        double in_run = ceil(j->hdr.run_time_s / W);

        if (in_run < (double)n)
            n = in_run < 1 ? 1 : (size_t)in_run;
    }
    j->heat = calloc(n, sizeof *j->heat);
    if (j->heat == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        return BB_ENOMEM;
    }
    for (int i = 0; i < 2; i++)
        for (k = 0; k < HEAT_WIDTHS; k++) {
            heat_acc *a = &hs->acc[mods[i]][k];
            double r = a->w > 0 ? nearbyint(W / a->w) : 1;

            for (size_t b = 0; b < a->n; b++)
                if ((size_t)((double)b / r) < n)   /* else empty: past the run */
                    j->heat[(size_t)((double)b / r)] += a->b[b];
        }
    for (size_t b = 0; b < n; b++)
        if (!isfinite(j->heat[b])) {
            snprintf(err, errlen, "%s: heatmap bin %zu sums past the largest double", path, b);
            return BB_EDATA;
        }
    j->heat_bins = n;
    j->heat_width_s = W;
    return 0;
}

/* The heatmap spreads over time the bytes of the calls the counters
 * count (the same wrappers, the same calls): its bins cannot hold more
 * bytes than the counters of every module together, which bound the
 * modules it uses (MPI-IO's calls run on POSIX's and count in both).
 * Twice that is a margin no rounding of bins reaches; past it the log
 * is corrupt or edited (a bin of 1e300 bytes beside counters of 300 B
 * gave a phase count from the bad bin, silently).  Counters left
 * unmonitored (-1) or none at all (a heatmap alone) give no bound. */
static int
heat_vs_counters(const heat_state *hs, const bb_darshan_job *j, const char *path, char *err,
                 size_t errlen)
{
    const heat_acc *big = NULL;
    double heat = 0, ctr = 0;

    if (j->records == 0 || j->unmonitored[0] || j->heat_bins == 0)
        return 0;
    for (size_t b = 0; b < j->heat_bins; b++)
        heat += j->heat[b];
    for (int m = 0; m < BB_DX_NMOD; m++)
        ctr += j->bytes_read[m] + j->bytes_written[m];
    if (!(heat > 2 * ctr))
        return 0;
    for (int m = 0; m < BB_DX_NMOD; m++)
        for (int k = 0; k < HEAT_WIDTHS; k++)
            if (hs->acc[m][k].max_line > 0 && (!big || hs->acc[m][k].max_v > big->max_v))
                big = &hs->acc[m][k];
    snprintf(err, errlen, "%s:%ld: field '%s': the heatmap's bins hold %.6g bytes, more than "
             "twice the %.6g bytes its POSIX, MPI-IO and STDIO counters count (the bins spread "
             "the counted calls' bytes over time): a corrupt or edited log", path,
             big ? big->max_line : 0L, big ? big->max_ctr : "HEATMAP", heat, ctr);
    return BB_EDATA;
}

/* The reader proper, on an open stream (a file or the caller's text; NULL
 * for empty text); path names it in messages.  The caller closes fp. */
static int
darshan_parse_fp(FILE *fp, const char *path, bb_darshan_job *j, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0;
    rank_times rt[BB_DX_NMOD];
    double shared_time[BB_DX_NMOD] = { 0 };
    heat_state hs;

    memset(j, 0, sizeof *j);
    memset(rt, 0, sizeof rt);
    memset(&hs, 0, sizeof hs);
    bb_darshan_hdr_init(&j->hdr);
    snprintf(j->source, sizeof j->source, "%s", path);
    while (fp != NULL && (len = getline(&line, &cap, fp)) >= 0) {
        char *f[8] = { NULL }, *p = line, *endp;
        int nf = 0, m, heat;
        long rank;
        double v;
        const char *ctr;

        lineno++;
        if (len == 0 || line[len - 1] != '\n') {
            /* darshan-parser ends every line: a last line without one is a
             * file cut short (a copy interrupted, a full disk). */
            snprintf(err, errlen, "%s:%ld: truncated: the last line has no end (is the file "
                     "complete?)", path, lineno);
            rc = BB_EDATA;
            goto out;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (line[0] == '#') {
            if ((rc = bb_darshan_hdr_line(&j->hdr, line, path, lineno, err, errlen)) != 0)
                goto out;
            continue;
        }
        while (nf < 8 && p) {
            f[nf++] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (nf < 5) {
            if (*bb_trim(f[0]) == '\0')
                continue;   /* blank line */
            /* a record line cut short: its counter would be silently lost */
            snprintf(err, errlen, "%s:%ld: truncated record: %d tab-separated fields, "
                     "expected at least 5 (module, rank, record id, counter, value)",
                     path, lineno, nf);
            rc = BB_EDATA;
            goto out;
        }
        heat = strcmp(f[0], "HEATMAP") == 0;
        for (m = 0; m < BB_DX_NMOD; m++)
            if (strcmp(f[0], mod_names[m]) == 0 || (m == BB_DX_MPIIO && strcmp(f[0], "MPIIO") == 0))
                break;
        if (m == BB_DX_NMOD && !heat)
            continue;   /* H5F, PNETCDF, LUSTRE, DXT...: not used */
        errno = 0;
        rank = strtol(f[1], &endp, 10);
        /* A rank is below nprocs when the header gave it, and below
         * BB_DX_MAX_RANKS in any case.  (When per-rank times were an array
         * indexed by rank, a rank of 2^62 overflowed its size and crashed,
         * and 3e8 took 2.4 GB and 20 s: found while fuzzing,
         * tests/fuzz/darshan/.) */
        if (errno || *endp || rank < -1 || rank >= BB_DX_MAX_RANKS
            || (j->hdr.nprocs > 0 && rank >= j->hdr.nprocs)) {
            snprintf(err, errlen, "%s:%ld: field 'rank': '%s' is not a rank (-1 for a shared "
                     "file, else 0 to %ld)", path, lineno, f[1],
                     (j->hdr.nprocs > 0 && j->hdr.nprocs < BB_DX_MAX_RANKS ? j->hdr.nprocs
                                                                            : BB_DX_MAX_RANKS) - 1);
            rc = BB_EDATA;
            goto out;
        }
        errno = 0;
        v = bb_strtod_lax(f[4], &endp);
        if (errno || *endp || !isfinite(v)) {
            snprintf(err, errlen, "%s:%ld: field 'value' of %s: '%s' is not a number",
                     path, lineno, f[3], f[4]);
            rc = BB_EDATA;
            goto out;
        }
        if (heat) {
            j->heat_records++;
            if ((rc = heat_line(&hs, j, f, rank, v, path, lineno, err, errlen)) != 0)
                goto out;
            continue;
        }
        j->present[m] = 1;
        j->records++;
        if (strncmp(f[3], prefixes[m], strlen(prefixes[m])) != 0)
            continue;
        ctr = f[3] + strlen(prefixes[m]);
        if (strcmp(ctr, "BYTES_READ") && strcmp(ctr, "BYTES_WRITTEN") && strcmp(ctr, "F_READ_TIME")
            && strcmp(ctr, "F_WRITE_TIME") && strcmp(ctr, "F_META_TIME")
            && strcmp(ctr, "F_SLOWEST_RANK_TIME"))
            continue;
        if (v == -1) {
            note_unmonitored(j, f[3]);
            continue;
        }
        if (v < 0) {
            snprintf(err, errlen, "%s:%ld: counter %s: %s is negative", path, lineno, f[3], f[4]);
            rc = BB_EDATA;
            goto out;
        }
        if (strcmp(ctr, "BYTES_READ") == 0)
            j->bytes_read[m] += v;
        else if (strcmp(ctr, "BYTES_WRITTEN") == 0)
            j->bytes_written[m] += v;
        else if (strcmp(ctr, "F_SLOWEST_RANK_TIME") == 0) {
            if (rank == -1)
                shared_time[m] += v;
        } else {
            j->cumul_time_s[m] += v;
            if (rank >= 0 && rank_add(&rt[m], rank, v) < 0) {
                snprintf(err, errlen, "%s: out of memory", path);
                rc = BB_ENOMEM;
                goto out;
            }
        }
        /* Each value is finite, but a sum can still overflow (two 1e308
         * byte counts): infinite bytes would become a bandwidth of
         * "infMB/s" that the workload reader refuses. */
        if (!isfinite(j->bytes_read[m] + j->bytes_written[m]) || !isfinite(j->cumul_time_s[m])
            || !isfinite(shared_time[m])) {
            snprintf(err, errlen, "%s:%ld: counter %s: the %s totals pass the largest double "
                     "(%g) with this value: not a log of a real job", path, lineno, f[3],
                     mod_names[m], DBL_MAX);
            rc = BB_EDATA;
            goto out;
        }
    }
    if (fp != NULL && ferror(fp)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = BB_ENOINPUT;
        goto out;
    }
    if ((rc = bb_darshan_hdr_finish(&j->hdr, path, err, errlen)) != 0)
        goto out;
    if (j->records == 0 && j->heat_records == 0) {
        snprintf(err, errlen, "%s: no POSIX, MPI-IO, STDIO or HEATMAP records", path);
        rc = BB_EDATA;
        goto out;
    }
    if ((rc = heat_finish(&hs, j, path, err, errlen)) != 0
        || (rc = heat_vs_counters(&hs, j, path, err, errlen)) != 0)
        goto out;
    j->use_mpiio = !j->present[BB_DX_POSIX] && j->present[BB_DX_MPIIO];
    {
        int mods[2] = { j->use_mpiio ? BB_DX_MPIIO : BB_DX_POSIX, BB_DX_STDIO };
        size_t n = rt[mods[0]].n + rt[mods[1]].n;
        double slowest = 0, t = 0;
        rank_time *all = malloc((n ? n : 1) * sizeof *all);

        if (all == NULL) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = BB_ENOMEM;
            goto out;
        }
        if (rt[mods[0]].n)
            memcpy(all, rt[mods[0]].p, rt[mods[0]].n * sizeof *all);
        if (rt[mods[1]].n)
            memcpy(all + rt[mods[0]].n, rt[mods[1]].p, rt[mods[1]].n * sizeof *all);
        qsort(all, n, sizeof *all, cmp_rank);
        for (size_t i = 0; i < n; i++) {
            t = (i > 0 && all[i].rank == all[i - 1].rank ? t : 0) + all[i].t;
            if (t > slowest)
                slowest = t;
        }
        free(all);
        j->io_time_s = slowest;
        for (int k = 0; k < 2; k++) {
            j->io_time_s += shared_time[mods[k]];
            j->bytes += j->bytes_read[mods[k]] + j->bytes_written[mods[k]];
        }
    }
    if (!isfinite(j->bytes) || !isfinite(j->io_time_s)) {
        snprintf(err, errlen, "%s: the byte or time counters sum past the largest double (%g): "
                 "not a log of a real job", path, DBL_MAX);
        rc = BB_EDATA;
        goto out;
    }
    j->p = j->io_time_s / j->hdr.run_time_s;
    if (j->p > 1)
        j->p = 1;
    j->bw_Bps = j->io_time_s > 0 ? j->bytes / j->io_time_s : 0;
    if (!isfinite(j->bw_Bps)) {
        snprintf(err, errlen, "%s: %g bytes in %g s of I/O time is a bandwidth past the largest "
                 "double: not a log of a real job", path, j->bytes, j->io_time_s);
        rc = BB_EDATA;
        goto out;
    }
out:
    for (int m = 0; m < BB_DX_NMOD; m++)
        free(rt[m].p);
    heat_free(&hs);
    free(line);
    return rc;
}

void
bb_darshan_job_free(bb_darshan_job *j)
{
    if (j == NULL)
        return;
    free(j->heat);
    j->heat = NULL;
    j->heat_bins = 0;
}

enum bb_status
bb_darshan_parse(const char *text, size_t len, const char *source, bb_darshan_job *j,
                 char *err, size_t errlen)
{
    FILE *fp = len > 0 ? fmemopen((void *)text, len, "r") : NULL;
    int rc;

    if (len > 0 && fp == NULL) {
        memset(j, 0, sizeof *j);
        snprintf(err, errlen, "%s: %s", source, strerror(errno));
        return BB_ENOMEM;
    }
    rc = darshan_parse_fp(fp, source, j, err, errlen);
    if (fp != NULL)
        fclose(fp);
    return rc;
}

bb_fit_counters
bb_darshan_counters(const bb_darshan_job *j)
{
    bb_fit_counters k = { .run_s = j->hdr.run_time_s, .io_time_s = j->io_time_s,
                          .bytes = j->bytes, .records = j->records,
                          .heat_width_s = j->heat_width_s };

    return k;
}
