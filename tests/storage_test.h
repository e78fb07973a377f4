/* storage_test.h: helpers shared by the sim/storage test programs.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_TESTS_STORAGE_TEST_H
#define BBSIZE_TESTS_STORAGE_TEST_H

#include <math.h>

#include "storage/device.h"

/* cmocka 1.1's assert_float_equal compares floats; times and byte counts
 * need doubles.  Include after cmocka.h. */
#define assert_close(a, b, tol)                                                    \
    do {                                                                           \
        double a_ = (a), b_ = (b);                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                             \
            fail_msg("%s = %.17g, expected %.17g (tolerance %g)", #a, a_, b_,      \
                     (double)(tol));                                               \
    } while (0)

/* The HP 97560 of Ruemmler & Wilkes (one zone): 1,962 cylinders of 19
 * tracks of 72 x 512 B at 4,002 RPM; seek 3.24 + 0.400 sqrt(d) ms up to
 * 383 cylinders, 8.00 + 0.008 d beyond; overhead 2.2 ms; head switch
 * 1.6 ms.  No caches unless a test adds them. */
static inline void
hp97560(bbs_dev_params *p)
{
    bbs_dev_params_init(p, BBS_DEV_HDD);
    p->hdd.rpm = 4002;
    p->hdd.heads = 19;
    p->hdd.track_bytes_od = p->hdd.track_bytes_id = 72 * 512;
    p->capacity_bytes = 1962.0 * 19 * 72 * 512;
    p->hdd.seek_a_ms = 3.24;
    p->hdd.seek_b_ms = 0.400;
    p->hdd.seek_knee_cyl = 383;
    p->hdd.seek_c_ms = 8.00;
    p->hdd.seek_e_ms = 0.008;
    p->hdd.overhead_ms = 2.2;
    p->hdd.head_switch_ms = 1.6;
    p->hdd.bus_MBps = 10;
}

#endif
