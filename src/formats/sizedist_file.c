/* sizedist_file.c: HOMA-format size tables -> bbs_sizedist (sizedist_file.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "bb_error.h"
#include "bb_num.h"
#include "sizedist_file.h"

/* Next line of text into buf (truncated to cap-1); returns 0 at the end. */
static int
next_line(const char **p, const char *end, char *buf, size_t cap)
{
    size_t k = 0;

    if (*p >= end)
        return 0;
    while (*p < end && **p != '\n') {
        if (k + 1 < cap)
            buf[k++] = **p;
        (*p)++;
    }
    if (*p < end)
        (*p)++;
    buf[k] = '\0';
    return 1;
}

/* err <- "where: err" with rc. */
static int
prefix(int rc, const char *name, long lineno, char *err)
{
    char sub[BB_ERRLEN];

    snprintf(sub, sizeof sub, "%s", err ? err : "");
    if (lineno > 0)
        return bb_seterr(err, rc, "%s:%ld: %s", name, lineno, sub);
    return bb_seterr(err, rc, "%s: %s", name, sub);
}

enum bb_status
bbs_sizedist_parse(bbs_sizedist **out, const char *name, const char *text, size_t len,
                   double unit_bytes, int tail, char *err)
{
    const char *p = text, *end = text + len;
    char line[512];
    long lineno = 0;
    bbs_sizedist *d = NULL;
    int rc;

    *out = NULL;
    if (!(unit_bytes > 0))
        return bb_seterr(err, BB_EINVAL, "%s: size unit must be > 0", name);
    while (next_line(&p, end, line, sizeof line)) {
        char *s = line, *e1, *e2;
        double v, c;

        lineno++;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        errno = 0;
        v = bb_strtod_lax(s, &e1);
        if (e1 == s || errno || !isfinite(v) || v < 0) {
            bbs_sizedist_free(d);
            return bb_seterr(err, BB_EDATA, "%s:%ld: expected a size, got '%.40s'", name, lineno, s);
        }
        if (!d) {
            while (isspace((unsigned char)*e1))
                e1++;
            if (*e1)
                return bb_seterr(err, BB_EDATA, "%s:%ld: line 1 must hold only the mean size, "
                                 "found '%.40s'", name, lineno, e1);
            if ((rc = bbs_sizedist_new(&d, unit_bytes, tail, v, err)))
                return prefix(rc, name, 0, err);
            continue;
        }
        c = bb_strtod_lax(e1, &e2);
        if (e2 == e1) {
            bbs_sizedist_free(d);
            return bb_seterr(err, BB_EDATA, "%s:%ld: expected 'size cdf', missing cdf after '%.40s'",
                             name, lineno, s);
        }
        while (isspace((unsigned char)*e2))
            e2++;
        if (*e2) {
            bbs_sizedist_free(d);
            return bb_seterr(err, BB_EDATA, "%s:%ld: unexpected token '%.40s' after 'size cdf'",
                             name, lineno, e2);
        }
        if ((rc = bbs_sizedist_add(d, v, c, err))) {
            bbs_sizedist_free(d);
            return prefix(rc, name, rc == BB_ENOMEM ? 0 : lineno, err);
        }
    }
    if (!d || bbs_sizedist_rows(d) == 0) {
        bbs_sizedist_free(d);
        return bb_seterr(err, BB_EDATA, "%s: no 'size cdf' rows (line 1 is the mean, then pairs)",
                         name);
    }
    if ((rc = bbs_sizedist_close(d, err))) {
        bbs_sizedist_free(d);
        return prefix(rc, name, lineno, err);
    }
    *out = d;
    return BB_OK;
}
