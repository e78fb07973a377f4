/* fz_scenario.c: fuzz harness for scenario files (bbsize-scenario(5)):
 * libinih's syntax (src/formats/scenario_ini.c) and the sections' and
 * keys' meaning (sim/workload/scenario.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "formats/scenario_ini.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN];
    bbs_scenario s;

    if (bb_scenario_parse((const char *)data, size, "fuzz.ini", &s, err) == BB_OK) {
        for (int j = 0; j < s.njobs; j++)
            (void)bbs_scn_job_model_name(&s.jobs[j]);
        bbs_scenario_free(&s);
    }
    return 0;
}
