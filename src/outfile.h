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

/* No output names an input.  Every output the command line names is
 * claimed while the options are parsed (bb_out_claim: -o in options.c,
 * each command's own file options), every input when it is named
 * (bb_in_claim: the workload FILE, scenario files, fit's logs) and again
 * when it is read (bb_out_watch_inputs, which main calls, has every
 * bb_read_file call bb_in_claim first).  An output that is the same file
 * as an input or as another output is refused at once, before any work:
 * a usage error (status 64) naming the option and both names.  The same
 * file: the same device and inode when it exists (hard links and symbolic
 * links to it included, and a directory given as an input), else the same
 * name once symbolic links and the directory are resolved.  "-" and
 * character devices, FIFOs and sockets never conflict (writing them
 * replaces no file).  bb_out_claim refuses an empty name (64) and
 * bb_out_open checks again, for the outputs a command derives (report's
 * figures).  opt is the option without its dashes ("o", "iostat"), as in
 * usage.h.  O(inputs + outputs) per claim. */
void bb_out_claim(const char *opt, const char *path);
void bb_in_claim(const char *path);
void bb_out_watch_inputs(void);

/* bb_out_text: the len bytes of text to path (bb_out_open's rules and
 * exits) or, with path NULL, to standard output; a short write exits 74
 * ("PATH: write error", "write error on standard output").  The writers
 * of a whole file made in memory and checked first (fit, generate). */
void bb_out_text(const char *path, const char *text, size_t len);
/* bb_finish_stdout: flush and check stdout; exits 74 on a write error. */
void bb_finish_stdout(void);

#endif
