/* workload_csv.c: reader of bbsize-workload(5) files (workload_csv.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_num.h"
#include "bb_error.h"
#include "readfile.h"
#include "workload_csv.h"

#define MAX_FIELDS 64

void
bb_workload_free(bb_workload_file *w)
{
    if (w == NULL)
        return;
    free(w->apps);
    free(w->bw);
    free(w->period);
    free(w->burst);
    free(w->line);
    free(w->group);
    w->group = NULL;
    w->burst = NULL;
    w->line = NULL;
    w->apps = NULL;
    w->bw = NULL;
    w->period = NULL;
    w->n = 0;
}

size_t
bb_workload_field(char *buf, size_t len, const char *s)
{
    size_t n = strlen(s), k = 0;
    int quote = n > 0 && (s[0] == '#' || s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' '
                          || s[n - 1] == '\t' || strpbrk(s, ",\"") != NULL);

#define PUT(c) do { if (k + 1 < len) buf[k] = (c); k++; } while (0)
    if (quote)
        PUT('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            PUT('?');
        else {
            if (*p == '"')
                PUT('"');
            PUT((char)*p);
        }
    }
    if (quote)
        PUT('"');
#undef PUT
    if (len > 0)
        buf[k < len ? k : len - 1] = '\0';
    return k;
}

void
bb_workload_write_header(FILE *fp, const bb_workload_style *st)
{
    fprintf(fp, "name,p,bw%s%s%s\n", st->cols & BB_WL_PERIOD ? ",period" : "",
            st->cols & BB_WL_BURST ? ",burst" : "", st->cols & BB_WL_COUNT ? ",count" : "");
}

void
bb_workload_write_row(FILE *fp, const bb_workload_style *st, const bb_workload_row *r)
{
    char name[4 * BBA_NAME_LEN];
    int g = st->digits;

    bb_workload_field(name, sizeof name, r->name);
    fprintf(fp, "%s,%.*g,%.*g%s", name, g, r->p, g, r->bw / st->bw_scale, st->bw_unit);
    if (st->cols & BB_WL_PERIOD)
        fprintf(fp, ",%.*g%s", g, r->period, st->time_unit);
    if (st->cols & BB_WL_BURST) {
        fputc(',', fp);
        if (!isnan(r->burst))
            fprintf(fp, "%.*g%s", g, r->burst, st->time_unit);
    }
    if (st->cols & BB_WL_COUNT)
        fprintf(fp, ",%ld", r->count);
    fputc('\n', fp);
}

/* Split line in place into at most MAX_FIELDS trimmed fields; a field may
 * be double-quoted ("" inside is a quote).  Returns the count or -1 on an
 * unterminated quote or too many fields. */
static int
split_fields(char *line, char **f)
{
    int n = 0;
    char *p = line;

    for (;;) {
        char *start;

        if (n == MAX_FIELDS)
            return -1;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '"') {
            char *o = ++p;

            start = o;
            for (;;) {
                if (*p == '\0')
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *o++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *o++ = *p++;
                }
            }
            *o = '\0';
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p != ',' && *p != '\0')
                return -1;
            f[n++] = start;
        } else {
            start = p;
            while (*p != ',' && *p != '\0')
                p++;
            if (*p == ',') {
                *p = '\0';
                f[n++] = bb_trim(start);
                p++;
                continue;
            }
            f[n++] = bb_trim(start);
        }
        if (*p == '\0')
            break;
        p++; /* the comma after a quoted field */
    }
    return n;
}

/* A count field: a whole number in [1, BBA_COUNT_MAX], digits only.
 * Returns 0, or -1 with msg saying why. */
static int
parse_count(const char *f, long *out, char *msg, size_t len)
{
    const char *d = f[0] == '+' ? f + 1 : f;
    double x;
    char m2[256];
    long v = 0;

    if (*f == '\0') {
        snprintf(msg, len, "empty (a whole number of identical applications, >= 1)");
        return -1;
    }
    if (*d != '\0' && strspn(d, "0123456789") == strlen(d)) {
        for (; *d && v <= BBA_COUNT_MAX; d++)
            v = 10 * v + (*d - '0');
        if (v >= 1 && v <= BBA_COUNT_MAX) {
            *out = v;
            return 0;
        }
    }
    if (v > BBA_COUNT_MAX || (bb_parse_number(f, &x, m2, sizeof m2) == 0 && x > BBA_COUNT_MAX))
        snprintf(msg, len, "'%s' is above the most applications a row stands for, %ld", f,
                 BBA_COUNT_MAX);
    else if (bb_parse_number(f, &x, m2, sizeof m2) != 0)
        snprintf(msg, len, "'%s' is not a whole number", f);
    else if (x < 1)
        snprintf(msg, len, "'%s' is not at least 1 (leave the row out for no application)", f);
    else
        snprintf(msg, len, "'%s' is not a whole number of applications", f);
    return -1;
}

static int
directive(bb_workload_file *w, char *text, long lineno, char *err, size_t errlen)
{
    char *eq = strchr(text, '='), *key, *val, msg[256];
    int rc = 0;

    if (eq == NULL) {
        snprintf(err, errlen, "%s:%ld: directive '#@%s' has no '=' (expected "
                 "'#@ key = value')", w->source, lineno, text);
        return BB_EDATA;
    }
    *eq = '\0';
    key = bb_trim(text);
    val = bb_trim(eq + 1);
    {
        /* Each key once (bbsize-workload(5)): a second line would silently
         * replace the first. */
        long *seen = strcmp(key, "pfs-bw") == 0 ? &w->pfs_bw_line
                     : strcmp(key, "bb-bw") == 0 ? &w->bb_bw_line
                     : strcmp(key, "time-unit") == 0 ? &w->time_unit_line
                     : strcmp(key, "resolution") == 0 ? &w->resolution_line : NULL;

        if (seen != NULL && *seen != 0) {
            snprintf(err, errlen, "%s:%ld: directive '%s' given twice (first at line %ld); "
                     "a key appears once", w->source, lineno, key, *seen);
            return BB_EDATA;
        }
        if (seen != NULL)
            *seen = lineno;
    }
    if (strcmp(key, "pfs-bw") == 0 || strcmp(key, "bb-bw") == 0) {
        bb_qty *q = key[0] == 'p' ? &w->pfs_bw : &w->bb_bw;

        rc = bb_parse_rate(val, q, msg, sizeof msg);
        if (rc == 0 && !(q->v > 0)) {
            /* 0 would silently mean "no burst-buffer bandwidth" or fail later */
            snprintf(msg, sizeof msg, "'%s' is not positive%s", val,
                     key[0] == 'b' ? " (leave the line out for no burst-buffer bandwidth)" : "");
            rc = -1;
        }
    } else if (strcmp(key, "time-unit") == 0) {
        rc = bb_parse_duration(val, &w->time_unit, msg, sizeof msg);
        if (rc == 0 && !(w->time_unit.v > 0)) {
            snprintf(msg, sizeof msg, "'%s' is not positive", val);
            rc = -1;
        }
    } else if (strcmp(key, "resolution") == 0) {
        double r;

        rc = bb_parse_number(val, &r, msg, sizeof msg);
        if (rc == 0 && (r < 1 || r != floor(r) || r > 1e8)) {
            snprintf(msg, sizeof msg, "'%s' is not a whole number >= 1", val);
            rc = -1;
        }
        if (rc == 0)
            w->resolution = (long)r;
    } else {
        snprintf(err, errlen, "%s:%ld: unknown directive '%s' (expected pfs-bw, "
                 "bb-bw, time-unit or resolution)", w->source, lineno, key);
        return BB_EDATA;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s:%ld: directive '%s': %s", w->source, lineno, key, msg);
        return BB_EDATA;
    }
    return 0;
}

enum bb_status
bb_workload_parse(const char *text, const char *source, bb_workload_file *w,
                  char *err, size_t errlen)
{
    char *buf = NULL, *line, *next, *f[MAX_FIELDS], msg[256];
    int col_name = -1, col_p = -1, col_bw = -1, col_period = -1, col_burst = -1;
    int col_group = -1, col_count = -1;
    int ncols = 0;
    long lineno = 0, plain_line = 0, unit_line = 0, total = 0;
    size_t cap = 0;
    int rc = 0;

    memset(w, 0, sizeof *w);
    snprintf(w->source, sizeof w->source, "%s", source);
    buf = strdup(bb_skip_bom((char *)text));
    if (buf == NULL) {
        snprintf(err, errlen, "%s: out of memory", source);
        return BB_ENOMEM;
    }
    for (line = buf; line != NULL; line = next) {
        char *s;
        int nf;

        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strlen(line) > 0 && line[strlen(line) - 1] == '\r')
            line[strlen(line) - 1] = '\0';
        s = bb_trim(line);
        if (*s == '\0')
            continue;
        if (s[0] == '#') {
            if (s[1] == '@' && (rc = directive(w, s + 2, lineno, err, errlen)) != 0)
                goto fail;
            continue;
        }
        nf = split_fields(s, f);
        if (nf < 0) {
            snprintf(err, errlen, "%s:%ld: malformed row (unterminated quote or more "
                     "than %d fields)", source, lineno, MAX_FIELDS);
            rc = BB_EDATA;
            goto fail;
        }
        if (ncols == 0) {
            int unknown = -1;

            /* the header row */
            ncols = nf;
            for (int i = 0; i < nf; i++) {
                int *slot = strcmp(f[i], "name") == 0 ? &col_name
                            : strcmp(f[i], "p") == 0 ? &col_p
                            : strcmp(f[i], "bw") == 0 ? &col_bw
                            : strcmp(f[i], "period") == 0 ? &col_period
                            : strcmp(f[i], "burst") == 0 ? &col_burst
                            : strcmp(f[i], "group") == 0 ? &col_group
                            : strcmp(f[i], "count") == 0 ? &col_count : NULL;

                if (slot == NULL) {
                    if (unknown < 0)
                        unknown = i;
                    continue;
                }
                if (*slot >= 0) {
                    snprintf(err, errlen, "%s:%ld: column '%s' appears twice in the header",
                             source, lineno, f[i]);
                    rc = BB_EDATA;
                    goto fail;
                }
                *slot = i;
            }
            if (col_name < 0 || col_p < 0 || col_bw < 0) {
                const char *miss = col_name < 0 ? "name" : col_p < 0 ? "p" : "bw";
                double dummy;
                int numeric = 0;

                for (int i = 0; i < nf; i++)
                    numeric |= bb_parse_number(f[i], &dummy, msg, sizeof msg) == 0;
                if (numeric)
                    snprintf(err, errlen, "%s:%ld: no header row (expected a first row "
                             "naming the columns name,p,bw)", source, lineno);
                else
                    snprintf(err, errlen, "%s:%ld: the header has no column '%s' "
                             "(required: name, p, bw)", source, lineno, miss);
                rc = BB_EDATA;
                goto fail;
            }
            if (unknown >= 0) {
                /* a column read as nothing would change the answer
                 * silently (a misspelt 'count' sizes one copy) */
                snprintf(err, errlen, "%s:%ld: unknown column '%s' (columns: name, p, bw, "
                         "period, burst, group, count)", source, lineno, f[unknown]);
                rc = BB_EDATA;
                goto fail;
            }
            w->has_period = col_period >= 0;
            w->has_burst = col_burst >= 0;
            w->has_group = col_group >= 0;
            w->has_count = col_count >= 0;
            continue;
        }
        if (nf != ncols) {
            snprintf(err, errlen, "%s:%ld: %d fields, but the header has %d",
                     source, lineno, nf, ncols);
            rc = BB_EDATA;
            goto fail;
        }
        if (w->n == cap) {
            size_t nc = cap ? 2 * cap : 32;
            bba_app *a = realloc(w->apps, nc * sizeof *a);
            bb_qty *b = a ? realloc(w->bw, nc * sizeof *b) : NULL;
            bb_qty *d = b ? realloc(w->period, nc * sizeof *d) : NULL;
            bb_qty *u = d ? realloc(w->burst, nc * sizeof *u) : NULL;
            long *l = u ? realloc(w->line, nc * sizeof *l) : NULL;
            char (*g)[BBA_NAME_LEN] = l ? realloc(w->group, nc * sizeof *g) : NULL;

            if (a)
                w->apps = a;
            if (b)
                w->bw = b;
            if (d)
                w->period = d;
            if (u)
                w->burst = u;
            if (l)
                w->line = l;
            if (g == NULL) {
                snprintf(err, errlen, "%s: out of memory at line %ld", source, lineno);
                rc = BB_ENOMEM;
                goto fail;
            }
            w->group = g;
            cap = nc;
        }
        {
            bba_app *a = &w->apps[w->n];
            double p;

            memset(a, 0, sizeof *a);
            memset(&w->period[w->n], 0, sizeof w->period[w->n]);
            memset(&w->burst[w->n], 0, sizeof w->burst[w->n]);
            w->line[w->n] = lineno;
            if (*f[col_name] == '\0') {
                snprintf(err, errlen, "%s:%ld: field 'name': empty", source, lineno);
                rc = BB_EDATA;
                goto fail;
            }
            snprintf(a->name, sizeof a->name, "%s", f[col_name]);
            w->group[w->n][0] = '\0';
            if (col_group >= 0) {
                if (*f[col_group] == '\0') {
                    snprintf(err, errlen, "%s:%ld: field 'group': empty (every application "
                             "of a file with a group column names its group)", source, lineno);
                    rc = BB_EDATA;
                    goto fail;
                }
                if (strlen(f[col_group]) >= BBA_NAME_LEN) {
                    snprintf(err, errlen, "%s:%ld: field 'group': longer than %d characters",
                             source, lineno, BBA_NAME_LEN - 1);
                    rc = BB_EDATA;
                    goto fail;
                }
                snprintf(w->group[w->n], BBA_NAME_LEN, "%s", f[col_group]);
            }
            a->count = 1;
            if (col_count >= 0) {
                if (parse_count(f[col_count], &a->count, msg, sizeof msg) != 0) {
                    snprintf(err, errlen, "%s:%ld: field 'count': %s", source, lineno, msg);
                    rc = BB_EDATA;
                    goto fail;
                }
                if (a->count > BBA_COUNT_MAX - total) {
                    snprintf(err, errlen, "%s:%ld: field 'count': %ld brings the workload "
                             "above %ld applications in all", source, lineno, a->count,
                             BBA_COUNT_MAX);
                    rc = BB_EDATA;
                    goto fail;
                }
            }
            total += a->count;
            if (bb_parse_number(f[col_p], &p, msg, sizeof msg) != BB_OK || !isfinite(p)) {
                snprintf(err, errlen, "%s:%ld: field 'p': %s", source, lineno, msg);
                rc = BB_EDATA;
                goto fail;
            }
            if (!(p >= 0.0 && p <= 1.0)) {
                snprintf(err, errlen, "%s:%ld: field 'p': %s is not in [0, 1]",
                         source, lineno, f[col_p]);
                rc = BB_EDATA;
                goto fail;
            }
            a->p = p;
            if (bb_parse_rate(f[col_bw], &w->bw[w->n], msg, sizeof msg) != BB_OK) {
                snprintf(err, errlen, "%s:%ld: field 'bw': %s", source, lineno, msg);
                rc = BB_EDATA;
                goto fail;
            }
            /* A plain number is data units per time unit; beside rows with
             * units it is almost surely a forgotten unit (and read as
             * bytes, the application would vanish): refuse the mix. */
            if (w->bw[w->n].plain && plain_line == 0)
                plain_line = lineno;
            if (!w->bw[w->n].plain && unit_line == 0)
                unit_line = lineno;
            if (plain_line && unit_line) {
                snprintf(err, errlen, "%s:%ld: field 'bw': '%s' %s, but line %ld %s; give "
                         "every bandwidth a unit (e.g. GB/s) or none", source, lineno,
                         f[col_bw], w->bw[w->n].plain ? "has no unit" : "has a unit",
                         w->bw[w->n].plain ? unit_line : plain_line,
                         w->bw[w->n].plain ? "has one" : "has none (data units per time unit)");
                rc = BB_EDATA;
                goto fail;
            }
            if (col_period >= 0 && *f[col_period] != '\0') {
                if (bb_parse_duration(f[col_period], &w->period[w->n], msg, sizeof msg) != BB_OK) {
                    snprintf(err, errlen, "%s:%ld: field 'period': %s", source, lineno, msg);
                    rc = BB_EDATA;
                    goto fail;
                }
                if (!(w->period[w->n].v > 0)) {
                    snprintf(err, errlen, "%s:%ld: field 'period': '%s' is not positive "
                             "(leave the field empty for no period)", source, lineno,
                             f[col_period]);
                    rc = BB_EDATA;
                    goto fail;
                }
            }
            if (col_burst >= 0 && *f[col_burst] != '\0') {
                if (bb_parse_duration(f[col_burst], &w->burst[w->n], msg, sizeof msg) != BB_OK) {
                    snprintf(err, errlen, "%s:%ld: field 'burst': %s", source, lineno, msg);
                    rc = BB_EDATA;
                    goto fail;
                }
                if (!(w->burst[w->n].v > 0)) {
                    snprintf(err, errlen, "%s:%ld: field 'burst': '%s' is not positive "
                             "(the mean length of one I/O phase)", source, lineno,
                             f[col_burst]);
                    rc = BB_EDATA;
                    goto fail;
                }
            }
            w->n++;
        }
    }
    if (ncols == 0) {
        snprintf(err, errlen, "%s: empty workload (no header row name,p,bw)", source);
        rc = BB_EDATA;
        goto fail;
    }
    if (w->n == 0) {
        snprintf(err, errlen, "%s: the workload has no application (only a header)", source);
        rc = BB_EDATA;
        goto fail;
    }
    w->total = (size_t)total;
    free(buf);
    return 0;
fail:
    free(buf);
    bb_workload_free(w);
    return rc;
}

enum bb_status
bb_workload_read(const char *path, bb_workload_file *w, char *err, size_t errlen)
{
    char *text;
    size_t len;
    int rc;

    memset(w, 0, sizeof *w);
    /* bounded, a NUL byte refused at once (/dev/zero), a BOM dropped */
    if ((rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, errlen)) != 0)
        return rc;
    rc = bb_workload_parse(text, path, w, err, errlen);
    free(text);
    return rc;
}

enum bb_status
bb_workload_default(bb_workload_file *w, char *err, size_t errlen)
{
    return bb_workload_parse(bb_default_workload_csv, "(built-in default workload)",
                             w, err, errlen);
}

void
bb_workload_resolve(bb_workload_file *w, double time_unit_s)
{
    for (size_t i = 0; i < w->n; i++) {
        w->apps[i].bw_Bps = bb_qty_rate_Bps(&w->bw[i], time_unit_s);
        w->apps[i].period_s = w->period[i].set ? w->period[i].v : 0;
        w->apps[i].burst_s = !w->burst[i].set ? 0
                             : w->burst[i].plain ? w->burst[i].v * time_unit_s
                             : w->burst[i].v;
    }
}

int
bb_workload_all_plain(const bb_workload_file *w)
{
    for (size_t i = 0; i < w->n; i++)
        if (!w->bw[i].plain)
            return 0;
    return 1;
}
