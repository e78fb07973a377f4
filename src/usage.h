/* usage.h: the one form of a usage error (exit status 64, bbsize(1),
 * EXIT STATUS), the form argp_error gives its own:
 *
 *   bbsize CMD: option '--OPT': MESSAGE
 *   Try `bbsize CMD --help' or `bbsize CMD --usage' for more information.
 *
 * Every bad option value, and every combination of options a command
 * refuses, ends here, whether the argp parse is still running or not.
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
