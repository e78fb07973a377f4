/* device_file.h: the reader of bbsize-device(5) files: key = value lines,
 * '#' comments, the fields and models of sim/storage/device.h (bbs_dev_field_at,
 * bbs_dev_model_find: the reader names no model).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_DEVICE_FILE_H
#define BBSIZE_SRC_FORMATS_DEVICE_FILE_H

#include "bb_error.h"
#include "storage/device.h"

/* bbs_dev_params_parse: read a bbsize-device(5) text (key = value lines,
 * '#' comments) into p; source names the text in messages
 * ("file:line: field 'rpm': ...").  Checks the result with
 * bbs_dev_params_check.  O(length x fields).  Errors: BB_EDATA (syntax,
 * unknown key, bad or missing value), BB_EINVAL (a value out of its
 * domain). */
enum bb_status bbs_dev_params_parse(bbs_dev_params *p, const char *text, const char *source,
                                    char *err);

#endif
