/* fz_dxt.c: fuzz harness for darshan-dxt-parser text (src/formats/dxt.c) and
 * the timeline built from it (analytic/questions/timeline.c), as `bbsize fit
 * darshan` runs them.  Checks what an accepted log promises: a positive run
 * time, transfers with 0 <= start <= end and bytes >= 0, all finite; and
 * what the timeline promises: phases no more than transfers, time in phases
 * within the horizon and at least the busy time, p in [0, 1], a finite
 * bandwidth.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "dxt.h"
#include "fitjob.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    bb_dxt_log log;
    bb_tl_opts o;
    bb_tl_stats st;
    bb_fit_est e;

    if (bb_dxt_parse((const char *)data, size, "fuzz.txt", &log, err, sizeof err) == 0) {
        size_t n = log.n;

        FZ_CHECK(log.hdr.run_time_s > 0 && isfinite(log.hdr.run_time_s));
        FZ_CHECK(n == log.rows[log.use_mpiio]);
        for (size_t i = 0; i < n; i++) {
            FZ_CHECK(log.iv[i].start_s >= 0 && log.iv[i].end_s >= log.iv[i].start_s);
            FZ_CHECK(isfinite(log.iv[i].end_s) && log.iv[i].bytes >= 0 && isfinite(log.iv[i].bytes));
        }
        bb_tl_opts_default(&o);
        o.resolution_s = BB_DXT_RESOLUTION_S;
        if (bb_tl_analyze(log.iv, n, log.hdr.run_time_s, &o, &st, err) == 0) {
            FZ_CHECK(st.phases <= n && st.phase_s <= st.horizon_s * (1 + 1e-12));
            FZ_CHECK(st.busy_s <= st.phase_s * (1 + 1e-12) + 1e-300);
            bb_fit_from_timeline(&st, BB_FIT_DXT, o.resolution_s, &e);
            FZ_CHECK(e.p >= 0 && e.p <= 1 + 1e-12 && e.bw_Bps >= 0);
        }
    }
    bb_dxt_free(&log);
    return 0;
}
