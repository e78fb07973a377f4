/* fitlogs.h: the logs of `bbsize fit darshan`: the files named on the
 * command line (directories walked), and one log read into its estimate.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FITLOGS_H
#define BBSIZE_SRC_FITLOGS_H

#include <stddef.h>

#include "darshan.h"
#include "fitjob.h"
#include "timeline.h"

typedef struct {
    char *path;
    double size_bytes;
} bb_fit_file;

typedef struct {
    bb_fit_file *f;
    size_t n, cap;
    size_t skipped;      /* entries of walked directories that are not
                            regular files (symbolic links to directories,
                            devices, FIFOs, sockets) */
} bb_fit_files;

/* Directories are walked to this depth. */
#define BB_FIT_MAX_DEPTH 32

/* bb_fit_collect: paths[0..n) in order; a directory is replaced by the
 * regular files below it (symbolic links to files followed, to
 * directories not; names starting with '.' skipped), sorted by name at
 * each level, to BB_FIT_MAX_DEPTH levels.  A symbolic link that cannot be
 * followed (a loop, a missing target) is skipped with a warning naming it.
 * Every file is claimed as an input (bb_in_claim) before any is read.  Exits with status 66 when a
 * path cannot be read, or when no file was found. */
void bb_fit_collect(char **paths, int n, bb_fit_files *fl);
void bb_fit_files_free(bb_fit_files *fl);

/* Warnings of one log (bits of bb_fit_log.warn). */
enum {
    BB_FITW_NOWRITE = 1,      /* nothing written: read traffic only */
    BB_FITW_BOTH_APIS = 2,    /* MPI-IO and POSIX counters both present */
    BB_FITW_UNMONITORED = 4,  /* counters with value -1 left out */
    BB_FITW_CLAMPED = 8,      /* I/O time above the run time: p = 1 */
    BB_FITW_MPIIO_ROWS = 16,  /* DXT: MPI-IO rows only */
    BB_FITW_HEAT_ONLY = 32    /* heatmap without counted time: p is an
                                 upper bound */
};

typedef struct {
    const char *path;         /* the caller's (not owned) */
    char exe[256], jobid[64], uid[32];
    long nprocs;
    double start_epoch;       /* -1 when unknown */
    int dxt;                  /* darshan-dxt-parser text (else darshan-parser) */
    bb_fit_est est;
    unsigned warn;            /* BB_FITW_* */
    char *unmonitored;        /* malloc'd list, or NULL */
    const char *dup_of;       /* the same job as this (finer) log's path:
                                 left out; NULL when kept */
} bb_fit_log;

/* bb_fit_read_log: read path (either text format, told apart by its
 * content) and estimate its job with the timeline options o.  Returns
 * BB_OK, or a status of bb_error.h (BB_EDATA or BB_EINVAL bad content,
 * BB_ENOINPUT unreadable, BB_ENOMEM out of memory) with a message naming
 * the file in err.  Free lg->unmonitored after. */
int bb_fit_read_log(const char *path, const bb_tl_opts *o, bb_fit_log *lg, char *err,
                    size_t errlen);

/* BB_FIT_BYTES_PER_TEXT_BYTE: the most memory reading one log takes per
 * byte of its text, for the estimate made before reading: the text, and
 * for each transfer row (26 characters at least) 24 bytes kept in an
 * array that grows by doubling (up to 48), plus 8 bytes of gaps in the
 * timeline: 1 + 56/26 < 3.5.  Besides: a heatmap's bins (at most
 * BB_DX_MAX_BINS x 8 bytes x 12 arrays) and the period's FFT (about
 * 100 bytes per bin of at most 65,536). */
#define BB_FIT_BYTES_PER_TEXT_BYTE 3.5
#define BB_FIT_FIXED_BYTES (12.0 * 8 * BB_DX_MAX_BINS + 100.0 * 65536)

#endif
