/* csvout.c: CSV numbers and rows (csvout.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "csvout.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
bb_csv_fmt_num(char *buf, size_t len, double v)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (!isfinite(v))
        return;
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static void
put_text(FILE *fp, const char *s)
{
    if (s == NULL)
        return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

void
bb_csv_row(FILE *fp, const char *types, ...)
{
    va_list ap;
    char num[40];

    va_start(ap, types);
    for (const char *t = types; *t; t++) {
        if (t != types)
            fputc(',', fp);
        switch (*t) {
        case 'n':
            bb_csv_fmt_num(num, sizeof num, va_arg(ap, double));
            fputs(num, fp);
            break;
        case 'd':
            fprintf(fp, "%d", va_arg(ap, int));
            break;
        case 'l':
            fprintf(fp, "%ld", va_arg(ap, long));
            break;
        case 'u':
            fprintf(fp, "%llu", va_arg(ap, unsigned long long));
            break;
        case 's':
            put_text(fp, va_arg(ap, const char *));
            break;
        default:
            abort();
        }
    }
    va_end(ap);
    fputc('\n', fp);
}
