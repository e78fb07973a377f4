/* device.c: what every device model shares (device.h): the checks of the
 * parameters against the fields of bbsize-device(5) (the text is read by
 * src/formats/device_file.c), and a device's life, dispatched through its
 * model's table of operations (dev_int.h; the models in devreg.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "dev_int.h"

void
bbs_dev_params_init(bbs_dev_params *p, bbs_dev_kind kind)
{
    const bbs_dev_type *t = bbs_dev_type_of((int)kind);

    memset(p, 0, sizeof *p);
    p->kind = kind;
    if (t && t->defaults)
        t->defaults(p);
}

static int
check_value(const char *key, double v, int cons, char *err)
{
    if (!isfinite(v) || (cons == BBS_DEV_C_POS && v <= 0) || (cons == BBS_DEV_C_NONNEG && v < 0))
        return bb_seterr(err, BB_EINVAL, "field '%s': %g is not %s", key, v,
                         cons == BBS_DEV_C_POS ? "a positive number" : "a number >= 0");
    return BB_OK;
}

int
bbs_dev_field_check(const bbs_dev_field *f, double v, char *err)
{
    return check_value(f->key, v, f->cons, err);
}

int
bbs_dev_params_check(const bbs_dev_params *p, char *err)
{
    const bbs_dev_type *t = bbs_dev_type_of((int)p->kind);
    const char *base = (const char *)p;
    size_t n = bbs_dev_nfields();
    int rc;

    if (t == NULL)
        return bb_seterr(err, BB_EINVAL, "unknown device model %d", (int)p->kind);
    for (size_t i = 0; i < n; i++) {
        const bbs_dev_field *f = bbs_dev_field_at(i);

        if (f->kind != -1 && f->kind != (int)p->kind)
            continue;
        if (f->type == BBS_DEV_F_DBL) {
            double v = *(const double *)(base + f->off);
            if (!f->required && v == 0 && f->cons == BBS_DEV_C_POS)
                continue; /* optional, "use the default" */
            if ((rc = check_value(f->key, v, f->cons, err)) != BB_OK)
                return rc;
        } else if (f->type == BBS_DEV_F_INT) {
            int v = *(const int *)(base + f->off);
            if (!f->required && v == 0)
                continue;
            if ((rc = check_value(f->key, v, f->cons, err)) != BB_OK)
                return rc;
        } else if (f->type == BBS_DEV_F_ARR) {
            const double *a = (const double *)(base + f->off);
            for (int j = 0; j < p->table.nbins; j++)
                if ((rc = check_value(f->key, a[j], f->cons, err)) != BB_OK)
                    return rc;
        }
    }
    return t->check ? t->check(p, err) : BB_OK;
}

/* ---- devices -------------------------------------------------------------- */

int
bbs_dev_new(bbs_dev **out, const bbs_dev_params *p, char *err)
{
    const bbs_dev_type *t;
    bbs_dev *d;
    int rc;

    *out = NULL;
    if ((rc = bbs_dev_params_check(p, err)) != BB_OK)
        return rc;
    t = bbs_dev_type_of((int)p->kind);
    d = calloc(1, sizeof *d);
    if (!d)
        return bb_seterr(err, BB_ENOMEM, "out of memory allocating a device");
    d->p = *p;
    d->type = t;
    if (t->init && (rc = t->init(d, err)) != BB_OK) {
        free(d);
        return rc;
    }
    bbs_dev_reset(d);
    *out = d;
    return BB_OK;
}

void
bbs_dev_free(bbs_dev *d)
{
    if (!d)
        return;
    if (d->type->release)
        d->type->release(d);
    free(d);
}

void
bbs_dev_reset(bbs_dev *d)
{
    d->last_start_s = 0;
    if (d->type->reset)
        d->type->reset(d);
}

const bbs_dev_params *
bbs_dev_get_params(const bbs_dev *d)
{
    return &d->p;
}

int
bbs_dev_serve(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done, char *err)
{
    if (io->size_bytes == 0)
        return bb_seterr(err, BB_EINVAL, "request of 0 bytes");
    if (!(t >= d->last_start_s) || !isfinite(t))
        return bb_seterr(err, BB_EINVAL, "request starts at %.9g s, before the previous "
                         "one (%.9g s): not FIFO", t, d->last_start_s);
    if (d->type->addressed
        && (double)io->offset_bytes + (double)io->size_bytes > d->p.capacity_bytes)
        return bb_seterr(err, BB_EINVAL, "request [%llu, +%llu) beyond the capacity %.0f B",
                         (unsigned long long)io->offset_bytes,
                         (unsigned long long)io->size_bytes, d->p.capacity_bytes);
    d->last_start_s = t;
    return d->type->serve(d, t, io, rng, done, err);
}
