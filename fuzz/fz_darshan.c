/* fz_darshan.c: fuzz harness for darshan-parser text (src/formats/darshan.c, read
 * by `bbsize fit darshan`).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "darshan.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    bb_darshan_job j;

    (void)bb_darshan_parse((const char *)data, size, "fuzz.txt", &j, err, sizeof err);
    bb_darshan_job_free(&j);
    return 0;
}
