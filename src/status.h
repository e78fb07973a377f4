/* status.h: the one place where bbsize turns what went wrong into words on
 * stderr and an exit status: the messages ("bbsize: ..."), the map from
 * the libraries' statuses (bb_error.h) to the exit statuses of bbsize(1)
 * (exitcodes.h), and the options a library message's quantities stand for.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The libraries (analytic/, sim/, src/formats/) name quantities, not
 * options: "raise the operation bound", "lower the resolution".  Every
 * message printed here is followed by the options of the quantities it
 * names, once each, in parentheses: "... or raise the operation bound
 * (--max-ops)".  The table is in status.c; a message that names an option
 * already gets nothing added for it. */
#ifndef BBSIZE_SRC_STATUS_H
#define BBSIZE_SRC_STATUS_H

#include <stddef.h>

#include "bb_error.h"
#include "exitcodes.h"

/* bb_exit_status: the exit status for a library status code:
 *   BB_OK 0; BB_EINFEASIBLE 1 (answered "no"); BB_ETOOBIG 2 (refused);
 *   BB_EUNKNOWN 64 (a name on the command line is none of the known ones);
 *   BB_EINVAL, BB_EDATA 65 (bad input data); BB_ENOINPUT 66 (an input
 *   cannot be opened or read); BB_EIO 74 (a write failed); BB_ENOMEM,
 *   BB_ESINGULAR, BB_ENOCONV and anything else 70 (internal or numerical
 *   failure). */
int bb_exit_status(int bb_status);
/* bb_exit_status_opts: the same for a run built from the command line
 * alone (bbarch, device, netload): a value the library refuses
 * (BB_EINVAL) is a bad command line, 64. */
int bb_exit_status_opts(int bb_status);

/* bb_status_options: the options the quantities named in msg stand for,
 * as " (--max-ops, --resolution)" in buf (len bytes; "" when msg names
 * none, or names each of them as an option already).  O(length of msg
 * times the table's size). */
void bb_status_options(const char *msg, char *buf, size_t len);

/* Messages: "bbsize: ", the message, its options (bb_status_options) and
 * a newline on stderr.  bb_die then exits with status. */
void bb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void bb_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* bb_die_lib: die with a library's message err and the exit status of
 * its status st (bb_exit_status): what every command does with a library
 * failure it does not handle itself. */
_Noreturn void bb_die_lib(int bb_status, const char *err);
/* bb_die_opts: the same for a run built from the command line alone
 * (bb_exit_status_opts): a status that maps to 64 is a usage error,
 * printed in the form of usage.h (the command's name, err and its
 * options, the line pointing at --help). */
_Noreturn void bb_die_opts(int bb_status, const char *err);

#endif
