/* units.h: quantities in the user's units (sizes, rates, durations) and
 * their printing.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes: a number with an optional unit B, kB (KB), MB, GB, TB, PB, EB
 * (powers of 1000) or KiB, MiB, GiB, TiB, PiB, EiB (powers of 1024).
 * Rates: a size unit followed by /s, /min or /h ("40GB/s", "2.5 TB/s").
 * Durations: a number with s, ms, us, min, h or d.  Spaces between number
 * and unit are allowed.  A number without a unit is "plain": a rate in data
 * units per time unit, a size in data units, a duration in seconds. */
#ifndef BBSIZE_SRC_UNITS_H
#define BBSIZE_SRC_UNITS_H

#include <stddef.h>

typedef struct {
    double v;      /* bytes, bytes/s or seconds; the number itself if plain */
    int plain;     /* 1 when no unit was written */
    int set;       /* 1 when a value was given */
} bb_qty;

/* Each parser returns 0 and fills *q, or -1 with a message in err
 * (errlen bytes) such as "unknown unit 'Gb' (expected ...)".  Values must
 * be finite and >= 0. */
int bb_parse_size(const char *s, bb_qty *q, char *err, size_t errlen);
int bb_parse_rate(const char *s, bb_qty *q, char *err, size_t errlen);
int bb_parse_duration(const char *s, bb_qty *q, char *err, size_t errlen);
/* bb_parse_number: a plain finite number (any sign); 0 or -1. */
int bb_parse_number(const char *s, double *v, char *err, size_t errlen);

/* bb_trim: s without leading and trailing white space (trailing space is
 * cut in place; the result points into s). */
char *bb_trim(char *s);

/* Resolution against the time unit: a plain rate x means x data units per
 * time unit (x / time_unit_s per second); a plain size is x data units. */
double bb_qty_rate_Bps(const bb_qty *q, double time_unit_s);
double bb_qty_size_bytes(const bb_qty *q);

/* Printing: "1.25 TB", "40 GB/s", "60 s"; with plain = 1, "1250 units",
 * "40 units/time unit".  Writes at most len bytes. */
void bb_fmt_size(char *buf, size_t len, double bytes, int plain);
void bb_fmt_rate(char *buf, size_t len, double Bps, double time_unit_s, int plain);
void bb_fmt_duration(char *buf, size_t len, double s);

#endif
