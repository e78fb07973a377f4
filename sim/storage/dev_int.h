/* dev_int.h: internals shared by device.c and hdd.c (not for src/).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_STORAGE_DEV_INT_H
#define BBSIZE_SIM_STORAGE_DEV_INT_H

#include "device.h"

/* A dirty extent of the HDD's write-back cache. */
typedef struct {
    double off, len, t_dirty;
} bbs_hdd_extent;

typedef struct {
    /* mechanism */
    long cyl;              /* arm position */
    double head_byte;      /* byte address just after the last media access */
    double arm_free_s;     /* the arm finishes its current operation */
    /* read-ahead stream: position(t) = ra_anchor + rate (t - ra_t0), up to
     * ra_consumed + read_cache_bytes */
    int ra_active;
    double ra_lo, ra_anchor, ra_t0, ra_rate, ra_consumed;
    /* write-back cache: a ring of dirty extents in arrival order */
    bbs_hdd_extent *dirty;
    long ndirty, cap_dirty, head;
    double dirty_bytes;
} bbs_hdd_state;

struct bbs_dev {
    bbs_dev_params p;
    double last_start_s;
    /* table model: current object and offset */
    int tab_have_cur;
    uint64_t tab_obj;
    uint64_t tab_off;
    bbs_hdd_state h;
};

int bbs_hdd_state_init(bbs_dev *d, char *err);
void bbs_hdd_state_free(bbs_dev *d);
void bbs_hdd_state_reset(bbs_dev *d);
int bbs_hdd_serve(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done);

#endif
