/* bb_error.h: status codes and the error-message buffer shared by the
 * analytic and simulator libraries.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every library function that can fail returns one of these codes and, when
 * the caller passes a buffer of BB_ERRLEN bytes, a one-line message saying
 * what was wrong (no trailing newline).  Nothing below src/ prints or exits,
 * and no message names a command-line option: a message names the quantity
 * ("lower the resolution", "raise the operation bound") and src/ turns a
 * code into an exit status and the quantity into its option, in one place
 * (src/status.h). */
#ifndef BBSIZE_BASE_BB_ERROR_H
#define BBSIZE_BASE_BB_ERROR_H

#include <stddef.h>

#define BB_ERRLEN 512

enum bb_status {
    BB_OK = 0,        /* success */
    BB_EINVAL = 1,    /* an argument is outside its documented domain */
    BB_EDATA = 2,     /* input data is inconsistent (e.g. a chain where state 0
                         is not reachable) */
    BB_ENOMEM = 3,    /* an allocation failed */
    BB_ETOOBIG = 4,   /* the model would not fit in the memory budget; the
                         message says how large it would be */
    BB_ESINGULAR = 5, /* a linear system was singular */
    BB_ENOCONV = 6,   /* an iterative method did not reach its tolerance; the
                         message gives the residual reached */
    BB_EIO = 7,       /* an I/O operation failed (library helpers that
                         write to a caller-opened stream) */
    BB_EINFEASIBLE = 8, /* the question has no answer (e.g. no buffer size
                         reaches the target idle fraction) */
    BB_ENOINPUT = 9,  /* an input file cannot be opened or read (missing, a
                         directory, a dangling link, a read error); the
                         message names the file */
    BB_EUNKNOWN = 10  /* a name to look up is none of the known ones (e.g. a
                         platform preset); the message lists the known ones */
};

/* bb_seterr: format a message into err (BB_ERRLEN bytes); err may be NULL,
 * in which case nothing is written.  Returns code, so that callers can write
 * `return bb_seterr(err, BB_EINVAL, "...")`. */
int bb_seterr(char *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* bb_fmt_apart: x and y into bx and by (len bytes each, >= 32) with the
 * fewest significant digits, 4 to 17, at which they print differently
 * (the same 4 digits when they are equal), so that a message comparing
 * two numbers never shows two equal-looking ones. */
void bb_fmt_apart(double x, double y, char *bx, char *by, size_t len);

/* bb_bound_test: a run's bound before it starts (bbsize(1), BOUNDS):
 * BB_OK when about `events` events and `bytes` bytes are within max_events
 * and max_bytes, else BB_ETOOBIG with a message in err (BB_ERRLEN bytes,
 * may be NULL) naming what ("the simulation"), the estimate and detail
 * (how it was made), shrink (what makes it smaller) and the event or
 * memory bound to raise.  A NaN estimate is beyond the bound. */
int bb_bound_test(const char *what, double events, double bytes, double max_events,
                  double max_bytes, const char *detail, const char *shrink, char *err);

/* bb_strstatus: a constant one-word name for a status code ("ok", "einval"...). */
const char *bb_strstatus(int code);

#endif
