/* darshan.c: darshan-parser text reader and the p, bw estimate (darshan.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_num.h"
#include "darshan.h"
#include "exitcodes.h"
#include "grow.h"
#include "readfile.h"
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

/* The reader proper, on an open stream (a file or the caller's text; NULL
 * for empty text); path names it in messages.  The caller closes fp. */
static int
darshan_parse_fp(FILE *fp, const char *path, bb_darshan_job *j, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, start = -1, end = -1, run_line = 0, start_line = 0;
    int rc = 0;
    rank_times rt[BB_DX_NMOD];
    double shared_time[BB_DX_NMOD] = { 0 };

    memset(j, 0, sizeof *j);
    memset(rt, 0, sizeof rt);
    j->run_time_s = -1;
    snprintf(j->source, sizeof j->source, "%s", path);
    while (fp != NULL && (len = getline(&line, &cap, fp)) >= 0) {
        char *f[8], *p = line, *endp;
        int nf = 0, m;
        long rank;
        double v;
        const char *ctr;

        lineno++;
        if (len == 0 || line[len - 1] != '\n') {
            /* darshan-parser ends every line: a last line without one is a
             * file cut short (a copy interrupted, a full disk). */
            snprintf(err, errlen, "%s:%ld: truncated: the last line has no end (is the file "
                     "complete?)", path, lineno);
            rc = BB_EXIT_DATAERR;
            goto out;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (line[0] == '#') {
            if (strncmp(line, "# run time:", 11) == 0) {
                int nrc = bb_num_full(line + 11, &v);

                if (run_line) {
                    snprintf(err, errlen, "%s:%ld: field 'run time': given twice (first at "
                             "line %ld)", path, lineno, run_line);
                    rc = BB_EXIT_DATAERR;
                    goto out;
                }
                run_line = lineno;
                if (nrc != BB_NUM_OK || !(v > 0)) {
                    snprintf(err, errlen, "%s:%ld: field 'run time': '%s' %s", path, lineno,
                             bb_trim(line + 11), nrc != BB_NUM_OK ? bb_num_why(nrc)
                             : "is not positive (the job's wall time in seconds)");
                    rc = BB_EXIT_DATAERR;
                    goto out;
                }
                j->run_time_s = v;
            } else if (sscanf(line, "# nprocs: %ld", &j->nprocs) == 1)
                ;
            else if (sscanf(line, "# start_time: %ld", &start) == 1)
                start_line = lineno;
            else if (sscanf(line, "# end_time: %ld", &end) == 1)
                ;
            else if (strncmp(line, "# exe: ", 7) == 0)
                sscanf(line + 7, "%255s", j->exe);
            else if (strncmp(line, "# jobid: ", 9) == 0)
                sscanf(line + 9, "%63s", j->jobid);
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
            rc = BB_EXIT_DATAERR;
            goto out;
        }
        for (m = 0; m < BB_DX_NMOD; m++)
            if (strcmp(f[0], mod_names[m]) == 0 || (m == BB_DX_MPIIO && strcmp(f[0], "MPIIO") == 0))
                break;
        if (m == BB_DX_NMOD)
            continue;   /* H5F, PNETCDF, LUSTRE, DXT...: not used */
        errno = 0;
        rank = strtol(f[1], &endp, 10);
        /* A rank is below nprocs when the header gave it, and below
         * BB_DX_MAX_RANKS in any case.  (When per-rank times were an array
         * indexed by rank, a rank of 2^62 overflowed its size and crashed,
         * and 3e8 took 2.4 GB and 20 s: found while fuzzing,
         * tests/fuzz/darshan/.) */
        if (errno || *endp || rank < -1 || rank >= BB_DX_MAX_RANKS
            || (j->nprocs > 0 && rank >= j->nprocs)) {
            snprintf(err, errlen, "%s:%ld: field 'rank': '%s' is not a rank (-1 for a shared "
                     "file, else 0 to %ld)", path, lineno, f[1],
                     (j->nprocs > 0 && j->nprocs < BB_DX_MAX_RANKS ? j->nprocs : BB_DX_MAX_RANKS) - 1);
            rc = BB_EXIT_DATAERR;
            goto out;
        }
        errno = 0;
        v = bb_strtod_lax(f[4], &endp);
        if (errno || *endp || !isfinite(v)) {
            snprintf(err, errlen, "%s:%ld: field 'value' of %s: '%s' is not a number",
                     path, lineno, f[3], f[4]);
            rc = BB_EXIT_DATAERR;
            goto out;
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
            rc = BB_EXIT_DATAERR;
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
                rc = BB_EXIT_SOFTWARE;
                goto out;
            }
        }
    }
    if (fp != NULL && ferror(fp)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = BB_EXIT_NOINPUT;
        goto out;
    }
    if (j->run_time_s < 0 && start >= 0 && end >= start)
        j->run_time_s = (double)end - (double)start + 1;   /* in long, LONG_MAX - 0 + 1
                                                              overflowed (fz_darshan) */
    if (j->run_time_s < 0 && start_line && end < start) {
        snprintf(err, errlen, "%s:%ld: no '# run time:' line, and end_time %ld is before "
                 "start_time %ld", path, start_line, end, start);
        rc = BB_EXIT_DATAERR;
        goto out;
    }
    if (!(j->run_time_s > 0)) {
        snprintf(err, errlen, "%s: no '# run time:' header (is this darshan-parser output?)", path);
        rc = BB_EXIT_DATAERR;
        goto out;
    }
    if (j->records == 0) {
        snprintf(err, errlen, "%s: no POSIX, MPI-IO or STDIO counter records", path);
        rc = BB_EXIT_DATAERR;
        goto out;
    }
    j->use_mpiio = !j->present[BB_DX_POSIX] && j->present[BB_DX_MPIIO];
    {
        int mods[2] = { j->use_mpiio ? BB_DX_MPIIO : BB_DX_POSIX, BB_DX_STDIO };
        size_t n = rt[mods[0]].n + rt[mods[1]].n;
        double slowest = 0, t = 0;
        rank_time *all = malloc((n ? n : 1) * sizeof *all);

        if (all == NULL) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = BB_EXIT_SOFTWARE;
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
    j->p = j->io_time_s / j->run_time_s;
    if (j->p > 1)
        j->p = 1;
    j->bw_Bps = j->io_time_s > 0 ? j->bytes / j->io_time_s : 0;
out:
    for (int m = 0; m < BB_DX_NMOD; m++)
        free(rt[m].p);
    free(line);
    return rc;
}

int
bb_darshan_read(const char *path, bb_darshan_job *j, char *err, size_t errlen)
{
    char *text = NULL;
    size_t tlen;
    int rc;

    /* Read whole and bounded (a NUL byte refused at once: /dev/zero was an
     * endless line), then parsed in memory. */
    memset(j, 0, sizeof *j);
    if ((rc = bb_read_file(path, BB_READ_TEXT, &text, &tlen, err, errlen)) != 0)
        return rc;
    rc = bb_darshan_parse(text, tlen, path, j, err, errlen);
    free(text);
    return rc;
}

int
bb_darshan_parse(const char *text, size_t len, const char *source, bb_darshan_job *j,
                 char *err, size_t errlen)
{
    FILE *fp = len > 0 ? fmemopen((void *)text, len, "r") : NULL;
    int rc;

    if (len > 0 && fp == NULL) {
        memset(j, 0, sizeof *j);
        snprintf(err, errlen, "%s: %s", source, strerror(errno));
        return BB_EXIT_SOFTWARE;
    }
    rc = darshan_parse_fp(fp, source, j, err, errlen);
    if (fp != NULL)
        fclose(fp);
    return rc;
}
