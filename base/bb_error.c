/* bb_error.c: the error-message helper of bb_error.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bb_error.h"

int
bb_seterr(char *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL)
        return code;
    va_start(ap, fmt);
    vsnprintf(err, BB_ERRLEN, fmt, ap);
    va_end(ap);
    return code;
}

int
bb_bound_test(const char *what, double events, double bytes, double max_events,
              double max_bytes, const char *detail, const char *shrink, char *err)
{
    char b[64];

    if (!(events <= max_events)) {
        /* no "about inf events": beyond the double range, say so */
        if (isfinite(events))
            snprintf(b, sizeof b, "about %.3g", events);
        else
            snprintf(b, sizeof b, "more than %.3g", DBL_MAX);
        return bb_seterr(err, BB_ETOOBIG, "%s would execute %s events (%s), more than the "
                         "bound of %.6g: shorten it (%s), or raise the event bound to run it "
                         "anyway", what, b, detail, max_events, shrink);
    }
    if (!(bytes <= max_bytes)) {
        if (isfinite(bytes))
            snprintf(b, sizeof b, "about %.4g GB", bytes / 1e9);
        else
            snprintf(b, sizeof b, "more than %.3g bytes", DBL_MAX);
        return bb_seterr(err, BB_ETOOBIG, "%s would need %s of memory (%s), more than the "
                         "bound of %.4g GB: shrink it (%s), or raise the memory bound", what, b,
                         detail, max_bytes / 1e9, shrink);
    }
    return BB_OK;
}

const char *
bb_strstatus(int code)
{
    switch (code) {
    case BB_OK: return "ok";
    case BB_EINVAL: return "einval";
    case BB_EDATA: return "edata";
    case BB_ENOMEM: return "enomem";
    case BB_ETOOBIG: return "etoobig";
    case BB_ESINGULAR: return "esingular";
    case BB_ENOCONV: return "enoconv";
    case BB_EIO: return "eio";
    case BB_EINFEASIBLE: return "einfeasible";
    case BB_ENOINPUT: return "enoinput";
    case BB_EUNKNOWN: return "eunknown";
    default: return "unknown";
    }
}

void
bb_fmt_apart(double x, double y, char *bx, char *by, size_t len)
{
    int d = 4;

    snprintf(bx, len, "%.*g", d, x);
    snprintf(by, len, "%.*g", d, y);
    while (x != y && strcmp(bx, by) == 0 && d < 17) {
        d++;
        snprintf(bx, len, "%.*g", d, x);
        snprintf(by, len, "%.*g", d, y);
    }
}
