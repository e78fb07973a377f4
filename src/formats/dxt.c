/* dxt.c: darshan-dxt-parser text reader (dxt.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_num.h"
#include "dxt.h"
#include "bb_error.h"
#include "grow.h"

enum { MOD_POSIX, MOD_MPIIO };

typedef struct {
    bb_tl_iv *p;
    size_t n, cap;
    double bytes_read, bytes_written;
    double end_max;   /* the latest end, and its line (0: no row) */
    long end_line;
} iv_list;

/* The block being read: its rank, the rows it announced and has. */
typedef struct {
    int open;
    long line;                 /* its first header line */
    long rank;                 /* -1 until its rank line */
    long expect;               /* write_count + read_count, -1 if not given */
    long rows;
} block;

void
bb_dxt_free(bb_dxt_log *log)
{
    if (log == NULL)
        return;
    free(log->iv);
    log->iv = NULL;
    log->n = 0;
}

int
bb_dxt_looks_like(const char *text, size_t len)
{
    const char *p = text, *end = text + len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = (size_t)((nl ? nl : end) - p);

        if ((l >= 7 && memcmp(p, "# DXT, ", 7) == 0) || (l >= 8 && memcmp(p, "# DXLT, ", 8) == 0))
            return 1;
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    return 0;
}

/* The number after "key" in a block header line, or -1 when absent. */
static long
header_count(const char *line, const char *key)
{
    const char *k = strstr(line, key);
    long v;
    char *end;

    if (k == NULL || bb_strtol(k + strlen(key), &v, &end) != BB_NUM_OK || v < 0)
        return -1;
    return v;
}

static int
block_close(block *b, const char *path, char *err, size_t errlen)
{
    if (b->open && b->expect >= 0 && b->rows != b->expect) {
        snprintf(err, errlen, "%s:%ld: this block announces %ld transfers (write_count + "
                 "read_count) but %ld rows follow it (is the file complete?)", path, b->line,
                 b->expect, b->rows);
        return BB_EDATA;
    }
    b->open = 0;
    return 0;
}

/* A block header line ("# DXT, ..." or "# DXLT, ..."). */
static int
block_line(bb_dxt_log *log, block *b, const char *line, long lineno, char *err, size_t errlen)
{
    int dxlt = line[4] == 'L';
    const char *rest = line + (dxlt ? 8 : 7);
    int rc;

    log->dxlt |= dxlt;
    if (strncmp(rest, "file_id:", 8) == 0 || (dxlt && strncmp(rest, "rank:", 5) == 0)) {
        if ((rc = block_close(b, log->source, err, errlen)) != 0)
            return rc;
        b->open = 1;
        b->line = lineno;
        b->rank = -1;
        b->expect = -1;
        b->rows = 0;
        log->blocks++;
    }
    if (strncmp(rest, "rank:", 5) == 0) {
        long r;
        char *end;

        if (bb_strtol(rest + 5, &r, &end) != BB_NUM_OK || r < 0 || r >= BB_DX_MAX_RANKS
            || (log->hdr.nprocs > 0 && r >= log->hdr.nprocs)) {
            snprintf(err, errlen, "%s:%ld: field 'rank': not a rank (0 to %ld)", log->source,
                     lineno, (log->hdr.nprocs > 0 ? log->hdr.nprocs : BB_DX_MAX_RANKS) - 1);
            return BB_EDATA;
        }
        if (!b->open) {
            snprintf(err, errlen, "%s:%ld: a rank line outside a file block (no '# DXT, "
                     "file_id:' line before it)", log->source, lineno);
            return BB_EDATA;
        }
        b->rank = r;
    }
    if (strstr(rest, "write_count:") != NULL) {
        long w = header_count(rest, "write_count:"), r = header_count(rest, "read_count:");

        if (w < 0 || r < 0 || w > LONG_MAX - r || !b->open) {
            snprintf(err, errlen, "%s:%ld: field 'write_count'/'read_count': %s", log->source,
                     lineno, b->open ? "not two counts >= 0 of a sum below 2^63"
                                     : "outside a file block");
            return BB_EDATA;
        }
        b->expect = w + r;
    }
    return 0;
}

/* One transfer row, split into tok[0..nt) (Lustre "[...]" columns
 * dropped). */
static int
row(bb_dxt_log *log, block *b, iv_list *lists, char **tok, int nt, long lineno, char *err,
    size_t errlen)
{
    const char *path = log->source;
    int mod, write, off = nt == 8;
    long rank;
    double len, start, end;
    char *e;
    bb_tl_iv *v;
    iv_list *l;

    if (strcmp(tok[0], "X_POSIX") == 0 || strcmp(tok[0], "POSIX") == 0)
        mod = MOD_POSIX;
    else if (strcmp(tok[0], "X_MPIIO") == 0 || strcmp(tok[0], "MPIIO") == 0)
        mod = MOD_MPIIO;
    else {
        snprintf(err, errlen, "%s:%ld: field 'Module': '%.40s' is not X_POSIX or X_MPIIO "
                 "(is this darshan-dxt-parser output?)", path, lineno, tok[0]);
        return BB_EDATA;
    }
    if (nt != 7 && nt != 8) {
        snprintf(err, errlen, "%s:%ld: %d fields, expected Module, Rank, Wt/Rd, Segment, "
                 "[Offset,] Length, Start(s), End(s)", path, lineno, nt);
        return BB_EDATA;
    }
    if (!b->open || b->rank < 0) {
        snprintf(err, errlen, "%s:%ld: a transfer row outside a file block (no '# DXT, "
                 "file_id:' and rank lines before it)", path, lineno);
        return BB_EDATA;
    }
    if (bb_strtol(tok[1], &rank, &e) != BB_NUM_OK || *e || rank != b->rank) {
        snprintf(err, errlen, "%s:%ld: field 'Rank': '%.40s' is not the block's rank %ld",
                 path, lineno, tok[1], b->rank);
        return BB_EDATA;
    }
    if (strcmp(tok[2], "write") == 0)
        write = 1;
    else if (strcmp(tok[2], "read") == 0)
        write = 0;
    else {
        snprintf(err, errlen, "%s:%ld: field 'Wt/Rd': '%.40s' is not write or read", path,
                 lineno, tok[2]);
        return BB_EDATA;
    }
    if (bb_num_full(tok[4 + off], &len) != BB_NUM_OK || len < 0) {
        snprintf(err, errlen, "%s:%ld: field 'Length': '%.40s' is not a byte count >= 0",
                 path, lineno, tok[4 + off]);
        return BB_EDATA;
    }
    if (bb_num_full(tok[5 + off], &start) != BB_NUM_OK || start < 0) {
        snprintf(err, errlen, "%s:%ld: field 'Start(s)': '%.40s' is not a time >= 0", path,
                 lineno, tok[5 + off]);
        return BB_EDATA;
    }
    if (bb_num_full(tok[6 + off], &end) != BB_NUM_OK || end < start) {
        snprintf(err, errlen, "%s:%ld: field 'End(s)': '%.40s' is not a time at or after the "
                 "start %s", path, lineno, tok[6 + off], tok[5 + off]);
        return BB_EDATA;
    }
    if (b->expect >= 0 && b->rows >= b->expect) {
        snprintf(err, errlen, "%s:%ld: more rows than the block announces (%ld; its header is "
                 "at line %ld)", path, lineno, b->expect, b->line);
        return BB_EDATA;
    }
    b->rows++;
    log->rows[mod]++;
    l = &lists[mod];
    if (bbs_grow((void **)&l->p, sizeof *l->p, &l->cap, l->n + 1)) {
        snprintf(err, errlen, "%s: out of memory after %zu transfers", path, l->n);
        return BB_ENOMEM;
    }
    v = &l->p[l->n++];
    v->start_s = start;
    v->end_s = end;
    v->bytes = len;
    if (l->end_line == 0 || end > l->end_max) {
        l->end_max = end;
        l->end_line = lineno;
    }
    if (write)
        l->bytes_written += len;
    else
        l->bytes_read += len;
    if (!isfinite(l->bytes_read + l->bytes_written)) {
        snprintf(err, errlen, "%s:%ld: field 'Length': the bytes sum past the largest double "
                 "(%g): not a trace of a real job", path, lineno, DBL_MAX);
        return BB_EDATA;
    }
    return 0;
}

enum bb_status
bb_dxt_parse(const char *text, size_t len, const char *source, bb_dxt_log *log, char *err,
             size_t errlen)
{
    const char *p = text, *tend = text + len;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    block b = { 0, 0, -1, -1, 0 };
    iv_list lists[2];
    int rc = 0, keep;

    memset(log, 0, sizeof *log);
    memset(lists, 0, sizeof lists);
    bb_darshan_hdr_init(&log->hdr);
    snprintf(log->source, sizeof log->source, "%s", source);
    while (p < tend) {
        const char *nl = memchr(p, '\n', (size_t)(tend - p));
        size_t l;
        char *tok[12], *q;
        int nt = 0;

        lineno++;
        if (nl == NULL) {
            snprintf(err, errlen, "%s:%ld: truncated: the last line has no end (is the file "
                     "complete?)", source, lineno);
            rc = BB_EDATA;
            goto out;
        }
        l = (size_t)(nl - p);
        if (bbs_grow((void **)&line, 1, &cap, l + 1)) {
            snprintf(err, errlen, "%s: out of memory", source);
            rc = BB_ENOMEM;
            goto out;
        }
        memcpy(line, p, l);
        line[l] = '\0';
        p = nl + 1;
        if (l > 0 && line[l - 1] == '\r')
            line[--l] = '\0';
        if (line[0] == '#') {
            if (strncmp(line, "# DXT, ", 7) == 0 || strncmp(line, "# DXLT, ", 8) == 0)
                rc = block_line(log, &b, line, lineno, err, errlen);
            else
                rc = bb_darshan_hdr_line(&log->hdr, line, source, lineno, err, errlen);
            if (rc != 0)
                goto out;
            continue;
        }
        for (q = line; nt < 12;) {
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q == '\0' || *q == '[')
                break;   /* the end, or Lustre OST columns */
            tok[nt++] = q;
            while (*q && *q != ' ' && *q != '\t')
                q++;
            if (*q)
                *q++ = '\0';
        }
        if (nt == 0)
            continue;   /* a blank line */
        if ((rc = row(log, &b, lists, tok, nt, lineno, err, errlen)) != 0)
            goto out;
    }
    if ((rc = block_close(&b, source, err, errlen)) != 0)
        goto out;
    if ((rc = bb_darshan_hdr_finish(&log->hdr, source, err, errlen)) != 0)
        goto out;
    /* A transfer ending after the run is not of this run: refused, rather
     * than stretching the run (and lowering p) to its end. */
    for (int m = 0; m < 2; m++)
        if (lists[m].end_line > 0 && lists[m].end_max > log->hdr.run_time_s) {
            snprintf(err, errlen, "%s:%ld: field 'End(s)': %.10g s is past the run time of "
                     "the header (%.10g s): a transfer outside the job (a corrupt or edited "
                     "log?)", source, lists[m].end_line, lists[m].end_max, log->hdr.run_time_s);
            rc = BB_EDATA;
            goto out;
        }
    if (log->blocks == 0) {
        snprintf(err, errlen, "%s: no '# DXT, file_id:' block (is this darshan-dxt-parser "
                 "output?)", source);
        rc = BB_EDATA;
        goto out;
    }
    keep = log->rows[MOD_POSIX] == 0 && log->rows[MOD_MPIIO] > 0 ? MOD_MPIIO : MOD_POSIX;
    log->use_mpiio = keep == MOD_MPIIO;
    log->iv = lists[keep].p;
    log->n = lists[keep].n;
    log->bytes_read = lists[keep].bytes_read;
    log->bytes_written = lists[keep].bytes_written;
    lists[keep].p = NULL;
out:
    free(lists[MOD_POSIX].p);
    free(lists[MOD_MPIIO].p);
    free(line);
    return rc;
}
