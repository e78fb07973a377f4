/* dcnw.h: message generators of the extended VEF data-centre models:
 * DCNW / CDCNW (Poisson arrivals at LOAD Gb/s per task, sizes from a
 * step-CDF table) and FLOWS (traffic classes of flows in a time window).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DCNW / CDCNW: every task t is a Poisson source with mean gap
 * mean_size * 8 / (LOAD * 1e9) s, where mean_size is the table's exact
 * mean (bbs_sizedist_mean); each message draws a size from the table and
 * a destination from the trace's law.  Messages are emitted in time order
 * (ties by task) until #Msgs of them (or max_msgs, if smaller and > 0).
 * FLOWS: #Msgs flows in [0, TIME) cycles of clock_ps; gaps Exp(TIME /
 * #Msgs) cycles; the source is uniform over the tasks, the class is drawn
 * by PERC, the size uniform in [MIN, MAX] KB (1 KB = 1024 B), the
 * destination from the class's law or the default.  Streams: per task for
 * DCNW, one (seed, unit, WORKLOAD 0) stream for FLOWS. */
#ifndef BBSIZE_SIM_WORKLOAD_DCNW_H
#define BBSIZE_SIM_WORKLOAD_DCNW_H

#include <stdint.h>

#include "workload/vef.h"
#include "workload/vefdist.h"
#include "workload/wlsink.h"

/* bbs_dcnw_walk: emit the messages of trace v (DCNW, CDCNW: sizes from
 * d; FLOWS: d unused) through sink->msg.  *last_s (may be NULL) gets the
 * last message's time.  Errors: BB_EINVAL (wrong kind, d missing), the
 * sink's status, BB_ENOMEM. */
int bbs_dcnw_walk(const bbs_vef *v, const bbs_sizedist *d, long max_msgs, uint64_t seed,
                  uint64_t unit, const bbs_wl_sink *sink, double *last_s, char *err);

#endif
