/* outfile.h: the output files of bbsize (-o FILE, --iostat, --failures,
 * --link-stats, report figures), written safely when run as root.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_OUTFILE_H
#define BBSIZE_SRC_OUTFILE_H

#include <stdio.h>

/* Output files, safe when run as root.  bb_out_open picks how to write
 * path:
 *   "-"                        standard output;
 *   a new or regular file      a temporary beside it, renamed over it by
 *                              bb_out_commit (atomic; the mode is kept);
 *   a symbolic link            followed: its final target is replaced
 *                              atomically, the link stays a link;
 *   a character device, FIFO   opened and written in place, never renamed
 *   or socket                  over;
 *   a directory, block device  refused (status 73).
 * bb_out_commit flushes and closes (and renames); bb_out_abort discards
 * the temporary (a device or FIFO cannot be unwritten).  Both open and
 * commit exit on failure (status 73 or 74) after removing the temporary.
 * bb_out_commit_all commits several files together: all are written and
 * closed before the first is renamed, so a failed write leaves none.
 * A temporary not committed or aborted when the program exits (a later
 * refusal or failure) is removed at exit.  At most 32 are open at once. */
enum { BB_OUT_RENAME = 1, BB_OUT_DIRECT, BB_OUT_STDOUT };
typedef struct {
    FILE *fp;
    char *path;   /* the name written (symbolic links resolved) */
    char *tmp;    /* BB_OUT_RENAME: the temporary */
    int kind;
} bb_out;
void bb_out_open(bb_out *o, const char *path);
void bb_out_commit(bb_out *o);
void bb_out_abort(bb_out *o);
void bb_out_commit_all(bb_out *const *outs, size_t n);

#endif
