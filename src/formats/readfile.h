/* readfile.h: the one way bbsize reads an input file whole.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every reader of src/ (workload CSV, device files and temperature series,
 * CODES .conf and wiring files, VEF traces, scenarios) goes through it, so
 * that every format is bounded and treats a BOM alike: a text input with a
 * NUL byte is refused as soon as the byte is read (so /dev/zero or
 * /dev/urandom stop at once instead of filling memory), any input larger
 * than BB_READ_MAX_BYTES is refused, and a UTF-8 byte-order mark at the
 * start of a text input is dropped. */
#ifndef BBSIZE_SRC_FORMATS_READFILE_H
#define BBSIZE_SRC_FORMATS_READFILE_H

#include <stddef.h>

#include "bb_error.h"

/* The largest input read whole: 1 GiB of text (traces and logs are
 * megabytes), 64 MiB of binary data (wiring files are kilobytes). */
#define BB_READ_MAX_BYTES ((size_t)1 << 30)
#define BB_READ_MAX_BINARY_BYTES ((size_t)1 << 26)

enum { BB_READ_BINARY = 0, BB_READ_TEXT = 1 };

/* bb_read_file: path's bytes in *out (malloc'd, NUL-terminated, *len
 * bytes without the terminator; the caller frees it).  Returns BB_OK, or a
 * status of bb_error.h (BB_ENOINPUT: cannot open or read, a directory, a
 * dangling symbolic link (named with its target); BB_EDATA: a NUL byte or a
 * UTF-16 byte-order mark in text, too large; BB_ENOMEM: out of memory) with
 * a message naming the file in err (errlen bytes); *out is then NULL.
 * O(size of the file). */
enum bb_status bb_read_file(const char *path, int mode, char **out, size_t *len,
                            char *err, size_t errlen);

/* bb_read_watch: fn is called with every path bb_read_file is about to
 * open, before it opens it (NULL, the default: none).  The command sets
 * it so that an input one of its outputs names is refused before it is
 * read (src/outfile.h, bb_out_claim); fn may exit.  Not thread-safe to
 * change while files are read. */
void bb_read_watch(void (*fn)(const char *path));

#endif
