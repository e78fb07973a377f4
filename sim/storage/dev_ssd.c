/* dev_ssd.c: the SSD model after Yoo et al. (MFNetSim equations (2)-(3);
 * device.h bbs_ssd_params): its fields and its service-time laws; it has
 * no state and draws nothing.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "bb_error.h"
#include "dev_int.h"

#define F BBS_DEV_FIELD
static const bbs_dev_field fields[] = {
    { "page_bytes", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.page_bytes), BBS_DEV_C_POS, 1 },
    { "channels", BBS_DEV_SSD, BBS_DEV_F_INT, F(ssd.channels), BBS_DEV_C_POS, 1 },
    { "ways", BBS_DEV_SSD, BBS_DEV_F_INT, F(ssd.ways), BBS_DEV_C_POS, 1 },
    { "rho", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.rho), BBS_DEV_C_POS, 0 },
    { "r_page_us", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.r_page_us), BBS_DEV_C_POS, 1 },
    { "w_page_us", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.w_page_us), BBS_DEV_C_POS, 1 },
    { "r_ch_us", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.r_ch_us), BBS_DEV_C_NONNEG, 1 },
    { "w_ch_us", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.w_ch_us), BBS_DEV_C_NONNEG, 1 },
    { "overhead_us", BBS_DEV_SSD, BBS_DEV_F_DBL, F(ssd.overhead_us), BBS_DEV_C_NONNEG, 0 },
};
#undef F

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

static int
ssd_serve(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done, char *err)
{
    double len = (double)io->size_bytes;

    (void)rng;
    (void)err;
    *done = t + (io->op == BBS_IO_READ ? bbs_ssd_read_s(&d->p.ssd, len)
                                       : bbs_ssd_write_s(&d->p.ssd, len));
    return BB_OK;
}

const bbs_dev_type bbs_dev_type_ssd = {
    "ssd", BBS_DEV_SSD, fields, sizeof fields / sizeof fields[0], 1,
    NULL, NULL, NULL, NULL, NULL, ssd_serve
};
