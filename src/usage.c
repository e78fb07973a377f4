/* usage.c: the one form of a usage error (usage.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "exitcodes.h"
#include "usage.h"

static char command[64] = "bbsize";

void
bb_usage_command(const char *name)
{
    snprintf(command, sizeof command, "%s", name);
}

/* An option as the user spells it: '-o', '--bb-size', or as given. */
static void
option(const char *opt)
{
    const char *dashes = opt[0] == '-' ? "" : opt[0] != '\0' && opt[1] == '\0' ? "-" : "--";

    fprintf(stderr, "'%s%s'", dashes, opt);
}

/* fmt with its arguments (in parentheses after a space if parens;
 * nothing for a NULL fmt), then the line pointing at --help; exit 64.
 * The callers' va_start has no va_end: nothing returns. */
static _Noreturn void
finish(int parens, const char *fmt, va_list ap)
{
    if (fmt != NULL) {
        if (parens)
            fputs(" (", stderr);
        vfprintf(stderr, fmt, ap);
        if (parens)
            fputc(')', stderr);
    }
    fprintf(stderr, "\nTry `%s --help' or `%s --usage' for more information.\n", command,
            command);
    exit(BB_EXIT_USAGE);
}

/* "NAME: " lead 'A' [join 'B'] tail, then finish: the messages about
 * one option or two. */
static _Noreturn void
about(const char *lead, const char *a, const char *join, const char *b, const char *tail,
      int parens, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: %s", command, lead);
    option(a);
    if (b != NULL) {
        fputs(join, stderr);
        option(b);
    }
    fputs(tail, stderr);
    finish(parens, fmt, ap);
}

void
bb_usage_error(const char *opt, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    if (opt == NULL) {
        fprintf(stderr, "%s: ", command);
        finish(0, fmt, ap);
    }
    about("option ", opt, NULL, NULL, ": ", 0, fmt, ap);
}

void
bb_usage_value(const char *opt, const char *value, const char *what, ...)
{
    va_list ap;

    fprintf(stderr, "%s: option ", command);
    option(opt);
    fprintf(stderr, ": '%s' is not ", value);
    va_start(ap, what);
    finish(0, what, ap);
}

void
bb_usage_required(const char *opt, const char *why, ...)
{
    va_list ap;

    va_start(ap, why);
    about("option ", opt, NULL, NULL, " is required", 1, why, ap);
}

void
bb_usage_one_of(const char *a, const char *b, const char *why, ...)
{
    va_list ap;

    va_start(ap, why);
    about("one of options ", a, " and ", b, " is required", 1, why, ap);
}

void
bb_usage_needs(const char *opt, const char *other, const char *why, ...)
{
    va_list ap;

    va_start(ap, why);
    about("option ", opt, " needs option ", other, "", 1, why, ap);
}

void
bb_usage_exclusive(const char *a, const char *b, const char *why, ...)
{
    va_list ap;

    va_start(ap, why);
    about("options ", a, " and ", b, " exclude each other", 1, why, ap);
}

void
bb_usage_together(const char *a, const char *b, const char *why, ...)
{
    va_list ap;

    va_start(ap, why);
    about("options ", a, " and ", b, " go together", 1, why, ap);
}

void
bb_usage_inapplicable(const char *opt, const char *where, ...)
{
    va_list ap;

    va_start(ap, where);
    about("option ", opt, NULL, NULL, " does not apply ", 0, where, ap);
}

void
bb_usage_unexpected(const char *arg, const char *why, ...)
{
    va_list ap;

    fprintf(stderr, "%s: unexpected argument '%s'", command, arg);
    va_start(ap, why);
    finish(1, why, ap);
}

void
bb_usage_missing(const char *what, const char *why, ...)
{
    va_list ap;

    fprintf(stderr, "%s: missing argument %s", command, what);
    va_start(ap, why);
    finish(1, why, ap);
}
