/* bb_error.c: the error-message helper of bb_error.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

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
    default: return "unknown";
    }
}
