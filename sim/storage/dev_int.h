/* dev_int.h: internals of the device models (not for src/): the table of
 * operations each model fills (as GSL's solver types), and the state of a
 * device.  device.c dispatches through it; devreg.c lists the models; one
 * file per model (dev_table.c, hdd.c, dev_ssd.c) defines its type.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_STORAGE_DEV_INT_H
#define BBSIZE_SIM_STORAGE_DEV_INT_H

#include <stddef.h>

#include "device.h"

/* A dirty extent of the HDD's write-back cache, and how many a device
 * with a write cache allocates at its start (bbs_arch_estimate counts
 * them). */
#define BBS_HDD_DIRTY_CAP0 1024
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
    const struct bbs_dev_type_s *type;
    double last_start_s;
    /* table model: current object and offset */
    int tab_have_cur;
    uint64_t tab_obj;
    uint64_t tab_off;
    bbs_hdd_state h;
};

/* A device model.  The parameters are checked (the field table, then
 * check) before init; serve gets a request already checked for size,
 * order and, when addressed, the capacity, and sets *done (>= t).
 * Any function may be NULL (nothing to do) but serve. */
typedef struct bbs_dev_type_s {
    const char *name;          /* the model in bbsize-device(5) */
    bbs_dev_kind kind;         /* its index in the registry (devreg.c) */
    const bbs_dev_field *fields;   /* its own keys (kind = this kind) */
    size_t nfields;
    int addressed;             /* offsets are device byte addresses, within
                                  the capacity; else offsets in an object */
    void (*defaults)(bbs_dev_params *p);          /* after the zeroing */
    int (*check)(const bbs_dev_params *p, char *err);  /* beyond the fields */
    int (*init)(bbs_dev *d, char *err);           /* allocate the state */
    void (*reset)(bbs_dev *d);                    /* the initial state */
    void (*release)(bbs_dev *d);                  /* free the state */
    int (*serve)(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done,
                 char *err);
} bbs_dev_type;

/* bbs_dev_type_of: the model of kind k, or NULL. */
const bbs_dev_type *bbs_dev_type_of(int k);

/* A field's address in p; the value check of one field (device.c). */
#define BBS_DEV_FIELD(m) offsetof(bbs_dev_params, m)

#endif
