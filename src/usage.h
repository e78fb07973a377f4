/* usage.h: the one form of a usage error (exit status 64, bbsize(1),
 * EXIT STATUS), the form argp gives its own errors:
 *
 *   bbsize CMD: MESSAGE
 *   Try `bbsize CMD --help' or `bbsize CMD --usage' for more information.
 *
 * Every usage error of every command ends here, found inside an argp
 * parser or after it (no command calls argp_error; argp's own, an
 * unknown option or one without its argument, keep argp's words in the
 * same form).  The functions below write MESSAGE in one wording per kind
 * of mistake:
 *
 *   a bad value         option '--OPT': 'VALUE' is not WHAT
 *   anything else about a value
 *                       option '--OPT': MESSAGE
 *   a missing option    option '--OPT' is required
 *   one of two          one of options '--A' and '--B' is required
 *   a dependent option  option '--OPT' needs option '--OTHER'
 *   options in conflict options '--A' and '--B' exclude each other
 *   a pair              options '--A' and '--B' go together
 *   out of place        option '--OPT' does not apply WHERE
 *   a stray argument    unexpected argument 'ARG'
 *   a missing argument  missing argument WHAT
 *
 * An option is named without its dashes ("bb-size", or "o" for -o): a
 * name of one letter prints as '-o', a longer one as '--bb-size', and a
 * name that starts with '-' prints as given.  Where a function takes a
 * "why" format, it may be NULL; otherwise its text follows the fixed
 * words in parentheses: "option '--bb-size' is required (e.g. 0:4TB)".
 * Each prints on stderr and exits with status 64 (BB_EXIT_USAGE).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_USAGE_H
#define BBSIZE_SRC_USAGE_H

/* bb_usage_command: the name the messages start with, "bbsize CMD" (main
 * sets it before the command runs; "bbsize" until then).  The text is
 * copied (at most 63 bytes). */
void bb_usage_command(const char *name);

/* bb_usage_error: "option '--OPT': " then fmt (opt NULL: fmt alone, for a
 * message that is about no one option). */
_Noreturn void bb_usage_error(const char *opt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* bb_usage_value: "option '--OPT': 'VALUE' is not " then what (a bad
 * value, quoted as given): bb_usage_value("load", arg, "a positive
 * number"). */
_Noreturn void bb_usage_value(const char *opt, const char *value, const char *what, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_usage_required: "option '--OPT' is required (WHY)". */
_Noreturn void bb_usage_required(const char *opt, const char *why, ...)
    __attribute__((format(printf, 2, 3)));

/* bb_usage_one_of: "one of options '--A' and '--B' is required (WHY)". */
_Noreturn void bb_usage_one_of(const char *a, const char *b, const char *why, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_usage_needs: "option '--OPT' needs option '--OTHER' (WHY)". */
_Noreturn void bb_usage_needs(const char *opt, const char *other, const char *why, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_usage_exclusive: "options '--A' and '--B' exclude each other (WHY)". */
_Noreturn void bb_usage_exclusive(const char *a, const char *b, const char *why, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_usage_together: "options '--A' and '--B' go together (WHY)". */
_Noreturn void bb_usage_together(const char *a, const char *b, const char *why, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_usage_inapplicable: "option '--OPT' does not apply " then where:
 * bb_usage_inapplicable("csv", "without a scenario"). */
_Noreturn void bb_usage_inapplicable(const char *opt, const char *where, ...)
    __attribute__((format(printf, 2, 3)));

/* bb_usage_unexpected: "unexpected argument 'ARG' (WHY)". */
_Noreturn void bb_usage_unexpected(const char *arg, const char *why, ...)
    __attribute__((format(printf, 2, 3)));

/* bb_usage_missing: "missing argument WHAT (WHY)", WHAT as the synopsis
 * names it: bb_usage_missing("FILE", NULL). */
_Noreturn void bb_usage_missing(const char *what, const char *why, ...)
    __attribute__((format(printf, 2, 3)));

#endif
