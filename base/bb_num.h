/* bb_num.h: the one number reader of every bbsize parser (options, workload
 * CSV, presets, device files, CODES .conf, VEF, scenarios, darshan text).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * strtod and strtol accept more than a user means: "inf", "nan",
 * hexadecimal ("0x10", "0x1p3"), values that overflow to HUGE_VAL or
 * underflow to 0 (errno ERANGE, easy to forget).  These readers accept only
 * plain decimal notation, [+-]digits[.digits][(e|E)[+-]digits], and say
 * precisely why anything else was refused. */
#ifndef BBSIZE_BASE_BB_NUM_H
#define BBSIZE_BASE_BB_NUM_H

enum bb_num_status {
    BB_NUM_OK = 0,
    BB_NUM_EMPTY,     /* nothing but white space */
    BB_NUM_NOTNUM,    /* does not start with a decimal number */
    BB_NUM_HEX,       /* hexadecimal notation (0x...) */
    BB_NUM_INF,       /* "inf" or "infinity" */
    BB_NUM_NAN,       /* "nan" */
    BB_NUM_OVERFLOW,  /* beyond the range of the type */
    BB_NUM_UNDERFLOW  /* non-zero but below the smallest normal double */
};

/* bb_strtod: read a decimal number at s (leading white space skipped) into
 * *v; *end (may be NULL) is set after it.  Returns BB_NUM_OK with a finite
 * *v, else a BB_NUM_* code with *end = s and *v = 0.  Trailing text is the
 * caller's to check.  O(length). */
int bb_strtod(const char *s, double *v, char **end);

/* bb_strtol: the same for a decimal integer (no fraction, no exponent),
 * in the range of long. */
int bb_strtol(const char *s, long *v, char **end);

/* bb_strtod_lax: a drop-in for strtod(s, end) in scanners that check
 * *end themselves: the same decimal-only rules as bb_strtod, but refusal
 * looks like "no number here" (returns 0, *end = s), so the caller's
 * "not a number" path takes it.  Sets errno = ERANGE on overflow or
 * underflow, EINVAL on other refusals, 0 on success. */
double bb_strtod_lax(const char *s, char **end);

/* bb_num_why: a constant phrase for a BB_NUM_* code, to follow the value
 * in a message: "'0x10' is hexadecimal (write a decimal number)". */
const char *bb_num_why(int code);

/* bb_num_full: bb_strtod of the whole string s (white space allowed around
 * it); BB_NUM_NOTNUM when anything else follows.  *v is 0 on any refusal. */
int bb_num_full(const char *s, double *v);
/* bb_num_full_long: the same with bb_strtol. */
int bb_num_full_long(const char *s, long *v);

/* bb_skip_bom: s past a UTF-8 byte-order mark (EF BB BF, what spreadsheet
 * programs write at the start of a text file), else s.  Every reader
 * applies it to the first line of its input, so a BOM reads as absent. */
char *bb_skip_bom(char *s);

#endif
