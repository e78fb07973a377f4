/* fz_codes.c: fuzz harness for CODES .conf files (legacy grammar) and the
 * dragonfly-dally parameters read from them (src/formats/codesconf.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "fuzz.h"
#include "codesconf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN];
    bbs_net_conf *c = NULL;
    bbs_net_conf_dally d;

    if (bbs_net_conf_parse((const char *)data, size, "fuzz.conf", &c, err) != BB_OK)
        return 0;
    (void)bbs_net_conf_get(c, "PARAMS", "num_groups");
    if (bbs_net_conf_dally_params(c, &d, err) == BB_OK)
        (void)bbs_net_params_check(&d.par, err);
    bbs_net_conf_free(c);
    return 0;
}
