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
#include "readfile.h"
#include "units.h"

static const char *const mod_names[BB_DX_NMOD] = { "POSIX", "MPI-IO", "STDIO" };
static const char *const prefixes[BB_DX_NMOD] = { "POSIX_", "MPIIO_", "STDIO_" };

typedef struct {
    double *t;      /* per-rank time on the rank's own files, per module */
    size_t n;
} rank_times;

static int
rank_add(rank_times *rt, long rank, double v)
{
    if ((size_t)rank >= rt->n) {
        size_t n = rt->n ? rt->n : 64;
        double *t;

        while (n <= (size_t)rank)
            n *= 2;
        t = realloc(rt->t, n * sizeof *t);
        if (t == NULL)
            return -1;
        memset(t + rt->n, 0, (n - rt->n) * sizeof *t);
        rt->t = t;
        rt->n = n;
    }
    rt->t[rank] += v;
    return 0;
}

static void
note_unmonitored(bb_darshan_job *j, const char *counter)
{
    size_t len = strlen(j->unmonitored);

    if (strstr(j->unmonitored, counter))
        return;
    snprintf(j->unmonitored + len, sizeof j->unmonitored - len, "%s%s", len ? ", " : "", counter);
}

int
bb_darshan_read(const char *path, bb_darshan_job *j, char *err, size_t errlen)
{
    FILE *fp;
    char *line = NULL, *text = NULL;
    size_t cap = 0, tlen;
    ssize_t len;
    long lineno = 0, start = -1, end = -1, run_line = 0, start_line = 0;
    int rc = 0;
    rank_times rt[BB_DX_NMOD];
    double shared_time[BB_DX_NMOD] = { 0 };

    memset(j, 0, sizeof *j);
    memset(rt, 0, sizeof rt);
    j->run_time_s = -1;
    snprintf(j->source, sizeof j->source, "%s", path);
    /* Read whole and bounded (a NUL byte refused at once: /dev/zero was an
     * endless line), then scanned line by line in memory. */
    if ((rc = bb_read_file(path, BB_READ_TEXT, &text, &tlen, err, errlen)) != 0)
        return rc;
    fp = tlen > 0 ? fmemopen(text, tlen, "r") : NULL;
    if (tlen > 0 && fp == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(text);
        return BB_EXIT_SOFTWARE;
    }
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
        if (errno || *endp || rank < -1) {
            snprintf(err, errlen, "%s:%ld: field 'rank': '%s' is not a rank", path, lineno, f[1]);
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
        j->run_time_s = (double)(end - start + 1);
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
        size_t nr = 0;
        double slowest = 0;

        for (int k = 0; k < 2; k++)
            if (rt[mods[k]].n > nr)
                nr = rt[mods[k]].n;
        for (size_t r = 0; r < nr; r++) {
            double t = 0;

            for (int k = 0; k < 2; k++)
                if (r < rt[mods[k]].n)
                    t += rt[mods[k]].t[r];
            if (t > slowest)
                slowest = t;
        }
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
        free(rt[m].t);
    free(line);
    if (fp != NULL)
        fclose(fp);
    free(text);
    return rc;
}
