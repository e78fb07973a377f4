/* fz_scenario.c: fuzz harness for scenario files (bbsize-scenario(5)):
 * libinih's syntax (src/formats/scenario_ini.c) and the sections' and
 * keys' meaning (sim/workload/scenario.c).  Checks what an accepted file
 * promises: at least one job, each with a model and ranks >= 1, a horizon
 * > 0, the placement file named when the policy is file.
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
        FZ_CHECK(s.njobs >= 1);
        for (int j = 0; j < s.njobs; j++) {
            FZ_CHECK(s.jobs[j].ranks >= 1);
            FZ_CHECK(s.jobs[j].trace || (int)s.jobs[j].model.kind >= 0);
            (void)bbs_scn_job_model_name(&s.jobs[j]);
        }
        FZ_CHECK(s.horizon_s > 0);
        FZ_CHECK(s.placement != -1 || s.alloc[0]);
        bbs_scenario_free(&s);
    }
    return 0;
}
