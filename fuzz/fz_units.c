/* fz_units.c: fuzz harness for unit strings: the command line's sizes,
 * rates, durations and numbers and the file formats' values (bb_unit_*,
 * the same table: src/formats/units.c), then their printing.  Checks
 * units.h's contract: an accepted size, rate or duration is finite and
 * >= 0, and a file value equals the command line's (abort() otherwise,
 * which libFuzzer reports as a crash).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "fuzz.h"
#include "units.h"

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
    if (bb_unit_seconds(s, &v) == 0) {
        FZ_CHECK(bb_parse_duration(s, &q, err, sizeof err) == 0 && q.v == v);
        bb_fmt_duration(out, sizeof out, v);
    }
    if (bb_unit_bytes(s, &v) == 0) {
        FZ_CHECK(bb_parse_size(s, &q, err, sizeof err) == 0 && q.v == v);
        bb_fmt_size(out, sizeof out, v, 0);
    }
    if (bb_unit_Bps(s, &v) == 0)
        FZ_CHECK(isfinite(v) && v >= 0);
    {
        char *t = bb_trim(s);
        (void)t;
    }
    free(s);
    return 0;
}
