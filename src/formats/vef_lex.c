/* vef_lex.c: the VEF reader's lines and tokens (vef_int.h): the next
 * record split into tokens, a token as a bounded number, the error that
 * names file and line.  The core the header and dispatch (vef_file.c),
 * the extended dialects (vef_ext.c) and plain MPI traces (vef_mpi.c)
 * call; it calls none of them.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bb_error.h"
#include "bb_num.h"
#include "grow.h"
#include "vef_int.h"

int
vef_err(pstate *s, const char *fmt, ...)
{
    char msg[BB_ERRLEN];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return bb_seterr(s->err, BB_EDATA, "%s:%ld: %s", s->name, s->lineno, msg);
}

/* Read the next non-blank, non-comment line and split it into tokens.
 * Returns 1, 0 at the end, or -1 (error set) when out of memory or a line
 * has too many tokens. */
int
vef_next_record(pstate *s)
{
    for (;;) {
        size_t k = 0;
        char *q;

        if (s->p >= s->end)
            return 0;
        s->lineno++;
        while (s->p < s->end && *s->p != '\n') {
            if (bbs_grow((void **)&s->buf, 1, &s->bufcap, k + 2))
                return -1 - 0 * bb_seterr(s->err, BB_ENOMEM, "out of memory");
            s->buf[k++] = *s->p++;
        }
        if (s->p < s->end)
            s->p++;
        if (!s->buf) {
            s->buf = malloc(2);
            if (!s->buf)
                return -1 - 0 * bb_seterr(s->err, BB_ENOMEM, "out of memory");
            s->bufcap = 2;
        }
        s->buf[k] = '\0';
        s->ntok = 0;
        q = s->buf;
        for (;;) {
            while (*q && isspace((unsigned char)*q))
                q++;
            if (!*q || *q == '#')
                break;
            if (s->ntok == MAXTOK)
                return -1 - 0 * vef_err(s, "more than %d tokens on a line", MAXTOK);
            s->tok[s->ntok++] = q;
            while (*q && !isspace((unsigned char)*q))
                q++;
            if (*q)
                *q++ = '\0';
        }
        if (s->ntok > 0)
            return 1;
    }
}

int
vef_tok_long(pstate *s, int i, const char *what, long lo, long hi, long *out)
{
    long v;

    if (i >= s->ntok)
        return vef_err(s, "missing %s", what);
    if (bb_num_full_long(s->tok[i], &v) != BB_NUM_OK)
        return vef_err(s, "%s: expected an integer, got '%s'", what, s->tok[i]);
    if (v < lo || v > hi)
        return vef_err(s, "%s '%s' outside [%ld, %ld]", what, s->tok[i], lo, hi);
    *out = v;
    return BB_OK;
}

int
vef_tok_u64(pstate *s, int i, const char *what, uint64_t *out)
{
    char *e;
    unsigned long long v;

    if (i >= s->ntok)
        return vef_err(s, "missing %s", what);
    errno = 0;
    if (s->tok[i][0] == '-')
        return vef_err(s, "%s must be >= 0, got '%s'", what, s->tok[i]);
    v = strtoull(s->tok[i], &e, 10);
    if (e == s->tok[i] || *e || errno)
        return vef_err(s, "%s: expected a byte count, got '%s'", what, s->tok[i]);
    *out = (uint64_t)v;
    return BB_OK;
}

int
vef_tok_double(pstate *s, int i, const char *what, double lo, double hi, double *out)
{
    double v;

    if (i >= s->ntok)
        return vef_err(s, "missing %s", what);
    int rc = bb_num_full(s->tok[i], &v);

    if (rc != BB_NUM_OK)
        return vef_err(s, "%s: expected a number, got '%s', which %s", what, s->tok[i],
                    bb_num_why(rc));
    if (v < lo || v > hi)
        return vef_err(s, "%s '%s' outside [%g, %g]", what, s->tok[i], lo, hi);
    *out = v;
    return BB_OK;
}
