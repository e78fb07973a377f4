/* sizedist_file.h: the reader of message-size tables in the HOMA
 * simulator's format (data/vef/homasim_*.txt; the rules are in
 * workload/vefdist.h): text -> bbs_sizedist.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_SIZEDIST_FILE_H
#define BBSIZE_SRC_FORMATS_SIZEDIST_FILE_H

#include <stddef.h>

#include "bb_error.h"
#include "workload/vefdist.h"

/* bbs_sizedist_parse: read a HOMA-format table from text (len bytes; need
 * not be NUL-terminated).  name (a file name) prefixes error messages as
 * "NAME:LINE: ...".  unit_bytes scales sizes; tail is enum
 * bbs_sizedist_tail.  Errors: BB_EDATA (bad number, sizes not increasing,
 * cdf decreasing or outside [0,1], cdf not ending at 1 without a tail, no
 * rows), BB_ENOMEM. */
enum bb_status bbs_sizedist_parse(bbs_sizedist **out, const char *name, const char *text, size_t len,
                                  double unit_bytes, int tail, char *err);
#endif
