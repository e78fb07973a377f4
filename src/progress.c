/* progress.c: the progress meter (progress.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"

static double
since(const struct timespec *t0)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

void
bb_meter_start(bb_meter *m, const bb_outopts *out, const char *what, const char *unit,
               size_t total)
{
    m->what = what;
    m->unit = unit;
    m->total = total;
    m->last = 0;
    m->shown = 0;
    m->enabled = bb_progress_enabled(out);
    m->quiet_s = 2.0;
    m->every_s = 5.0;
    {
        const char *e = getenv("BBSIZE_PROGRESS_INTERVAL");
        char *end;
        double v = e ? strtod(e, &end) : -1;

        if (e && end != e && *end == '\0' && v >= 0 && v <= 1e6)
            m->quiet_s = m->every_s = v;
    }
    /* redrawn in place only when the end is known (an open-ended search
     * prints whole lines, so that its answer never lands on one) */
    m->tty = total > 0 && isatty(STDERR_FILENO);
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
}

/* "2 min 5 s", "45 s"; past a billion hours (or not finite) "%.3g h", so
 * that no conversion to long overflows */
static void
fmt_left(char *buf, size_t len, double s)
{
    if (!(s < 3.6e12))
        snprintf(buf, len, "%.3g h", s / 3600);
    else if (s >= 3600)
        snprintf(buf, len, "%ld h %ld min", (long)s / 3600, (long)s % 3600 / 60);
    else if (s >= 60)
        snprintf(buf, len, "%ld min %ld s", (long)s / 60, (long)s % 60);
    else
        snprintf(buf, len, "%.0f s", s);
}

/* The seconds since the start when a line is due, else -1. */
static double
due(bb_meter *m)
{
    double t;

    if (!m->enabled)
        return -1;
    t = since(&m->t0);
    if (t < m->quiet_s || t - m->last < (m->tty ? 0.2 : m->every_s))
        return -1;
    m->last = t;
    return t;
}

void
bb_meter_update(bb_meter *m, size_t done)
{
    double t = due(m), rate;
    char left[48] = "";

    if (t < 0)
        return;
    rate = done / t;
    if (m->total > 0 && rate > 0 && done < m->total) {
        char l[32];

        fmt_left(l, sizeof l, (double)(m->total - done) / rate);
        snprintf(left, sizeof left, ", about %s left", l);
    }
    if (m->total > 0)
        fprintf(stderr, "%sbbsize %s: %zu/%zu %s, %.3g/s%s%s", m->tty ? "\r" : "", m->what,
                done, m->total, m->unit, rate, left, m->tty ? "\033[K" : "\n");
    else
        fprintf(stderr, "%sbbsize %s: %zu %s, %.3g/s%s", m->tty ? "\r" : "", m->what, done,
                m->unit, rate, m->tty ? "\033[K" : "\n");
    m->shown = 1;
}

void
bb_meter_bound(bb_meter *m, const char *what, size_t units, size_t done, size_t most,
               double left_s)
{
    double t = due(m);
    char left[48] = "";

    if (t < 0)
        return;
    if (left_s >= 0) {
        char l[32];

        fmt_left(l, sizeof l, ceil(left_s));   /* a bound: rounded up */
        snprintf(left, sizeof left, ", at most %s left", l);
    }
    fprintf(stderr, "%sbbsize %s: %zu of at most %zu %s, %.3g/s%s%s", m->tty ? "\r" : "",
            what ? what : m->what, done, most, m->unit, t > 0 ? units / t : 0.0, left,
            m->tty ? "\033[K" : "\n");
    m->shown = 1;
}

double
bb_meter_elapsed(const bb_meter *m)
{
    return since(&m->t0);
}

void
bb_meter_progress(void *ctx, size_t done, size_t total)
{
    (void)total;
    bb_meter_update(ctx, done);
}

int
bb_meter_estimate(const bb_outopts *out, double seconds, double count, const char *unit)
{
    char t[32];

    if (out->quiet || !(seconds > 10 || out->progress))
        return 0;
    if (!isfinite(seconds)) {   /* an estimator's failure: said, not printed as a time */
        if (isfinite(count))
            fprintf(stderr, "bbsize: this run's length could not be estimated (about %.3g "
                    "%s)\n", count, unit);
        else
            fprintf(stderr, "bbsize: this run's length could not be estimated (no finite "
                    "count of %s)\n", unit);
        return 1;
    }
    if (seconds < 10)
        snprintf(t, sizeof t, "%.2g s", seconds);
    else
        fmt_left(t, sizeof t, seconds);
    fprintf(stderr, "bbsize: this run is estimated at about %s (%.3g %s)\n", t, count, unit);
    return 1;
}

double
bb_meter_end(bb_meter *m)
{
    if (m->shown && m->tty)
        fputc('\n', stderr);
    return since(&m->t0);
}

int
bb_progress_enabled(const bb_outopts *o)
{
    return !o->quiet && (o->progress || isatty(STDERR_FILENO));
}
