/* darshan.h: reader of darshan-parser text output (one file per job) and
 * the model's inputs estimated from it, for `bbsize fit darshan`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Format (darshan-parser, darshan 3.x): header lines "# key: value"
 * ("# run time:", "# nprocs:", "# exe:", "# jobid:"), then tab-separated
 * records "<module> <rank> <record id> <counter> <value> <file> <mount>
 * <fs>"; rank -1 is a shared file aggregated over ranks; value -1 means
 * "not monitored".  Other lines (DXT traces, comments) are skipped.
 *
 * Recipe (shared/data/README.md): p = I/O time / run time, bw = bytes /
 * I/O time, I/O time = the slowest rank's read + write + metadata time:
 * max over ranks of the time on its own files, plus the slowest-rank time
 * (F_SLOWEST_RANK_TIME) of every shared file.  MPI-IO runs on POSIX, so
 * their counters overlap: POSIX + STDIO are used when POSIX is present,
 * MPI-IO + STDIO otherwise. */
#ifndef BBSIZE_SRC_DARSHAN_H
#define BBSIZE_SRC_DARSHAN_H

#include <stddef.h>

enum { BB_DX_POSIX, BB_DX_MPIIO, BB_DX_STDIO, BB_DX_NMOD };

/* The largest rank count read (2^24, 16.7 million; the largest machines
 * run about a million ranks): per-rank times take 8 bytes per rank and
 * module up to the largest rank seen. */
#define BB_DX_MAX_RANKS 16777216L

typedef struct {
    char source[512];
    char exe[256];          /* first word of "# exe:", "" if absent */
    char jobid[64];
    long nprocs;
    double run_time_s;      /* "# run time:" or end - start + 1 */
    int present[BB_DX_NMOD];          /* records seen per module */
    double bytes_read[BB_DX_NMOD], bytes_written[BB_DX_NMOD];
    double cumul_time_s[BB_DX_NMOD];  /* read + write + meta over all ranks */
    int use_mpiio;          /* the estimate uses MPI-IO (no POSIX records) */
    double io_time_s;       /* slowest rank, modules used */
    double bytes;           /* read + written, modules used */
    double p, bw_Bps;       /* the estimate (p clamped to [0, 1]) */
    char unmonitored[512];  /* used counters whose value was -1, ", "-separated */
    long records;           /* counter lines read */
} bb_darshan_job;

/* bb_darshan_read: parse path and compute the estimate.  Returns 0,
 * BB_EXIT_NOINPUT (cannot open/read) or BB_EXIT_DATAERR (no run time, a
 * counter value that is not a number, no records: "FILE:LINE: ..."). */
int bb_darshan_read(const char *path, bb_darshan_job *j, char *err, size_t errlen);

/* bb_darshan_parse: the same reader on len bytes of text (need not be
 * NUL-terminated) named source in messages: what the tests and the fuzzer
 * link.  BB_EXIT_SOFTWARE when no stream could be made of the text. */
int bb_darshan_parse(const char *text, size_t len, const char *source, bb_darshan_job *j,
                     char *err, size_t errlen);

#endif
