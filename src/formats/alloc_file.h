/* alloc_file.h: the reader of allocation files (`[placement] file` of
 * bbsize-scenario(5), `bbsize netload --alloc`): one line per job, the
 * indices (0-based, among the compute nodes in order) of the nodes of its
 * ranks, separated by white space.  Text -> bbs_net_placement
 * (network/place.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_ALLOC_FILE_H
#define BBSIZE_SRC_FORMATS_ALLOC_FILE_H

#include <stddef.h>

#include "bb_error.h"
#include "network/place.h"

/* bbs_net_alloc_parse: read an allocation file from memory.  Errors
 * (BB_EDATA, "name:line: field N: ..."): a field that is not a
 * non-negative integer, an index >= the number of compute nodes, an index
 * used twice (naming both lines), no job at all. */
enum bb_status bbs_net_alloc_parse(const bbs_net_topo *t, const char *text, size_t len, const char *name,
                                   bbs_net_placement *pl, char *err);

#endif
