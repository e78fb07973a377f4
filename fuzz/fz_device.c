/* fz_device.c: fuzz harness for device files (bbsize-device(5): HDD, SSD
 * and table models, src/formats/device_file.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "fuzz.h"
#include "device_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN], *text = fz_cstr(data, size);
    bbs_dev_params p;

    if (!text)
        return 0;
    memset(&p, 0, sizeof p);
    (void)bbs_dev_params_parse(&p, text, "fuzz.dev", err);
    free(text);
    return 0;
}
