/* status.c: messages, the status -> exit map and the quantity -> option
 * table (status.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "usage.h"

int
bb_exit_status(int st)
{
    switch (st) {
    case BB_OK: return BB_EXIT_OK;
    case BB_EINFEASIBLE: return BB_EXIT_NO;
    case BB_ETOOBIG: return BB_EXIT_TOOBIG;
    case BB_EUNKNOWN: return BB_EXIT_USAGE;
    case BB_EINVAL:
    case BB_EDATA: return BB_EXIT_DATAERR;
    case BB_ENOINPUT: return BB_EXIT_NOINPUT;
    case BB_EIO: return BB_EXIT_IOERR;
    default: return BB_EXIT_SOFTWARE;
    }
}

int
bb_exit_status_opts(int st)
{
    return st == BB_EINVAL ? BB_EXIT_USAGE : bb_exit_status(st);
}

/* What the libraries' messages say, and the option that sets it.  A
 * phrase is the quantity as the advice names it ("lower the resolution"),
 * so that a message merely mentioning a resolution gets no option. */
static const struct {
    const char *phrase, *option;
} quantity_options[] = {
    { "lower the resolution", "--resolution" },
    { "a lower resolution", "--resolution" },
    { "give a resolution", "--resolution" },
    { "a resolution given", "--resolution" },
    { "a number of steps", "--steps" },
    { "fewer steps", "--steps" },
    { "fewer PFS bandwidths", "--pfs-bw" },
    { "a coarser time unit", "--time-unit" },
    { "use the fluid model", "--model fluid" },
    { "the Gauss-Seidel solver", "--solver gauss-seidel" },
    { "raise the target idle fraction", "--target-idle" },
    { "the drives' rating", "--dwpd" },
    { "lower the lazy threshold", "--threshold" },
    { "the operation bound", "--max-ops" },
    { "the memory bound", "--max-memory" },
    { "the event bound", "--max-events" },
    { "a shorter horizon", "--horizon" },
    { "a longer horizon", "--horizon" },
    { "a shorter warm-up", "--warmup" },
    { "fewer replications", "--replications" },
    { "minimum period", "--d-min" },
    { "the interval length", "--batch" },
    { "the run duration", "--duration" },
    { "fewer messages", "--messages" },
    { "fewer files", "--files" },
    { "fewer nodes", "--nodes" },
    { "a smaller scale", "--scale" },
};

/* s names option o as an option: o followed by neither a letter nor '-'
 * ("--max-memory" is not "--max-memory-x"). */
static int
names_option(const char *s, const char *o)
{
    size_t n = strcspn(o, " ");   /* "--model fluid": "--model" */

    for (const char *p = strstr(s, o); p; p = strstr(p + 1, o)) {
        char c = p[n];

        if (!(c >= 'a' && c <= 'z') && c != '-')
            return 1;
    }
    return 0;
}

void
bb_status_options(const char *msg, char *buf, size_t len)
{
    enum { N = sizeof quantity_options / sizeof quantity_options[0] };
    const char *at[N];
    size_t off = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    /* where each option's quantity is first named (NULL: not, or the
     * option is named already) */
    for (size_t i = 0; i < N; i++) {
        const char *o = quantity_options[i].option;

        at[i] = names_option(msg, o) ? NULL : strstr(msg, quantity_options[i].phrase);
        for (size_t j = 0; j < i && at[i]; j++)   /* two phrases, one option */
            if (at[j] && strcmp(quantity_options[j].option, o) == 0) {
                if (at[i] < at[j])
                    at[j] = at[i];
                at[i] = NULL;
            }
    }
    /* in the order the message names them */
    for (;;) {
        size_t k = N;

        for (size_t i = 0; i < N; i++)
            if (at[i] && (k == N || at[i] < at[k]))
                k = i;
        if (k == N)
            break;
        at[k] = NULL;
        off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
                                off == 0 ? " (" : ", ", quantity_options[k].option);
    }
    if (off > 0)
        off += (size_t)snprintf(buf + off, off < len ? len - off : 0, ")");
    if (off >= len)     /* cut: no option rather than half of one */
        buf[0] = '\0';
}

static void
vmessage(const char *fmt, va_list ap)
{
    char *msg = NULL, opts[256];

    if (vasprintf(&msg, fmt, ap) < 0) {   /* out of memory: the words alone */
        fputs("bbsize: ", stderr);
        fputs(fmt, stderr);
        fputc('\n', stderr);
        return;
    }
    bb_status_options(msg, opts, sizeof opts);
    fprintf(stderr, "bbsize: %s%s\n", msg, opts);
    free(msg);
}

void
bb_warn(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
}

void
bb_die(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    exit(status);
}

void
bb_die_lib(int st, const char *err)
{
    bb_die(bb_exit_status(st), "%s", err);
}

void
bb_die_opts(int st, const char *err)
{
    if (bb_exit_status_opts(st) == BB_EXIT_USAGE) {
        char opts[256];

        bb_status_options(err, opts, sizeof opts);
        bb_usage_error(NULL, "%s%s", err, opts);
    }
    bb_die_lib(st, err);
}
