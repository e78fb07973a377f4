/* csvout.h: the rows of every command's --csv table (docs/json.md), so
 * that a number is written the same way by every command: in the shortest
 * %.15g, %.16g or %.17g form that reads back (strtod) as the same double,
 * so no digit is lost and none is invented; an empty field for an absent
 * value (NAN) or a non-finite one, where JSON has null; a text field in
 * double quotes (inner quotes doubled, RFC 4180) when it holds a comma, a
 * quote or a line break.  One table per stream: a command writes one header
 * line, then rows with as many fields.  No allocation; O(fields) per row.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CSVOUT_H
#define BBSIZE_SRC_CSVOUT_H

#include <stdio.h>

/* bb_csv_fmt_num: v as a CSV number into buf ("" when v is not finite);
 * len >= 32 holds any double. */
void bb_csv_fmt_num(char *buf, size_t len, double v);

/* bb_csv_row: one row on fp, ended by a newline: one field per letter of
 * types, taken from the arguments in order:
 *   n  double            a number (bb_csv_fmt_num; NAN: empty)
 *   d  int               a whole number
 *   l  long
 *   u  unsigned long long
 *   s  const char *      text (NULL: empty)
 * An unknown letter is a programming error (abort). */
void bb_csv_row(FILE *fp, const char *types, ...);

#endif
