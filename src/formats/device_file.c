/* device_file.c: bbsize-device(5) text -> bbs_dev_params (device_file.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bb_error.h"
#include "bb_num.h"
#include "device_file.h"

/* The index of the field named key[0 .. len) among every model's
 * (bbs_dev_field_at), or -1. */
static long
find_field(const char *key, size_t len)
{
    size_t n = bbs_dev_nfields();

    for (size_t i = 0; i < n; i++) {
        const bbs_dev_field *f = bbs_dev_field_at(i);

        if (strlen(f->key) == len && strncmp(f->key, key, len) == 0)
            return (long)i;
    }
    return -1;
}

/* One logical line: [b, e) without comment and surrounding blanks. */
static void
trim(const char **b, const char **e)
{
    const char *h = memchr(*b, '#', (size_t)(*e - *b));
    if (h)
        *e = h;
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* why the last parse_number failed (a BB_NUM_* code), for messages */
static _Thread_local int last_num_rc;

static int
parse_number(const char *s, const char *end, double *v, const char **next)
{
    char buf[64];
    size_t n = 0;
    char *ep;

    while (s < end && isspace((unsigned char)*s))
        s++;
    while (s < end && !isspace((unsigned char)*s) && n < sizeof buf - 1)
        buf[n++] = *s++;
    buf[n] = 0;
    if (n == 0)
        return -1;
    /* the one number reader: refuses hex, inf, NaN, overflow, saying which */
    if ((last_num_rc = bb_strtod(buf, v, &ep)) != BB_NUM_OK || *ep != 0) {
        if (last_num_rc == BB_NUM_OK)
            last_num_rc = BB_NUM_NOTNUM;
        return -2;
    }
    *next = s;
    return 0;
}

enum bb_status
bbs_dev_params_parse(bbs_dev_params *p, const char *text, const char *source, char *err)
{
    const char *s, *nl;
    int line, kind = -1, rc, nbins = -1;
    size_t nfields = bbs_dev_nfields();
    unsigned char seen[64];
    int model_line = 0;
    char models[128], modelbar[128];

    if (nfields > sizeof seen)
        return bb_seterr(err, BB_EINVAL, "%s: %zu device fields, more than the reader's %zu",
                         source, nfields, sizeof seen);

    bbs_dev_model_list(models, sizeof models, ", ");
    bbs_dev_model_list(modelbar, sizeof modelbar, "|");
    /* Pass 1: the model decides which keys are allowed and their defaults. */
    for (s = text, line = 1; *s; s = nl + (*nl != 0), line++) {
        const char *b = s, *e;
        nl = strchr(s, '\n');
        if (!nl)
            nl = s + strlen(s);
        e = nl;
        trim(&b, &e);
        if (e - b > 5 && strncmp(b, "model", 5) == 0) {
            const char *q = b + 5;
            while (q < e && isspace((unsigned char)*q))
                q++;
            if (q < e && *q == '=') {
                q++;
                while (q < e && isspace((unsigned char)*q))
                    q++;
                if (model_line)
                    return bb_seterr(err, BB_EDATA, "%s:%d: field 'model': given twice "
                                     "(first on line %d)", source, line, model_line);
                model_line = line;
                kind = bbs_dev_model_find(q, (size_t)(e - q));
                if (kind < 0)
                    return bb_seterr(err, BB_EDATA, "%s:%d: field 'model': '%.*s' is not "
                                     "one of %s", source, line, (int)(e - q), q, models);
            }
        }
    }
    if (kind < 0)
        return bb_seterr(err, BB_EDATA, "%s: no 'model = %s' line", source, modelbar);
    bbs_dev_params_init(p, (bbs_dev_kind)kind);
    memset(seen, 0, sizeof seen);

    for (s = text, line = 1; *s; s = nl + (*nl != 0), line++) {
        const char *b = s, *e, *eq, *k_end, *v;
        const bbs_dev_field *f;
        long fi;
        char *base = (char *)p;
        nl = strchr(s, '\n');
        if (!nl)
            nl = s + strlen(s);
        e = nl;
        trim(&b, &e);
        if (b == e)
            continue;
        eq = memchr(b, '=', (size_t)(e - b));
        if (!eq)
            return bb_seterr(err, BB_EDATA, "%s:%d: expected 'key = value', got '%.*s'",
                             source, line, (int)(e - b), b);
        k_end = eq;
        while (k_end > b && isspace((unsigned char)k_end[-1]))
            k_end--;
        v = eq + 1;
        while (v < e && isspace((unsigned char)*v))
            v++;
        if ((size_t)(k_end - b) == 5 && strncmp(b, "model", 5) == 0)
            continue;
        fi = find_field(b, (size_t)(k_end - b));
        f = fi >= 0 ? bbs_dev_field_at((size_t)fi) : NULL;
        if (!f)
            return bb_seterr(err, BB_EDATA, "%s:%d: unknown field '%.*s'", source, line,
                             (int)(k_end - b), b);
        if (f->kind != -1 && f->kind != kind)
            return bb_seterr(err, BB_EDATA, "%s:%d: field '%s' does not apply to model %s",
                             source, line, f->key, bbs_dev_kind_name((bbs_dev_kind)kind));
        if (seen[fi])
            return bb_seterr(err, BB_EDATA, "%s:%d: field '%s' given twice", source, line,
                             f->key);
        seen[fi] = 1;
        if (v == e)
            return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': missing value", source, line,
                             f->key);
        if (f->type == BBS_DEV_F_STR) {
            size_t n = (size_t)(e - v);
            if (n >= sizeof p->name)
                return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': longer than %zu "
                                 "characters", source, line, f->key, sizeof p->name - 1);
            memcpy(p->name, v, n);
            p->name[n] = 0;
        } else if (f->type == BBS_DEV_F_ARR) {
            double *a = (double *)(base + f->off);
            int n = 0;
            const char *q = v;
            double x;
            while (q < e) {
                if (n == BBS_TABLE_MAXBINS)
                    return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': more than %d values",
                                     source, line, f->key, BBS_TABLE_MAXBINS);
                rc = parse_number(q, e, &x, &q);
                if (rc == -1)
                    break;
                if (rc < 0)
                    return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': value %d %s",
                                     source, line, f->key, n + 1, bb_num_why(last_num_rc));
                if ((rc = bbs_dev_field_check(f, x, err)) != BB_OK) {
                    char tmp[BB_ERRLEN];
                    snprintf(tmp, sizeof tmp, "%s", err ? err : "");
                    return bb_seterr(err, rc, "%s:%d: %s", source, line, tmp);
                }
                a[n++] = x;
                while (q < e && isspace((unsigned char)*q))
                    q++;
            }
            if (nbins >= 0 && n != nbins)
                return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': %d values, but the "
                                 "earlier table fields have %d", source, line, f->key, n,
                                 nbins);
            nbins = n;
            p->table.nbins = n;
        } else {
            double x;
            const char *q;
            rc = parse_number(v, e, &x, &q);
            if (rc < 0 || q != e)
                return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': '%.*s' %s",
                                 source, line, f->key, (int)(e - v), v,
                                 rc == -2 ? bb_num_why(last_num_rc) : "is not a number");
            if ((rc = bbs_dev_field_check(f, x, err)) != BB_OK) {
                char tmp[BB_ERRLEN];
                snprintf(tmp, sizeof tmp, "%s", err ? err : "");
                return bb_seterr(err, rc, "%s:%d: %s", source, line, tmp);
            }
            if (f->type == BBS_DEV_F_INT) {
                if (x != floor(x) || x > 1e9)
                    return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': %g is not a whole "
                                     "number", source, line, f->key, x);
                *(int *)(base + f->off) = (int)x;
            } else {
                *(double *)(base + f->off) = x;
            }
        }
    }
    for (size_t i = 0; i < nfields; i++) {
        const bbs_dev_field *f = bbs_dev_field_at(i);

        if (f->required && !seen[i] && (f->kind == -1 || f->kind == kind))
            return bb_seterr(err, BB_EDATA, "%s: field '%s' is missing (required for "
                             "model %s)", source, f->key, bbs_dev_kind_name((bbs_dev_kind)kind));
    }
    if ((rc = bbs_dev_params_check(p, err)) != BB_OK) {
        char tmp[BB_ERRLEN];
        snprintf(tmp, sizeof tmp, "%s", err ? err : "");
        return bb_seterr(err, rc, "%s: %s", source, tmp);
    }
    return BB_OK;
}
