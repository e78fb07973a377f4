/* dev_table.c: the CODES "lsm" table model (device.h bbs_table_params):
 * its fields, its checks, its service-time law and its state (the current
 * object and offset, for the sequential detector).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bb_error.h"
#include "dev_int.h"

#define F BBS_DEV_FIELD
static const bbs_dev_field fields[] = {
    { "request_sizes_bytes", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.size_bytes), BBS_DEV_C_NONNEG, 1 },
    { "read_rates_MiBps", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.read_MiBps), BBS_DEV_C_POS, 1 },
    { "write_rates_MiBps", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.write_MiBps), BBS_DEV_C_POS, 1 },
    { "read_seeks_us", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.read_seek_us), BBS_DEV_C_NONNEG, 1 },
    { "write_seeks_us", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.write_seek_us), BBS_DEV_C_NONNEG, 1 },
    { "read_overheads_us", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.read_overhead_us), BBS_DEV_C_NONNEG, 1 },
    { "write_overheads_us", BBS_DEV_TABLE, BBS_DEV_F_ARR, F(table.write_overhead_us), BBS_DEV_C_NONNEG, 1 },
    { "seq_window_bytes", BBS_DEV_TABLE, BBS_DEV_F_DBL, F(table.seq_window_bytes), BBS_DEV_C_NONNEG, 0 },
};
#undef F

static void
table_defaults(bbs_dev_params *p)
{
    p->table.seq_window_bytes = 512; /* CODES lsm.c */
}

static int
table_check(const bbs_dev_params *p, char *err)
{
    if (p->table.nbins < 1 || p->table.nbins > BBS_TABLE_MAXBINS)
        return bb_seterr(err, BB_EINVAL, "field 'request_sizes_bytes': %d bins "
                         "(expected 1 to %d)", p->table.nbins, BBS_TABLE_MAXBINS);
    for (int j = 1; j < p->table.nbins; j++)
        if (p->table.size_bytes[j] <= p->table.size_bytes[j - 1])
            return bb_seterr(err, BB_EINVAL, "field 'request_sizes_bytes': sizes must "
                             "ascend (%g after %g)", p->table.size_bytes[j],
                             p->table.size_bytes[j - 1]);
    return BB_OK;
}

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

static void
table_reset(bbs_dev *d)
{
    d->tab_have_cur = 0;
    d->tab_obj = d->tab_off = 0;
}

static int
table_serve(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done, char *err)
{
    /* CODES: sequential = same object, not behind the current offset and at
     * most seq_window bytes past it. */
    int seq = d->tab_have_cur && io->object == d->tab_obj && io->offset_bytes >= d->tab_off
              && (double)(io->offset_bytes - d->tab_off) <= d->p.table.seq_window_bytes;

    (void)rng;
    (void)err;
    *done = t + bbs_table_time_s(&d->p.table, io, seq);
    d->tab_have_cur = 1;
    d->tab_obj = io->object;
    d->tab_off = io->offset_bytes + io->size_bytes;
    return BB_OK;
}

const bbs_dev_type bbs_dev_type_table = {
    "table", BBS_DEV_TABLE, fields, sizeof fields / sizeof fields[0], 0,
    table_defaults, table_check, NULL, table_reset, NULL, table_serve
};
