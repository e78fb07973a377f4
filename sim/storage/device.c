/* device.c: device parameters (the fields of bbsize-device(5) and their
 * checks; the text is read by src/formats/device_file.c), the table and
 * SSD service-time laws, and dispatch to the HDD model (hdd.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "dev_int.h"

/* ---- parameter table ----------------------------------------------------- */

enum { F_DBL = BBS_DEV_F_DBL, F_INT = BBS_DEV_F_INT, F_STR = BBS_DEV_F_STR,
       F_ARR = BBS_DEV_F_ARR };
enum { C_POS = BBS_DEV_C_POS, C_NONNEG = BBS_DEV_C_NONNEG };

typedef bbs_dev_field field;

#define P(m) offsetof(bbs_dev_params, m)
static const field fields[] = {
    { "name", -1, F_STR, P(name), C_POS, 0 },
    { "capacity_bytes", -1, F_DBL, P(capacity_bytes), C_POS, 1 },
    /* table */
    { "request_sizes_bytes", BBS_DEV_TABLE, F_ARR, P(table.size_bytes), C_NONNEG, 1 },
    { "read_rates_MiBps", BBS_DEV_TABLE, F_ARR, P(table.read_MiBps), C_POS, 1 },
    { "write_rates_MiBps", BBS_DEV_TABLE, F_ARR, P(table.write_MiBps), C_POS, 1 },
    { "read_seeks_us", BBS_DEV_TABLE, F_ARR, P(table.read_seek_us), C_NONNEG, 1 },
    { "write_seeks_us", BBS_DEV_TABLE, F_ARR, P(table.write_seek_us), C_NONNEG, 1 },
    { "read_overheads_us", BBS_DEV_TABLE, F_ARR, P(table.read_overhead_us), C_NONNEG, 1 },
    { "write_overheads_us", BBS_DEV_TABLE, F_ARR, P(table.write_overhead_us), C_NONNEG, 1 },
    { "seq_window_bytes", BBS_DEV_TABLE, F_DBL, P(table.seq_window_bytes), C_NONNEG, 0 },
    /* hdd */
    { "rpm", BBS_DEV_HDD, F_DBL, P(hdd.rpm), C_POS, 1 },
    { "heads", BBS_DEV_HDD, F_INT, P(hdd.heads), C_POS, 1 },
    { "track_bytes_od", BBS_DEV_HDD, F_DBL, P(hdd.track_bytes_od), C_POS, 1 },
    { "track_bytes_id", BBS_DEV_HDD, F_DBL, P(hdd.track_bytes_id), C_POS, 1 },
    { "seek_a_ms", BBS_DEV_HDD, F_DBL, P(hdd.seek_a_ms), C_NONNEG, 1 },
    { "seek_b_ms", BBS_DEV_HDD, F_DBL, P(hdd.seek_b_ms), C_NONNEG, 1 },
    { "seek_knee_cyl", BBS_DEV_HDD, F_DBL, P(hdd.seek_knee_cyl), C_NONNEG, 1 },
    { "seek_c_ms", BBS_DEV_HDD, F_DBL, P(hdd.seek_c_ms), C_NONNEG, 1 },
    { "seek_e_ms", BBS_DEV_HDD, F_DBL, P(hdd.seek_e_ms), C_NONNEG, 1 },
    { "head_switch_ms", BBS_DEV_HDD, F_DBL, P(hdd.head_switch_ms), C_NONNEG, 0 },
    { "overhead_ms", BBS_DEV_HDD, F_DBL, P(hdd.overhead_ms), C_NONNEG, 0 },
    { "bus_MBps", BBS_DEV_HDD, F_DBL, P(hdd.bus_MBps), C_POS, 1 },
    { "readahead_min_bytes", BBS_DEV_HDD, F_DBL, P(hdd.readahead_min_bytes), C_NONNEG, 0 },
    { "read_cache_bytes", BBS_DEV_HDD, F_DBL, P(hdd.read_cache_bytes), C_NONNEG, 0 },
    { "write_cache_bytes", BBS_DEV_HDD, F_DBL, P(hdd.write_cache_bytes), C_NONNEG, 0 },
    { "destage_window", BBS_DEV_HDD, F_INT, P(hdd.destage_window), C_POS, 0 },
    /* ssd */
    { "page_bytes", BBS_DEV_SSD, F_DBL, P(ssd.page_bytes), C_POS, 1 },
    { "channels", BBS_DEV_SSD, F_INT, P(ssd.channels), C_POS, 1 },
    { "ways", BBS_DEV_SSD, F_INT, P(ssd.ways), C_POS, 1 },
    { "rho", BBS_DEV_SSD, F_DBL, P(ssd.rho), C_POS, 0 },
    { "r_page_us", BBS_DEV_SSD, F_DBL, P(ssd.r_page_us), C_POS, 1 },
    { "w_page_us", BBS_DEV_SSD, F_DBL, P(ssd.w_page_us), C_POS, 1 },
    { "r_ch_us", BBS_DEV_SSD, F_DBL, P(ssd.r_ch_us), C_NONNEG, 1 },
    { "w_ch_us", BBS_DEV_SSD, F_DBL, P(ssd.w_ch_us), C_NONNEG, 1 },
    { "overhead_us", BBS_DEV_SSD, F_DBL, P(ssd.overhead_us), C_NONNEG, 0 },
};
#undef P
#define NFIELDS (sizeof fields / sizeof fields[0])

const bbs_dev_field *
bbs_dev_fields(size_t *n)
{
    *n = NFIELDS;
    return fields;
}

static const char *kind_names[] = { "table", "hdd", "ssd" };

const char *
bbs_dev_kind_name(bbs_dev_kind k)
{
    return (unsigned)k < 3 ? kind_names[k] : "?";
}

void
bbs_dev_params_init(bbs_dev_params *p, bbs_dev_kind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->table.seq_window_bytes = 512; /* CODES lsm.c */
    p->hdd.destage_window = 32;      /* SATA NCQ depth */
}

static int
check_value(const char *key, double v, int cons, char *err)
{
    if (!isfinite(v) || (cons == C_POS && v <= 0) || (cons == C_NONNEG && v < 0))
        return bb_seterr(err, BB_EINVAL, "field '%s': %g is not %s", key, v,
                         cons == C_POS ? "a positive number" : "a number >= 0");
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
    const char *base = (const char *)p;
    int rc;

    if ((unsigned)p->kind > BBS_DEV_SSD)
        return bb_seterr(err, BB_EINVAL, "unknown device model %d", (int)p->kind);
    for (size_t i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        if (f->kind != -1 && f->kind != (int)p->kind)
            continue;
        if (f->type == F_DBL) {
            double v = *(const double *)(base + f->off);
            if (!f->required && v == 0 && f->cons == C_POS)
                continue; /* optional, "use the default" */
            if ((rc = check_value(f->key, v, f->cons, err)) != BB_OK)
                return rc;
        } else if (f->type == F_INT) {
            int v = *(const int *)(base + f->off);
            if (!f->required && v == 0)
                continue;
            if ((rc = check_value(f->key, v, f->cons, err)) != BB_OK)
                return rc;
        } else if (f->type == F_ARR) {
            const double *a = (const double *)(base + f->off);
            for (int j = 0; j < p->table.nbins; j++)
                if ((rc = check_value(f->key, a[j], f->cons, err)) != BB_OK)
                    return rc;
        }
    }
    if (p->kind == BBS_DEV_TABLE) {
        if (p->table.nbins < 1 || p->table.nbins > BBS_TABLE_MAXBINS)
            return bb_seterr(err, BB_EINVAL, "field 'request_sizes_bytes': %d bins "
                             "(expected 1 to %d)", p->table.nbins, BBS_TABLE_MAXBINS);
        for (int j = 1; j < p->table.nbins; j++)
            if (p->table.size_bytes[j] <= p->table.size_bytes[j - 1])
                return bb_seterr(err, BB_EINVAL, "field 'request_sizes_bytes': sizes must "
                                 "ascend (%g after %g)", p->table.size_bytes[j],
                                 p->table.size_bytes[j - 1]);
    }
    if (p->kind == BBS_DEV_HDD) {
        const bbs_hdd_params *h = &p->hdd;
        if (h->track_bytes_id > h->track_bytes_od)
            return bb_seterr(err, BB_EINVAL, "field 'track_bytes_id': %g exceeds "
                             "track_bytes_od %g", h->track_bytes_id, h->track_bytes_od);
        if (bbs_hdd_cylinders(h, p->capacity_bytes) < 1)
            return bb_seterr(err, BB_EINVAL, "field 'capacity_bytes': %g B is less than "
                             "one cylinder", p->capacity_bytes);
    }
    return BB_OK;
}

/* ---- the table model (CODES lsm) ---------------------------------------- */

double
bbs_table_time_s(const bbs_table_params *t, const bbs_io *io, int sequential)
{
    int r = 0, w = io->op == BBS_IO_WRITE;
    double us;

    /* CODES: the row of the largest request size <= this request. */
    for (int j = 0; j < t->nbins; j++)
        if (t->size_bytes[j] <= (double)io->size_bytes)
            r = j;
    us = (double)io->size_bytes / ((w ? t->write_MiBps[r] : t->read_MiBps[r]) * 1048576.0)
         * 1e6;
    us += w ? t->write_overhead_us[r] : t->read_overhead_us[r];
    if (!sequential)
        us += w ? t->write_seek_us[r] : t->read_seek_us[r];
    return us * 1e-6;
}

/* ---- the SSD model (Yoo et al.; MFNetSim eqs. (2)-(3)) ------------------ */

static double
ssd_rho(const bbs_ssd_params *s)
{
    return s->rho > 0 ? s->rho : (double)s->channels * s->ways;
}

double
bbs_ssd_read_s(const bbs_ssd_params *s, double len)
{
    double npage = ceil(len / s->page_bytes);
    if (npage < 1)
        npage = 1;
    /* T_r = R_ch (N_page - 1) + R_page */
    return (s->r_ch_us * (npage - 1) + s->r_page_us + s->overhead_us) * 1e-6;
}

double
bbs_ssd_write_s(const bbs_ssd_params *s, double len)
{
    double npage = ceil(len / s->page_bytes), ncycle, rho = ssd_rho(s), twait;
    if (npage < 1)
        npage = 1;
    ncycle = ceil(npage / rho);
    /* eq. (3): T_wait = W_page - W_ch rho when positive */
    twait = s->w_page_us > s->w_ch_us * rho ? s->w_page_us - s->w_ch_us * rho : 0;
    /* eq. (2): T_w = W_ch (N_page - 1) + T_wait (N_cycle - 1) + W_page */
    return (s->w_ch_us * (npage - 1) + twait * (ncycle - 1) + s->w_page_us
            + s->overhead_us) * 1e-6;
}

/* ---- devices -------------------------------------------------------------- */

int
bbs_dev_new(bbs_dev **out, const bbs_dev_params *p, char *err)
{
    bbs_dev *d;
    int rc;

    *out = NULL;
    if ((rc = bbs_dev_params_check(p, err)) != BB_OK)
        return rc;
    d = calloc(1, sizeof *d);
    if (!d)
        return bb_seterr(err, BB_ENOMEM, "out of memory allocating a device");
    d->p = *p;
    if (p->kind == BBS_DEV_HDD && (rc = bbs_hdd_state_init(d, err)) != BB_OK) {
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
    if (d->p.kind == BBS_DEV_HDD)
        bbs_hdd_state_free(d);
    free(d);
}

void
bbs_dev_reset(bbs_dev *d)
{
    d->last_start_s = 0;
    d->tab_have_cur = 0;
    d->tab_obj = d->tab_off = 0;
    if (d->p.kind == BBS_DEV_HDD)
        bbs_hdd_state_reset(d);
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
    if (d->p.kind != BBS_DEV_TABLE
        && (double)io->offset_bytes + (double)io->size_bytes > d->p.capacity_bytes)
        return bb_seterr(err, BB_EINVAL, "request [%llu, +%llu) beyond the capacity %.0f B",
                         (unsigned long long)io->offset_bytes,
                         (unsigned long long)io->size_bytes, d->p.capacity_bytes);
    d->last_start_s = t;
    switch (d->p.kind) {
    case BBS_DEV_TABLE: {
        /* CODES: sequential = same object, not behind the current offset and
         * at most seq_window bytes past it. */
        int seq = d->tab_have_cur && io->object == d->tab_obj && io->offset_bytes >= d->tab_off
                  && (double)(io->offset_bytes - d->tab_off) <= d->p.table.seq_window_bytes;
        *done = t + bbs_table_time_s(&d->p.table, io, seq);
        d->tab_have_cur = 1;
        d->tab_obj = io->object;
        d->tab_off = io->offset_bytes + io->size_bytes;
        return BB_OK;
    }
    case BBS_DEV_SSD:
        *done = t + (io->op == BBS_IO_READ ? bbs_ssd_read_s(&d->p.ssd, (double)io->size_bytes)
                                           : bbs_ssd_write_s(&d->p.ssd, (double)io->size_bytes));
        return BB_OK;
    case BBS_DEV_HDD:
        if (bbs_hdd_serve(d, t, io, rng, done) != BB_OK)
            return bb_seterr(err, BB_ENOMEM, "out of memory growing the write cache");
        return BB_OK;
    }
    return bb_seterr(err, BB_EINVAL, "unknown device model");
}
