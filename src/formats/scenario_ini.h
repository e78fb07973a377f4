/* scenario_ini.h: the INI syntax of bbsize-scenario(5) files, read with
 * libinih (Debian's libinih-dev), into a bbs_scenario (sim/workload).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_SCENARIO_INI_H
#define BBSIZE_SRC_FORMATS_SCENARIO_INI_H

#include <stddef.h>

#include "bb_error.h"
#include "workload/scenario.h"

/* BB_SCN_MAX_LINE: the longest line, in bytes without its newline, that
 * Debian's libinih reads whole (it is built with a fixed 200-byte line
 * buffer and splits longer lines); longer lines are refused, except
 * comment lines, which may be any length. */
#define BB_SCN_MAX_LINE 198

/* bb_scenario_parse: parse len bytes of text (need not be NUL-terminated)
 * named source into *s (see bbs_scenario_init for the defaults).  Errors
 * (err, BB_ERRLEN bytes, "source:line: ..."): BB_EDATA for syntax (a line
 * that is not a comment, [section] or key = value; text after a section's
 * ']'; a NUL byte; a line longer than BB_SCN_MAX_LINE), unknown sections
 * and keys, a key given twice in a section; BB_EINVAL for a value;
 * BB_ENOMEM.  On error *s is freed; on success free it with
 * bbs_scenario_free.  Not thread-safe: libinih's options are globals. */
enum bb_status bb_scenario_parse(const char *text, size_t len, const char *source, bbs_scenario *s,
                                 char *err);

#endif
