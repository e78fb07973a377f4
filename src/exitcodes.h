/* exitcodes.h: the exit statuses of bbsize (documented in bbsize(1),
 * EXIT STATUS).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_EXITCODES_H
#define BBSIZE_SRC_EXITCODES_H

enum {
    BB_EXIT_OK = 0,          /* success */
    BB_EXIT_NO = 1,          /* answered "no": no buffer size reaches the
                                target (expected load >= PFS bandwidth) */
    BB_EXIT_TOOBIG = 2,      /* refused: a model or run beyond the memory or event bounds */
    BB_EXIT_USAGE = 64,      /* bad command line (argp's EX_USAGE) */
    BB_EXIT_DATAERR = 65,    /* bad input data */
    BB_EXIT_NOINPUT = 66,    /* an input file cannot be opened or read */
    BB_EXIT_SOFTWARE = 70,   /* internal or numerical failure */
    BB_EXIT_CANTCREAT = 73,  /* an output file cannot be created */
    BB_EXIT_IOERR = 74       /* a write failed */
};

#endif
