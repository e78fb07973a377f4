/* cmd_bbarch.c: `bbsize bbarch`, the burst-buffer architectures of
 * MFNetSim (node-local, compute-side global, storage-side) on the event
 * engine (sim/storage/arch.h), over a simple network or a dragonfly
 * (topoload.h), with device files from devload.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "devload.h"
#include "progress.h"
#include "readfile.h"
#include "topoload.h"
#include "grow.h"
#include "network/route.h"
#include "network/topo.h"
#include "storage/arch.h"
#include "storage/arch_dfly.h"
#include "storage/bbnode.h"
#include "storage/device.h"

enum {
    OPT_ARCH = 0x3100, OPT_CLIENTS, OPT_NODES, OPT_MAP, OPT_BBDEV, OPT_HDD, OPT_CAP,
    OPT_THRESH, OPT_NETLAT, OPT_NETBW, OPT_PFSBW, OPT_DRAIN, OPT_LAZYTH, OPT_EPS, OPT_REQ,
    OPT_IAT, OPT_MTTF, OPT_MTTR, OPT_EA, OPT_TEMP, OPT_AMBIENT,
    OPT_INTERVAL, OPT_IOSTAT, OPT_DSHAPE, OPT_DSCALE, OPT_DAGE, OPT_CMTTF,
    OPT_CMTTR, OPT_LMTTF, OPT_LMTTR, OPT_FAILOVER, OPT_FLOG, OPT_ROUTING, OPT_PIECE, OPT_INFLIGHT,
    OPT_THREADS
};

static const struct argp_option arch_options[] = {
    { "arch", OPT_ARCH, "ARCH", 0, "local, compute (compute-side global, default) or storage "
      "(storage-side)", 0 },
    { "clients", OPT_CLIENTS, "N", 0, "compute nodes writing (default 30)", 0 },
    { "nodes", OPT_NODES, "N", 0, "burst-buffer or I/O nodes (default 2; local: one per "
      "client)", 0 },
    { "map", OPT_MAP, "MAP", 0, "client to node: block (nearest, default), roundrobin, "
      "random", 0 },
    { "device", OPT_BBDEV, "NAME|FILE", 0, "buffer device: a preset name or a .dev file "
      "(default intel-d3-s4510)", 0 },
    { "hdd", OPT_HDD, "NAME|FILE", 0, "storage-side HDD: a preset name or a .dev file "
      "(default seagate-st2000nx0253)", 0 },
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
    { "piece", OPT_PIECE, "SIZE", 0, "the buffer node's server cuts every request into pieces "
      "of SIZE, served in turn over the requests (0 or at least 512B; default 0: whole "
      "requests; MFNetSim: 1MB)", 0 },
    { "pieces-in-flight", OPT_INFLIGHT, "N", 0, "pieces issued to a device at once (1 to 64; "
      "default 1; MFNetSim: 4)", 0 },
    { "piece-threads", OPT_THREADS, "N", 0, "instead, N threads per request each hand the "
      "device one piece at a time, as they come (0 to 64; default 0: the server's turn; "
      "MFNetSim's codes-store: 4)", 0 },
    { "request", OPT_REQ, "SIZE", 0, "write request size (default 8MiB)", 0 },
    { "interarrival", OPT_IAT, "DURATION", 0, "mean time between a client's requests "
      "(exponential; default 1s)", 0 },
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
    { "routing", OPT_ROUTING, "ROUTING", 0, "dragonfly routing: min, valiant, "
      "adaptive or par (default: the .conf's routing, else min)", 0 },
    { "activation-energy", OPT_EA, "EV", 0, "Arrhenius activation energy (default 0.38)", 0 },
    { "temperature", OPT_TEMP, "FILE", 0, "ambient series: CSV lines 'time_s,temp_C'", 0 },
    { "ambient", OPT_AMBIENT, "C", 0, "constant ambient temperature (default 25)", 0 },
    { "interval", OPT_INTERVAL, "DURATION", 0, "iostat-like sampling interval", 0 },
    { "iostat", OPT_IOSTAT, "FILE", 0, "write the iostat series there (CSV; JSON if FILE "
      "ends in .json); needs --interval", 0 },
    { 0 }
};

struct arch_args {
    bbs_arch_config c;
    const char *bbdev, *hdd, *temp_file, *iostat;
    bb_qty mttf, mttr, lazyth, cmttf, cmttr, lmttf, lmttr;
    const char *fail_log;
    int routing;
    const char *net_opt;   /* the simple network's option given, or NULL */
    const char *routing_arg;   /* --routing as given; NULL: the .conf's, else min */
    double ambient;
    bb_outopts out;     /* --json: the totals as JSON */
    bb_runopts run;     /* --seed (default 1), --horizon (default 600 s) */
    bb_topo_opts topo;  /* --topology: a dragonfly instead of the simple network */
};

static double
qty_opt(const char *opt, const char *arg, int kind)
{
    bb_qty q;
    char msg[256];
    int rc = kind == 0 ? bb_parse_size(arg, &q, msg, sizeof msg)
             : kind == 1 ? bb_parse_rate(arg, &q, msg, sizeof msg)
                         : bb_parse_duration(arg, &q, msg, sizeof msg);
    if (rc != BB_OK)
        bb_usage_error(opt, "%s", msg);
    if (q.plain && kind != 2)
        bb_usage_error(opt, "'%s' needs a unit (e.g. %s)", arg,
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
        bb_usage_value(opt, arg, "positive%s",
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

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK || !(v >= lo && v <= hi))
        bb_usage_value(opt, arg, "a number in [%g, %g]", lo, hi);
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
        else bb_usage_value("arch", arg, "local, compute or storage");
        break;
    case OPT_CLIENTS: c->n_clients = (int)bb_opt_long("clients", arg, 1, 1000000); break;
    case OPT_NODES: c->n_nodes = (int)bb_opt_long("nodes", arg, 1, 1000000); break;
    case OPT_MAP:
        if (strcmp(arg, "block") == 0) c->map = BBS_MAP_STATIC_BLOCK;
        else if (strcmp(arg, "roundrobin") == 0) c->map = BBS_MAP_ROUND_ROBIN;
        else if (strcmp(arg, "random") == 0) c->map = BBS_MAP_RANDOM;
        else bb_usage_value("map", arg, "block, roundrobin or random");
        break;
    case OPT_BBDEV: a->bbdev = arg; break;
    case OPT_HDD: a->hdd = arg; break;
    case OPT_CAP: c->capacity_bytes = qty_opt("capacity", arg, 0); break;
    case OPT_THRESH: c->ssd_threshold_bytes = qty_opt("threshold", arg, 0); break;
    case OPT_NETLAT:
        c->net_latency_s = qty_opt("net-latency", arg, 2);
        a->net_opt = "net-latency";
        break;
    case OPT_NETBW:
        c->net_bw_Bps = qty_opt("net-bw", arg, 1);
        a->net_opt = "net-bw";
        break;
    case OPT_PFSBW: c->pfs_bw_Bps = qty_opt("pfs-bw", arg, 1); break;
    case OPT_DRAIN:
        if (bb_drain_kind_parse(arg, &c->drain.kind) != 0)
            bb_usage_value("drain", arg, "greedy or lazy");
        break;
    case OPT_LAZYTH: bb_opt_size("lazy-threshold", arg, &a->lazyth); break;
    case OPT_EPS: c->drain.eps = num_opt("empty-prob", arg, 0, 1); break;
    case OPT_PIECE:
        c->piece_bytes = qty_opt("piece", arg, 0);
        if (c->piece_bytes != 0 && !(c->piece_bytes >= 512))
            bb_usage_error("piece", "'%s' is neither 0 (whole requests) nor at "
                           "least 512B", arg);
        break;
    case OPT_THREADS:
        c->piece_threads = (int)bb_opt_long("piece-threads", arg, 0, BBS_BBNODE_MAX_INFLIGHT);
        break;
    case OPT_INFLIGHT:
        c->pieces_in_flight = (int)bb_opt_long("pieces-in-flight", arg, 1,
                                               BBS_BBNODE_MAX_INFLIGHT);
        break;
    case OPT_REQ: c->req_bytes = qty_opt("request", arg, 0); break;
    case OPT_IAT: c->mean_interarrival_s = pos_dur("interarrival", arg); break;
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
    case OPT_FLOG: bb_out_claim("failures", arg); a->fail_log = arg; break;
    case OPT_ROUTING: {
        char msg[BB_ERRLEN];
        if (bbs_net_route_parse(arg, &a->routing, msg) != BB_OK)
            bb_usage_error("routing", "%s", msg);
        a->routing_arg = arg;
        break;
    }
    case OPT_EA: c->fail.ea_eV = num_opt("activation-energy", arg, 0, 10); break;
    case OPT_TEMP: a->temp_file = arg; break;
    case OPT_AMBIENT: a->ambient = num_opt("ambient", arg, -273.14, 1000); break;
    case OPT_INTERVAL: c->sample_interval_s = pos_dur("interval", arg); break;
    case OPT_IOSTAT: bb_out_claim("iostat", arg); a->iostat = arg; break;
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        state->child_inputs[1] = &a->run;
        state->child_inputs[2] = &a->topo;
        break;
    case ARGP_KEY_ARG:
        bb_usage_unexpected(arg, NULL);
        break;
    case ARGP_KEY_END:
        if (a->run.seed_set)
            c->seed = a->run.seed;
        if (a->run.horizon_arg)
            c->horizon_s = a->run.horizon.v;   /* plain: seconds */
        if (c->drive.scale_s > 0 && c->drive.shape == 0)
            c->drive.shape = 1; /* exponential unless told */
        if (a->iostat && !(c->sample_interval_s > 0))
            bb_usage_needs("iostat", "interval", "a duration > 0");
        if (a->topo.topology && a->net_opt)
            bb_usage_exclusive(a->net_opt, "topology", "--net-latency and --net-bw describe "
                               "the simple network; with --topology the dragonfly's links "
                               "are used");
        if (a->topo.topology && c->kind == BBS_ARCH_NODE_LOCAL)
            bb_usage_inapplicable("topology", "to node-local buffers (they use no network)");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED | BB_RUN_HORIZON), 0, NULL, 0 },
    { &bb_topo_argp, 0, NULL, 0 },
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
    children, NULL, NULL
};

/* The temperature file: lines "time_s,temp_C" ('#' comments, blank lines). */
static void
load_temps(const char *path, double **t, double **T, size_t *n)
{
    char *text, *line, *save = NULL, err[BB_ERRLEN];
    size_t cap = 0, capT = 0, len;
    int lineno = 0, rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, sizeof err);

    if (rc != 0)
        bb_die(bb_exit_status(rc), "cannot read the temperature file: %s", err);
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
        if (bbs_grow((void **)t, sizeof **t, &cap, *n + 1)
            || bbs_grow((void **)T, sizeof **T, &capT, *n + 1))
            bb_die(BB_EXIT_SOFTWARE, "out of memory reading %s", path);
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
    if (bbs_grow((void **)&r->v, sizeof *r->v, &r->cap, r->n + 1))
        return BB_ENOMEM;
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
    if (bbs_grow((void **)&r->v, sizeof *r->v, &r->cap, r->n + 1))
        return BB_ENOMEM;
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

/* --topology: the dragonfly (topoload.h); it needs burst-buffer terminals. */
static void
arch_topology(const struct arch_args *a, bb_topo *t)
{
    bb_topo_read(&a->topo, NULL, t);
    if (t->par.bb_per_group == 0)
        bb_usage_needs("topology", "bb-per-group", "topology %s has no burst-buffer terminals",
                       t->source);
    bb_topo_build(t);
}

static double
mttf_rate(const char *opt, const bb_qty *q)
{
    if (!(q->v > 0))
        bb_usage_error(opt, "must be > 0");
    return 1 / q->v;
}

static const char *arch_names[] = { "node-local", "compute-side global", "storage-side" };

/* CPU seconds of a unit of bbs_arch_estimate's work (an event whose
 * state stays in the caches) on one core (measured: docs/bounds.md). */
#define BB_ARCH_S_PER_EVENT 6e-8

int
bb_cmd_bbarch(int argc, char **argv)
{
    struct arch_args a;
    bbs_arch_result r;
    rows rs = { NULL, 0, 0 };
    fail_rows fr = { NULL, 0, 0 };
    bb_topo topo;
    bbs_arch_dfly_params dp;
    double *tt = NULL, *TT = NULL, one_t = 0, one_T;
    size_t nt = 1;
    char err[BB_ERRLEN], w[32], p[32], b[32], l[32];
    bb_meter meter;
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
    bb_topo_opts_init(&a.topo);
    a.routing = BBS_NET_ROUTE_MIN;
    argp_parse(&arch_argp, argc, argv, 0, NULL, &a);

    memset(&topo, 0, sizeof topo);
    bb_device_load("device", a.bbdev ? a.bbdev : "intel-d3-s4510", NULL, &a.c.bb_dev);
    if (a.c.kind == BBS_ARCH_STORAGE_SIDE)
        bb_device_load("hdd", a.hdd ? a.hdd : "seagate-st2000nx0253", NULL, &a.c.hdd_dev);
    a.c.drain.threshold = a.lazyth.set ? bb_qty_size_bytes(&a.lazyth)
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
    if (a.topo.topology) {
        arch_topology(&a, &topo);
        dp = (bbs_arch_dfly_params){ topo.topo, { bb_topo_routing(&topo, a.routing_arg), 0, 4 } };
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
        /* Bounded before it starts (bbsize(1), BOUNDS): the work, in
         * events of a run whose state fits the caches. */
        double ev, by, work;
        char detail[384];
        int n;

        rc = bbs_arch_check(&a.c, err);   /* a bad value named, not costed */
        if (rc != BB_OK)
            bb_die_opts(rc, err);
        bbs_arch_estimate(&a.c, &ev, &by, &work);
        n = snprintf(detail, sizeof detail, "%d clients over %g s, requests every %g s, "
                     "failures and repairs included", a.c.n_clients, a.c.horizon_s,
                     a.c.mean_interarrival_s);
        if (work > 1.5 * ev && n > 0 && (size_t)n < sizeof detail)
            snprintf(detail + n, sizeof detail - (size_t)n, ": %.3g events, each the work of "
                     "%.3g in a run that fits the processor's caches (%d buffer nodes hold "
                     "%.3g GB), with the set-up", ev, work / ev,
                     a.c.kind == BBS_ARCH_NODE_LOCAL ? a.c.n_clients : a.c.n_nodes, by / 1e9);
        bb_limits_check("the bbarch run", work, by, detail,
                        "--horizon, --clients, --nodes, --interarrival, longer --mttf/--mttr, "
                        "--interval");
        bb_meter_estimate(&a.out, work * BB_ARCH_S_PER_EVENT, ev, "events");
    }
    bb_meter_start(&meter, &a.out, "bbarch", "hundredths of the horizon", 100);
    a.c.progress_fn = bb_meter_progress;
    a.c.progress_ctx = &meter;
    rc = bbs_arch_run(&a.c, &r, err);
    bb_meter_end(&meter);
    free(tt);
    free(TT);
    bb_topo_free(&topo);
    if (rc != BB_OK) {
        free(rs.v);
        free(fr.v);
        bb_die_opts(rc, err);
    }
    if (a.iostat)
        write_iostat(a.iostat, &rs);
    if (a.fail_log)
        write_fail_log(a.fail_log, &fr);
    free(rs.v);
    free(fr.v);

    if (a.out.json) {
        bb_json_print(json_pack("{s:s, s:s, s:i, s:i, s:s, s:o, s:f, s:f, s:f, s:f, s:f, s:I, "
                                "s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:I}",
                                "architecture", arch_names[a.c.kind],
                                "network", a.topo.topology ? a.topo.topology : "simple",
                                "clients", a.c.n_clients,
                                "nodes", a.c.kind == BBS_ARCH_NODE_LOCAL ? a.c.n_clients
                                                                          : a.c.n_nodes,
                                "drain", bb_drain_kind_name(a.c.drain.kind),
                                "seed", bb_json_seed(a.c.seed),
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
               a.c.kind == BBS_ARCH_NODE_LOCAL ? "no" : a.topo.topology ? a.topo.topology : "simple",
               a.c.n_clients,
               a.c.kind == BBS_ARCH_NODE_LOCAL ? a.c.n_clients : a.c.n_nodes,
               bb_drain_kind_name(a.c.drain.kind), a.c.horizon_s,
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
