/* fz_sizedist.c: fuzz harness for the message-size tables that CDCNW VEF
 * traces and `bbsize trace` read (HOMA format, data/vef/,
 * src/formats/sizedist_file.c).  The input's last byte picks the tail law.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "bb_error.h"
#include "fuzz.h"
#include "sizedist_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[BB_ERRLEN];
    bbs_sizedist *d = NULL;
    int tail = size ? data[size - 1] % 2 : 0;

    if (bbs_sizedist_parse(&d, "fuzz.txt", (const char *)data, size, 1.0, tail, err) == BB_OK)
        bbs_sizedist_free(d);
    return 0;
}
