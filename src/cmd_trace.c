/* cmd_trace.c: `bbsize trace`, the trace-driven workload models (VEF
 * traces, Graph500, file loads) as operation streams: their volumes, and
 * optionally a run on a dragonfly preset.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "csvout.h"
#include "devload.h"
#include "execmeter.h"
#include "topoload.h"
#include "readfile.h"
#include "commands.h"
#include "scnrun.h"
#include "rng.h"
#include "units.h"
#include "network/place.h"
#include "network/topo.h"
#include "workload/exec.h"
#include "workload/tracejob.h"
#include "job_keys.h"
#include "device_file.h"
#include "vef_file.h"
#include "sizedist_file.h"

enum {
    OPT_MODEL = 0x5000, OPT_MESSAGES, OPT_SIZES, OPT_SCALE, OPT_EF, OPT_NODES, OPT_CS,
    OPT_ARCH, OPT_TQ, OPT_EQ, OPT_ROOTLAW, OPT_ROOTDEG, OPT_TAIL, OPT_FILES, OPT_FSIZE, OPT_PAUSE,
    OPT_READ, OPT_RANKS, OPT_DEVICE, OPT_PLACE, OPT_ROUTING
};

static const struct argp_option options[] = {
    { NULL, 0, NULL, 0, "Model:", 1 },
    { "model", OPT_MODEL, "NAME", 0, "vef (default when FILE is given), graph500, fileload", 1 },
    { "messages", OPT_MESSAGES, "N", 0, "DCNW/CDCNW/FLOWS: generate at most N messages "
      "(default: #Msgs of the header)", 1 },
    { "sizes", OPT_SIZES, "FILE", 0, "CDCNW: the size table (default: the file named on line 3, "
      "relative to the trace)", 1 },
    { NULL, 0, NULL, 0, "Graph500 (CCPE model):", 2 },
    { "scale", OPT_SCALE, "S", 0, "graph scale (default 22)", 2 },
    { "edgefactor", OPT_EF, "F", 0, "edge factor (default 16)", 2 },
    { "nodes", OPT_NODES, "N", 0, "processes (default 72, CCPE Table IV)", 2 },
    { "coalescing", OPT_CS, "C", 0, "queries per message (default 256)", 2 },
    { "arch", OPT_ARCH, "NAME", 0, "query time of Table III: altamira (1.5 ns, default), i5-5200u, "
      "xeon-e5-2620, mont-blanc", 2 },
    { "query-time", OPT_TQ, "TIME", 0, "query time, e.g. 2ns (overrides --arch)", 2 },
    { "equations", OPT_EQ, "SET", 0, "kronecker (default: level means derived from the Kronecker "
      "generator), fogsim (the authors' code) or ccpe (eqs. 7 and 13 as printed)", 2 },
    { "root-law", OPT_ROOTLAW, "LAW", 0, "lognormal (eqs. 18-19, default) or kronecker (fitted to "
      "real Kronecker graphs)", 2 },
    { "root-degree", OPT_ROOTDEG, "D", 0, "a fixed root degree", 2 },
    { "tail", OPT_TAIL, "RULE", 0, "fogsim (stop at 9 levels or <= 10% left, default) or keep "
      "(explore the rest in tail levels)", 2 },
    { NULL, 0, NULL, 0, "File loads (SANgo):", 3 },
    { "files", OPT_FILES, "N", 0, "number of files (default 10)", 3 },
    { "file-size", OPT_FSIZE, "MIN[:MAX]", 0, "file sizes, uniform (default 10GB)", 3 },
    { "pause", OPT_PAUSE, "MIN[:MAX]", 0, "pause before each file, uniform (default 0s)", 3 },
    { "read", OPT_READ, NULL, 0, "read the files instead of writing them", 3 },
    { "ranks", OPT_RANKS, "N", 0, "clients, files dealt round-robin (default 1)", 3 },
    { NULL, 0, NULL, 0, "Run on a network (optional):", 4 },
    { "device", OPT_DEVICE, "NAME|FILE", 0, "burst-buffer device for reads and writes: a name "
      "of data/devices (default mfnetsim-bb) or a .dev file", 4 },
    { "placement", OPT_PLACE, "POLICY", 0, "cont (default), random-node, random-router, "
      "random-group", 4 },
    { "routing", OPT_ROUTING, "NAME", 0, "min, val, adaptive or par (default: the "
      ".conf's routing, else min)", 4 },
    { 0 }
};

enum { M_VEF = 0, M_G500, M_FILE };

typedef struct {
    const char *file, *sizes, *place, *routing, *device;
    int model, have_model, g500_nodes, file_ranks;
    bb_outopts out;     /* --json, --csv (Graph500: the per-level table), -q, --progress */
    bb_runopts run;     /* --seed (default 1) */
    bb_topo_opts net;   /* --topology: also run the streams on a dragonfly; with
                           --bb-per-group (default: the topology's; 1 if it has
                           none and the workload does I/O) */
    long messages;
    bbs_tracejob gj, fj; /* Graph500 and file-load options, set as scenario keys */
} targs;

/* A model option as the scenario key of tracejob.h. */
static void
tj_set(bbs_tracejob *j, const char *opt, const char *key, const char *arg)
{
    char err[BB_ERRLEN];

    if (bbs_tracejob_set(j, key, arg, err))
        bb_usage_error(opt, "%s", err);
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
    targs *a = st->input;

    switch (key) {
    case OPT_MODEL:
        a->have_model = 1;
        if (!strcasecmp(arg, "vef"))
            a->model = M_VEF;
        else if (!strcasecmp(arg, "graph500") || !strcasecmp(arg, "g500"))
            a->model = M_G500;
        else if (!strcasecmp(arg, "fileload") || !strcasecmp(arg, "sango"))
            a->model = M_FILE;
        else
            bb_usage_value("model", arg, "a known model (vef, graph500, fileload)");
        break;
    case OPT_MESSAGES: a->messages = bb_opt_long("messages", arg, 1, LONG_MAX); break;
    case OPT_SIZES: a->sizes = arg; break;
    case OPT_SCALE: tj_set(&a->gj, "scale", "scale", arg); break;
    case OPT_EF: tj_set(&a->gj, "edgefactor", "edgefactor", arg); break;
    case OPT_NODES: a->g500_nodes = (int)bb_opt_long("nodes", arg, 2, 1 << 20); break;
    case OPT_CS: tj_set(&a->gj, "coalescing", "coalescing", arg); break;
    case OPT_ARCH:
        if (!bbs_g500_arch_find(arg))
            bb_usage_value("arch", arg, "a known architecture (%s)", bbs_g500_arch_names());
        tj_set(&a->gj, "arch", "arch", arg);
        break;
    case OPT_TQ: tj_set(&a->gj, "query-time", "query_time", arg); break;
    case OPT_EQ: tj_set(&a->gj, "equations", "equations", arg); break;
    case OPT_ROOTLAW: tj_set(&a->gj, "root-law", "root_law", arg); break;
    case OPT_ROOTDEG: tj_set(&a->gj, "root-degree", "root_degree", arg); break;
    case OPT_TAIL: tj_set(&a->gj, "tail", "tail", arg); break;
    case OPT_FILES: tj_set(&a->fj, "files", "files", arg); break;
    case OPT_FSIZE: tj_set(&a->fj, "file-size", "file_size", arg); break;
    case OPT_PAUSE: tj_set(&a->fj, "pause", "pause", arg); break;
    case OPT_READ: tj_set(&a->fj, "read", "mode", "read"); break;
    case OPT_RANKS: a->file_ranks = (int)bb_opt_long("ranks", arg, 1, 1 << 24); break;
    case OPT_DEVICE: a->device = arg; break;
    case OPT_PLACE: a->place = arg; break;
    case OPT_ROUTING: a->routing = arg; break;
    case ARGP_KEY_INIT:
        st->child_inputs[0] = &a->out;
        st->child_inputs[1] = &a->run;
        st->child_inputs[2] = &a->net;
        break;
    case ARGP_KEY_ARG: bb_argp_file(arg, &a->file); break;
    case ARGP_KEY_END:
        if (!a->have_model)
            a->model = M_VEF;
        if (a->model == M_VEF && !a->file)
            bb_usage_missing("FILE", "a VEF trace, or --model graph500 or fileload");
        if (a->model != M_VEF && a->file)
            bb_usage_unexpected(a->file, "a trace FILE is for --model vef, not %s",
                                a->model == M_G500 ? "graph500" : "fileload");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}


static double
now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *
model_label(const targs *a, const bbs_vef *v)
{
    if (a->model == M_G500)
        return "graph500";
    if (a->model == M_FILE)
        return "fileload";
    return v->kind == BBS_VEF_MPI ? "vef-mpi" : bbs_vef_kind_name(v->kind);
}

static void
print_levels_csv(const bbs_g500_plan *pl, const bbs_g500_params *g)
{
    printf("level,mean_edges,sigma_edges,queries,messages,bytes\n");
    for (int l = 0; l < pl->nlevels; l++)
        bb_csv_row(stdout, "dnnuun", l, pl->levels[l].mean, pl->levels[l].sigma,
                   (unsigned long long)pl->levels[l].queries,
                   (unsigned long long)pl->levels[l].nmsgs,
                   (double)pl->levels[l].queries * g->query_bytes);
}

static void
run_network(const targs *a, bbs_wl *w, int io, json_t *root, int human)
{
    char err[BB_ERRLEN], buf[64];
    bb_topo net;
    bbs_net_topo *topo;
    bbs_net_placement pl;
    bbs_exec_config c;
    bbs_exec_result r;
    int kind = BBS_NET_PLACE_CONT, ranks = bbs_wl_nranks(w, 0), rc;
    gsl_rng *rng;
    double t0;

    bb_topo_read(&a->net, NULL, &net);
    if (a->net.bb_per_group < 0 && net.par.bb_per_group == 0 && io)
        net.par.bb_per_group = 1;
    bb_topo_build(&net);
    topo = net.topo;
    if (ranks > topo->ncompute)
        bb_die(BB_EXIT_DATAERR, "the %s job has %d ranks but topology %s has %d compute nodes (one "
               "rank per node)", bbs_wl_job_name(w, 0), ranks, net.source, topo->ncompute);
    if (a->place && bbs_net_place_parse(a->place, &kind, err))
        bb_usage_error("placement", "%s", err);
    rng = bbs_rng_stream_new(NULL, a->run.seed, 0, BBS_ENTITY(BBS_ECLASS_NETWORK, 0));
    if (!rng)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    rc = bbs_net_place(topo, kind, &ranks, 1, rng, &pl, err);
    gsl_rng_free(rng);
    if (rc)
        bb_die_lib(rc, err);
    bbs_exec_config_init(&c);
    c.topo = topo;
    c.place = &pl;
    c.seed = a->run.seed;
    if (a->routing && bbs_net_route_parse(a->routing, &c.route.kind, err))
        bb_usage_error("routing", "%s", err);
    c.route.kind = bb_topo_routing(&net, a->routing);
    bb_device_load("device", a->device ? a->device : "mfnetsim-bb", NULL, &c.bb_dev);
    {
        bb_exec_meter em;
        bb_exec_slot sl;
        size_t ops = (size_t)bbs_wl_nops(w);

        bb_exec_meter_start(&em, &a->out, "trace", ops);
        bb_exec_meter_slot(&em, &sl, ops);
        bb_exec_slot_report(&sl, &c);
        t0 = now_s();
        rc = bbs_exec_run(w, &c, &r, err);
        t0 = now_s() - t0;
        bb_exec_meter_end(&em);
        if (rc)
            bb_die_lib(rc, err);
    }
    {
        const bbs_exec_job_result *J = &r.jobs[0];
        if (human) {
            printf("run on %s (%s placement, %s routing), seed %llu:\n", net.source,
                   a->place ? a->place : "cont", bbs_net_route_name(c.route.kind),
                   (unsigned long long)a->run.seed);
            bb_fmt_duration(buf, sizeof buf, J->elapsed_s);
            printf("  elapsed            %s%s\n", buf, J->finished ? "" : " (not finished)");
            bb_fmt_duration(buf, sizeof buf, J->comm_mean_s);
            printf("  communication      %s mean per rank", buf);
            bb_fmt_duration(buf, sizeof buf, J->comm_max_s);
            printf(", %s max\n", buf);
            bb_fmt_duration(buf, sizeof buf, J->io_mean_s);
            printf("  I/O                %s mean per rank\n", buf);
            bb_fmt_duration(buf, sizeof buf, J->compute_mean_s);
            printf("  compute            %s mean per rank\n", buf);
            printf("  messages           %llu, latency p50 %.3g s, p99 %.3g s, max %.3g s\n",
                   (unsigned long long)J->messages, J->lat_p50_s, J->lat_p99_s, J->lat_max_s);
            printf("  simulation         %.3f s wall, %llu events, %.3g events/s\n", t0,
                   (unsigned long long)r.events, r.events / fmax(t0, 1e-9));
        }
        if (root) {
            json_t *o = json_object();
            json_object_set_new(o, "topology", json_string(net.source));
            json_object_set_new(o, "elapsed_s", json_real(J->elapsed_s));
            json_object_set_new(o, "finished", json_boolean(J->finished));
            json_object_set_new(o, "comm_mean_s", json_real(J->comm_mean_s));
            json_object_set_new(o, "comm_max_s", json_real(J->comm_max_s));
            json_object_set_new(o, "io_mean_s", json_real(J->io_mean_s));
            json_object_set_new(o, "compute_mean_s", json_real(J->compute_mean_s));
            json_object_set_new(o, "messages", json_integer((json_int_t)J->messages));
            json_object_set_new(o, "latency_p50_s", json_real(J->lat_p50_s));
            json_object_set_new(o, "latency_p99_s", json_real(J->lat_p99_s));
            json_object_set_new(o, "events", json_integer((json_int_t)r.events));
            json_object_set_new(o, "wall_s", json_real(t0));
            json_object_set_new(root, "run", o);
        }
    }
    bbs_exec_result_free(&r);
    bbs_net_placement_free(&pl);
    bb_topo_free(&net);
}

int
bb_cmd_trace(int argc, char **argv)
{
    static const char doc[] =
        "Generate a trace-driven workload as per-rank operation streams and report its volumes; "
        "with --topology, also run it on a dragonfly.\vFILE is a VEF trace (plain MPI, or EXT "
        "DCNW, CDCNW, FLOWS, HOROVOD; grammar in bbsize-vef(5)).  See bbsize-trace(1).";
    static const struct argp_child children[] = {
        { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
        { BB_RUNS_ARGP(BB_RUN_SEED), 0, NULL, 0 },
        { &bb_topo_argp, 0, NULL, 0 },
        { &bb_limits_argp, 0, NULL, 0 },
        { 0 }
    };
    struct argp argp = { options, parse_opt, "[FILE]", doc, children, NULL, NULL };
    targs a;
    char err[BB_ERRLEN], buf[64];
    bbs_vef *v = NULL;
    bbs_sizedist *d = NULL;
    bbs_g500_plan *pl = NULL;
    bbs_wl *w = NULL;
    bbs_wl_totals t;
    int rc, human;
    double t0, gen_s;
    uint64_t nops = 0;
    json_t *root = NULL;

    memset(&a, 0, sizeof a);
    a.run.seed = 1;
    bb_topo_opts_init(&a.net);
    a.g500_nodes = 72;
    a.file_ranks = 1;
    bbs_tracejob_defaults(&a.gj, BBS_TJ_GRAPH500);
    bbs_tracejob_defaults(&a.fj, BBS_TJ_FILELOAD);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    human = !a.out.json && !a.out.csv;
    if (a.model == M_VEF) {
        size_t len;
        char *text = bb_read_or_die(a.file, &len, BB_READ_TEXT);
        t0 = now_s();
        rc = bbs_vef_parse(&v, a.file, text, len, err);
        gen_s = now_s() - t0;
        free(text);
        if (rc)
            bb_die_lib(rc, err);
        if (!a.out.quiet)
            fprintf(stderr, "bbsize trace: parsed %s (%zu bytes) in %.3f s, %.3g MB/s\n", a.file,
                    len, gen_s, len / fmax(gen_s, 1e-9) / 1e6);
        if (v->kind == BBS_VEF_DCNW || v->kind == BBS_VEF_CDCNW)
            d = bb_trace_load_sizes(v, a.file, a.sizes);
    }
    if (bbs_wl_new(&w, err))
        bb_die_lib(BB_ENOMEM, err);
    t0 = now_s();
    if (a.model == M_VEF) {
        rc = bbs_tracegen_vef(w, model_label(&a, v), v, d, a.messages, a.run.seed, 0, NULL, err);
    } else if (a.model == M_G500) {
        char detail[256];
        double n = a.g500_nodes, msgs;

        a.gj.g.nodes = a.g500_nodes;
        /* Bounded before it starts: drawing a level visits every (sender,
         * destination) pair, n^2 steps, for at most about 16 levels; the
         * BFS sends at most 2 E = 2 f 2^s queries, coalesced c_s to a
         * message, each message an operation at both ends. */
        msgs = 2.0 * a.gj.g.edgefactor * ldexp(1.0, a.gj.g.scale) / a.gj.g.coalescing
               + 16.0 * n * n;
        snprintf(detail, sizeof detail, "%d processes, scale %d, edge factor %d: about %.3g "
                 "messages and 16 levels x %d^2 destination draws", a.g500_nodes,
                 a.gj.g.scale, a.gj.g.edgefactor, msgs, a.g500_nodes);
        bb_limits_check("the Graph500 trace", msgs + 16.0 * n * n,
                        msgs * (8.0 + 2.0 * (double)sizeof(bbs_op)), detail,
                        "--nodes, --scale, --edgefactor or a larger --coalescing");
        rc = bbs_g500_plan_new(&pl, &a.gj.g, a.run.seed, 0, err);
        if (!rc && a.out.csv && !a.net.topology) { /* the table is the plan: no streams needed */
            gen_s = now_s() - t0;
            if (!a.out.quiet)
                fprintf(stderr, "bbsize trace: drew a %d-level BFS of %llu messages in %.3f s\n",
                        pl->nlevels, (unsigned long long)pl->messages, gen_s);
            print_levels_csv(pl, &a.gj.g);
            bbs_wl_free(w);
            bbs_g500_plan_free(pl);
            return BB_EXIT_OK;
        }
        if (!rc)
            rc = bbs_tracegen_g500(w, "graph500", pl, NULL, err);
    } else {
        char detail[256];
        double nf = (double)a.fj.f.files;

        snprintf(detail, sizeof detail, "%ld files: a pause and a request each, %zu bytes an "
                 "operation", a.fj.f.files, sizeof(bbs_op));
        bb_limits_check("the file-load trace", 2.0 * nf, 2.0 * nf * (double)sizeof(bbs_op),
                        detail, "--files");
        rc = bbs_tracejob_generate(&a.fj, w, "fileload", a.file_ranks, a.run.seed, 0, NULL, err);
    }
    gen_s = now_s() - t0;
    if (rc)
        bb_die(bb_exit_status(rc), "%s%s%s", a.file ? a.file : "", a.file ? ": " : "", err);
    bbs_wl_job_totals(w, 0, &t);
    for (int k = 0; k <= BBS_OP_WAITALL; k++)
        nops += t.ops[k];
    if (!a.out.quiet)
        fprintf(stderr, "bbsize trace: generated %llu operations in %.3f s, %.3g ops/s\n",
                (unsigned long long)nops, gen_s, nops / fmax(gen_s, 1e-9));
    if (a.out.csv) {
        if (!pl)
            bb_usage_inapplicable("csv", "without --model graph500 (it writes the Graph500 "
                                  "per-level table)");
        print_levels_csv(pl, &a.gj.g);
    }
    if (human) {
        printf("%s: %s, %d ranks, seed %llu\n", a.file ? a.file : model_label(&a, v),
               model_label(&a, v), bbs_wl_nranks(w, 0), (unsigned long long)a.run.seed);
        printf("  operations         %llu (%llu send, %llu recv, %llu collective, %llu compute, "
               "%llu write, %llu read)\n", (unsigned long long)nops,
               (unsigned long long)t.ops[BBS_OP_SEND], (unsigned long long)t.ops[BBS_OP_RECV],
               (unsigned long long)t.ops[BBS_OP_COLL], (unsigned long long)t.ops[BBS_OP_COMPUTE],
               (unsigned long long)t.ops[BBS_OP_WRITE], (unsigned long long)t.ops[BBS_OP_READ]);
        bb_fmt_size(buf, sizeof buf, t.p2p_bytes, 0);
        printf("  point-to-point     %s (%.0f B)\n", buf, t.p2p_bytes);
        for (int k = 0; k < BBS_COLL_NKINDS; k++)
            if (t.colls[k]) {
                bb_fmt_size(buf, sizeof buf, t.coll_bytes[k], 0);
                printf("  %-18s %llu rank parts, %s contributed\n", bbs_coll_name(k),
                       (unsigned long long)t.colls[k], buf);
            }
        if (t.write_bytes > 0 || t.read_bytes > 0) {
            bb_fmt_size(buf, sizeof buf, t.write_bytes, 0);
            printf("  written            %s\n", buf);
            bb_fmt_size(buf, sizeof buf, t.read_bytes, 0);
            printf("  read               %s\n", buf);
        }
        bb_fmt_duration(buf, sizeof buf, t.compute_s);
        printf("  compute + delays   %s summed over ranks\n", buf);
        if (pl) {
            printf("  root degree        %ld (process %d); 2E = %.0f queries, %llu sent over the "
                   "network (%.4f of 2E (n-1)/n)\n", pl->root_degree, pl->root_node,
                   2.0 * a.gj.g.edgefactor * ldexp(1, a.gj.g.scale), (unsigned long long)pl->queries,
                   pl->queries / pl->budget);
            printf("  level  mean_edges   sigma        queries      messages\n");
            for (int l = 0; l < pl->nlevels; l++)
                printf("  %5d  %-11.4g  %-11.4g  %-11llu  %zu\n", l, pl->levels[l].mean,
                       pl->levels[l].sigma, (unsigned long long)pl->levels[l].queries,
                       pl->levels[l].nmsgs);
        }
    }
    if (a.out.json) {
        json_t *ops = json_object(), *colls = json_object();
        root = json_object();
        json_object_set_new(root, "model", json_string(model_label(&a, v)));
        json_object_set_new(root, "file", a.file ? json_string(a.file) : json_null());
        json_object_set_new(root, "ranks", json_integer(bbs_wl_nranks(w, 0)));
        json_object_set_new(root, "seed", bb_json_seed(a.run.seed));
        json_object_set_new(ops, "total", json_integer((json_int_t)nops));
        json_object_set_new(ops, "send", json_integer((json_int_t)t.ops[BBS_OP_SEND]));
        json_object_set_new(ops, "recv", json_integer((json_int_t)t.ops[BBS_OP_RECV]));
        json_object_set_new(ops, "collective", json_integer((json_int_t)t.ops[BBS_OP_COLL]));
        json_object_set_new(ops, "compute", json_integer((json_int_t)t.ops[BBS_OP_COMPUTE]));
        json_object_set_new(ops, "write", json_integer((json_int_t)t.ops[BBS_OP_WRITE]));
        json_object_set_new(ops, "read", json_integer((json_int_t)t.ops[BBS_OP_READ]));
        json_object_set_new(root, "operations", ops);
        json_object_set_new(root, "p2p_bytes", json_real(t.p2p_bytes));
        json_object_set_new(root, "write_bytes", json_real(t.write_bytes));
        json_object_set_new(root, "read_bytes", json_real(t.read_bytes));
        json_object_set_new(root, "compute_s", json_real(t.compute_s));
        /* every kind, 0 where the trace has none (docs/json.md: every key
         * present) */
        for (int k = 0; k < BBS_COLL_NKINDS; k++) {
            json_t *c = json_object();
            json_object_set_new(c, "parts", json_integer((json_int_t)t.colls[k]));
            json_object_set_new(c, "bytes", json_real(t.coll_bytes[k]));
            json_object_set_new(colls, bbs_coll_name(k), c);
        }
        json_object_set_new(root, "collectives", colls);
        if (pl) {
            json_t *lv = json_array();
            json_object_set_new(root, "root_degree", json_integer(pl->root_degree));
            json_object_set_new(root, "queries", json_integer((json_int_t)pl->queries));
            json_object_set_new(root, "edges2", json_real(2.0 * a.gj.g.edgefactor * ldexp(1, a.gj.g.scale)));
            for (int l = 0; l < pl->nlevels; l++) {
                json_t *o = json_object();
                json_object_set_new(o, "level", json_integer(l));
                json_object_set_new(o, "mean_edges", json_real(pl->levels[l].mean));
                json_object_set_new(o, "sigma_edges", json_real(pl->levels[l].sigma));
                json_object_set_new(o, "queries", json_integer((json_int_t)pl->levels[l].queries));
                json_object_set_new(o, "messages", json_integer((json_int_t)pl->levels[l].nmsgs));
                json_array_append_new(lv, o);
            }
            json_object_set_new(root, "levels", lv);
        } else {   /* not a Graph500 BFS: no plan */
            json_object_set_new(root, "root_degree", json_null());
            json_object_set_new(root, "queries", json_null());
            json_object_set_new(root, "edges2", json_null());
            json_object_set_new(root, "levels", json_null());
        }
        json_object_set_new(root, "generation_s", json_real(gen_s));
    }
    if (a.net.topology)
        run_network(&a, w, t.write_bytes > 0 || t.read_bytes > 0, root, human);
    if (root && !json_object_get(root, "run"))   /* no --topology: not run */
        json_object_set_new(root, "run", json_null());
    if (root)
        bb_json_print(root); /* takes the reference */
    bbs_wl_free(w);
    bbs_g500_plan_free(pl);
    bbs_sizedist_free(d);
    bbs_vef_free(v);
    return BB_EXIT_OK;
}
