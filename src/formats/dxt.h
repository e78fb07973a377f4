/* dxt.h: reader of darshan-dxt-parser text output (Darshan eXtended
 * Tracing): every traced read and write of a job with its start and end
 * time, for `bbsize fit darshan`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Format (darshan-util darshan-dxt-parser, Darshan 3.1 to 3.4): the job
 * header of darshan-parser (darshan.h bb_darshan_hdr), then one block per
 * file and rank:
 *   # DXT, file_id: ID, file_name: NAME
 *   # DXT, rank: R, hostname: HOST
 *   # DXT, write_count: W, read_count: N
 *   # DXT, mnt_pt: ..., fs_type: ...        (and Lustre stripe lines)
 *   # Module    Rank  Wt/Rd  Segment  Offset  Length  Start(s)  End(s)
 *    X_POSIX   R  write  0  OFFSET  LENGTH  START  END  [ OST ]...
 * with the W writes first, then the N reads, each group in time order;
 * times in seconds from the job's start, printed to 0.1 ms.  X_MPIIO rows
 * may lack the offset column.  Darshan 3.1's DXLT variant writes
 * "# DXLT, rank: R, file_id: ID, file_name: NAME", "# DXLT, write_count:
 * W, read_count: N" (after stripe fields) and the modules POSIX and MPIIO.
 * Lustre OST columns ("[ 12]") after the end time are ignored.
 *
 * MPI-IO runs on POSIX: as for the counters (darshan.h), the POSIX rows
 * are used when there are any, the MPI-IO rows otherwise.  Both reads and
 * writes are kept (what the counters' recipe counts).
 *
 * Checks: every row belongs to a block, has the block's rank (below
 * nprocs), a non-negative length, 0 <= start <= end, finite numbers; each
 * block has the rows it announces (a shorter one is a truncated file); the
 * last line ends with a newline.  Memory: 24 bytes per transfer kept. */
#ifndef BBSIZE_SRC_FORMATS_DXT_H
#define BBSIZE_SRC_FORMATS_DXT_H

#include <stddef.h>

#include "bb_error.h"

#include "darshan.h"
#include "timeline.h"

/* The timestamps' resolution of darshan-dxt-parser ("%12.4f"). */
#define BB_DXT_RESOLUTION_S 1e-4

typedef struct {
    char source[512];
    bb_darshan_hdr hdr;
    int dxlt;               /* the Darshan 3.1 "# DXLT," variant */
    size_t blocks;          /* file and rank blocks read */
    size_t rows[2];         /* transfer rows read: POSIX, MPI-IO */
    int use_mpiio;          /* no POSIX rows: the MPI-IO ones are kept */
    double bytes_read, bytes_written;   /* of the rows kept */
    bb_tl_iv *iv;           /* the transfers kept (owned) */
    size_t n;
} bb_dxt_log;

/* bb_dxt_parse: parse len bytes of text (need not be NUL-terminated)
 * named source in messages.  Returns BB_OK, BB_EDATA (a bad row or
 * header, "FILE:LINE: field '...': ..." in err, errlen bytes) or BB_ENOMEM
 * (out of memory).  Free log with bb_dxt_free whatever the result. */
enum bb_status bb_dxt_parse(const char *text, size_t len, const char *source,
                            bb_dxt_log *log, char *err, size_t errlen);

/* bb_dxt_looks_like: 1 when the text has a DXT or DXLT block header line
 * (what tells darshan-dxt-parser output from darshan-parser output). */
int bb_dxt_looks_like(const char *text, size_t len);

void bb_dxt_free(bb_dxt_log *log);

#endif
