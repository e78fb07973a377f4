/* usage.h: the one form of a usage error (exit status 64, bbsize(1),
 * EXIT STATUS), the form argp_error gives its own:
 *
 *   bbsize CMD: option '--OPT': MESSAGE
 *   Try `bbsize CMD --help' or `bbsize CMD --usage' for more information.
 *
 * Bad option values and refused combinations found after argp's parse
 * end here; those found inside an argp parser may use argp_error, which
 * prints the same first word and last line around "--OPT: MESSAGE".
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_USAGE_H
#define BBSIZE_SRC_USAGE_H

/* bb_usage_command: the name the messages start with, "bbsize CMD" (main
 * sets it before the command runs; "bbsize" until then).  The text is
 * copied (at most 63 bytes). */
void bb_usage_command(const char *name);

/* bb_usage_error: print "NAME: option '--OPT': " (opt NULL: "NAME: "),
 * then fmt with its arguments, then the line pointing at --help, on
 * stderr; exit 64. */
_Noreturn void bb_usage_error(const char *opt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
