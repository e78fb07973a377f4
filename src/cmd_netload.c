/* cmd_netload.c: `bbsize netload`, accepted versus offered load of
 * synthetic traffic on a flow-level dragonfly (sim/network).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "network/bbsnet.h"
#include "codesconf.h"
#include "wiring.h"
#include "alloc_file.h"
#include "rng.h"
#include "cli.h"
#include "csvout.h"
#include "topoload.h"
#include "readfile.h"
#include "commands.h"

#define GIB 1073741824.0

enum {
    OPT_PATTERN = 0x3000, OPT_ROUTING, OPT_LOAD, OPT_MSG, OPT_DURATION,
    OPT_WARMUP, OPT_WINDOW, OPT_BIAS, OPT_CAND, OPT_SENDERS,
    OPT_DESCRIBE, OPT_WRITE_WIRING, OPT_LINKSTATS, OPT_PLACEMENT, OPT_JOBS, OPT_ALLOC,
    OPT_EXACT, OPT_FIXED,
    OPT_PRECISION, OPT_BATCH
};

static const struct argp_option options[] = {
    { NULL, 0, NULL, 0, "Network:", 1 },
    { "describe", OPT_DESCRIBE, NULL, 0, "print the topology as read, and exit", 1 },
    { "write-wiring", OPT_WRITE_WIRING, "PREFIX", 0,
      "write the wiring as CODES binary files PREFIX-intra and PREFIX-inter, and exit", 1 },
    { NULL, 0, NULL, 0, "Traffic:", 2 },
    { "pattern", OPT_PATTERN, "NAME", 0,
      "uniform (default), group-shift (group i -> i+1), random-perm, bb-io (compute -> "
      "burst-buffer node of its group)", 2 },
    { "routing", OPT_ROUTING, "NAME", 0,
      "min, val (Valiant), adaptive (UGAL-style) or par (progressive adaptive) "
      "(default: the .conf's routing, else min)", 2 },
    { "bias", OPT_BIAS, "B", 0, "adaptive: take the minimal path unless it costs more than "
      "(1 + B) x the best Valiant candidate (default 0)", 2 },
    { "candidates", OPT_CAND, "K", 0, "adaptive: Valiant paths compared (default 2)", 2 },
    { "load", OPT_LOAD, "SPEC", 0, "offered load as a fraction of injection bandwidth, in "
      "(0, 1]: X, X,Y,... or FROM:TO:STEP (default 0.1:1.0:0.1)", 2 },
    { "msg-size", OPT_MSG, "SIZE", 0, "message size, e.g. 256KiB (default 1MiB)", 2 },
    { "window", OPT_WINDOW, "N", 0, "messages in flight per sender (default 16)", 2 },
    { "senders", OPT_SENDERS, "all|compute", 0,
      "which terminals send (default all; bb-io: the compute nodes that are not "
      "buffer nodes)", 2 },
    { "jobs", OPT_JOBS, "N1,N2,...", 0, "place jobs of these sizes (senders = their ranks; "
      "uniform traffic stays inside each job)", 2 },
    { "placement", OPT_PLACEMENT, "POLICY", 0,
      "cont (default), random-node, random-router, random-group", 2 },
    { "alloc", OPT_ALLOC, "FILE", 0, "MFNetSim allocation file (one line of compute-node "
      "indices per job) instead of --jobs", 2 },
    { NULL, 0, NULL, 0, "Run and output:", 3 },
    { "duration", OPT_DURATION, "TIME", 0, "the most simulated time per load point (default "
      "100ms); with --fixed, exactly this (default 1ms)", 3 },
    { "warmup", OPT_WARMUP, "TIME", 0, "the least warm-up, not measured (default 0: where the "
      "accepted load settles, by MSER); with --fixed, exactly this (default 20% of duration)",
      3 },
    { "precision", OPT_PRECISION, "REL", 0, "stop measuring once the accepted load's 95% "
      "interval is within REL of its mean (default 0.02)", 3 },
    { "batch", OPT_BATCH, "TIME", 0, "interval of the steady-state analysis (default: ten "
      "mean gaps between a sender's messages at the offered load, at most duration/40)", 3 },
    { "fixed", OPT_FIXED, NULL, 0, "measure exactly [warmup, duration] (no steady-state "
      "detection)", 3 },
    { "exact-limit", OPT_EXACT, "N", 0, "recompute rates exactly (whole connected component) "
      "while it has at most N flows, else only the flows sharing a link with the change; "
      "-1: always exact, 0: always local (default 256)", 3 },
    { "link-stats", OPT_LINKSTATS, "FILE", 0, "write per-link statistics (CSV) to FILE", 3 },
    { 0 }
};

struct args {
    const char *write_wiring, *link_stats, *alloc, *jobs;
    const char *routing;
    int pattern, describe, placement, window, cand;
    int compute_only, exact_limit, fixed;
    double bias, msg_bytes, duration_s, warmup_s, precision, batch_s;
    double loads[1000];
    int nloads;
    bb_topo_opts topo;   /* --topology (default mfnetsim-1056), wiring, --bb-per-group */
    bb_outopts out;      /* --csv, --json, --quiet, --progress */
    bb_runopts run;      /* --seed (default 1) */
};

static void
parse_loads(struct args *a, const char *spec)
{
    char *end;
    double from, to, step;

    a->nloads = 0;
    if (strchr(spec, ':')) {
        errno = 0;
        from = bb_strtod_lax(spec, &end);
        if (*end != ':')
            goto bad;
        to = bb_strtod_lax(end + 1, &end);
        if (*end != ':')
            goto bad;
        step = bb_strtod_lax(end + 1, &end);
        if (*end || errno || !(step > 0) || !(to >= from))
            goto bad;
        if (!(from > 0 && from <= 1) || !(to > 0 && to <= 1))
            bb_usage_error("load", "'%s': %g is outside (0, 1] (a fraction of injection "
                           "bandwidth)", spec, !(from > 0 && from <= 1) ? from : to);
        for (int i = 0;; i++) {
            double x = from + i * step;
            if (x > to + 1e-9 * step)
                break;
            if (a->nloads == 1000)
                bb_usage_error("load", "'%s': more than 1000 points", spec);
            a->loads[a->nloads++] = x > 1 && x < 1 + 1e-9 ? 1 : x;
        }
    } else {
        const char *p = spec;
        for (;;) {
            errno = 0;
            double x = bb_strtod_lax(p, &end);
            if (end == p || errno || a->nloads == 1000)
                goto bad;
            a->loads[a->nloads++] = x;
            if (*end == '\0')
                break;
            if (*end != ',')
                goto bad;
            p = end + 1;
        }
    }
    for (int i = 0; i < a->nloads; i++)
        if (!(a->loads[i] > 0 && a->loads[i] <= 1))
            bb_usage_error("load", "%g is outside (0, 1] (a fraction of injection "
                           "bandwidth)", a->loads[i]);
    if (a->nloads == 0)
        goto bad;
    return;
bad:
    bb_usage_value("load", spec, "X, X,Y,... or FROM:TO:STEP with values in (0, 1]");
}

static double
opt_duration(const char *opt, const char *arg)
{
    bb_qty q;
    char err[256];

    if (bb_parse_duration(arg, &q, err, sizeof err) != 0)
        bb_usage_error(opt, "%s", err);
    if (!(q.v > 0))
        bb_usage_value(opt, arg, "positive");
    return q.v;
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;
    char err[BB_ERRLEN];
    bb_qty q;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->topo;
        state->child_inputs[1] = &a->out;
        state->child_inputs[2] = &a->run;
        break;
    case OPT_DESCRIBE: a->describe = 1; break;
    case OPT_WRITE_WIRING: a->write_wiring = arg; break;
    case OPT_PATTERN:
        if (bbs_net_pattern_parse(arg, &a->pattern, err) != BB_OK)
            bb_usage_error("pattern", "%s", err);
        break;
    case OPT_ROUTING: {
        int k;
        if (bbs_net_route_parse(arg, &k, err) != BB_OK)
            bb_usage_error("routing", "%s", err);
        a->routing = arg;
        break;
    }
    case OPT_BIAS: {
        char *end;
        errno = 0;
        a->bias = bb_strtod_lax(arg, &end);
        if (*end || errno || !(a->bias >= 0) || !isfinite(a->bias))
            bb_usage_value("bias", arg, "a number >= 0");
        break;
    }
    case OPT_CAND: a->cand = (int)bb_opt_long("candidates", arg, 1, 64); break;
    case OPT_LOAD: parse_loads(a, arg); break;
    case OPT_MSG:
        if (bb_parse_size(arg, &q, err, sizeof err) != 0)
            bb_usage_error("msg-size", "%s", err);
        if (!(q.v > 0))
            bb_usage_value("msg-size", arg, "positive");
        a->msg_bytes = q.v;
        break;
    case OPT_WINDOW: a->window = (int)bb_opt_long("window", arg, 1, 1000000); break;
    case OPT_SENDERS:
        if (!strcmp(arg, "all"))
            a->compute_only = 0;
        else if (!strcmp(arg, "compute"))
            a->compute_only = 1;
        else
            bb_usage_value("senders", arg, "all or compute");
        break;
    case OPT_JOBS: a->jobs = arg; break;
    case OPT_PLACEMENT:
        if (bbs_net_place_parse(arg, &a->placement, err) != BB_OK)
            bb_usage_error("placement", "%s", err);
        break;
    case OPT_ALLOC: a->alloc = arg; break;
    case OPT_DURATION: a->duration_s = opt_duration("duration", arg); break;
    case OPT_WARMUP: {
        bb_qty w;
        if (bb_parse_duration(arg, &w, err, sizeof err) != 0)
            bb_usage_error("warmup", "%s", err);
        a->warmup_s = w.v;
        break;
    }
    case OPT_FIXED: a->fixed = 1; break;
    case OPT_PRECISION:
        a->precision = bb_opt_fraction_open("precision", arg);
        break;
    case OPT_BATCH: a->batch_s = opt_duration("batch", arg); break;
    case OPT_EXACT: a->exact_limit = (int)bb_opt_long("exact-limit", arg, -1, INT_MAX); break;
    case OPT_LINKSTATS: bb_out_claim("link-stats", arg); a->link_stats = arg; break;
    case ARGP_KEY_ARG: bb_usage_unexpected(arg, NULL); break;
    case ARGP_KEY_END:
        if (a->jobs && a->alloc)
            bb_usage_exclusive("jobs", "alloc", NULL);
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { &bb_topo_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED), 0, NULL, 0 },
    { &bb_limits_argp, 0, NULL, 0 },
    { 0 }
};

static const struct argp argp = {
    options, parse, "",
    "Accepted versus offered load of synthetic traffic on a dragonfly, simulated at flow "
    "level (max-min fair bandwidth sharing, no packets).\v"
    "Each sender offers messages as a Poisson process at LOAD x its injection bandwidth and "
    "keeps at most --window of them in the network. Accepted load is the bytes delivered "
    "after the warm-up over senders x injection bandwidth x measured time. See "
    "bbsize-netload(1) and bbsize-topology(5).",
    children, NULL, NULL
};

static void
describe(const bb_topo *ns, int json)
{
    const bbs_net_params *p = &ns->par;
    const bbs_net_topo *t = ns->topo;

    if (json) {
        bb_json_print(json_pack(
            "{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, "
            "s:f, s:f, s:f, s:s}",
            "topology", ns->source, "wiring", ns->wiring_src, "groups", p->g,
            "routers_per_group", p->a, "nodes_per_router", p->p, "global_channels_per_router",
            p->h, "nodes", t->nodes, "compute_nodes", t->ncompute, "bb_nodes_per_group",
            p->bb_per_group, "routers", t->routers, "local_links", t->nlocal, "global_links",
            t->nglobal, "terminal_bw_bytes_per_s", p->cn_bw_Bps, "local_bw_bytes_per_s",
            p->local_bw_Bps, "global_bw_bytes_per_s", p->global_bw_Bps, "router_delay_s",
            p->router_delay_s, "terminal_delay_s", p->cn_delay_s, "local_delay_s",
            p->local_delay_s, "global_delay_s", p->global_delay_s, "routing_in_file",
            ns->conf_routing));
        return;
    }
    printf("topology %s: 1-D dragonfly, %d groups x %d routers x %d nodes, %d global "
           "channels per router\n", ns->source, p->g, p->a, p->p, p->h);
    if (p->bb_per_group > 0)
        printf("nodes %d (%d compute, %d burst-buffer: the first %d of each group), routers %d\n",
               t->nodes, t->ncompute, t->nodes - t->ncompute, p->bb_per_group, t->routers);
    else
        printf("nodes %d (all compute), routers %d\n", t->nodes, t->routers);
    printf("links: %d local and %d global (directed router-to-router), %d terminal links "
           "each way\n", t->nlocal, t->nglobal, t->nodes);
    printf("bandwidth: terminal %.4g GiB/s, local %.4g GiB/s, global %.4g GiB/s\n",
           p->cn_bw_Bps / GIB, p->local_bw_Bps / GIB, p->global_bw_Bps / GIB);
    printf("delays: router %.4g ns, terminal link %.4g ns, local link %.4g ns, global link "
           "%.4g ns\n", p->router_delay_s * 1e9, p->cn_delay_s * 1e9, p->local_delay_s * 1e9,
           p->global_delay_s * 1e9);
    printf("wiring: %s\n", ns->wiring_src);
    if (ns->conf_routing[0])
        printf("routing in file: %s\n", ns->conf_routing);
}

static void
write_wiring(const bb_topo *ns, const char *prefix)
{
    bbs_net_wiring gen = { 0 };
    const bbs_net_wiring *w = &ns->w;
    char err[BB_ERRLEN], *path;
    unsigned char *buf;
    size_t len;
    bb_out o;
    int rc;

    if (!ns->have_wiring) {
        if ((rc = bbs_net_wiring_generate(ns->par.g, ns->par.a, ns->par.h, &gen, err)) != BB_OK)
            bb_die_lib(rc, err);
        w = &gen;
    }
    path = malloc(strlen(prefix) + 8);
    if (!path)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int k = 0; k < 2; k++) {
        sprintf(path, "%s-%s", prefix, k == 0 ? "intra" : "inter");
        rc = k == 0 ? bbs_net_wiring_encode_intra(w, &buf, &len, err)
                    : bbs_net_wiring_encode_inter(w, &buf, &len, err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        bb_out_open(&o, path);
        if (fwrite(buf, 1, len, o.fp) != len) {
            bb_out_abort(&o);
            bb_die(BB_EXIT_IOERR, "%s: write failed", path);
        }
        bb_out_commit(&o);
        free(buf);
    }
    free(path);
    bbs_net_wiring_free(&gen);
}

static json_t *
json_summary(const bbs_net_summary *s)
{
    if (s->n == 0)   /* nothing measured: every statistic null (docs/json.md) */
        return json_pack("{s:I, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n}", "n", (json_int_t)0,
                         "mean", "min", "whisker_lo", "q1", "median", "q3", "whisker_hi", "p99",
                         "max");
    return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n",
                     (json_int_t)s->n, "mean", s->mean, "min", s->min, "whisker_lo",
                     s->whisker_lo, "q1", s->q1, "median", s->median, "q3", s->q3,
                     "whisker_hi", s->whisker_hi, "p99", s->p99, "max", s->max);
}

static json_t *
json_point(const bbs_net_topo *t, double load, const bbs_net_load_result *r, int steady)
{
    json_t *links = json_object(), *o;

    for (int k = 0; k < 4; k++)
        json_object_set_new(
            links, bbs_net_link_kind_name(k),
            json_pack("{s:i, s:f, s:f, s:o, s:o}", "links", r->class_links[k], "bytes",
                      r->class_bytes[k], "saturated_s", r->class_sat_s[k], "utilization",
                      json_summary(&r->class_util[k]), "saturated_fraction",
                      json_summary(&r->class_sat_frac[k])));
    o = json_pack(
        "{s:f, s:f, s:f, s:f, s:f, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:{s:I, "
        "s:I, s:I, s:I, s:I, s:I}}",
        "offered_load_target", load, "offered_load", r->offered, "accepted_load", r->accepted,
        "offered_bytes_per_s_per_node", r->offered_Bps, "accepted_bytes_per_s_per_node",
        r->accepted_Bps, "senders", r->nsenders, "messages_generated", (json_int_t)r->generated,
        "messages_delivered", (json_int_t)r->delivered, "minimal_paths",
        (json_int_t)r->minimal, "nonminimal_paths", (json_int_t)r->nonminimal,
        "queued_at_end", (json_int_t)r->queued_at_end, "in_flight_at_end",
        (json_int_t)r->inflight_at_end, "latency_s", json_summary(&r->latency_s),
        "router_hops", json_summary(&r->hops), "comm_time_per_rank_s",
        json_summary(&r->comm_time_s), "links", links, "cost", "events",
        (json_int_t)r->events, "rate_updates", (json_int_t)r->cost.updates, "exact_updates",
        (json_int_t)r->cost.exact_updates, "flows_touched",
        (json_int_t)r->cost.flows_touched, "largest_component",
        (json_int_t)r->cost.max_component, "flows_started", (json_int_t)r->cost.flows_started);
    json_object_set_new(o, "warmup_s", json_real(r->warmup_s));
    json_object_set_new(o, "window_s", json_real(r->window_s));
    /* null in --fixed mode, which measures one window (docs/json.md) */
    json_object_set_new(o, "intervals", steady ? json_integer(r->batches) : json_null());
    json_object_set_new(o, "settled", steady ? json_boolean(r->settled) : json_null());
    json_object_set_new(o, "precise", steady ? json_boolean(r->precise) : json_null());
    json_object_set_new(o, "accepted_load_ci95_half",
                        steady && isfinite(r->accepted_half) ? json_real(r->accepted_half)
                                                             : json_null());
    (void)t;
    return o;
}

static void
parse_jobs(const char *spec, int **ranks, int *njobs)
{
    const char *p = spec;
    char *end;

    *njobs = 0;
    *ranks = NULL;
    for (;;) {
        long v;
        int *nr;
        errno = 0;
        v = strtol(p, &end, 10);
        if (end == p || errno || v < 1 || v > INT_MAX || (*end && *end != ','))
            bb_usage_value("jobs", spec, "sizes N1,N2,... (each >= 1)");
        nr = realloc(*ranks, (size_t)(*njobs + 1) * sizeof(int));
        if (!nr)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        *ranks = nr;
        (*ranks)[(*njobs)++] = (int)v;
        if (!*end)
            break;
        p = end + 1;
    }
}

int
bb_cmd_netload(int argc, char **argv)
{
    struct args a;
    bb_topo ns;
    bbs_net_placement pl = { 0 };
    bbs_net_load_opts o;
    bbs_net_load_result *res;
    bb_out ls = { 0 };
    char err[BB_ERRLEN];
    int rc, rk;

    memset(&a, 0, sizeof a);
    a.window = 16;
    a.cand = 2;
    a.msg_bytes = 1024 * 1024;
    a.duration_s = -1;
    a.warmup_s = -1;
    a.precision = 0.02;
    a.run.seed = 1;
    a.exact_limit = 256;
    bb_topo_opts_init(&a.topo);
    parse_loads(&a, "0.1:1.0:0.1");
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.duration_s < 0)
        a.duration_s = a.fixed ? 1e-3 : 0.1;
    if (a.warmup_s < 0)
        a.warmup_s = a.fixed ? 0.2 * a.duration_s : 0;
    if (a.fixed && a.batch_s > 0)
        bb_usage_exclusive("batch", "fixed", "--batch is for the steady-state analysis");
    if (!(a.warmup_s < a.duration_s))
        bb_usage_error("warmup", "%g s is not shorter than --duration (%g s)", a.warmup_s,
                       a.duration_s);
    bb_topo_read(&a.topo, "mfnetsim-1056", &ns);
    bb_topo_build(&ns);
    if (a.describe || a.write_wiring) {
        if (a.write_wiring)
            write_wiring(&ns, a.write_wiring);
        if (a.describe)
            describe(&ns, a.out.json);
        bb_topo_free(&ns);
        return BB_EXIT_OK;
    }
    rk = bb_topo_routing(&ns, a.routing);
    if (a.jobs) {
        int *ranks, nj;
        gsl_rng *r;
        parse_jobs(a.jobs, &ranks, &nj);
        r = bbs_rng_stream_new(NULL, a.run.seed, 0, BBS_ENTITY(BBS_ECLASS_SETUP, 0));
        if (!r)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        rc = bbs_net_place(ns.topo, a.placement, ranks, nj, r, &pl, err);
        gsl_rng_free(r);
        free(ranks);
        if (rc != BB_OK)
            bb_die(BB_EXIT_DATAERR, "--jobs: %s", err);
    } else if (a.alloc) {
        size_t len;
        char *text = bb_read_or_die(a.alloc, &len, BB_READ_TEXT);
        rc = bbs_net_alloc_parse(ns.topo, text, len, a.alloc, &pl, err);
        free(text);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
    }
    memset(&o, 0, sizeof o);
    o.pattern = a.pattern;
    o.route.kind = rk;
    o.route.bias = a.bias;
    o.route.candidates = a.cand;
    o.msg_bytes = a.msg_bytes;
    o.duration_s = a.duration_s;
    o.warmup_s = a.warmup_s;
    o.window = a.window;
    o.compute_only = a.compute_only;
    o.seed = a.run.seed;
    o.keep_links = a.link_stats != NULL;
    o.exact_limit = a.exact_limit;
    o.steady = !a.fixed;
    o.batch_s = a.batch_s;
    o.rel_half = a.precision;
    if (pl.njobs > 0) {
        o.job_nodes = pl.node;
        o.job_off = pl.job_off;
        o.njobs = pl.njobs;
    }
    {
        /* Bounded before it starts (bbsize(1), BOUNDS). */
        double ev = 0, by = 0, e1, b1;
        char detail[256];

        for (int i = 0; i < a.nloads; i++) {
            o.load = a.loads[i];
            bbs_net_load_estimate(ns.topo, &o, &e1, &b1);
            ev += e1;
            by = b1 > by ? b1 : by;
        }
        snprintf(detail, sizeof detail, "%d load points of %g s simulated time on %d nodes, "
                 "messages of %g bytes", a.nloads, a.duration_s, ns.topo->nodes, a.msg_bytes);
        bb_limits_check("the netload run", ev, by, detail,
                        "--duration, --loads, a larger --msg-size or a smaller topology");
    }
    res = calloc((size_t)a.nloads, sizeof *res);
    if (!res)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    if (a.link_stats) {
        bb_out_open(&ls, a.link_stats);
        fprintf(ls.fp, "offered_load,link,kind,src_router,dst_router,src_group,dst_group,"
                       "capacity_bytes_per_s,bytes,saturated_s,utilization,saturated_fraction\n");
    }
    for (int i = 0; i < a.nloads; i++) {
        o.load = a.loads[i];
        o.unit = (uint64_t)i;
        rc = bbs_net_load_run(ns.topo, &o, &res[i], err);
        if (rc != BB_OK) {
            if (a.link_stats)
                bb_out_abort(&ls);
            bb_die_opts(rc, err);
        }
        if (bb_progress_enabled(&a.out))
            fprintf(stderr, "bbsize: load %.3g: accepted %.4g over %.3g ms after %.3g ms of "
                    "warm-up, %llu events, %llu rate updates\n", o.load, res[i].accepted,
                    res[i].window_s * 1e3, res[i].warmup_s * 1e3,
                    (unsigned long long)res[i].events, (unsigned long long)res[i].cost.updates);
        if (o.steady && !(res[i].settled && res[i].precise))
            bb_warn("load %.3g: %s within --duration %g s (accepted %.4g +- %.2g): raise "
                    "--duration for a steady-state answer", o.load,
                    !res[i].settled ? "the accepted load did not settle"
                                    : "the interval did not reach --precision",
                    a.duration_s, res[i].accepted, res[i].accepted_half);
        if (a.link_stats) {
            const bbs_net_topo *t = ns.topo;
            for (int l = 0; l < t->nlinks; l++) {
                int sr = t->link_src[l], dr = t->link_dst[l];
                fprintf(ls.fp, "%.6g,%d,%s,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.6g,%.6g\n", o.load, l,
                        bbs_net_link_kind_name(t->link_kind[l]), sr, dr,
                        sr >= 0 ? sr / t->par.a : -1, dr >= 0 ? dr / t->par.a : -1,
                        t->link_cap_Bps[l], res[i].link_bytes[l], res[i].link_sat_s[l],
                        res[i].link_bytes[l] / (t->link_cap_Bps[l] * res[i].window_s),
                        res[i].link_sat_s[l] / res[i].window_s);
            }
        }
    }
    if (a.link_stats)
        bb_out_commit(&ls);
    if (a.out.json) {
        json_t *pts = json_array(), *top;
        for (int i = 0; i < a.nloads; i++)
            json_array_append_new(pts, json_point(ns.topo, a.loads[i], &res[i], o.steady));
        top = json_pack(
            "{s:s, s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:s, s:s, s:f, s:i, s:f, s:i, s:f, "
            "s:f, s:o, s:o}",
            "topology", ns.source, "wiring", ns.wiring_src, "groups", ns.par.g,
            "routers_per_group", ns.par.a, "nodes_per_router", ns.par.p,
            "global_channels_per_router", ns.par.h, "terminal_bw_bytes_per_s",
            ns.par.cn_bw_Bps, "local_bw_bytes_per_s", ns.par.local_bw_Bps,
            "global_bw_bytes_per_s", ns.par.global_bw_Bps, "pattern",
            bbs_net_pattern_name(a.pattern), "routing", bbs_net_route_name(rk), "bias", a.bias,
            "candidates", a.cand, "message_bytes", a.msg_bytes, "window", a.window,
            "duration_s", a.duration_s, "warmup_s", a.warmup_s, "seed", bb_json_seed(a.run.seed),
            "points", pts);
        if (top != NULL) {
            json_object_set_new(top, "mode", json_string(a.fixed ? "fixed" : "steady"));
            json_object_set_new(top, "precision",
                                a.fixed ? json_null() : json_real(a.precision));
        }
        bb_json_print(top);
    } else {
        if (a.out.csv)
            printf("offered_load_target,offered_load,accepted_load,accepted_GiB_per_s_per_node,"
                   "latency_mean_us,latency_p99_us,router_hops_mean,nonminimal_fraction,"
                   "global_util_mean,global_saturated_fraction_mean,local_saturated_fraction_mean,"
                   "messages_delivered,accepted_load_ci95_half,warmup_s,window_s\n");
        else {
            printf("# %s: %d x %d x %d dragonfly, h=%d; terminal %.4g, local %.4g, global %.4g "
                   "GiB/s\n# pattern %s, routing %s, messages %.6g B, window %d, seed %llu\n",
                   ns.source, ns.par.g, ns.par.a, ns.par.p, ns.par.h, ns.par.cn_bw_Bps / GIB,
                   ns.par.local_bw_Bps / GIB, ns.par.global_bw_Bps / GIB,
                   bbs_net_pattern_name(a.pattern), bbs_net_route_name(rk), a.msg_bytes,
                   a.window, (unsigned long long)a.run.seed);
            if (a.fixed)
                printf("# measured over exactly [%g s, %g s] of every load point\n", a.warmup_s,
                       a.duration_s);
            else
                printf("# steady state: warm-up ends where the accepted load settles (MSER, at "
                       "least %g s); measured until its 95%% interval is within %g%% of its "
                       "mean, at most %g s in all\n", a.warmup_s, 100 * a.precision,
                       a.duration_s);
            printf("# loads are fractions of injection bandwidth, acc_ci95 the accepted load's "
                   "95%% half-width; latency from creation to arrival; warm/meas_ms: warm-up "
                   "and measured time\n"
                   "%8s %8s %8s %10s %11s %11s %6s %7s %8s %8s %8s %8s %8s\n",
                   "offered", "accepted", "acc_ci95", "GiB/s/node", "lat_mean_us", "lat_p99_us",
                   "hops", "nonmin", "glob_use", "glob_sat", "loc_sat", "warm_ms", "meas_ms");
        }
        for (int i = 0; i < a.nloads; i++) {
            const bbs_net_load_result *r = &res[i];
            double nm = r->delivered ? (double)r->nonminimal / r->delivered : 0;
            char ci[32];

            if (a.fixed || !isfinite(r->accepted_half))
                snprintf(ci, sizeof ci, "-");
            else
                snprintf(ci, sizeof ci, "%.2g", r->accepted_half);
            if (a.out.csv)
                bb_csv_row(stdout, "nnnnnnnnnnnunnn", a.loads[i], r->offered, r->accepted,
                           r->accepted_Bps / GIB, r->latency_s.mean * 1e6,
                           r->latency_s.p99 * 1e6, r->hops.mean, nm,
                           r->class_util[BBS_NET_LINK_GLOBAL].mean,
                           r->class_sat_frac[BBS_NET_LINK_GLOBAL].mean,
                           r->class_sat_frac[BBS_NET_LINK_LOCAL].mean,
                           (unsigned long long)r->delivered,
                           a.fixed ? NAN : r->accepted_half, r->warmup_s, r->window_s);
            else if (r->delivered == 0) /* nothing measured arrived: no latency */
                printf("%8.3f %8.4f %8s %10.4g %11s %11s %6s %7s %8.3f %8.3f %8.3f %8.3g %8.3g\n",
                       r->offered, r->accepted, ci, r->accepted_Bps / GIB, "-", "-", "-", "-",
                       r->class_util[BBS_NET_LINK_GLOBAL].mean,
                       r->class_sat_frac[BBS_NET_LINK_GLOBAL].mean,
                       r->class_sat_frac[BBS_NET_LINK_LOCAL].mean, r->warmup_s * 1e3,
                       r->window_s * 1e3);
            else
                printf("%8.3f %8.4f %8s %10.4g %11.4g %11.4g %6.3g %7.3f %8.3f %8.3f %8.3f %8.3g "
                       "%8.3g\n",
                       r->offered, r->accepted, ci, r->accepted_Bps / GIB,
                       r->latency_s.mean * 1e6, r->latency_s.p99 * 1e6, r->hops.mean, nm,
                       r->class_util[BBS_NET_LINK_GLOBAL].mean,
                       r->class_sat_frac[BBS_NET_LINK_GLOBAL].mean,
                       r->class_sat_frac[BBS_NET_LINK_LOCAL].mean, r->warmup_s * 1e3,
                       r->window_s * 1e3);
        }
    }
    for (int i = 0; i < a.nloads; i++)
        bbs_net_load_result_free(&res[i]);
    free(res);
    bbs_net_placement_free(&pl);
    bb_topo_free(&ns);
    return BB_EXIT_OK;
}
