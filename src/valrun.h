/* valrun.h: the computation of `bbsize validate` on a loaded workload,
 * shared by the command and by `bbsize report --validate` (which calls it
 * in-process): per buffer size, the analytic idle and quiet fractions, the
 * simulated replications, and the row's agreement (sim/crosscheck.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_VALRUN_H
#define BBSIZE_SRC_VALRUN_H

#include "simcli.h"

typedef struct {
    long S;                      /* quanta */
    double analytic, quiet_analytic;
    double bb_in_analytic;       /* quanta per time unit into the buffer
                                    (endurance.h), beside run.sum[k].bb_in_* */
    bbs_agreement ag;            /* against run.sum[k]'s idle interval */
} bb_valrow;

typedef struct {
    bb_simrun run;               /* the simulation: run.sum[k] beside rows[k] */
    bb_valrow *rows;             /* n rows, one per size */
    size_t n, n_agree, n_inconclusive;
} bb_validation;

/* bb_validation_run: the n sizes S (quanta) of the loaded workload and
 * platform ctx under the simulation options o, at relative tolerance tol.
 * The analytic side runs first (on o->threads threads): a size it cannot
 * solve returns its status with the message in err before anything is
 * simulated (V is then empty: bb_validation_free is still safe).  The
 * simulation exits as bb_sim_prepare and bb_sim_execute do (src/ code).
 * The interval of a row is the fraction interval of bbs_bb_summarize; the
 * verdict is bbs_agreement_judge's. */
int bb_validation_run(bb_validation *V, const bb_ctx *ctx, const bb_simopts *o, const long *S,
                      size_t n, double tol, char *err);
void bb_validation_free(bb_validation *V);

#endif
