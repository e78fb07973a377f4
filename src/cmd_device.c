/* cmd_device.c: `bbsize device`, the fio-style microbenchmark of MFNetSim's
 * Table 1 on a storage-device model (CODES table, HDD, SSD), and `bbsize
 * bbarch`, the burst-buffer architectures on those devices (they share the
 * preset loading).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "readfile.h"
#include "commands.h"
#include "network/route.h"
#include "network/topo.h"
#include "storage/arch.h"
#include "storage/arch_dfly.h"
#include "storage/bench.h"
#include "storage/device.h"
#include "device_file.h"

enum {
    OPT_PRESET = 0x3000, OPT_DEVICE, OPT_PATTERN, OPT_BS, OPT_SIZE, OPT_OFFSET, OPT_QD,
    OPT_SEED, OPT_JSON, OPT_CSV, OPT_LIST
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
    { "seed", OPT_SEED, "N", 0, "random seed for offsets and rotational latency "
      "(default 1)", 0 },
    { "json", OPT_JSON, NULL, 0, "print JSON", 0 },
    { "csv", OPT_CSV, NULL, 0, "print CSV (a header and one row)", 0 },
    { "list-presets", OPT_LIST, NULL, 0, "list the device presets and exit", 0 },
    { 0 }
};

struct args {
    const char *preset, *device;
    int pattern;
    bb_qty bs, size, offset;
    long qd, seed;
    int json, csv, list;
};

static uint64_t
size_opt(const char *opt, const char *arg, bb_qty *q)
{
    double v;

    bb_opt_size(opt, arg, q);
    v = bb_qty_size_bytes(q);
    if (v != floor(v) || v > 9.0e18)
        bb_die(BB_EXIT_USAGE, "option '--%s': %s is not a whole number of bytes", opt, arg);
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
            bb_die(BB_EXIT_USAGE, "option '--pattern': '%s' is not one of seqread, seqwrite, "
                   "randread, randwrite", arg);
        break;
    case OPT_BS: size_opt("bs", arg, &a->bs); break;
    case OPT_SIZE: size_opt("size", arg, &a->size); break;
    case OPT_OFFSET: size_opt("offset", arg, &a->offset); break;
    case OPT_QD: a->qd = bb_opt_long("qd", arg, 1, 1L << 20); break;
    case OPT_SEED: a->seed = bb_opt_long("seed", arg, 0, 0x7fffffffL); break;
    case OPT_JSON: a->json = 1; break;
    case OPT_CSV: a->csv = 1; break;
    case OPT_LIST: a->list = 1; break;
    case ARGP_KEY_ARG:
        argp_error(state, "unexpected argument '%s'", arg);
        break;
    case ARGP_KEY_END:
        if (a->list)
            break;
        if (!a->preset == !a->device)
            argp_error(state, "give one of --preset NAME or --device FILE");
        if (a->pattern < 0)
            argp_error(state, "--pattern is required");
        if (a->json && a->csv)
            argp_error(state, "--json and --csv exclude each other");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp argp = {
    options, parse, NULL,
    "Run the fio-style microbenchmark of MFNetSim's Table 1 on a storage-device model: "
    "one job reads or writes every block of a file once (sequentially, or in a random "
    "order), keeping --qd requests outstanding, and reports MB/s, IOPS and latency "
    "percentiles.\v"
    "Example (Table 1, HDD random read): bbsize device --preset seagate-st2000nx0253 "
    "--pattern randread --bs 4KiB --size 512MiB.  MB/s is 10^6 B/s.  See bbsize-device(1) "
    "and bbsize-device(5).",
    NULL, NULL, NULL
};

/* The preset directories, in search order. */
static const char *preset_dirs[] = { BBSIZE_SRCDATADIR "/devices", BBSIZE_DATADIR "/devices" };
#define NDIRS (sizeof preset_dirs / sizeof preset_dirs[0])

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The preset names (without .dev) of the first directory that has any,
 * as one comma-separated string (caller frees). */
static char *
preset_list(const char **dir_out)
{
    char *names[256], *out;
    size_t n = 0, len = 1;

    *dir_out = NULL;
    for (size_t k = 0; k < NDIRS && n == 0; k++) {
        DIR *dp = opendir(preset_dirs[k]);
        struct dirent *de;
        if (!dp)
            continue;
        while ((de = readdir(dp)) && n < 256) {
            size_t l = strlen(de->d_name);
            if (l > 4 && strcmp(de->d_name + l - 4, ".dev") == 0) {
                names[n] = strndup(de->d_name, l - 4);
                if (!names[n])
                    bb_die(BB_EXIT_SOFTWARE, "out of memory");
                len += l + 2;
                n++;
            }
        }
        closedir(dp);
        if (n)
            *dir_out = preset_dirs[k];
    }
    qsort(names, n, sizeof *names, cmp_str);
    out = malloc(len);
    if (!out)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, ", ");
        strcat(out, names[i]);
        free(names[i]);
    }
    return out;
}

static char *
slurp(const char *path)
{
    char *b, err[BB_ERRLEN];
    size_t n;
    int rc = bb_read_file(path, BB_READ_TEXT, &b, &n, err, sizeof err);

    if (rc == BB_EXIT_NOINPUT)
        return NULL;   /* callers name the file (or try the next directory) */
    if (rc != 0)
        bb_die(rc, "%s", err);
    return b;
}

static void
load_params(const struct args *a, bbs_dev_params *p)
{
    char path[4096], err[BB_ERRLEN], *text = NULL;
    const char *src = a->device;
    int rc;

    if (a->preset) {
        const char *dir;
        char *list;
        if (strchr(a->preset, '/') == NULL)
            for (size_t k = 0; k < NDIRS && !text; k++) {
                snprintf(path, sizeof path, "%s/%s.dev", preset_dirs[k], a->preset);
                text = slurp(path);
            }
        if (!text) {
            list = preset_list(&dir);
            bb_warn("unknown device preset '%s'; the presets are: %s", a->preset,
                    *list ? list : "(none found)");
            free(list);
            exit(BB_EXIT_USAGE);
        }
        src = path;
    } else {
        text = slurp(a->device);
        if (!text)
            bb_die(BB_EXIT_NOINPUT, "%s: cannot read: %s", a->device, strerror(errno));
    }
    rc = bbs_dev_params_parse(p, text, src, err);
    free(text);
    if (rc != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s", err);
}

int
bb_cmd_device(int argc, char **argv)
{
    struct args a;
    bbs_dev_params p;
    bbs_bench_opts o;
    bbs_bench_result r;
    char err[BB_ERRLEN], bs[32], sz[32];
    int rc;

    memset(&a, 0, sizeof a);
    a.pattern = -1;
    a.qd = 1;
    a.seed = 1;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.list) {
        const char *dir;
        char *list = preset_list(&dir);
        printf("%s\n", *list ? list : "(no presets found)");
        free(list);
        return BB_EXIT_OK;
    }
    load_params(&a, &p);

    memset(&o, 0, sizeof o);
    o.pattern = (bbs_pattern)a.pattern;
    o.bs_bytes = a.bs.set ? (uint64_t)bb_qty_size_bytes(&a.bs) : 4096;
    o.size_bytes = a.size.set ? (uint64_t)bb_qty_size_bytes(&a.size) : 512ull << 20;
    o.offset_bytes = a.offset.set ? (uint64_t)bb_qty_size_bytes(&a.offset) : 0;
    o.qd = (int)a.qd;
    o.seed = (uint64_t)a.seed;
    if (o.bs_bytes == 0)
        bb_die(BB_EXIT_USAGE, "option '--bs': the block size must be positive");
    if (o.size_bytes == 0 || o.size_bytes % o.bs_bytes)
        bb_die(BB_EXIT_USAGE, "option '--size': %llu B is not a positive multiple of --bs "
               "(%llu B)", (unsigned long long)o.size_bytes, (unsigned long long)o.bs_bytes);
    rc = bbs_storage_bench(&p, &o, &r, err);
    if (rc != BB_OK)
        bb_die(rc == BB_EINVAL ? BB_EXIT_USAGE : bb_exit_status(rc), "%s", err);

    fmt_bytes(bs, sizeof bs, o.bs_bytes);
    fmt_bytes(sz, sizeof sz, o.size_bytes);
    if (a.json) {
        json_t *pct = json_object();
        for (int k = 0; k < BBS_BENCH_NPCT; k++) {
            char key[16];
            snprintf(key, sizeof key, "p%g", bbs_bench_pct[k]);
            json_object_set_new(pct, key, json_real(r.lat_pct_s[k] * 1e3));
        }
        bb_json_print(json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:i, s:I, s:I, s:f, s:f, "
                                "s:f, s:f, s:f, s:f, s:f, s:o}",
                                "device", p.name, "model", bbs_dev_kind_name(p.kind),
                                "pattern", bbs_bench_pattern_name(o.pattern),
                                "bs_bytes", (json_int_t)o.bs_bytes,
                                "size_bytes", (json_int_t)o.size_bytes,
                                "offset_bytes", (json_int_t)o.offset_bytes,
                                "qd", o.qd, "seed", (json_int_t)o.seed,
                                "ios", (json_int_t)r.ios,
                                "elapsed_s", r.elapsed_s, "MBps", r.MBps, "MiBps", r.MiBps,
                                "iops", r.iops, "lat_mean_ms", r.lat_mean_s * 1e3,
                                "lat_min_ms", r.lat_min_s * 1e3,
                                "lat_max_ms", r.lat_max_s * 1e3,
                                "lat_percentiles_ms", pct));
    } else if (a.csv) {
        printf("device,model,pattern,bs_bytes,size_bytes,qd,seed,ios,elapsed_s,MBps,iops,"
               "lat_mean_ms,lat_p50_ms,lat_p99_ms,lat_max_ms\n");
        printf("%s,%s,%s,%llu,%llu,%d,%llu,%llu,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
               p.name, bbs_dev_kind_name(p.kind), bbs_bench_pattern_name(o.pattern),
               (unsigned long long)o.bs_bytes, (unsigned long long)o.size_bytes, o.qd,
               (unsigned long long)o.seed, (unsigned long long)r.ios, r.elapsed_s, r.MBps,
               r.iops, r.lat_mean_s * 1e3, r.lat_pct_s[1] * 1e3, r.lat_pct_s[3] * 1e3,
               r.lat_max_s * 1e3);
    } else {
        printf("%s (%s): %s, bs %s, size %s, qd %d, seed %ld\n", p.name,
               bbs_dev_kind_name(p.kind), bbs_bench_pattern_name(o.pattern), bs, sz, o.qd,
               a.seed);
        printf("  %.2f MB/s (%.2f MiB/s), %.2f IOPS: %llu I/Os in %.4g s\n", r.MBps, r.MiBps,
               r.iops, (unsigned long long)r.ios, r.elapsed_s);
        printf("  latency (ms): mean %.4g, min %.4g", r.lat_mean_s * 1e3, r.lat_min_s * 1e3);
        for (int k = 0; k < BBS_BENCH_NPCT; k++)
            printf(", p%g %.4g", bbs_bench_pct[k], r.lat_pct_s[k] * 1e3);
        printf(", max %.4g\n", r.lat_max_s * 1e3);
    }
    return BB_EXIT_OK;
}

/* ==== bbsize bbarch: the burst-buffer architectures (sim/storage/arch.h) ==== */

enum {
    OPT_ARCH = 0x3100, OPT_CLIENTS, OPT_NODES, OPT_MAP, OPT_BBDEV, OPT_HDD, OPT_CAP,
    OPT_THRESH, OPT_NETLAT, OPT_NETBW, OPT_PFSBW, OPT_DRAIN, OPT_LAZYTH, OPT_EPS, OPT_REQ,
    OPT_IAT, OPT_HORIZON, OPT_MTTF, OPT_MTTR, OPT_EA, OPT_TEMP, OPT_AMBIENT, OPT_ASEED,
    OPT_INTERVAL, OPT_IOSTAT, OPT_AJSON, OPT_DSHAPE, OPT_DSCALE, OPT_DAGE, OPT_CMTTF,
    OPT_CMTTR, OPT_LMTTF, OPT_LMTTR, OPT_FAILOVER, OPT_FLOG, OPT_TOPO, OPT_ROUTING, OPT_BBPG
};

static const struct argp_option arch_options[] = {
    { "arch", OPT_ARCH, "ARCH", 0, "local, compute (compute-side global, default) or storage "
      "(storage-side)", 0 },
    { "clients", OPT_CLIENTS, "N", 0, "compute nodes writing (default 30)", 0 },
    { "nodes", OPT_NODES, "N", 0, "burst-buffer or I/O nodes (default 2; local: one per "
      "client)", 0 },
    { "map", OPT_MAP, "MAP", 0, "client to node: block (nearest, default), roundrobin, "
      "random", 0 },
    { "device", OPT_BBDEV, "PRESET", 0, "buffer device preset (default intel-d3-s4510)", 0 },
    { "hdd", OPT_HDD, "PRESET", 0, "storage-side HDD preset (default seagate-st2000nx0253)", 0 },
    { "capacity", OPT_CAP, "SIZE", 0, "capacity per buffer node (default 256GiB)", 0 },
    { "threshold", OPT_THRESH, "SIZE", 0, "storage-side: requests under this go to the SSD "
      "(default 64KiB)", 0 },
    { "net-latency", OPT_NETLAT, "DURATION", 0, "network latency per request (default 1us)", 0 },
    { "net-bw", OPT_NETBW, "RATE", 0, "network link bandwidth (default 5.25GiB/s)", 0 },
    { "pfs-bw", OPT_PFSBW, "RATE", 0, "aggregate PFS bandwidth (default 1GB/s)", 0 },
    { "drain", OPT_DRAIN, "POLICY", 0, "greedy (default) or lazy", 0 },
    { "lazy-threshold", OPT_LAZYTH, "SIZE", 0, "lazy: drain at or above this per node "
      "(default half the capacity)", 0 },
    { "empty-prob", OPT_EPS, "EPS", 0, "lazy: chance per second of draining below the "
      "threshold (default 0.01)", 0 },
    { "request", OPT_REQ, "SIZE", 0, "write request size (default 8MiB)", 0 },
    { "interarrival", OPT_IAT, "DURATION", 0, "mean time between a client's requests "
      "(exponential; default 1s)", 0 },
    { "horizon", OPT_HORIZON, "DURATION", 0, "simulated time (default 600s)", 0 },
    { "mttf", OPT_MTTF, "DURATION", 0, "buffer-node mean time to failure at 25 C "
      "(default: no failures)", 0 },
    { "mttr", OPT_MTTR, "DURATION", 0, "mean repair time, exponential (default 1h)", 0 },
    { "drive-shape", OPT_DSHAPE, "BETA", 0, "drive Weibull shape (with --drive-scale)", 0 },
    { "drive-scale", OPT_DSCALE, "DURATION", 0, "drive Weibull scale (default: no drive "
      "failures)", 0 },
    { "drive-age", OPT_DAGE, "DURATION", 0, "drive age at the start (default 0)", 0 },
    { "ctrl-mttf", OPT_CMTTF, "DURATION", 0, "controller mean time to failure at 25 C "
      "(default: no controller failures)", 0 },
    { "ctrl-mttr", OPT_CMTTR, "DURATION", 0, "controller mean repair time (default: --mttr)",
      0 },
    { "link-mttf", OPT_LMTTF, "DURATION", 0, "ingress-link mean time to failure at 25 C "
      "(default: no link failures)", 0 },
    { "link-mttr", OPT_LMTTR, "DURATION", 0, "link mean repair time (default: --mttr)", 0 },
    { "failover", OPT_FAILOVER, NULL, 0, "send requests for a node whose link is down to the "
      "next node whose link works", 0 },
    { "failures", OPT_FLOG, "FILE", 0, "write every failure and repair there (CSV: "
      "t_s,node,component,health)", 0 },
    { "topology", OPT_TOPO, "PRESET", 0, "run over this dragonfly (graph500-72, "
      "mfnetsim-1056, balanced-16k) instead of the simple network", 0 },
    { "routing", OPT_ROUTING, "ROUTING", 0, "dragonfly routing: min (default), valiant, "
      "adaptive", 0 },
    { "bb-per-group", OPT_BBPG, "N", 0, "burst-buffer terminals per dragonfly group "
      "(default: the preset's)", 0 },
    { "activation-energy", OPT_EA, "EV", 0, "Arrhenius activation energy (default 0.38)", 0 },
    { "temperature", OPT_TEMP, "FILE", 0, "ambient series: CSV lines 'time_s,temp_C'", 0 },
    { "ambient", OPT_AMBIENT, "C", 0, "constant ambient temperature (default 25)", 0 },
    { "seed", OPT_ASEED, "N", 0, "random seed (default 1)", 0 },
    { "interval", OPT_INTERVAL, "DURATION", 0, "iostat-like sampling interval", 0 },
    { "iostat", OPT_IOSTAT, "FILE", 0, "write the iostat series there (CSV; JSON if FILE "
      "ends in .json); needs --interval", 0 },
    { "json", OPT_AJSON, NULL, 0, "print the totals as JSON", 0 },
    { 0 }
};

struct arch_args {
    bbs_arch_config c;
    const char *bbdev, *hdd, *temp_file, *iostat;
    bb_qty mttf, mttr, lazyth, cmttf, cmttr, lmttf, lmttr;
    const char *fail_log, *topology;
    int routing, bb_per_group, net_opt;
    double ambient;
    int json;
};

static double
qty_opt(const char *opt, const char *arg, int kind)
{
    bb_qty q;
    char msg[256];
    int rc = kind == 0 ? bb_parse_size(arg, &q, msg, sizeof msg)
             : kind == 1 ? bb_parse_rate(arg, &q, msg, sizeof msg)
                         : bb_parse_duration(arg, &q, msg, sizeof msg);
    if (rc < 0)
        bb_die(BB_EXIT_USAGE, "option '--%s': %s", opt, msg);
    if (q.plain && kind != 2)
        bb_die(BB_EXIT_USAGE, "option '--%s': '%s' needs a unit (e.g. %s)", opt, arg,
               kind == 0 ? "64KiB" : "1GB/s");
    return q.v;
}

/* A duration that must be positive: 0 would silently mean "none" (no
 * drive failures, no samples) or make no sense (instant repairs, requests
 * every 0 s). */
static double
pos_dur(const char *opt, const char *arg)
{
    double v = qty_opt(opt, arg, 2);

    if (!(v > 0))
        bb_die(BB_EXIT_USAGE, "option '--%s': '%s' is not positive%s", opt, arg,
               strcmp(opt, "interval") == 0 ? " (leave --interval out for no samples)"
               : strcmp(opt, "drive-scale") == 0 ? " (leave --drive-scale out for no drive failures)"
               : "");
    return v;
}

static double
num_opt(const char *opt, const char *arg, double lo, double hi)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0 || !(v >= lo && v <= hi))
        bb_die(BB_EXIT_USAGE, "option '--%s': '%s' is not a number in [%g, %g]", opt, arg, lo,
               hi);
    return v;
}

static error_t
arch_parse(int key, char *arg, struct argp_state *state)
{
    struct arch_args *a = state->input;
    bbs_arch_config *c = &a->c;

    switch (key) {
    case OPT_ARCH:
        if (strcmp(arg, "local") == 0) c->kind = BBS_ARCH_NODE_LOCAL;
        else if (strcmp(arg, "compute") == 0) c->kind = BBS_ARCH_COMPUTE_GLOBAL;
        else if (strcmp(arg, "storage") == 0) c->kind = BBS_ARCH_STORAGE_SIDE;
        else bb_die(BB_EXIT_USAGE, "option '--arch': '%s' is not local, compute or storage", arg);
        break;
    case OPT_CLIENTS: c->n_clients = (int)bb_opt_long("clients", arg, 1, 1000000); break;
    case OPT_NODES: c->n_nodes = (int)bb_opt_long("nodes", arg, 1, 1000000); break;
    case OPT_MAP:
        if (strcmp(arg, "block") == 0) c->map = BBS_MAP_STATIC_BLOCK;
        else if (strcmp(arg, "roundrobin") == 0) c->map = BBS_MAP_ROUND_ROBIN;
        else if (strcmp(arg, "random") == 0) c->map = BBS_MAP_RANDOM;
        else bb_die(BB_EXIT_USAGE, "option '--map': '%s' is not block, roundrobin or random", arg);
        break;
    case OPT_BBDEV: a->bbdev = arg; break;
    case OPT_HDD: a->hdd = arg; break;
    case OPT_CAP: c->capacity_bytes = qty_opt("capacity", arg, 0); break;
    case OPT_THRESH: c->ssd_threshold_bytes = qty_opt("threshold", arg, 0); break;
    case OPT_NETLAT: c->net_latency_s = qty_opt("net-latency", arg, 2); a->net_opt = 1; break;
    case OPT_NETBW: c->net_bw_Bps = qty_opt("net-bw", arg, 1); a->net_opt = 1; break;
    case OPT_PFSBW: c->pfs_bw_Bps = qty_opt("pfs-bw", arg, 1); break;
    case OPT_DRAIN:
        if (strcmp(arg, "greedy") == 0) c->drain = BBS_DRAIN_GREEDY;
        else if (strcmp(arg, "lazy") == 0) c->drain = BBS_DRAIN_LAZY;
        else bb_die(BB_EXIT_USAGE, "option '--drain': '%s' is not greedy or lazy", arg);
        break;
    case OPT_LAZYTH: bb_opt_size("lazy-threshold", arg, &a->lazyth); break;
    case OPT_EPS: c->lazy_eps = num_opt("empty-prob", arg, 0, 1); break;
    case OPT_REQ: c->req_bytes = qty_opt("request", arg, 0); break;
    case OPT_IAT: c->mean_interarrival_s = pos_dur("interarrival", arg); break;
    case OPT_HORIZON: c->horizon_s = qty_opt("horizon", arg, 2); break;
    case OPT_MTTF: a->mttf.v = qty_opt("mttf", arg, 2); a->mttf.set = 1; break;
    case OPT_MTTR: a->mttr.v = pos_dur("mttr", arg); a->mttr.set = 1; break;
    case OPT_DSHAPE: c->drive.shape = num_opt("drive-shape", arg, 1e-3, 100); break;
    case OPT_DSCALE: c->drive.scale_s = pos_dur("drive-scale", arg); break;
    case OPT_DAGE: c->drive_age0_s = qty_opt("drive-age", arg, 2); break;
    case OPT_CMTTF: a->cmttf.v = qty_opt("ctrl-mttf", arg, 2); a->cmttf.set = 1; break;
    case OPT_CMTTR: a->cmttr.v = pos_dur("ctrl-mttr", arg); a->cmttr.set = 1; break;
    case OPT_LMTTF: a->lmttf.v = qty_opt("link-mttf", arg, 2); a->lmttf.set = 1; break;
    case OPT_LMTTR: a->lmttr.v = pos_dur("link-mttr", arg); a->lmttr.set = 1; break;
    case OPT_FAILOVER: c->link_failover = 1; break;
    case OPT_FLOG: a->fail_log = arg; break;
    case OPT_TOPO: a->topology = arg; break;
    case OPT_ROUTING: {
        char msg[BB_ERRLEN];
        if (bbs_net_route_parse(arg, &a->routing, msg) != BB_OK)
            bb_die(BB_EXIT_USAGE, "option '--routing': %s", msg);
        break;
    }
    case OPT_BBPG: a->bb_per_group = (int)bb_opt_long("bb-per-group", arg, 0, 1000000); break;
    case OPT_EA: c->fail.ea_eV = num_opt("activation-energy", arg, 0, 10); break;
    case OPT_TEMP: a->temp_file = arg; break;
    case OPT_AMBIENT: a->ambient = num_opt("ambient", arg, -273.14, 1000); break;
    case OPT_ASEED: c->seed = (uint64_t)bb_opt_long("seed", arg, 0, 0x7fffffffL); break;
    case OPT_INTERVAL: c->sample_interval_s = pos_dur("interval", arg); break;
    case OPT_IOSTAT: a->iostat = arg; break;
    case OPT_AJSON: a->json = 1; break;
    case ARGP_KEY_ARG:
        argp_error(state, "unexpected argument '%s'", arg);
        break;
    case ARGP_KEY_END:
        if (c->drive.scale_s > 0 && c->drive.shape == 0)
            c->drive.shape = 1; /* exponential unless told */
        if (a->iostat && !(c->sample_interval_s > 0))
            argp_error(state, "--iostat needs --interval DURATION (> 0)");
        if (a->topology && a->net_opt)
            argp_error(state, "--net-latency and --net-bw describe the simple network; with "
                       "--topology the dragonfly's links are used");
        if (a->topology && c->kind == BBS_ARCH_NODE_LOCAL)
            argp_error(state, "node-local buffers use no network: --topology does not apply");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child limits_children[] = {
    { &bb_limits_argp, 0, NULL, 0 },
    { 0 }
};

static const struct argp arch_argp = {
    arch_options, arch_parse, NULL,
    "Simulate a burst-buffer architecture of MFNetSim (node-local, compute-side global, "
    "storage-side) on the event engine: clients write requests, buffer nodes account "
    "capacity and drain to the PFS (greedy or lazy), nodes may fail and lose what is not "
    "on the PFS.  Prints the byte accounting (written = on PFS + in buffers + lost), "
    "stalls and latency; --iostat writes an iostat-like series per device.\v"
    "See bbsize-bbarch(1).",
    limits_children, NULL, NULL
};

/* The temperature file: lines "time_s,temp_C" ('#' comments, blank lines). */
static void
load_temps(const char *path, double **t, double **T, size_t *n)
{
    char *text = slurp(path), *line, *save = NULL;
    size_t cap = 0;
    int lineno = 0;

    if (!text)
        bb_die(BB_EXIT_NOINPUT, "%s: cannot read: %s", path, strerror(errno));
    *n = 0;
    *t = *T = NULL;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *h = strchr(line, '#'), *comma, *e1, *e2;
        double a, b;
        lineno++;
        if (h)
            *h = 0;
        if (strspn(line, " \t\r") == strlen(line))
            continue;
        comma = strchr(line, ',');
        if (!comma)
            bb_die(BB_EXIT_DATAERR, "%s:%d: expected 'time_s,temp_C'", path, lineno);
        *comma = 0;
        a = bb_strtod_lax(line, &e1);
        b = bb_strtod_lax(comma + 1, &e2);
        if (e1 == line || strspn(e1, " \t") != strlen(e1) || e2 == comma + 1
            || strspn(e2, " \t\r") != strlen(e2) || !isfinite(a) || !isfinite(b))
            bb_die(BB_EXIT_DATAERR, "%s:%d: field 'time_s' or 'temp_C' is not a number", path,
                   lineno);
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            *t = realloc(*t, cap * sizeof **t);
            *T = realloc(*T, cap * sizeof **T);
            if (!*t || !*T)
                bb_die(BB_EXIT_SOFTWARE, "out of memory reading %s", path);
        }
        (*t)[*n] = a;
        (*T)[*n] = b;
        (*n)++;
    }
    free(text);
    if (*n == 0)
        bb_die(BB_EXIT_DATAERR, "%s: the temperature series is empty", path);
}

typedef struct {
    bbs_arch_sample *v;
    size_t n, cap;
} rows;

static int
keep_row(void *ctx, const bbs_arch_sample *row)
{
    rows *r = ctx;
    if (r->n == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 256;
        bbs_arch_sample *nv = realloc(r->v, ncap * sizeof *nv);
        if (!nv)
            return BB_ENOMEM;
        r->v = nv;
        r->cap = ncap;
    }
    r->v[r->n++] = *row;
    return BB_OK;
}

static void
write_iostat(const char *path, const rows *r)
{
    bb_out o;
    size_t l = strlen(path);
    int json = l > 5 && strcmp(path + l - 5, ".json") == 0;

    bb_out_open(&o, path);
    if (json) {
        json_t *a = json_array();
        for (size_t i = 0; i < r->n; i++) {
            const bbs_arch_sample *s = &r->v[i];
            json_array_append_new(a, json_pack(
                "{s:f, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s}",
                "t_s", s->t_s, "node", s->node, "device", s->device, "r_kBps", s->r_kBps,
                "w_kBps", s->w_kBps, "r_iops", s->r_iops, "w_iops", s->w_iops,
                "r_await_ms", s->r_await_ms, "w_await_ms", s->w_await_ms,
                "avgqu_sz", s->avgqu_sz, "util_pct", s->util_pct,
                "used_bytes", s->used_bytes, "capacity_bytes", s->capacity_bytes,
                "health", bbs_health_name(s->health)));
        }
        if (json_dumpf(a, o.fp, JSON_INDENT(1)) != 0)
            fputs("", o.fp);
        fputc('\n', o.fp);
        json_decref(a);
    } else {
        fprintf(o.fp, "t_s,node,device,r_kBps,w_kBps,r_iops,w_iops,r_await_ms,w_await_ms,"
                      "avgqu_sz,util_pct,used_bytes,capacity_bytes,health\n");
        for (size_t i = 0; i < r->n; i++) {
            const bbs_arch_sample *s = &r->v[i];
            fprintf(o.fp, "%.9g,%d,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.0f,%.0f,%s\n",
                    s->t_s, s->node, s->device, s->r_kBps, s->w_kBps, s->r_iops, s->w_iops,
                    s->r_await_ms, s->w_await_ms, s->avgqu_sz, s->util_pct, s->used_bytes,
                    s->capacity_bytes, bbs_health_name(s->health));
        }
    }
    bb_out_commit(&o);
}

/* The failure log, kept in memory and written at the end (atomically). */
typedef struct {
    double t;
    int node, cls, health;
} fail_row;

typedef struct {
    fail_row *v;
    size_t n, cap;
} fail_rows;

static int
keep_fail(void *ctx, double t, int node, bbs_comp_class cls, bbs_health h)
{
    fail_rows *r = ctx;
    if (r->n == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 256;
        fail_row *nv = realloc(r->v, ncap * sizeof *nv);
        if (!nv)
            return BB_ENOMEM;
        r->v = nv;
        r->cap = ncap;
    }
    r->v[r->n++] = (fail_row){ t, node, (int)cls, (int)h };
    return BB_OK;
}

static void
write_fail_log(const char *path, const fail_rows *r)
{
    static const char *comp[] = { "node", "drive", "controller", "link" };
    bb_out o;

    bb_out_open(&o, path);
    fprintf(o.fp, "t_s,node,component,health\n");
    for (size_t i = 0; i < r->n; i++)
        fprintf(o.fp, "%.9g,%d,%s,%s\n", r->v[i].t, r->v[i].node, comp[r->v[i].cls],
                bbs_health_name((bbs_health)r->v[i].health));
    bb_out_commit(&o);
}

/* --topology: a preset dragonfly, with --bb-per-group if given. */
static bbs_net_topo *
arch_topology(const struct arch_args *a)
{
    bbs_net_params par;
    bbs_net_topo *t = NULL;
    char err[BB_ERRLEN];

    if (bbs_net_preset(a->topology, &par, err) != BB_OK)
        bb_die(BB_EXIT_USAGE, "option '--topology': %s", err);
    if (a->bb_per_group >= 0)
        par.bb_per_group = a->bb_per_group;
    if (par.bb_per_group == 0)
        bb_die(BB_EXIT_USAGE, "topology %s has no burst-buffer terminals: give "
               "--bb-per-group N", a->topology);
    bb_limits_check_topology(&par, a->topology);
    if (bbs_net_topo_build(&par, NULL, &t, err) != BB_OK)
        bb_die(BB_EXIT_USAGE, "topology %s: %s", a->topology, err);
    return t;
}

static double
mttf_rate(const char *opt, const bb_qty *q)
{
    if (!(q->v > 0))
        bb_die(BB_EXIT_USAGE, "option '--%s': must be > 0", opt);
    return 1 / q->v;
}

static const char *arch_names[] = { "node-local", "compute-side global", "storage-side" };

int
bb_cmd_bbarch(int argc, char **argv)
{
    struct arch_args a;
    struct args da;
    bbs_arch_result r;
    rows rs = { NULL, 0, 0 };
    fail_rows fr = { NULL, 0, 0 };
    bbs_net_topo *topo = NULL;
    bbs_arch_dfly_params dp;
    double *tt = NULL, *TT = NULL, one_t = 0, one_T;
    size_t nt = 1;
    char err[BB_ERRLEN], w[32], p[32], b[32], l[32];
    int rc;

    memset(&a, 0, sizeof a);
    bbs_arch_config_init(&a.c);
    a.c.kind = BBS_ARCH_COMPUTE_GLOBAL;
    a.c.n_clients = 30;
    a.c.n_nodes = 2;
    a.c.capacity_bytes = 256.0 * 1073741824;
    a.c.net_latency_s = 1e-6;
    a.c.net_bw_Bps = 5.25 * 1073741824;
    a.c.pfs_bw_Bps = 1e9;
    a.c.req_bytes = 8.0 * 1048576;
    a.c.mean_interarrival_s = 1;
    a.c.horizon_s = 600;
    a.c.seed = 1;
    a.ambient = 25;
    a.bb_per_group = -1;
    a.routing = BBS_NET_ROUTE_MIN;
    argp_parse(&arch_argp, argc, argv, 0, NULL, &a);

    memset(&da, 0, sizeof da);
    da.preset = a.bbdev ? a.bbdev : "intel-d3-s4510";
    load_params(&da, &a.c.bb_dev);
    if (a.c.kind == BBS_ARCH_STORAGE_SIDE) {
        da.preset = a.hdd ? a.hdd : "seagate-st2000nx0253";
        load_params(&da, &a.c.hdd_dev);
    }
    a.c.lazy_threshold_bytes = a.lazyth.set ? bb_qty_size_bytes(&a.lazyth)
                                            : a.c.capacity_bytes / 2;
    if (a.mttf.set)
        a.c.fail.rate_per_s = mttf_rate("mttf", &a.mttf);
    if (a.cmttf.set)
        a.c.ctrl_fail.rate_per_s = mttf_rate("ctrl-mttf", &a.cmttf);
    if (a.lmttf.set)
        a.c.link_fail.rate_per_s = mttf_rate("link-mttf", &a.lmttf);
    a.c.ctrl_fail.ea_eV = a.c.link_fail.ea_eV = a.c.fail.ea_eV;
    if (a.mttr.set)
        a.c.repair.mean_s = a.c.ctrl_repair.mean_s = a.c.link_repair.mean_s = a.mttr.v;
    if (a.cmttr.set)
        a.c.ctrl_repair.mean_s = a.cmttr.v;
    if (a.lmttr.set)
        a.c.link_repair.mean_s = a.lmttr.v;
    if (a.fail_log) {
        a.c.fail_fn = keep_fail;
        a.c.fail_ctx = &fr;
    }
    if (a.topology) {
        topo = arch_topology(&a);
        dp = (bbs_arch_dfly_params){ topo, { a.routing, 0, 4 } };
        a.c.net = &bbs_arch_net_dragonfly;
        a.c.net_params = &dp;
    }
    if (a.temp_file) {
        load_temps(a.temp_file, &tt, &TT, &nt);
        a.c.temp = (bbs_temp_series){ nt, tt, TT };
    } else {
        one_T = a.ambient;
        a.c.temp = (bbs_temp_series){ 1, &one_t, &one_T };
    }
    if (a.iostat) {
        a.c.sample_fn = keep_row;
        a.c.sample_ctx = &rs;
    }
    {
        /* Bounded before it starts (bbsize(1), BOUNDS). */
        double ev, by;
        char detail[256];

        bbs_arch_estimate(&a.c, &ev, &by);
        snprintf(detail, sizeof detail, "%d clients over %g s, requests every %g s, "
                 "failures and repairs included", a.c.n_clients, a.c.horizon_s,
                 a.c.mean_interarrival_s);
        bb_limits_check("the bbarch run", ev, by, detail,
                        "--horizon, --clients, --interarrival, longer --mttf/--mttr, --interval");
    }
    rc = bbs_arch_run(&a.c, &r, err);
    free(tt);
    free(TT);
    bbs_net_topo_free(topo);
    if (rc != BB_OK) {
        free(rs.v);
        free(fr.v);
        bb_die(rc == BB_EINVAL ? BB_EXIT_USAGE : bb_exit_status(rc), "%s", err);
    }
    if (a.iostat)
        write_iostat(a.iostat, &rs);
    if (a.fail_log)
        write_fail_log(a.fail_log, &fr);
    free(rs.v);
    free(fr.v);

    if (a.json) {
        bb_json_print(json_pack("{s:s, s:s, s:i, s:i, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:I, "
                                "s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:I}",
                                "architecture", arch_names[a.c.kind],
                                "network", a.topology ? a.topology : "simple",
                                "clients", a.c.n_clients,
                                "nodes", a.c.kind == BBS_ARCH_NODE_LOCAL ? a.c.n_clients
                                                                          : a.c.n_nodes,
                                "drain", a.c.drain == BBS_DRAIN_LAZY ? "lazy" : "greedy",
                                "seed", (json_int_t)a.c.seed,
                                "horizon_s", a.c.horizon_s,
                                "bytes_written", r.bytes_written,
                                "bytes_on_pfs", r.bytes_on_pfs,
                                "bytes_in_buffers", r.bytes_in_buffers,
                                "bytes_lost", r.bytes_lost,
                                "files_lost", (json_int_t)r.files_lost,
                                "requests", (json_int_t)r.requests,
                                "writes_done", (json_int_t)r.writes_done,
                                "node_failures", (json_int_t)r.node_failures,
                                "drive_failures", (json_int_t)r.drive_failures,
                                "controller_failures", (json_int_t)r.ctrl_failures,
                                "link_failures", (json_int_t)r.link_failures,
                                "failovers", (json_int_t)r.failovers,
                                "requests_in_flight", (json_int_t)r.requests_in_flight,
                                "stall_s", r.stall_s,
                                "mean_write_latency_s", r.mean_write_latency_s,
                                "max_used_fraction", r.max_used_fraction,
                                "writes_hdd", (json_int_t)r.writes_hdd));
    } else {
        bb_fmt_size(w, sizeof w, r.bytes_written, 0);
        bb_fmt_size(p, sizeof p, r.bytes_on_pfs, 0);
        bb_fmt_size(b, sizeof b, r.bytes_in_buffers, 0);
        bb_fmt_size(l, sizeof l, r.bytes_lost, 0);
        printf("%s, %s network, %d clients, %d nodes, %s draining, %g s, seed %llu:\n",
               arch_names[a.c.kind],
               a.c.kind == BBS_ARCH_NODE_LOCAL ? "no" : a.topology ? a.topology : "simple",
               a.c.n_clients,
               a.c.kind == BBS_ARCH_NODE_LOCAL ? a.c.n_clients : a.c.n_nodes,
               a.c.drain == BBS_DRAIN_LAZY ? "lazy" : "greedy", a.c.horizon_s,
               (unsigned long long)a.c.seed);
        printf("  written %s = on PFS %s + in buffers %s + lost %s (%llu files)\n", w, p, b, l,
               (unsigned long long)r.files_lost);
        printf("  %llu requests, %llu written, %llu in flight at the end; stalls %.4g s in "
               "total; mean write latency %.4g ms; fullest buffer %.1f%%\n",
               (unsigned long long)r.requests, (unsigned long long)r.writes_done,
               (unsigned long long)r.requests_in_flight, r.stall_s,
               r.mean_write_latency_s * 1e3, 100 * r.max_used_fraction);
        printf("  failures: %llu node, %llu drive, %llu controller, %llu link; %llu requests "
               "failed over\n", (unsigned long long)r.node_failures,
               (unsigned long long)r.drive_failures, (unsigned long long)r.ctrl_failures,
               (unsigned long long)r.link_failures, (unsigned long long)r.failovers);
    }
    return BB_EXIT_OK;
}
