/* fz_heatmap.c: fuzz harness for the HEATMAP records of darshan-parser text
 * (src/formats/darshan.c) and the timeline of their bins
 * (analytic/questions/timeline.c), as `bbsize fit darshan` runs them.  Checks
 * what an accepted heatmap promises: a positive bin width, at most
 * BB_DX_MAX_BINS bins of finite bytes >= 0; and that the estimate of the
 * job has p in [0, 1] and a finite bandwidth.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "darshan.h"
#include "fitjob.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    bb_darshan_job j;
    bb_tl_opts o;
    bb_tl_stats st;
    bb_fit_est e;

    if (bb_darshan_parse((const char *)data, size, "fuzz.txt", &j, err, sizeof err) == 0
        && j.heat_bins > 0) {
        FZ_CHECK(j.heat_width_s > 0 && j.heat_bins <= (size_t)BB_DX_MAX_BINS);
        for (size_t b = 0; b < j.heat_bins; b++)
            FZ_CHECK(j.heat[b] >= 0 && isfinite(j.heat[b]));
        bb_tl_opts_default(&o);
        if (bb_tl_analyze_bins(j.heat, j.heat_bins, j.heat_width_s, j.hdr.run_time_s, &o, &st,
                               err) == 0) {
            bb_fit_counters k = bb_darshan_counters(&j);

            bb_fit_from_counters(&k, &st, &e);
            FZ_CHECK(e.p >= 0 && e.p <= 1 + 1e-12 && e.bw_Bps >= 0 && isfinite(e.bw_Bps));
            FZ_CHECK(e.phases == 0 || (e.burst_s > 0 && isfinite(e.burst_s)));
        }
    }
    bb_darshan_job_free(&j);
    return 0;
}
