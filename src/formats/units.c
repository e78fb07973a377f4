/* units.c: parsing and printing of sizes, rates and durations (units.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_num.h"
#include "units.h"

/* A unit: its factor, and for a power of ten its exponent (NOTDEC else):
 * "3.51us" is then read as the decimal 3.51e-6, rounded once, not 3.51
 * rounded and times 1e-6 rounded (a unit in the last place apart). */
typedef struct {
    const char *name;
    double factor;
    int dec;
} unit_def;

#define NOTDEC 1000

static const unit_def size_units[] = {
    { "B", 1.0, 0 },    { "kB", 1e3, 3 },   { "KB", 1e3, 3 },   { "MB", 1e6, 6 },
    { "GB", 1e9, 9 },   { "TB", 1e12, 12 }, { "PB", 1e15, 15 }, { "EB", 1e18, 18 },
    { "KiB", 1024.0, NOTDEC }, { "MiB", 1048576.0, NOTDEC }, { "GiB", 1073741824.0, NOTDEC },
    { "TiB", 1099511627776.0, NOTDEC }, { "PiB", 1125899906842624.0, NOTDEC },
    { "EiB", 1152921504606846976.0, NOTDEC },
};

static const unit_def time_units[] = {
    { "s", 1.0, 0 }, { "sec", 1.0, 0 }, { "ms", 1e-3, -3 }, { "us", 1e-6, -6 },
    { "ns", 1e-9, -9 }, { "min", 60.0, NOTDEC }, { "h", 3600.0, NOTDEC },
    { "d", 86400.0, NOTDEC },
};

#define SIZE_UNITS_LIST BB_SIZE_UNITS
#define TIME_UNITS_LIST BB_TIME_UNITS

/* Split s into a number and the trimmed unit text after it. */
static int
split(const char *s, double *v, const char **unit, char *err, size_t errlen)
{
    char *end;
    int rc;

    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0') {
        snprintf(err, errlen, "empty value");
        return -1;
    }
    rc = bb_strtod(s, v, &end);
    if (rc != BB_NUM_OK) {
        /* "1e400GB" overflows; "0x10" is hexadecimal; "abc" is not a number. */
        snprintf(err, errlen, "'%s' %s", s, bb_num_why(rc));
        return -1;
    }
    while (isspace((unsigned char)*end))
        end++;
    *unit = end;
    return 0;
}

char *
bb_trim(char *s)
{
    char *e;

    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Length of unit text without trailing spaces. */
static size_t
trimlen(const char *u)
{
    size_t n = strlen(u);

    while (n > 0 && isspace((unsigned char)u[n - 1]))
        n--;
    return n;
}

#define NUNITS(t) (sizeof (t) / sizeof (t)[0])

/* The unit spelled by the n characters at u, from table t. */
static const unit_def *
lookup(const unit_def *t, size_t nt, const char *u, size_t n)
{
    for (size_t i = 0; i < nt; i++)
        if (strlen(t[i].name) == n && strncmp(t[i].name, u, n) == 0)
            return &t[i];
    return NULL;
}

#define lookup_size(u, n) lookup(size_units, NUNITS(size_units), (u), (n))
#define lookup_time(u, n) lookup(time_units, NUNITS(time_units), (u), (n))

/* scaled: the number at the start of s times its unit(s), v already read
 * from it: for a power of ten 10^dec, the number's digits with dec added
 * to its exponent, read again (rounded once); else v * f. */
static double
scaled(const char *s, double v, double f, int dec)
{
    char num[80], *end;
    const char *e;
    size_t len;
    long x = 0;

    if (dec == 0 || dec >= NOTDEC / 2 || dec <= -NOTDEC / 2)
        return v * f;
    while (isspace((unsigned char)*s))
        s++;
    (void)strtod(s, &end);
    len = (size_t)(end - s);
    if (len == 0 || len >= sizeof num - 24)
        return v * f;
    e = memchr(s, 'e', len);
    if (!e)
        e = memchr(s, 'E', len);
    if (e) {
        x = strtol(e + 1, NULL, 10);
        len = (size_t)(e - s);
    }
    if (x > 100000 || x < -100000)
        return v * f;
    snprintf(num, sizeof num, "%.*se%ld", (int)len, s, x + dec);
    return strtod(num, NULL);
}

static int
nonneg(double v, const char *s, char *err, size_t errlen)
{
    if (v < 0 || isnan(v)) {
        snprintf(err, errlen, "'%s' is negative", s);
        return -1;
    }
    return 0;
}

/* The value times its unit must stay finite ("1e300 EB" overflows). */
static enum bb_status
finite_qty(const char *s, bb_qty *q, char *err, size_t errlen)
{
    if (!isfinite(q->v)) {
        snprintf(err, errlen, "'%s' overflows (too large to represent in bytes or seconds)", s);
        return BB_EINVAL;
    }
    return BB_OK;
}

enum bb_status
bb_parse_number(const char *s, double *v, char *err, size_t errlen)
{
    const char *u;

    if (split(s, v, &u, err, errlen) < 0)
        return BB_EINVAL;
    if (trimlen(u) != 0) {
        snprintf(err, errlen, "'%s' is not a number", s);
        return BB_EINVAL;
    }
    return BB_OK;
}

/* The common start of the quantity parsers: a non-negative number, then
 * either nothing (a plain value: *q is set, returns 1) or unit text of *n
 * characters at *u (returns 0); -1 with a message on error. */
static int
parse_head(const char *s, bb_qty *q, double *v, const char **u, size_t *n,
           char *err, size_t errlen)
{
    if (split(s, v, u, err, errlen) < 0 || nonneg(*v, s, err, errlen) < 0)
        return -1;
    *n = trimlen(*u);
    q->set = 1;
    q->plain = *n == 0;
    if (*n == 0) {
        q->v = *v;
        return 1;
    }
    return 0;
}

/* A size or a duration: a number and a unit of table t (nt units, named
 * kind and listed in list in messages). */
static enum bb_status
parse_scaled(const char *s, bb_qty *q, const unit_def *t, size_t nt, const char *kind,
             const char *list, char *err, size_t errlen)
{
    const char *u;
    const unit_def *d;
    double v;
    size_t n;

    int h = parse_head(s, q, &v, &u, &n, err, errlen);

    if (h != 0)
        return h < 0 ? BB_EINVAL : BB_OK;
    if (!(d = lookup(t, nt, u, n))) {
        snprintf(err, errlen, "unknown %s unit '%.*s' (expected %s)", kind, (int)n, u, list);
        return BB_EINVAL;
    }
    q->v = scaled(s, v, d->factor, d->dec);
    return finite_qty(s, q, err, errlen);
}

enum bb_status
bb_parse_size(const char *s, bb_qty *q, char *err, size_t errlen)
{
    return parse_scaled(s, q, size_units, NUNITS(size_units), "size", SIZE_UNITS_LIST, err,
                        errlen);
}

enum bb_status
bb_parse_rate(const char *s, bb_qty *q, char *err, size_t errlen)
{
    const char *u, *slash;
    const unit_def *f, *t;
    double v;
    size_t n;

    int h = parse_head(s, q, &v, &u, &n, err, errlen);

    if (h != 0)
        return h < 0 ? BB_EINVAL : BB_OK;
    slash = memchr(u, '/', n);
    if (slash == NULL) {
        snprintf(err, errlen, "unknown rate unit '%.*s' (expected a size unit per "
                 "time, e.g. GB/s; size units " SIZE_UNITS_LIST ")", (int)n, u);
        return BB_EINVAL;
    }
    if (!(f = lookup_size(u, (size_t)(slash - u)))) {
        snprintf(err, errlen, "unknown size unit '%.*s' in rate '%s' (expected "
                 SIZE_UNITS_LIST ")", (int)(slash - u), u, s);
        return BB_EINVAL;
    }
    if (!(t = lookup_time(slash + 1, n - (size_t)(slash - u) - 1))) {
        snprintf(err, errlen, "unknown time unit '%.*s' in rate '%s' (expected "
                 TIME_UNITS_LIST ")", (int)(n - (size_t)(slash - u) - 1), slash + 1, s);
        return BB_EINVAL;
    }
    q->v = f->dec != NOTDEC && t->dec != NOTDEC ? scaled(s, v, 1, f->dec - t->dec)
                                                 : v * f->factor / t->factor;
    return finite_qty(s, q, err, errlen);
}

enum bb_status
bb_parse_duration(const char *s, bb_qty *q, char *err, size_t errlen)
{
    return parse_scaled(s, q, time_units, NUNITS(time_units), "time", TIME_UNITS_LIST, err,
                        errlen);
}

enum bb_status
bb_parse_long_in(const char *s, long lo, long hi, long *v)
{
    long x;

    if (bb_num_full_long(s, &x) != BB_NUM_OK || x < lo || x > hi)
        return BB_EINVAL;
    *v = x;
    return BB_OK;
}

/* A value of a file format through one of the parsers above. */
static enum bb_status
file_qty(enum bb_status (*parse)(const char *, bb_qty *, char *, size_t), const char *s,
         double *v)
{
    bb_qty q = { 0, 0, 0 };
    char err[160];

    if (parse(s, &q, err, sizeof err) != BB_OK)
        return BB_EINVAL;
    *v = q.v;
    return BB_OK;
}

enum bb_status
bb_unit_bytes(const char *s, double *v)
{
    return file_qty(bb_parse_size, s, v);
}
enum bb_status
bb_unit_seconds(const char *s, double *v)
{
    return file_qty(bb_parse_duration, s, v);
}

enum bb_status
bb_unit_sim_seconds(const char *s, double *v)
{
    int rc = bb_unit_seconds(s, v);

    return rc != BB_OK || *v > BB_SIM_TIME_MAX ? BB_EINVAL : BB_OK;
}
enum bb_status
bb_unit_Bps(const char *s, double *v)
{
    return file_qty(bb_parse_rate, s, v);
}

double
bb_qty_rate_Bps(const bb_qty *q, double time_unit_s)
{
    return q->plain ? q->v / time_unit_s : q->v;
}

double
bb_qty_size_bytes(const bb_qty *q)
{
    return q->v;
}

/* Pick the SI prefix that leaves 1 <= x < 1000. */
static const char *
si(double *x)
{
    static const char *pre[] = { "", "k", "M", "G", "T", "P", "E" };
    int i = 0;

    while (fabs(*x) >= 1000.0 && i < 6) {
        *x /= 1000.0;
        i++;
    }
    return pre[i];
}

void
bb_fmt_size(char *buf, size_t len, double bytes, int plain)
{
    double x = bytes;
    const char *p;

    if (plain) {
        snprintf(buf, len, "%.6g units", bytes);
        return;
    }
    p = si(&x);
    snprintf(buf, len, "%.4g %sB", x, p);
}

void
bb_fmt_rate(char *buf, size_t len, double Bps, double time_unit_s, int plain)
{
    double x = Bps;
    const char *p;

    if (plain) {
        snprintf(buf, len, "%.6g units/time unit", Bps * time_unit_s);
        return;
    }
    p = si(&x);
    snprintf(buf, len, "%.4g %sB/s", x, p);
}

void
bb_fmt_duration(char *buf, size_t len, double s)
{
    if (s >= 3600.0 && fmod(s, 3600.0) == 0)
        snprintf(buf, len, "%g h", s / 3600.0);
    else if (s >= 60.0 && fmod(s, 60.0) == 0)
        snprintf(buf, len, "%g min", s / 60.0);
    else
        snprintf(buf, len, "%g s", s);
}
