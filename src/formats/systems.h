/* systems.h: platform presets of real machines, bbsize-system(5): find,
 * read and list data/systems/NAME.conf.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A preset is a text file of "key = value" lines; '#' starts a comment
 * (each value carries its public source in the comment above it).  Keys:
 * title, pfs-bw, bb-size, bb-bw, bb-kind, compute-nodes, bb-nodes,
 * time-unit, resolution.  pfs-bw is required; sizes and rates must carry a
 * unit.  Presets are NAME.conf in the systems/ folder of the data
 * directories the caller gives (src/datadir.h), in order: the first
 * directory holding NAME.conf wins. */
#ifndef BBSIZE_SRC_FORMATS_SYSTEMS_H
#define BBSIZE_SRC_FORMATS_SYSTEMS_H

#include <stddef.h>

#include "bb_error.h"

#include "units.h"

#define BB_SYSTEM_NAME_LEN 64

typedef struct {
    char name[BB_SYSTEM_NAME_LEN];  /* file name without .conf */
    char title[256];
    char kind[64];                   /* shared, node-local, flash-pfs, none */
    char path[1024];                 /* the file read (bb_system_lookup in src/
                                        shows it relative to its data directory) */
    bb_qty pfs_bw, bb_bw, bb_size, time_unit;  /* set = 0 when absent */
    long compute_nodes, bb_nodes;    /* 0 when absent */
    long resolution;                 /* 0 when absent */
} bb_system;

/* bb_system_read: parse one preset file.  Returns BB_OK, the statuses of
 * bb_read_file (readfile.h: BB_ENOINPUT when it cannot be opened) or
 * BB_EDATA ("FILE:LINE: key 'k': ..." in err, errlen bytes). */
enum bb_status bb_system_read(const char *path, const char *name, bb_system *s,
                              char *err, size_t errlen);

/* bb_system_parse: the same reader on len bytes of text (need not be
 * NUL-terminated) named source in messages: what the tests and the fuzzer
 * link.  BB_ENOMEM when no stream could be made of the text. */
enum bb_status bb_system_parse(const char *text, size_t len, const char *source,
                               const char *name, bb_system *s, char *err, size_t errlen);

/* bb_system_find: look NAME up (case-insensitive) in DIR/systems for
 * each of the ndirs directories dirs, in order.  Returns BB_OK,
 * BB_EUNKNOWN for an unknown name (err: "unknown system 'NAME'; known:
 * ..." listing the known ones) or the statuses of bb_system_read. */
enum bb_status bb_system_find(const char *name, const char *const *dirs, size_t ndirs,
                              bb_system *s, char *err, size_t errlen);

/* bb_system_names: the known names, sorted, without duplicates; *out is
 * a malloc'd array of malloc'd strings (free with bb_system_names_free).
 * Returns the count (0 when there is none or memory ran out). */
size_t bb_system_names(const char *const *dirs, size_t ndirs, char ***out);
void bb_system_names_free(char **names, size_t n);

#endif
