/* tracejob.h: the trace-driven models as scenario jobs: Graph500 and file
 * loads configured by key = value pairs (as in a [job] section of
 * bbsize-scenario(5)), and a VEF job that names its trace file.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Keys (values with the units of the scenario format: sizes in B, kB, MB,
 * GB, KiB, ...; times in s, ms, us, ns):
 *   graph500: scale, edgefactor, coalescing, arch (altamira, i5-5200u,
 *     xeon-e5-2620, mont-blanc), query_time, equations (kronecker | fogsim |
 *     ccpe),
 *     root_law (lognormal | kronecker), root_degree, tail (fogsim | keep),
 *     max_levels, signal_bytes;
 *   fileload: files, file_size (MIN or MIN:MAX), pause (MIN or MIN:MAX),
 *     mode (write | read);
 *   vef: trace (a file name; the caller reads it and calls
 *     bbs_tracegen_vef, because nothing in sim/ reads files).
 * The job's ranks are the Graph500 processes or the file-load clients. */
#ifndef BBSIZE_SIM_WORKLOAD_TRACEJOB_H
#define BBSIZE_SIM_WORKLOAD_TRACEJOB_H

#include "workload/tracegen.h"

enum { BBS_TJ_GRAPH500 = 0, BBS_TJ_FILELOAD, BBS_TJ_VEF, BBS_TJ_N };

typedef struct {
    int kind;
    bbs_g500_params g;
    bbs_fileload f;
    char trace[1024];
} bbs_tracejob;

/* bbs_tracejob_parse_kind: "graph500", "fileload", "vef"
 * (case-insensitive); BB_EINVAL listing them. */
int bbs_tracejob_parse_kind(const char *name, int *kind, char *err);
const char *bbs_tracejob_name(int kind);
/* bbs_tracejob_defaults: the defaults of bbs_g500_params_init and
 * bbs_fileload_init. */
void bbs_tracejob_defaults(bbs_tracejob *j, int kind);
/* Keys are set from text by bbs_tracejob_set (src/formats/job_keys.h). */
/* bbs_tracejob_generate: append job `name` of `ranks` ranks to w
 * (graph500 and fileload; vef: BB_EINVAL, see above). */
int bbs_tracejob_generate(const bbs_tracejob *j, bbs_wl *w, const char *name, int ranks,
                          uint64_t seed, uint64_t unit, int *job_out, char *err);

#endif
