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

void
bb_usage_error(const char *opt, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", command);
    if (opt != NULL)
        fprintf(stderr, "option '--%s': ", opt);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry `%s --help' or `%s --usage' for more information.\n", command,
            command);
    exit(BB_EXIT_USAGE);
}
