/* fz_workload.c: fuzz harness for workload CSV files and their "#@" lines
 * (bbsize-workload(5), src/formats/workload_csv.c).  Checks what an accepted file
 * promises: every p in [0, 1], bandwidths and periods finite and >= 0, a
 * time unit > 0.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "fuzz.h"
#include "workload_csv.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512], *text = fz_cstr(data, size);
    bb_workload_file w;

    if (!text)
        return 0;
    if (bb_workload_parse(text, "fuzz.csv", &w, err, sizeof err) == 0) {
        for (size_t i = 0; i < w.n; i++) {
            FZ_CHECK(w.apps[i].p >= 0 && w.apps[i].p <= 1);
            FZ_CHECK(isfinite(w.bw[i].v) && w.bw[i].v >= 0);
            FZ_CHECK(!w.period[i].set || (isfinite(w.period[i].v) && w.period[i].v >= 0));
        }
        FZ_CHECK(!w.time_unit.set || (isfinite(w.time_unit.v) && w.time_unit.v > 0));
        bb_workload_resolve(&w, w.time_unit.set ? w.time_unit.v : 1.0);
        (void)bb_workload_all_plain(&w);
        bb_workload_free(&w);
    }
    free(text);
    return 0;
}
