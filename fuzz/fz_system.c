/* fz_system.c: fuzz harness for platform presets (bbsize-system(5),
 * src/formats/systems.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz.h"
#include "systems.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    bb_system s;

    (void)bb_system_parse((const char *)data, size, "fuzz.conf", "fuzz", &s, err, sizeof err);
    return 0;
}
