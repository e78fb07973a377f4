/* cmd_device.c: `bbsize device`, the fio-style microbenchmark of MFNetSim's
 * Table 1 on a storage-device model (CODES table, HDD, SSD); the device
 * files come through devload.h (shared with `bbsize bbarch`).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvout.h"
#include "commands.h"
#include "devload.h"
#include "progress.h"
#include "storage/bench.h"
#include "storage/device.h"
#include "device_file.h"

enum {
    OPT_PRESET = 0x3000, OPT_DEVICE, OPT_PATTERN, OPT_BS, OPT_SIZE, OPT_OFFSET, OPT_QD,
    OPT_LIST
};

static const struct argp_option options[] = {
    { "preset", OPT_PRESET, "NAME", 0, "device preset from the data directory "
      "(--list-presets shows them)", 0 },
    { "device", OPT_DEVICE, "FILE", 0, "device parameter file (bbsize-device(5))", 0 },
    { "pattern", OPT_PATTERN, "PATTERN", 0, "seqread, seqwrite, randread or randwrite "
      "(required)", 0 },
    { "bs", OPT_BS, "SIZE", 0, "block (record) size, e.g. 4KiB or 512KiB (default 4KiB)", 0 },
    { "size", OPT_SIZE, "SIZE", 0, "file size, a multiple of --bs (default 512MiB)", 0 },
    { "offset", OPT_OFFSET, "SIZE", 0, "where the file starts on the device (default 0 B)", 0 },
    { "qd", OPT_QD, "N", 0, "queue depth: outstanding requests (default 1)", 0 },
    { "list-presets", OPT_LIST, NULL, 0, "list the device presets and exit", 0 },
    { 0 }
};

struct args {
    const char *preset, *device;
    int pattern;
    bb_qty bs, size, offset;
    long qd;
    int list;
    bb_outopts out;    /* --json, --csv (a header and one row) */
    bb_runopts run;    /* --seed, for offsets and rotational latency (default 1) */
};

static uint64_t
size_opt(const char *opt, const char *arg, bb_qty *q)
{
    double v;

    bb_opt_size(opt, arg, q);
    v = bb_qty_size_bytes(q);
    if (v != floor(v))
        bb_usage_value(opt, arg, "a whole number of bytes");
    if (v > 9.0e18)   /* whole, but past what a 64-bit offset holds */
        bb_usage_value(opt, arg, "at most 9e18 bytes");
    return (uint64_t)v;
}

/* "4 KiB", "512 MiB" when a whole number of binary units, else bytes. */
static void
fmt_bytes(char *buf, size_t len, uint64_t b)
{
    static const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int k = 0;

    while (k < 4 && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        k++;
    }
    snprintf(buf, len, "%llu %s", (unsigned long long)b, u[k]);
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_PRESET: a->preset = arg; break;
    case OPT_DEVICE: a->device = arg; break;
    case OPT_PATTERN:
        a->pattern = bbs_bench_pattern_parse(arg);
        if (a->pattern < 0)
            bb_usage_value("pattern", arg, "seqread, seqwrite, randread or randwrite");
        break;
    case OPT_BS: size_opt("bs", arg, &a->bs); break;
    case OPT_SIZE: size_opt("size", arg, &a->size); break;
    case OPT_OFFSET: size_opt("offset", arg, &a->offset); break;
    case OPT_QD: a->qd = bb_opt_long("qd", arg, 1, 1L << 20); break;
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        state->child_inputs[1] = &a->run;
        break;
    case OPT_LIST: a->list = 1; break;
    case ARGP_KEY_ARG:
        bb_usage_unexpected(arg, NULL);
        break;
    case ARGP_KEY_END:
        if (a->list)
            break;
        if (a->preset && a->device)
            bb_usage_exclusive("preset", "device", NULL);
        if (!a->preset && !a->device)
            bb_usage_one_of("preset", "device", NULL);
        if (a->pattern < 0)
            bb_usage_required("pattern", NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED), 0, NULL, 0 },
    { &bb_limits_argp, 0, NULL, 0 },
    { 0 }
};

static const struct argp argp = {
    options, parse, NULL,
    "Run the fio-style microbenchmark of MFNetSim's Table 1 on a storage-device model: "
    "one job reads or writes every block of a file once (sequentially, or in a random "
    "order), keeping --qd requests outstanding, and reports MB/s, IOPS and latency "
    "percentiles.\v"
    "Example (Table 1, HDD random read): bbsize device --preset seagate-st2000nx0253 "
    "--pattern randread --bs 4KiB --size 512MiB.  MB/s is 10^6 B/s.  See bbsize-device(1) "
    "and bbsize-device(5).",
    children, NULL, NULL
};

/* Wall seconds per request on one core (measured: docs/bounds.md). */
#define BB_DEVICE_S_PER_REQUEST 1.6e-7

int
bb_cmd_device(int argc, char **argv)
{
    struct args a;
    bbs_dev_params p;
    bbs_bench_opts o;
    bbs_bench_result r;
    bb_meter meter;
    char err[BB_ERRLEN], bs[32], sz[32];
    int rc;

    memset(&a, 0, sizeof a);
    a.pattern = -1;
    a.qd = 1;
    a.run.seed = 1;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.list) {
        char *list = bb_device_presets();
        printf("%s\n", *list ? list : "(no presets found)");
        free(list);
        return BB_EXIT_OK;
    }
    bb_device_load("preset", a.preset, a.device, &p);

    memset(&o, 0, sizeof o);
    o.pattern = (bbs_pattern)a.pattern;
    o.bs_bytes = a.bs.set ? (uint64_t)bb_qty_size_bytes(&a.bs) : 4096;
    o.size_bytes = a.size.set ? (uint64_t)bb_qty_size_bytes(&a.size) : 512ull << 20;
    o.offset_bytes = a.offset.set ? (uint64_t)bb_qty_size_bytes(&a.offset) : 0;
    o.qd = (int)a.qd;
    o.seed = a.run.seed;
    if (o.bs_bytes == 0)
        bb_usage_error("bs", "the block size must be positive");
    if (o.size_bytes == 0 || o.size_bytes % o.bs_bytes)
        bb_usage_error("size", "%llu B is not a positive multiple of --bs (%llu B)",
                       (unsigned long long)o.size_bytes, (unsigned long long)o.bs_bytes);
    {
        /* A bad value first, then bounded before it starts (bbsize(1),
         * BOUNDS). */
        double n, by;
        char detail[128];

        if ((rc = bbs_storage_bench_check(&p, &o, err)) != BB_OK)
            bb_die_opts(rc, err);
        bbs_storage_bench_estimate(&o, &n, &by);
        snprintf(detail, sizeof detail, "%.0f requests of %llu B", n,
                 (unsigned long long)o.bs_bytes);
        bb_limits_check("the device run", n, by, detail, "a smaller --size or a larger --bs");
        bb_meter_estimate(&a.out, n * BB_DEVICE_S_PER_REQUEST, n, "requests");
    }
    bb_meter_start(&meter, &a.out, "device", "requests", (size_t)(o.size_bytes / o.bs_bytes));
    o.progress_fn = bb_meter_progress;
    o.progress_ctx = &meter;
    rc = bbs_storage_bench(&p, &o, &r, err);
    bb_meter_end(&meter);
    if (rc != BB_OK)
        bb_die_opts(rc, err);

    fmt_bytes(bs, sizeof bs, o.bs_bytes);
    fmt_bytes(sz, sizeof sz, o.size_bytes);
    if (a.out.json) {
        json_t *pct = json_object();
        for (int k = 0; k < BBS_BENCH_NPCT; k++) {
            char key[16];
            snprintf(key, sizeof key, "p%g", bbs_bench_pct[k]);
            json_object_set_new(pct, key, json_real(r.lat_pct_s[k] * 1e3));
        }
        bb_json_print(json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:i, s:o, s:I, s:f, s:f, "
                                "s:f, s:f, s:f, s:f, s:f, s:o}",
                                "device", p.name, "model", bbs_dev_kind_name(p.kind),
                                "pattern", bbs_bench_pattern_name(o.pattern),
                                "bs_bytes", (json_int_t)o.bs_bytes,
                                "size_bytes", (json_int_t)o.size_bytes,
                                "offset_bytes", (json_int_t)o.offset_bytes,
                                "qd", o.qd, "seed", bb_json_seed(o.seed),
                                "ios", (json_int_t)r.ios,
                                "elapsed_s", r.elapsed_s, "MBps", r.MBps, "MiBps", r.MiBps,
                                "iops", r.iops, "lat_mean_ms", r.lat_mean_s * 1e3,
                                "lat_min_ms", r.lat_min_s * 1e3,
                                "lat_max_ms", r.lat_max_s * 1e3,
                                "lat_percentiles_ms", pct));
    } else if (a.out.csv) {
        printf("device,model,pattern,bs_bytes,size_bytes,qd,seed,ios,elapsed_s,MBps,iops,"
               "lat_mean_ms,lat_p50_ms,lat_p99_ms,lat_max_ms\n");
        bb_csv_row(stdout, "sssuudu" "unnnnnnn",
               p.name, bbs_dev_kind_name(p.kind), bbs_bench_pattern_name(o.pattern),
               (unsigned long long)o.bs_bytes, (unsigned long long)o.size_bytes, o.qd,
               (unsigned long long)o.seed, (unsigned long long)r.ios, r.elapsed_s, r.MBps,
               r.iops, r.lat_mean_s * 1e3, r.lat_pct_s[1] * 1e3, r.lat_pct_s[3] * 1e3,
               r.lat_max_s * 1e3);
    } else {
        printf("%s (%s): %s, bs %s, size %s, qd %d, seed %llu\n", p.name,
               bbs_dev_kind_name(p.kind), bbs_bench_pattern_name(o.pattern), bs, sz, o.qd,
               (unsigned long long)a.run.seed);
        printf("  %.2f MB/s (%.2f MiB/s), %.2f IOPS: %llu I/Os in %.4g s\n", r.MBps, r.MiBps,
               r.iops, (unsigned long long)r.ios, r.elapsed_s);
        printf("  latency (ms): mean %.4g, min %.4g", r.lat_mean_s * 1e3, r.lat_min_s * 1e3);
        for (int k = 0; k < BBS_BENCH_NPCT; k++)
            printf(", p%g %.4g", bbs_bench_pct[k], r.lat_pct_s[k] * 1e3);
        printf(", max %.4g\n", r.lat_max_s * 1e3);
    }
    return BB_EXIT_OK;
}
