/* t_csvout.c: the CSV numbers and rows every command writes (csvout.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "csvout.h"

/* Worked by hand: the shortest of %.15g..%.17g that reads back. */
static void
numbers_by_hand(void **state)
{
    char b[40];
    (void)state;
    bb_csv_fmt_num(b, sizeof b, 0.1);
    assert_string_equal(b, "0.1");               /* %.17g: 0.10000000000000001 */
    bb_csv_fmt_num(b, sizeof b, 1.0 / 3.0);
    assert_string_equal(b, "0.3333333333333333"); /* 16 digits suffice */
    bb_csv_fmt_num(b, sizeof b, 0.1 + 0.2);
    assert_string_equal(b, "0.30000000000000004"); /* 17 needed */
    bb_csv_fmt_num(b, sizeof b, 117667500000000.0);
    assert_string_equal(b, "117667500000000");
    bb_csv_fmt_num(b, sizeof b, 1e300);
    assert_string_equal(b, "1e+300");
    bb_csv_fmt_num(b, sizeof b, -2.5);
    assert_string_equal(b, "-2.5");
    bb_csv_fmt_num(b, sizeof b, 0.0);
    assert_string_equal(b, "0");
    bb_csv_fmt_num(b, sizeof b, NAN);
    assert_string_equal(b, "");
    bb_csv_fmt_num(b, sizeof b, INFINITY);
    assert_string_equal(b, "");
    bb_csv_fmt_num(b, sizeof b, -INFINITY);
    assert_string_equal(b, "");
}

/* Any double: reads back exactly, and one digit fewer would not (when
 * more than 15 were used). */
static void
numbers_round_trip(void **state)
{
    uint64_t x = 88172645463325252ULL;
    char b[40], shorter[40];
    (void)state;
    for (int i = 0; i < 100000; i++) {
        double v;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v))
            continue;
        bb_csv_fmt_num(b, sizeof b, v);
        assert_true(strtod(b, NULL) == v);
        for (int p = 15; p <= 17; p++) {
            snprintf(shorter, sizeof shorter, "%.*g", p, v);
            if (strcmp(shorter, b) == 0)
                break;
            assert_false(strtod(shorter, NULL) == v);   /* p digits did not do */
        }
    }
}

/* A row: fields in order, absent numbers empty, text quoted when it must
 * be (RFC 4180), one newline. */
static void
rows(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    (void)state;
    assert_non_null(fp);
    bb_csv_row(fp, "sndlus", "job-a", 0.25, -3, 40000000000L, 18446744073709551615ULL, NULL);
    bb_csv_row(fp, "snn", "a,b", NAN, 1.5);
    bb_csv_row(fp, "ss", "say \"hi\"", "two\nlines");
    fclose(fp);
    assert_string_equal(buf, "job-a,0.25,-3,40000000000,18446744073709551615,\n"
                             "\"a,b\",,1.5\n"
                             "\"say \"\"hi\"\"\",\"two\nlines\"\n");
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_by_hand),
        cmocka_unit_test(numbers_round_trip),
        cmocka_unit_test(rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
