/* fz_vef.c: fuzz harness for VEF traces in every dialect (plain MPI, EXT
 * DCNW, CDCNW, FLOWS, HOROVOD; bbsize-vef(5), src/formats/vef_file.c): the
 * header picks the dialect, so one harness covers them all.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "fuzz.h"
#include "vef_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN];
    bbs_vef *v = NULL;

    if (bbs_vef_parse(&v, "fuzz.vef", (const char *)data, size, err) == BB_OK) {
        (void)bbs_vef_p2p_bytes(v);
        bbs_vef_free(v);
    }
    return 0;
}
