/* scenario_keys.h: what the sections and keys of bbsize-scenario(5) mean:
 * text -> a bbs_scenario (workload/scenario.h).  The INI syntax around
 * them is scenario_ini.h's.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes, times and bandwidths take the units of units.h (a bare number is
 * bytes, seconds or bytes per second).  Every error is BB_EDATA (syntax,
 * unknown or repeated key) or BB_EINVAL (a value) with "file:line:
 * [section] key 'token': what".  A key is looked up among the few dozen
 * of its section; a repeated key among those given so far (O(keys)). */
#ifndef BBSIZE_SRC_FORMATS_SCENARIO_KEYS_H
#define BBSIZE_SRC_FORMATS_SCENARIO_KEYS_H

#include "bb_error.h"
#include "workload/scenario.h"

/* bbs_scenario_section: a section header [name] (name as written between
 * the brackets) on line lineno; where is "file:line" for messages.  "job
 * NAME" adds a job.  BB_EDATA: unknown section, job without a name, a job
 * name given twice or longer than 63 bytes; BB_ENOMEM. */
enum bb_status bbs_scenario_section(bbs_scenario *s, const char *name, int lineno, const char *where,
                                    char *err);

/* bbs_scenario_set: key = val in the current section.  BB_EDATA: empty key
 * or value, a key outside any section, unknown, or given twice in the same
 * section (naming the first line), a job key before 'model'; BB_EINVAL: a
 * value out of its domain; BB_ENOMEM. */
enum bb_status bbs_scenario_set(bbs_scenario *s, const char *key, const char *val, int lineno,
                                const char *where, char *err);

/* bbs_scenario_finish: the checks that need the whole file: at least one
 * job, each with a model and ranks (vef: a trace), the model's own checks,
 * [failures] mttr with mttf or drive_scale, drive_shape > 0, placement file
 * with policy = file, preset or codes but not both.  BB_EDATA or
 * BB_EINVAL. */
enum bb_status bbs_scenario_finish(bbs_scenario *s, char *err);

#endif
