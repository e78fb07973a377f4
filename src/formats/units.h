/* units.h: the one unit parser of bbsize, for the command line and every
 * file format (scenario INI, trace jobs, ...), and the printing of
 * quantities in the user's units (sizes, rates, durations).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one unit table (case matters: "mb" and "Gb" are refused):
 *   sizes      B; kB (also KB), MB, GB, TB, PB, EB (powers of 1000);
 *              KiB, MiB, GiB, TiB, PiB, EiB (powers of 1024).
 *   durations  ns, us, ms, s (also sec), min, h, d (86,400 s).
 *   rates      a size unit, '/', a duration unit: "40GB/s", "2.5 TB/h",
 *              "100 MiB/ms".
 * White space between number and unit is allowed, and around the whole.
 * Numbers are decimal only (bb_num.h: no hex, inf or NaN), >= 0, and the
 * value times its unit must stay finite.  A number without a unit is
 * "plain": on the command line a rate in data units per time unit, a size
 * in data units, a duration in seconds; in files (bb_unit_*) bytes,
 * seconds and bytes per second.  Every parser is O(length of s). */
#ifndef BBSIZE_SRC_FORMATS_UNITS_H
#define BBSIZE_SRC_FORMATS_UNITS_H

#include <stddef.h>

#include "bb_error.h"

typedef struct {
    double v;      /* bytes, bytes/s or seconds; the number itself if plain */
    int plain;     /* 1 when no unit was written */
    int set;       /* 1 when a value was given */
} bb_qty;

/* Each parser returns BB_OK and fills *q, or BB_EINVAL with a message in
 * err (errlen bytes) such as "unknown unit 'Gb' (expected ...)".  Values
 * must be finite and >= 0. */
enum bb_status bb_parse_size(const char *s, bb_qty *q, char *err, size_t errlen);
enum bb_status bb_parse_rate(const char *s, bb_qty *q, char *err, size_t errlen);
enum bb_status bb_parse_duration(const char *s, bb_qty *q, char *err, size_t errlen);
/* bb_parse_number: a plain finite number (any sign); BB_OK or BB_EINVAL. */
enum bb_status bb_parse_number(const char *s, double *v, char *err, size_t errlen);

/* bb_parse_long_in: a whole decimal number in [lo, hi] (white space
 * allowed around it); BB_OK, or BB_EINVAL without a message. */
enum bb_status bb_parse_long_in(const char *s, long lo, long hi, long *v);

/* The units of file formats: a size, a duration or a rate of the table
 * above, a plain number being bytes, seconds or bytes per second.  BB_OK
 * with *v in bytes, seconds or bytes per second, or BB_EINVAL (no message:
 * the caller names file, line and key; BB_SIZE_UNITS and friends list what
 * is accepted).  Negative values are refused. */
enum bb_status bb_unit_bytes(const char *s, double *v);
enum bb_status bb_unit_seconds(const char *s, double *v);
enum bb_status bb_unit_Bps(const char *s, double *v);
/* bb_unit_sim_seconds: a time of the simulated system (scenario and trace
 * keys): bb_unit_seconds, and at most BB_SIM_TIME_MAX, the clock time up
 * to which the event engine's double still resolves 0.25 us (beyond it a
 * transfer of many gigabytes takes no time at all). */
#define BB_SIM_TIME_MAX 1e9
#define BB_SIM_TIME_RANGE "[0, 1e9 s]"
enum bb_status bb_unit_sim_seconds(const char *s, double *v);
#define BB_SIZE_UNITS "B, kB, MB, GB, TB, PB, EB, KiB, MiB, GiB, TiB, PiB, EiB"
#define BB_TIME_UNITS "ns, us, ms, s, min, h, d"

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
