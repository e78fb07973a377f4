/* device.h: storage-device service-time models (CODES table, HDD after
 * Ruemmler-Wilkes / Parsons-Pai, SSD after Yoo et al.), each a FIFO
 * single server with its own service-time law.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A device is a parameter set (bbs_dev_params, read from a preset or a
 * bbsize-device(5) file by bbs_dev_params_parse, src/formats/) plus a state (bbs_dev:
 * arm position, read-ahead stream, write-back cache, sequential detector).
 * The caller owns the queue and the clock: it hands requests to
 * bbs_dev_serve in FIFO order, each at the time it reaches the head of the
 * queue, and gets the completion time back.  This keeps the models usable
 * from any event loop (the microbenchmark in bench.h, the burst-buffer
 * architectures, the engine of sim/engine.h).
 *
 * Sizes are bytes, times seconds in the API; parameters carry their unit in
 * their names (ms, us, MiBps = 2^20 B/s, MBps = 10^6 B/s).  Hot operation:
 * bbs_dev_serve, O(1) for the table and SSD models, O(tracks crossed +
 * destage window) for the HDD; no allocation after bbs_dev_new. */
#ifndef BBSIZE_SIM_STORAGE_DEVICE_H
#define BBSIZE_SIM_STORAGE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* The models, by their index in the registry (devreg.c); each is one file
 * behind a table of operations (dev_int.h): dev_table.c, hdd.c, dev_ssd.c. */
typedef enum { BBS_DEV_TABLE = 0, BBS_DEV_HDD = 1, BBS_DEV_SSD = 2 } bbs_dev_kind;
typedef enum { BBS_IO_READ = 0, BBS_IO_WRITE = 1 } bbs_io_op;

/* One request.  For the HDD and SSD models offset_bytes is a device byte
 * address; for the table model it is an offset inside object `object`. */
typedef struct {
    bbs_io_op op;
    uint64_t object;
    uint64_t offset_bytes;
    uint64_t size_bytes;
} bbs_io;

/* CODES "lsm" table model (codes/src/workload/... local-storage-model):
 * time = size / rate + overhead + (seek if not sequential), where the row is
 * the largest request size <= the request's (the first row if none). */
#define BBS_TABLE_MAXBINS 32
typedef struct {
    int nbins;
    double size_bytes[BBS_TABLE_MAXBINS];      /* ascending, first may be 0 */
    double read_MiBps[BBS_TABLE_MAXBINS];      /* 2^20 B/s, > 0 */
    double write_MiBps[BBS_TABLE_MAXBINS];
    double read_seek_us[BBS_TABLE_MAXBINS];    /* >= 0 */
    double write_seek_us[BBS_TABLE_MAXBINS];
    double read_overhead_us[BBS_TABLE_MAXBINS];
    double write_overhead_us[BBS_TABLE_MAXBINS];
    double seq_window_bytes;  /* CODES: 512; a jump further than this seeks */
} bbs_table_params;

/* HDD (Ruemmler & Wilkes 1994; Parsons & Pai; MFNetSim Section 4.2).
 * Zoned geometry: track length falls linearly from track_bytes_od at
 * cylinder 0 to track_bytes_id at the last cylinder; the number of
 * cylinders follows from the capacity and the number of heads. */
typedef struct {
    double rpm;                 /* > 0 */
    int heads;                  /* recording surfaces, > 0 */
    double track_bytes_od;      /* bytes per track, outer zone, > 0 */
    double track_bytes_id;      /* bytes per track, inner zone, > 0 */
    /* seek(d) = seek_a_ms + seek_b_ms sqrt(d) for 0 < d <= seek_knee_cyl,
     *         = seek_c_ms + seek_e_ms d      beyond; seek(0) = 0 */
    double seek_a_ms, seek_b_ms, seek_knee_cyl, seek_c_ms, seek_e_ms;
    double head_switch_ms;      /* per track boundary crossed in a transfer */
    double overhead_ms;         /* controller overhead per media access */
    double bus_MBps;            /* interface rate for cache transfers, > 0 */
    double readahead_min_bytes; /* read ahead at least this after a read */
    double read_cache_bytes;    /* read-ahead stops this far ahead of the host */
    double write_cache_bytes;   /* write-back cache; 0 = write-through */
    int destage_window;         /* destage picks the closest of the oldest N */
} bbs_hdd_params;

/* SSD (Yoo et al., MFNetSim equations (2)-(3)). */
typedef struct {
    double page_bytes;          /* > 0 */
    int channels, ways;         /* > 0 */
    double rho;                 /* max I/Os per cycle; 0 = channels * ways */
    double r_page_us, w_page_us;/* single-page read / write latency, > 0 */
    double r_ch_us, w_ch_us;    /* channel switching delay, >= 0 */
    double overhead_us;         /* host interface overhead per request, >= 0 */
} bbs_ssd_params;

typedef struct {
    bbs_dev_kind kind;
    char name[64];
    double capacity_bytes;      /* > 0 */
    bbs_table_params table;
    bbs_hdd_params hdd;
    bbs_ssd_params ssd;
} bbs_dev_params;

typedef struct bbs_dev bbs_dev;

/* ---- parameters -------------------------------------------------------- */

/* bbs_dev_params_init: zero p, set kind and the model's documented
 * defaults (table seq window 512 B; HDD destage window 32; SSD rho 0). */
void bbs_dev_params_init(bbs_dev_params *p, bbs_dev_kind kind);

/* The fields of bbsize-device(5), for its reader (bbs_dev_params_parse,
 * src/formats/device_file.h) and bbs_dev_params_check: the key, the
 * model it applies to (a bbs_dev_kind, or -1 for every model), its type
 * (one number, a whole number, the name string, or a table row of
 * BBS_TABLE_MAXBINS numbers at most), where it lives in bbs_dev_params,
 * its constraint and whether it must be given. */
enum { BBS_DEV_F_DBL, BBS_DEV_F_INT, BBS_DEV_F_STR, BBS_DEV_F_ARR };
enum { BBS_DEV_C_POS, BBS_DEV_C_NONNEG };      /* > 0, >= 0 */
typedef struct {
    const char *key;
    int kind;
    int type;
    size_t off;
    int cons;
    int required;
} bbs_dev_field;

/* bbs_dev_nfields, bbs_dev_field_at: every field, as one list: those of
 * every model (kind -1), then each model's own, in the registry's order;
 * NULL beyond the last.  O(models). */
size_t bbs_dev_nfields(void);
const bbs_dev_field *bbs_dev_field_at(size_t i);

/* The registry: the number of models; the kind of the model named by
 * name[0 .. len) ("hdd"), or -1; the names joined by sep ("table, hdd,
 * ssd"), truncated to len bytes. */
size_t bbs_dev_nmodels(void);
int bbs_dev_model_find(const char *name, size_t len);
void bbs_dev_model_list(char *buf, size_t len, const char *sep);

/* bbs_dev_field_check: v finite and within f's constraint; BB_EINVAL
 * "field 'rpm': -1 is not a positive number". */
int bbs_dev_field_check(const bbs_dev_field *f, double v, char *err);

/* bbs_dev_params_check: every rate, size, RPM and page count > 0, seeks
 * and overheads >= 0, table sizes ascending.  Errors: BB_EINVAL naming the
 * field. */
int bbs_dev_params_check(const bbs_dev_params *p, char *err);

const char *bbs_dev_kind_name(bbs_dev_kind k);

/* bbs_dev_addressed: 1 when p's model takes device byte addresses within
 * the capacity (hdd, ssd), 0 when offsets inside an object (table). */
int bbs_dev_addressed(const bbs_dev_params *p);

/* ---- device ------------------------------------------------------------ */

/* bbs_dev_new: a device in its initial state (arm at cylinder 0, caches
 * empty, no current object).  Copies p.  Errors: BB_EINVAL, BB_ENOMEM. */
int bbs_dev_new(bbs_dev **out, const bbs_dev_params *p, char *err);
void bbs_dev_free(bbs_dev *d);           /* NULL is a no-op */
void bbs_dev_reset(bbs_dev *d);          /* back to the initial state */
const bbs_dev_params *bbs_dev_get_params(const bbs_dev *d);

/* bbs_dev_serve: the request io reaches the head of the FIFO queue at
 * t_start_s (>= the previous request's completion); *t_done_s receives
 * its completion time (>= t_start_s).  rng supplies the HDD's rotational
 * latencies (one uniform per media access, destage_window per destage
 * decision); the table and SSD models draw nothing.  Errors: BB_EINVAL
 * (size 0, an access beyond the capacity, t_start_s before the previous
 * start). */
int bbs_dev_serve(bbs_dev *d, double t_start_s, const bbs_io *io, gsl_rng *rng,
                  double *t_done_s, char *err);

/* ---- the service-time laws, for tests and other models ----------------- */

/* bbs_table_time_s: table time of io; sequential = 0 adds the seek. */
double bbs_table_time_s(const bbs_table_params *t, const bbs_io *io, int sequential);

/* bbs_hdd_cylinders: number of cylinders of the zoned geometry. */
double bbs_hdd_cylinders(const bbs_hdd_params *h, double capacity_bytes);
/* bbs_hdd_locate: cylinder of a byte address, and that cylinder's track
 * length (bytes). */
long bbs_hdd_locate(const bbs_hdd_params *h, double capacity_bytes, double offset_bytes,
                    double *track_bytes);
/* bbs_hdd_seek_s: seek time for a distance of d cylinders. */
double bbs_hdd_seek_s(const bbs_hdd_params *h, double d_cyl);
/* bbs_hdd_transfer_s: media transfer time of len bytes from offset:
 * for each track touched, bytes * 60 / (track_bytes * rpm) (the physical
 * formula; the paper prints L_request * L_track * 60 / RPM), plus one head
 * switch per track boundary crossed. */
double bbs_hdd_transfer_s(const bbs_hdd_params *h, double capacity_bytes,
                          double offset_bytes, double len_bytes);
/* bbs_hdd_rev_s: time of one revolution, 60 / rpm. */
double bbs_hdd_rev_s(const bbs_hdd_params *h);

/* bbs_ssd_read_s / bbs_ssd_write_s: equations (2)-(3) for len bytes
 * (N_page = ceil(len / page), N_cycle = ceil(N_page / rho)), plus the
 * interface overhead. */
double bbs_ssd_read_s(const bbs_ssd_params *s, double len_bytes);
double bbs_ssd_write_s(const bbs_ssd_params *s, double len_bytes);

#endif
