/* workload_csv.h: the workload file format, bbsize-workload(5).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CSV, one application per row, after a header row naming the columns.
 * Required columns: name, p, bw; optional: period (quasi-period for the
 * simulator, a duration), burst (mean length of one I/O phase, a duration
 * or a plain number of time units), group (the partition of the burst
 * buffer an application belongs to, a name of at most 63 characters),
 * count (the row stands for that many identical applications, a whole
 * number in [1, BBA_COUNT_MAX]; at most BBA_COUNT_MAX in all).  Any
 * other column is refused, naming it.  '#' starts a comment
 * line; a line "#@ key = value" sets a platform default (pfs-bw, bb-bw,
 * time-unit, resolution) that command-line options override.  Fields are
 * separated by commas; spaces around a field are ignored; a field may be
 * double-quoted to contain commas ("" inside is a quote); a row is one
 * line, so no field holds a line break. */
#ifndef BBSIZE_SRC_FORMATS_WORKLOAD_CSV_H
#define BBSIZE_SRC_FORMATS_WORKLOAD_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "bb_error.h"

#include "bbanalytic.h"
#include "units.h"

typedef struct {
    char source[512];      /* file name, or "(built-in default workload)" */
    size_t n;              /* rows */
    size_t total;          /* applications: the rows' counts summed */
    bba_app *apps;         /* one per row, its count set (1 without a
                              count column); bw_Bps is filled by
                              bb_workload_resolve */
    bb_qty *bw;            /* the bandwidths as written */
    bb_qty *period;        /* the periods as written (set = 0 if absent) */
    int has_period;        /* the file has a period column */
    bb_qty *burst;         /* mean I/O phase lengths as written (set = 0 if
                              absent; plain = time units) */
    int has_burst;         /* the file has a burst column */
    long *line;            /* the line of each application's row */
    char (*group)[BBA_NAME_LEN]; /* each application's group ("" without a
                              group column; never empty with one) */
    int has_group;         /* the file has a group column (partitions,
                              bbsize-partition(1)) */
    int has_count;         /* the file has a count column */
    /* platform defaults from "#@" lines (set = 0 when absent) */
    bb_qty pfs_bw, bb_bw, time_unit;
    long resolution;       /* 0 when absent */
    /* the lines of those "#@" lines (0 when absent), for messages */
    long pfs_bw_line, bb_bw_line, time_unit_line, resolution_line;
} bb_workload_file;

/* Status of the readers: BB_OK, BB_EDATA (bad content), BB_ENOMEM (out
 * of memory) or, for bb_workload_read, the statuses of bb_read_file
 * (readfile.h: BB_ENOINPUT when it cannot be opened or read); err (errlen
 * bytes) holds "FILE:LINE: field 'p': ..." style messages.  w is freed on
 * failure; on success the caller frees it with bb_workload_free. */
enum bb_status bb_workload_read(const char *path, bb_workload_file *w, char *err,
                                size_t errlen);
enum bb_status bb_workload_parse(const char *text, const char *source,
                                 bb_workload_file *w, char *err, size_t errlen);
/* bb_workload_default: the built-in default workload (data/workloads/default.csv). */
enum bb_status bb_workload_default(bb_workload_file *w, char *err, size_t errlen);

/* bb_workload_resolve: turn plain bandwidths into bytes/s with the time
 * unit; sets apps[i].bw_Bps, period_s and burst_s (a plain burst is in
 * time units). */
void bb_workload_resolve(bb_workload_file *w, double time_unit_s);

/* bb_workload_all_plain: 1 when no bandwidth in the file had a unit. */
int bb_workload_all_plain(const bb_workload_file *w);

void bb_workload_free(bb_workload_file *w);

/* bb_workload_field: s written as one field of a workload file so that
 * bb_workload_parse reads s back (the writer's half of the quoting rule
 * above): control characters (line breaks included, which a row cannot
 * hold) become '?'; the field is double-quoted, with each '"' doubled,
 * when it holds a comma or a quote, starts with '#' (a comment line
 * otherwise) or begins or ends with a blank (trimmed otherwise).  Writes
 * at most len - 1 bytes and a NUL, and returns the field's full length
 * (like snprintf).  s must not be empty: a name is required. */
size_t bb_workload_field(char *buf, size_t len, const char *s);

/* The writer of the format, beside its reader: the header row and one row
 * per application, each field as bb_workload_parse reads it back.
 * Columns: name, p, bw always, then those of cols in the format's order
 * (period, burst, count).  Numbers with `digits` significant digits (17
 * round-trips a double); a bandwidth as bw / bw_scale followed by bw_unit
 * ("" and 1: plain, in data units per time unit), a duration followed by
 * time_unit ("": plain time units).  A NaN burst leaves its field empty
 * (the memoryless model for that row).  Writes to the caller's stream;
 * a write error shows on the stream (ferror).  O(length of the name). */
enum { BB_WL_PERIOD = 1, BB_WL_BURST = 2, BB_WL_COUNT = 4 };

typedef struct {
    unsigned cols;           /* BB_WL_* */
    int digits;              /* significant digits, 1 to 17 */
    double bw_scale;         /* > 0 */
    const char *bw_unit;     /* written after the scaled bandwidth */
    const char *time_unit;   /* written after a period or a burst */
} bb_workload_style;

typedef struct {
    const char *name;        /* not empty */
    double p, bw;            /* bw in the unit of bb_workload_style */
    double period, burst;    /* with BB_WL_PERIOD, BB_WL_BURST */
    long count;              /* with BB_WL_COUNT */
} bb_workload_row;

void bb_workload_write_header(FILE *fp, const bb_workload_style *st);
void bb_workload_write_row(FILE *fp, const bb_workload_style *st, const bb_workload_row *r);

/* The text of data/workloads/default.csv, compiled in (default_workload.c). */
extern const char bb_default_workload_csv[];

#endif
