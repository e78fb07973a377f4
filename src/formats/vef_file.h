/* vef_file.h: the reader of VEF traces (bbsize-vef(5)): text -> bbs_vef
 * (workload/vef.h, where the validation rules are listed).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_VEF_FILE_H
#define BBSIZE_SRC_FORMATS_VEF_FILE_H

#include <stddef.h>

#include "bb_error.h"
#include "workload/vef.h"

/* bbs_vef_parse: parse text (len bytes) of file name.  *out is NULL on
 * error.  Errors: BB_EDATA (message names file, line, token), BB_ENOMEM. */
enum bb_status bbs_vef_parse(bbs_vef **out, const char *name, const char *text, size_t len, char *err);
#endif
