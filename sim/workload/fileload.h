/* fileload.h: SANgo-style file loads: N files with sizes uniform in a
 * range, written or read one after the other with pauses uniform in a
 * range (SANgo's -file_amount_w/-file_size_w/-load_range_w and the _r
 * counterparts).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * File f (0..N-1) goes to client rank f mod ranks, as one request of its
 * whole size, preceded on that rank by a pause; sizes and pauses are drawn
 * on the file's client stream (seed, unit, WORKLOAD rank).  SANgo's own
 * example: 10 files of 10 GB written by 1 job. */
#ifndef BBSIZE_SIM_WORKLOAD_FILELOAD_H
#define BBSIZE_SIM_WORKLOAD_FILELOAD_H

#include <stdint.h>

#include "workload/wlsink.h"

typedef struct {
    long files;               /* N >= 0 */
    double size_min, size_max;   /* bytes, 0 < min <= max */
    double pause_min, pause_max; /* seconds, 0 <= min <= max */
    int write;                /* 1 write, 0 read */
    int ranks;                /* clients >= 1 */
    uint64_t first_object;    /* object id of file 0 */
} bbs_fileload;

/* bbs_fileload_init: SANgo's example, 10 files of 10 GB written by one
 * client without pauses. */
void bbs_fileload_init(bbs_fileload *f);

/* bbs_fileload_walk: emit the requests through sink->io; *bytes (may be
 * NULL) receives the total.  Errors: BB_EINVAL (naming the bad field), the
 * sink's status. */
int bbs_fileload_walk(const bbs_fileload *f, uint64_t seed, uint64_t unit,
                      const bbs_wl_sink *sink, double *bytes, char *err);

#endif
