/* darshan.h: reader of darshan-parser text output (one file per job): the
 * counters and, from Darshan 3.4 on, the HEATMAP records, for `bbsize fit
 * darshan`; and the job header every Darshan text format shares.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Format (darshan-parser, darshan 3.x): header lines "# key: value"
 * ("# run time:", "# nprocs:", "# exe:", "# jobid:", "# uid:",
 * "# start_time:", "# end_time:"), then tab-separated records "<module>
 * <rank> <record id> <counter> <value> <file> <mount> <fs>"; rank -1 is a
 * shared file aggregated over ranks; value -1 means "not monitored".  Other
 * lines (comments, modules not used) are skipped.
 *
 * Counters (shared/data/README.md): p = I/O time / run time, bw = bytes /
 * I/O time, I/O time = the slowest rank's read + write + metadata time:
 * max over ranks of the time on its own files, plus the slowest-rank time
 * (F_SLOWEST_RANK_TIME) of every shared file.  MPI-IO runs on POSIX, so
 * their counters overlap: POSIX + STDIO are used when POSIX is present,
 * MPI-IO + STDIO otherwise.
 *
 * HEATMAP (Darshan 3.4+, darshan-runtime lib/darshan-heatmap.c): per rank
 * and API ("heatmap:POSIX", "heatmap:MPIIO", "heatmap:STDIO" in the file
 * column), HEATMAP_F_BIN_WIDTH_SECONDS then HEATMAP_READ_BIN_i and
 * HEATMAP_WRITE_BIN_i, the bytes moved in bin i (a transfer's bytes spread
 * over the bins it spans in proportion to time).  Darshan collapses bins
 * in pairs (the width doubles from 0.1 s) until at most 200 cover the run,
 * so widths nest: records of different widths are summed on the coarsest.
 * The same module rule applies (POSIX + STDIO, or MPI-IO + STDIO). */
#ifndef BBSIZE_SRC_FORMATS_DARSHAN_H
#define BBSIZE_SRC_FORMATS_DARSHAN_H

#include <stddef.h>

#include "bb_error.h"
#include "fitjob.h"

enum { BB_DX_POSIX, BB_DX_MPIIO, BB_DX_STDIO, BB_DX_NMOD };

/* The largest rank count read (2^24, 16.7 million; the largest machines
 * run about a million ranks): per-rank times take 8 bytes per rank and
 * module up to the largest rank seen. */
#define BB_DX_MAX_RANKS 16777216L
/* The largest heatmap bin index + 1 read (Darshan writes at most 200 by
 * default): 8 bytes per bin per module and width. */
#define BB_DX_MAX_BINS 65536L

/* The job header of darshan-parser and darshan-dxt-parser output. */
typedef struct {
    char exe[256];          /* first word of "# exe:", "" if absent */
    char jobid[64], uid[32];/* "" if absent */
    long nprocs;            /* 0 if absent */
    double run_time_s;      /* "# run time:" or end - start + 1 */
    double start_epoch;     /* "# start_time:" (s since 1970), -1 if absent */
    long start, end;        /* as read, -1 if absent */
    long run_line, start_line;
} bb_darshan_hdr;

/* bb_darshan_hdr_init: an empty header (nothing read). */
void bb_darshan_hdr_init(bb_darshan_hdr *h);
/* bb_darshan_hdr_line: read one comment line (starting with '#', no
 * newline) into h if it is a header line; other comments are ignored.
 * Returns BB_OK or BB_EDATA (a run time given twice, not a positive
 * number: "PATH:LINENO: ..." in err, errlen bytes). */
enum bb_status bb_darshan_hdr_line(bb_darshan_hdr *h, const char *line, const char *path,
                                   long lineno, char *err, size_t errlen);
/* bb_darshan_hdr_finish: after the last line: the run time from the start
 * and end times when "# run time:" was absent; BB_EDATA when there is no
 * run time at all or end is before start. */
enum bb_status bb_darshan_hdr_finish(bb_darshan_hdr *h, const char *path, char *err,
                                     size_t errlen);

typedef struct {
    char source[512];
    bb_darshan_hdr hdr;
    int present[BB_DX_NMOD];          /* counter records seen per module */
    double bytes_read[BB_DX_NMOD], bytes_written[BB_DX_NMOD];
    double cumul_time_s[BB_DX_NMOD];  /* read + write + meta over all ranks */
    int use_mpiio;          /* the estimate uses MPI-IO (no POSIX records) */
    double io_time_s;       /* slowest rank, modules used */
    double bytes;           /* read + written, modules used */
    double p, bw_Bps;       /* the estimate (p clamped to [0, 1]) */
    char unmonitored[512];  /* used counters whose value was -1, ", "-separated */
    long records;           /* counter lines read */
    /* HEATMAP: bytes read + written per bin over all ranks and the modules
     * used, on bins of heat_width_s (heat NULL, heat_bins 0 without
     * heatmap records); owned, freed by bb_darshan_job_free. */
    long heat_records;      /* heatmap lines read */
    int heat_present[BB_DX_NMOD];
    int heat_use_mpiio;     /* no POSIX heatmap: MPI-IO's used */
    double *heat;
    size_t heat_bins;
    double heat_width_s;
} bb_darshan_job;

/* bb_darshan_parse: parse len bytes of text (need not be NUL-terminated)
 * named source in messages and compute the estimate.  Returns BB_OK,
 * BB_EDATA (no run time, a counter value that is not a number,
 * counters summing past the largest double, a heatmap bin before its
 * width or of widths that do not nest, heatmap bins holding more than
 * twice the bytes of all the counters (when counters are present and all
 * monitored), neither counter nor heatmap records: "FILE:LINE: ..."), or BB_ENOMEM (out of memory, or no
 * stream could be made of the text).  j is filled (free it with
 * bb_darshan_job_free) even on failure. */
enum bb_status bb_darshan_parse(const char *text, size_t len, const char *source, bb_darshan_job *j,
                     char *err, size_t errlen);

/* bb_darshan_job_free: release the heatmap; j may be NULL. */
void bb_darshan_job_free(bb_darshan_job *j);

/* bb_darshan_counters: j's counter totals as the fit's input (fitjob.h). */
bb_fit_counters bb_darshan_counters(const bb_darshan_job *j);

#endif
