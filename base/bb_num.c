/* bb_num.c: strict decimal number readers (bb_num.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "bb_num.h"

/* Length of the decimal number at p ([+-]d[.d][e[+-]d]), 0 if none;
 * *is_int is 1 when it has neither fraction nor exponent. */
static size_t
decimal_len(const char *p, int *is_int)
{
    const char *q = p;
    size_t digits = 0;

    *is_int = 1;
    if (*q == '+' || *q == '-')
        q++;
    while (isdigit((unsigned char)*q))
        q++, digits++;
    if (*q == '.') {
        q++;
        *is_int = 0;
        while (isdigit((unsigned char)*q))
            q++, digits++;
    }
    if (digits == 0)
        return 0;
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;

        if (*e == '+' || *e == '-')
            e++;
        if (isdigit((unsigned char)*e)) {
            while (isdigit((unsigned char)*e))
                e++;
            q = e;
            *is_int = 0;
        }
    }
    return (size_t)(q - p);
}

/* Why the text at p (white space skipped) is not a decimal number. */
static int
classify(const char *p)
{
    const char *q = p;

    if (*q == '\0')
        return BB_NUM_EMPTY;
    if (*q == '+' || *q == '-')
        q++;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
        return BB_NUM_HEX;
    if (strncasecmp(q, "inf", 3) == 0)
        return BB_NUM_INF;
    if (strncasecmp(q, "nan", 3) == 0)
        return BB_NUM_NAN;
    return BB_NUM_NOTNUM;
}

/* The start every reader shares: *end = s (nothing read yet), *p the text
 * after the white space and *len (may be NULL) its decimal's length.
 * BB_NUM_OK when a decimal number starts there, else why not ("0x1" would
 * read as 0 followed by "x1": refused as hexadecimal). */
static int
begin(const char *s, char **end, const char **p, size_t *len)
{
    int is_int;
    size_t n;

    if (end)
        *end = (char *)s;
    while (isspace((unsigned char)*s))
        s++;
    *p = s;
    n = decimal_len(s, &is_int);
    if (len)
        *len = n;
    if (n == 0 || classify(s) == BB_NUM_HEX)
        return classify(s);
    return BB_NUM_OK;
}

int
bb_strtod(const char *s, double *v, char **end)
{
    const char *p;
    char *e;
    size_t len;
    double x;
    int rc;

    *v = 0;
    if ((rc = begin(s, end, &p, &len)) != BB_NUM_OK)
        return rc;
    errno = 0;
    x = strtod(p, &e);
    if (e != p + len)
        return BB_NUM_NOTNUM;
    if (errno == ERANGE || !isfinite(x)) {
        if (!isfinite(x) || fabs(x) >= 1.0)
            return BB_NUM_OVERFLOW;
        if (x == 0 || fabs(x) < DBL_MIN)
            return BB_NUM_UNDERFLOW;
    }
    *v = x;
    if (end)
        *end = e;
    return BB_NUM_OK;
}

int
bb_strtol(const char *s, long *v, char **end)
{
    const char *p;
    char *e;
    long x;
    int rc;

    *v = 0;
    if ((rc = begin(s, end, &p, NULL)) != BB_NUM_OK)
        return rc;
    errno = 0;
    x = strtol(p, &e, 10);
    if (errno == ERANGE)
        return BB_NUM_OVERFLOW;
    /* An integer stops at '.' or 'e': the caller sees the rest as trailing
     * text (and refuses "1.5" where a whole number is expected). */
    *v = x;
    if (end)
        *end = e;
    return BB_NUM_OK;
}

static int
full(int rc, const char *e)
{
    if (rc != BB_NUM_OK)
        return rc;
    while (isspace((unsigned char)*e))
        e++;
    return *e == '\0' ? BB_NUM_OK : BB_NUM_NOTNUM;
}

int
bb_num_full(const char *s, double *v)
{
    char *e;
    int rc = bb_strtod(s, v, &e);

    rc = full(rc, e);   /* e is set only once bb_strtod has run */

    if (rc != BB_NUM_OK)
        *v = 0;   /* "1,5": no half-read value */
    return rc;
}

int
bb_num_full_long(const char *s, long *v)
{
    char *e;
    int rc = bb_strtol(s, v, &e);

    rc = full(rc, e);

    if (rc != BB_NUM_OK)
        *v = 0;
    return rc;
}

const char *
bb_num_why(int code)
{
    switch (code) {
    case BB_NUM_OK: return "is a number";
    case BB_NUM_EMPTY: return "is empty";
    case BB_NUM_HEX: return "is hexadecimal (write a decimal number)";
    case BB_NUM_INF: return "is infinite (give a finite number)";
    case BB_NUM_NAN: return "is not a number (NaN)";
    case BB_NUM_OVERFLOW: return "overflows (too large to represent)";
    case BB_NUM_UNDERFLOW: return "underflows (too small to represent; write 0 if you mean 0)";
    default: return "is not a number";
    }
}

char *
bb_skip_bom(char *s)
{
    if ((unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB && (unsigned char)s[2] == 0xBF)
        return s + 3;
    return s;
}

double
bb_strtod_lax(const char *s, char **end)
{
    double v;
    char *e;
    int rc = bb_strtod(s, &v, &e);

    errno = rc == BB_NUM_OK ? 0 : rc == BB_NUM_OVERFLOW || rc == BB_NUM_UNDERFLOW ? ERANGE : EINVAL;
    if (end)
        *end = rc == BB_NUM_OK ? e : (char *)s;
    return rc == BB_NUM_OK ? v : 0;
}
