/* hdd.c: the HDD model (its fields, checks and type of operations,
 * dev_int.h): zoned geometry, Ruemmler-Wilkes seek curve, rotational
 * latency, track-based transfer, read-ahead stream and an optional
 * write-back cache with positioning-aware destaging.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: Ruemmler & Wilkes, "An introduction to disk drive modeling",
 * IEEE Computer 27(3), 1994 (seek curve, rotation, zones, read-ahead,
 * write-back caching); the Parsons-Pai analytic model as summarised in
 * MFNetSim Section 4.2 (latency = seek + rotation + transfer; at least the
 * minimum read-ahead after each request; partial hits pay only the unread
 * part; cache hits return at once).  Departure: the paper prints
 * T_transfer = L_request * L_track * 60 / RPM, which is not a time; we use
 * the physical L_request * 60 / (L_track * RPM) per track touched, plus a
 * head switch per track boundary.
 *
 * State per device: arm cylinder; a read-ahead "stream" that keeps reading
 * at the media rate after each read until read_cache_bytes are buffered
 * ahead of the host; a ring of dirty extents.  Destaging runs on the arm
 * whenever dirty data is waiting (started lazily, when a later request
 * needs the time line), and picks, among the oldest destage_window
 * extents, the one with the shortest positioning time (SPTF, as drives do
 * with their NCQ window); an extent that continues the last one written has
 * no positioning time. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "dev_int.h"

double
bbs_hdd_rev_s(const bbs_hdd_params *h)
{
    return 60.0 / h->rpm;
}

double
bbs_hdd_cylinders(const bbs_hdd_params *h, double cap)
{
    return floor(cap / (h->heads * 0.5 * (h->track_bytes_od + h->track_bytes_id)));
}

/* Bytes per track fall by k per cylinder; bytes before (fractional)
 * cylinder c: heads (od c - k c^2 / 2). */
long
bbs_hdd_locate(const bbs_hdd_params *h, double cap, double x, double *tl)
{
    double C = bbs_hdd_cylinders(h, cap), od = h->track_bytes_od;
    double k = (od - h->track_bytes_id) / C, c;
    long cyl;

    if (k > 0) {
        double disc = od * od - 2 * k * x / h->heads;
        c = (od - sqrt(disc > 0 ? disc : 0)) / k;
    } else {
        c = x / (h->heads * od);
    }
    cyl = (long)floor(c);
    if (cyl < 0)
        cyl = 0;
    if (cyl > (long)C - 1)
        cyl = (long)C - 1;
    /* guard against rounding at a cylinder boundary */
    while (cyl > 0 && h->heads * (od * cyl - 0.5 * k * cyl * (double)cyl) > x)
        cyl--;
    if (tl)
        *tl = od - k * (cyl + 0.5);
    return cyl;
}

static double
cyl_start(const bbs_hdd_params *h, double cap, long cyl)
{
    double C = bbs_hdd_cylinders(h, cap), od = h->track_bytes_od;
    double k = (od - h->track_bytes_id) / C;
    return h->heads * (od * cyl - 0.5 * k * cyl * (double)cyl);
}

double
bbs_hdd_seek_s(const bbs_hdd_params *h, double d)
{
    if (d <= 0)
        return 0;
    if (d <= h->seek_knee_cyl)
        return (h->seek_a_ms + h->seek_b_ms * sqrt(d)) * 1e-3;
    return (h->seek_c_ms + h->seek_e_ms * d) * 1e-3;
}

double
bbs_hdd_transfer_s(const bbs_hdd_params *h, double cap, double x, double len)
{
    double t = 0, rev = bbs_hdd_rev_s(h);

    while (len > 0) {
        double tl, here, in_track;
        long cyl = bbs_hdd_locate(h, cap, x, &tl);
        in_track = fmod(x - cyl_start(h, cap, cyl), tl);
        here = tl - in_track;
        if (here < 0.5) /* at a boundary up to rounding: a whole track */
            here = tl;
        if (here > len)
            here = len;
        /* physical: bytes / (track bytes per revolution) revolutions */
        t += here / tl * rev;
        len -= here;
        x += here;
        if (len > 0)
            t += h->head_switch_ms * 1e-3;
    }
    return t;
}

/* ---- parameters ------------------------------------------------------------ */

#define F BBS_DEV_FIELD
static const bbs_dev_field fields[] = {
    { "rpm", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.rpm), BBS_DEV_C_POS, 1 },
    { "heads", BBS_DEV_HDD, BBS_DEV_F_INT, F(hdd.heads), BBS_DEV_C_POS, 1 },
    { "track_bytes_od", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.track_bytes_od), BBS_DEV_C_POS, 1 },
    { "track_bytes_id", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.track_bytes_id), BBS_DEV_C_POS, 1 },
    { "seek_a_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.seek_a_ms), BBS_DEV_C_NONNEG, 1 },
    { "seek_b_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.seek_b_ms), BBS_DEV_C_NONNEG, 1 },
    { "seek_knee_cyl", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.seek_knee_cyl), BBS_DEV_C_NONNEG, 1 },
    { "seek_c_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.seek_c_ms), BBS_DEV_C_NONNEG, 1 },
    { "seek_e_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.seek_e_ms), BBS_DEV_C_NONNEG, 1 },
    { "head_switch_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.head_switch_ms), BBS_DEV_C_NONNEG, 0 },
    { "overhead_ms", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.overhead_ms), BBS_DEV_C_NONNEG, 0 },
    { "bus_MBps", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.bus_MBps), BBS_DEV_C_POS, 1 },
    { "readahead_min_bytes", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.readahead_min_bytes), BBS_DEV_C_NONNEG, 0 },
    { "read_cache_bytes", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.read_cache_bytes), BBS_DEV_C_NONNEG, 0 },
    { "write_cache_bytes", BBS_DEV_HDD, BBS_DEV_F_DBL, F(hdd.write_cache_bytes), BBS_DEV_C_NONNEG, 0 },
    { "destage_window", BBS_DEV_HDD, BBS_DEV_F_INT, F(hdd.destage_window), BBS_DEV_C_POS, 0 },
};
#undef F

static void
hdd_defaults(bbs_dev_params *p)
{
    p->hdd.destage_window = 32;      /* SATA NCQ depth */
}

static int
hdd_check(const bbs_dev_params *p, char *err)
{
    const bbs_hdd_params *h = &p->hdd;

    if (h->track_bytes_id > h->track_bytes_od)
        return bb_seterr(err, BB_EINVAL, "field 'track_bytes_id': %g exceeds "
                         "track_bytes_od %g", h->track_bytes_id, h->track_bytes_od);
    if (bbs_hdd_cylinders(h, p->capacity_bytes) < 1)
        return bb_seterr(err, BB_EINVAL, "field 'capacity_bytes': %g B is less than "
                         "one cylinder", p->capacity_bytes);
    return BB_OK;
}

/* ---- state ----------------------------------------------------------------- */

static int
hdd_init(bbs_dev *d, char *err)
{
    bbs_hdd_state *s = &d->h;

    memset(s, 0, sizeof *s);
    if (d->p.hdd.write_cache_bytes > 0) {
        s->cap_dirty = BBS_HDD_DIRTY_CAP0;
        s->dirty = malloc((size_t)s->cap_dirty * sizeof *s->dirty);
        if (!s->dirty)
            return bb_seterr(err, BB_ENOMEM, "out of memory allocating a write cache");
    }
    return BB_OK;
}

static void
hdd_release(bbs_dev *d)
{
    free(d->h.dirty);
    d->h.dirty = NULL;
}

static void
hdd_reset(bbs_dev *d)
{
    bbs_hdd_state *s = &d->h;

    s->cyl = 0;
    s->head_byte = 0;
    s->arm_free_s = 0;
    s->ra_active = 0;
    s->ndirty = s->head = 0;
    s->dirty_bytes = 0;
}

static bbs_hdd_extent *
ext_at(bbs_hdd_state *s, long i)
{
    return &s->dirty[(s->head + i) % s->cap_dirty];
}

static int
ext_push(bbs_hdd_state *s, double off, double len, double t)
{
    if (s->ndirty == s->cap_dirty) {
        long ncap = s->cap_dirty * 2;
        bbs_hdd_extent *n = malloc((size_t)ncap * sizeof *n);
        if (!n)
            return BB_ENOMEM;
        for (long i = 0; i < s->ndirty; i++)
            n[i] = *ext_at(s, i);
        free(s->dirty);
        s->dirty = n;
        s->cap_dirty = ncap;
        s->head = 0;
    }
    *ext_at(s, s->ndirty) = (bbs_hdd_extent){ off, len, t };
    s->ndirty++;
    s->dirty_bytes += len;
    return BB_OK;
}

static void
ext_remove(bbs_hdd_state *s, long i)
{
    s->dirty_bytes -= ext_at(s, i)->len;
    for (long j = i; j > 0; j--)
        *ext_at(s, j) = *ext_at(s, j - 1);
    s->head = (s->head + 1) % s->cap_dirty;
    s->ndirty--;
    if (s->ndirty == 0)
        s->dirty_bytes = 0; /* no drift */
}

/* Positioning time from the arm's place to byte x (one uniform drawn unless
 * x continues the last access). */
static double
position_s(bbs_dev *d, double x, gsl_rng *rng)
{
    const bbs_hdd_params *h = &d->p.hdd;
    long cyl;

    if (x == d->h.head_byte && d->h.head_byte > 0)
        return 0;
    cyl = bbs_hdd_locate(h, d->p.capacity_bytes, x, NULL);
    return bbs_hdd_seek_s(h, fabs((double)(cyl - d->h.cyl)))
           + gsl_rng_uniform(rng) * bbs_hdd_rev_s(h);
}

/* One destage operation, started when the arm is free and the oldest dirty
 * extent exists. */
static void
destage_one(bbs_dev *d, gsl_rng *rng)
{
    bbs_hdd_state *s = &d->h;
    const bbs_hdd_params *h = &d->p.hdd;
    double start = s->arm_free_s, best = INFINITY, off, len;
    long w = s->ndirty < h->destage_window ? s->ndirty : h->destage_window, bi = 0;

    if (ext_at(s, 0)->t_dirty > start)
        start = ext_at(s, 0)->t_dirty;
    for (long i = 0; i < w; i++) {
        bbs_hdd_extent *e = ext_at(s, i);
        double pt;
        if (e->t_dirty > start)
            break; /* not yet in the cache when the arm decides */
        pt = position_s(d, e->off, rng);
        if (pt < best) {
            best = pt;
            bi = i;
        }
        if (pt == 0)
            break;
    }
    off = ext_at(s, bi)->off;
    len = ext_at(s, bi)->len;
    /* the controller overhead is paid when the arm has to position */
    s->arm_free_s = start + (best > 0 ? h->overhead_ms * 1e-3 : 0) + best
                    + bbs_hdd_transfer_s(h, d->p.capacity_bytes, off, len);
    s->cyl = bbs_hdd_locate(h, d->p.capacity_bytes, off + len - 1, NULL);
    s->head_byte = off + len;
    ext_remove(s, bi);
}

/* Run the destage operations that start before t. */
static void
destage_until(bbs_dev *d, double t, gsl_rng *rng)
{
    bbs_hdd_state *s = &d->h;

    while (s->ndirty > 0) {
        double start = s->arm_free_s;
        if (ext_at(s, 0)->t_dirty > start)
            start = ext_at(s, 0)->t_dirty;
        if (start >= t)
            break;
        destage_one(d, rng);
    }
}

/* A media access at t: overhead + positioning + transfer; the arm is busy
 * until the returned time. */
static double
media_access(bbs_dev *d, double t, double off, double len, gsl_rng *rng)
{
    const bbs_hdd_params *h = &d->p.hdd;
    bbs_hdd_state *s = &d->h;
    double done;

    if (t < s->arm_free_s)
        t = s->arm_free_s;
    done = t + h->overhead_ms * 1e-3 + position_s(d, off, rng)
           + bbs_hdd_transfer_s(h, d->p.capacity_bytes, off, len);
    s->cyl = bbs_hdd_locate(h, d->p.capacity_bytes, off + len - 1, NULL);
    s->head_byte = off + len;
    s->arm_free_s = done;
    return done;
}

static void
stream_start(bbs_dev *d, double off, double end, double t0)
{
    const bbs_hdd_params *h = &d->p.hdd;
    bbs_hdd_state *s = &d->h;
    double tl;

    s->ra_active = h->read_cache_bytes > 0 || h->readahead_min_bytes > 0;
    if (!s->ra_active)
        return;
    bbs_hdd_locate(h, d->p.capacity_bytes, end < d->p.capacity_bytes ? end : end - 1, &tl);
    s->ra_lo = off;
    s->ra_anchor = end;
    s->ra_t0 = t0;
    s->ra_rate = tl / (bbs_hdd_rev_s(h) + h->head_switch_ms * 1e-3);
    s->ra_consumed = end;
}

static int
hdd_serve(bbs_dev *d, double t, const bbs_io *io, gsl_rng *rng, double *done, char *err)
{
    const bbs_hdd_params *h = &d->p.hdd;
    bbs_hdd_state *s = &d->h;
    double off = (double)io->offset_bytes, len = (double)io->size_bytes, end = off + len;
    double bus = h->bus_MBps * 1e6;

    if (s->ndirty > 0)
        destage_until(d, t, rng);

    if (io->op == BBS_IO_READ) {
        if (s->ra_active) {
            double ahead = h->read_cache_bytes > h->readahead_min_bytes
                           ? h->read_cache_bytes : h->readahead_min_bytes;
            double cap_end = s->ra_consumed + ahead;
            double t_stop = s->ra_t0 + (cap_end - s->ra_anchor) / s->ra_rate;
            double pos = s->ra_anchor + s->ra_rate * (t - s->ra_t0);
            if (pos > cap_end)
                pos = cap_end;
            if (off >= s->ra_lo && end <= pos) {
                /* whole hit: served from the buffer at once */
                *done = t + len / bus;
                if (end > s->ra_consumed)
                    s->ra_consumed = end;
                return BB_OK;
            }
            if (off >= s->ra_lo && off <= cap_end && s->arm_free_s <= s->ra_t0) {
                /* partial hit, or data the stream is heading for: only the
                 * part not yet read is waited for */
                double t_need;
                if (end <= cap_end || t <= t_stop) {
                    t_need = s->ra_t0 + (end - s->ra_anchor) / s->ra_rate;
                } else { /* the stream had stopped: resume after a rotation */
                    s->ra_anchor = cap_end;
                    s->ra_t0 = t + h->overhead_ms * 1e-3 + gsl_rng_uniform(rng) * bbs_hdd_rev_s(h);
                    t_need = s->ra_t0 + (end - s->ra_anchor) / s->ra_rate;
                }
                *done = t_need > t + h->overhead_ms * 1e-3 ? t_need : t + h->overhead_ms * 1e-3;
                s->ra_consumed = end;
                s->cyl = bbs_hdd_locate(h, d->p.capacity_bytes, end - 1, NULL);
                s->head_byte = end;
                return BB_OK;
            }
            /* a miss: the drive first completes the minimum read-ahead */
            {
                double t_min = s->ra_t0 + (s->ra_consumed + h->readahead_min_bytes - s->ra_anchor)
                                          / s->ra_rate;
                if (t_min > t_stop)
                    t_min = t_stop;
                if (t_min > t)
                    t = t_min;
            }
        }
        *done = media_access(d, t, off, len, rng);
        stream_start(d, off, end, *done);
        return BB_OK;
    }

    /* write: the read-ahead buffer no longer describes the arm */
    s->ra_active = 0;
    if (h->write_cache_bytes > 0 && len <= h->write_cache_bytes) {
        double t_acc = t;
        while (s->dirty_bytes + len > h->write_cache_bytes) {
            destage_one(d, rng);
            if (s->arm_free_s > t_acc)
                t_acc = s->arm_free_s; /* room appears when the destage ends */
        }
        *done = t_acc + h->overhead_ms * 1e-3 + len / bus;
        if (ext_push(s, off, len, *done) != BB_OK)
            return bb_seterr(err, BB_ENOMEM, "out of memory growing the write cache");
        return BB_OK;
    }
    *done = media_access(d, t, off, len, rng);
    return BB_OK;
}

const bbs_dev_type bbs_dev_type_hdd = {
    "hdd", BBS_DEV_HDD, fields, sizeof fields / sizeof fields[0], 1,
    hdd_defaults, hdd_check, hdd_init, hdd_reset, hdd_release, hdd_serve
};
