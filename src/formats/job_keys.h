/* job_keys.h: the keys of a [job NAME] section of bbsize-scenario(5) (and
 * of `bbsize trace --set`): text -> the parameters of an MFNetSim model
 * (workload/models.h) or of a trace job (workload/tracejob.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes and times take the units of units.h (a bare number is bytes or
 * seconds).  Each setter changes one field, O(length of value), and on
 * error leaves the struct as it was. */
#ifndef BBSIZE_SRC_FORMATS_JOB_KEYS_H
#define BBSIZE_SRC_FORMATS_JOB_KEYS_H

#include "bb_error.h"
#include "workload/models.h"
#include "workload/tracejob.h"

/* bbs_model_set: set parameter key (iterations, compute, msg_bytes, dims,
 * allreduces, allreduce_bytes, grid, elements, orders, cg_iterations,
 * dof_bytes, total_bytes, mtti, delta, read_bytes, batch_op: which apply
 * to which model is in bbsize-scenario(5)) from a value string ("3x4x5x5"
 * for dims and grid, "8:17:3" for orders).  BB_EINVAL "parameter 'k': 'v'
 * is not ..." or naming the key and listing the keys of the model when
 * unknown. */
enum bb_status bbs_model_set(bbs_model *m, const char *key, const char *value, char *err);

/* bbs_tracejob_set: one key of a graph500, fileload or vef job (the list
 * is in workload/tracejob.h).  BB_EINVAL "key 'k': expected ..., got 'v'"
 * or "unknown key 'k' for graph500 (known: ...)". */
enum bb_status bbs_tracejob_set(bbs_tracejob *j, const char *key, const char *value, char *err);

#endif
