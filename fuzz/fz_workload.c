/* fz_workload.c: fuzz harness for workload CSV files and their "#@" lines
 * (bbsize-workload(5), src/workload_csv.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

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
        bb_workload_resolve(&w, w.time_unit.set ? w.time_unit.v : 1.0);
        (void)bb_workload_all_plain(&w);
        bb_workload_free(&w);
    }
    free(text);
    return 0;
}
