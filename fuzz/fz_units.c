/* fz_units.c: fuzz harness for unit strings: the command line's sizes,
 * rates, durations and numbers (src/formats/units.c) and the scenario keys'
 * scaled numbers (sim/workload, bbs_wl_parse_*), then their printing.
 * Checks units.h's contract: an accepted size, rate or duration is finite
 * and >= 0 (abort() otherwise, which libFuzzer reports as a crash).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "fuzz.h"
#include "units.h"
#include "workload/wl_int.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], out[128], *s = fz_cstr(data, size);
    bb_qty q;
    double v;

    if (!s)
        return 0;
    if (bb_parse_size(s, &q, err, sizeof err) == 0) {
        FZ_CHECK(isfinite(q.v) && q.v >= 0);
        bb_fmt_size(out, sizeof out, bb_qty_size_bytes(&q), q.plain);
    }
    if (bb_parse_rate(s, &q, err, sizeof err) == 0) {
        FZ_CHECK(isfinite(q.v) && q.v >= 0);
        bb_fmt_rate(out, sizeof out, bb_qty_rate_Bps(&q, 1.0), 1.0, q.plain);
        bb_fmt_rate(out, sizeof out, bb_qty_rate_Bps(&q, 3600.0), 3600.0, q.plain);
    }
    if (bb_parse_duration(s, &q, err, sizeof err) == 0) {
        FZ_CHECK(isfinite(q.v) && q.v >= 0);
        bb_fmt_duration(out, sizeof out, q.v);
    }
    if (bb_parse_number(s, &v, err, sizeof err) == 0)
        bb_fmt_size(out, sizeof out, v, 1);
    (void)bbs_wl_parse_double(s, &v);
    if (bbs_wl_parse_time(s, &v) == 0)
        bb_fmt_duration(out, sizeof out, v);
    if (bbs_wl_parse_bytes(s, &v) == 0)
        bb_fmt_size(out, sizeof out, v, 0);
    {
        char *t = bb_trim(s);
        (void)t;
    }
    free(s);
    return 0;
}
