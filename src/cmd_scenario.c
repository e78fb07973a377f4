/* cmd_scenario.c: `bbsize simulate SCENARIO.ini` (scenario mode of
 * simulate) and `bbsize compare ALONE.ini MIX.ini`: applications on the
 * dragonfly and the burst buffers, per application and per link type.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "csvout.h"
#include "execmeter.h"
#include "scnmode.h"
#include "scnrun.h"

enum { OPT_SCENARIO = 0x3100, OPT_REPLICAS };

/* compare: at most this many scenarios (the alone ones and the mix) and
 * replicas */
#define CMP_FILES 16
#define CMP_REPLICAS_MAX 1000

typedef struct {
    const char *files[CMP_FILES];
    int nfiles;
    int compare;
    int replicas;       /* compare --replicas (0: not given, one run each) */
    bb_outopts out;     /* the output child: --csv, --json, --quiet, --progress */
    bb_runopts run;     /* the runs child: --seed */
} scn_args;

static const struct argp_option cmp_options[] = {
    { "scenario", OPT_SCENARIO, "FILE", 0, "a scenario file (bbsize-scenario(5))", 0 },
    { "replicas", OPT_REPLICAS, "N", 0,
      "run every scenario N times (1 to 1000), replica i with the random streams of unit i "
      "(adaptive routing's draws, the send jitter), and give each slowdown's mean, standard "
      "deviation, minimum and maximum", 0 },
    { "replications", 0, NULL, OPTION_ALIAS, NULL, 0 },
    { 0 }
};

/* --seed overrides the scenarios' [run] seed; --csv prints the tables as
 * CSV (one table, its header first), --json one JSON object; --quiet: no run
 * statistics or progress on stderr; --progress: progress even off a
 * terminal; --threads N: at most N runs at once (0, the
 * default: one per core; the results do not change). */
static const struct argp_child cmp_children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED | BB_RUN_THREADS), 0, NULL, 0 },
    { &bb_limits_argp, 0, NULL, 0 },
    { 0 }
};

static error_t
scn_parse(int key, char *arg, struct argp_state *state)
{
    scn_args *a = state->input;
    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        state->child_inputs[1] = &a->run;
        break;
    case OPT_SCENARIO:
    case ARGP_KEY_ARG:
        if (a->nfiles >= (a->compare ? CMP_FILES : 1))
            bb_usage_unexpected(arg, "at most %d scenario files", a->compare ? CMP_FILES : 1);
        bb_in_claim(arg);
        a->files[a->nfiles++] = arg;
        break;
    case OPT_REPLICAS:
        a->replicas = (int)bb_opt_long("replicas", arg, 1, CMP_REPLICAS_MAX);
        break;
    case ARGP_KEY_END:
        if (a->compare ? a->nfiles < 2 : a->nfiles != 1)
            bb_usage_missing(!a->compare ? "FILE" : a->nfiles == 0 ? "ALONE.ini" : "MIX.ini",
                             NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* scn_job: one run of a loaded scenario R with the random streams of unit
 * unit (R's workload, or one built for the unit when its jobs draw), its
 * result into *res, its progress into slot (scn_exec); after run_one, its
 * wall time and status, with a message in err. */
typedef struct {
    const bb_scn_run *R;
    uint64_t unit;
    bbs_exec_result *res;
    double wall_s;
    int rc;
    char err[BB_ERRLEN];
    bb_exec_slot slot;
} scn_job;

static void
run_one(scn_job *j)
{
    struct timespec t0, t1;
    bbs_exec_config c = j->R->cfg;
    bbs_wl *own = NULL;

    c.unit = j->unit;
    bb_exec_slot_report(&j->slot, &c);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (j->unit > 0 && j->R->random_wl)
        j->rc = bb_scn_build(j->R, j->unit, &own, j->err);
    if (j->rc == BB_OK)
        j->rc = bbs_exec_run(own ? own : j->R->w, &c, j->res, j->err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    bbs_wl_free(own);
    j->wall_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

/* The runs of a command, taken in order by its threads. */
typedef struct {
    scn_job *jobs;
    int n, next;
    pthread_mutex_t mu;
} scn_pool;

static void *
pool_worker(void *arg)
{
    scn_pool *p = arg;

    for (;;) {
        int i;
        pthread_mutex_lock(&p->mu);
        i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            return NULL;
        run_one(&p->jobs[i]);
    }
}

/* scn_exec: the n runs on up to `threads` threads (0: every core); the
 * results do not depend on how many; first the estimate of a long run,
 * progress while they run (out); dies with the first failed run's error
 * in the order given, whatever finished first. */
static void
scn_exec(scn_job *jobs, int n, int threads, const bb_outopts *out, const char *what)
{
    scn_pool p = { jobs, n, 0, PTHREAD_MUTEX_INITIALIZER };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = threads > 0 ? threads : cores > 1 ? (int)cores : 1, started = 0;
    pthread_t tid[64];
    bb_exec_meter em;
    double events = 0, secs = 0;
    size_t ops = 0;

    if (nt > n)
        nt = n;
    if (nt > 64)
        nt = 64;
    for (int i = 0; i < n; i++) {
        events += jobs[i].R->est_events;
        secs += bb_exec_seconds(jobs[i].R->est_events, jobs[i].R->topo->nodes);
        ops += (size_t)bbs_wl_nops(jobs[i].R->w);
    }
    bb_meter_estimate(out, secs / nt, events, "events");
    bb_exec_meter_start(&em, out, what, ops);
    for (int i = 0; i < n; i++)
        bb_exec_meter_slot(&em, &jobs[i].slot, (size_t)bbs_wl_nops(jobs[i].R->w));
    while (started < nt - 1 && pthread_create(&tid[started], NULL, pool_worker, &p) == 0)
        started++;
    pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    bb_exec_meter_end(&em);
    for (int i = 0; i < n; i++)
        if (jobs[i].rc != BB_OK)
            bb_die(bb_exit_status(jobs[i].rc), "%s: %s", jobs[i].R->s.source, jobs[i].err);
}

static const char *
place_name(const bbs_scenario *s)
{
    return s->placement < 0 ? "file" : bbs_net_place_name(s->placement);
}

static json_t *
job_json(const bbs_scn_job *sj, const bbs_exec_job_result *J)
{
    json_t *o = json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, "
                          "s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b}",
                          "job", sj->name, "model", bbs_scn_job_model_name(sj), "ranks",
                          sj->ranks, "elapsed_s", J->elapsed_s, "comm_mean_s", J->comm_mean_s,
                          "comm_max_s", J->comm_max_s, "io_mean_s", J->io_mean_s,
                          "io_max_s", J->io_max_s, "compute_mean_s", J->compute_mean_s,
                          "bytes_sent", J->bytes_sent, "bytes_written", J->bytes_written,
                          "bytes_read", J->bytes_read, "messages", (json_int_t)J->messages,
                          "latency_mean_s", J->lat_mean_s, "latency_rank_mean_s",
                          J->lat_rank_mean_s, "latency_rank_max_s", J->lat_rank_max_s,
                          "latency_p50_s", J->lat_p50_s, "latency_p90_s", J->lat_p90_s,
                          "latency_p99_s", J->lat_p99_s, "latency_max_s", J->lat_max_s,
                          "hops_mean", J->hops_mean, "finished", J->finished);
    /* per rank, the time with an op of each kind of communication in
     * progress (exec.h): where the communication time goes */
    json_t *k = json_object();
    json_object_set_new(k, "p2p_s", json_real(J->kind_mean_s[BBS_EXEC_P2P]));
    for (int c = 0; c < BBS_COLL_NKINDS; c++) {
        char key[32];
        snprintf(key, sizeof key, "%s_s", bbs_coll_name((bbs_coll_kind)c));
        json_object_set_new(k, key, json_real(J->kind_mean_s[1 + c]));
    }
    json_object_set_new(o, "comm_by_kind", k);
    return o;
}

static int
has_failures(const bbs_scenario *s)
{
    return s->fail.node_mttf_s > 0 || s->fail.drive_scale_s > 0;
}

/* The fate of every job's written bytes, printed when [failures] is on. */
static void
print_fate(const bb_scn_run *R)
{
    const bbs_scenario *s = &R->s;
    const bbs_exec_result *r = &R->res;
    printf("\n%-12s %12s %12s %12s %12s %12s\n", "job", "written(GB)", "on_pfs(GB)",
           "buffer(GB)", "lost(GB)", "writes_lost");
    for (int j = 0; j < r->njobs; j++)
        printf("%-12s %12.6f %12.6f %12.6f %12.6f %12llu\n", s->jobs[j].name,
               r->jobs[j].bytes_written / 1e9, r->jobs[j].bytes_on_pfs / 1e9,
               r->jobs[j].bytes_in_buffer / 1e9, r->jobs[j].bytes_lost / 1e9,
               (unsigned long long)r->jobs[j].writes_lost);
    printf("failures: %llu node (Arrhenius), %llu drive (Weibull)\n",
           (unsigned long long)r->node_failures, (unsigned long long)r->drive_failures);
}

static const char *const lk_names[BBS_EXEC_NLINKKINDS] = { "injection", "ejection", "local",
                                                           "global" };

/* --csv: one row per job (one table on standard output, docs/json.md):
 * its times, traffic, latencies and the fate of its written bytes; the
 * run's failure counts repeated on every row. */
static void
print_jobs_csv(const bb_scn_run *R)
{
    const bbs_scenario *s = &R->s;
    const bbs_exec_result *r = &R->res;

    printf("job,model,ranks,elapsed_s,comm_mean_s,comm_max_s,io_mean_s,io_max_s,bytes_sent,"
           "bytes_written,bytes_read,messages,latency_p50_s,latency_p90_s,latency_p99_s,"
           "latency_max_s,hops_mean,latency_mean_s,latency_rank_mean_s,latency_rank_max_s,"
           "compute_mean_s,finished,bytes_on_pfs,bytes_in_buffer,bytes_lost,writes_lost,"
           "node_failures,drive_failures\n");
    for (int j = 0; j < r->njobs; j++) {
        const bbs_exec_job_result *J = &r->jobs[j];
        bb_csv_row(stdout, "ssdnnnnnnnnunnnnnnnnndnnnuuu", s->jobs[j].name,
                   bbs_scn_job_model_name(&s->jobs[j]), s->jobs[j].ranks, J->elapsed_s,
                   J->comm_mean_s, J->comm_max_s, J->io_mean_s, J->io_max_s, J->bytes_sent,
                   J->bytes_written, J->bytes_read, (unsigned long long)J->messages,
                   J->lat_p50_s, J->lat_p90_s, J->lat_p99_s, J->lat_max_s, J->hops_mean,
                   J->lat_mean_s, J->lat_rank_mean_s, J->lat_rank_max_s, J->compute_mean_s,
                   J->finished ? 1 : 0, J->bytes_on_pfs, J->bytes_in_buffer,
                   J->bytes_lost, (unsigned long long)J->writes_lost,
                   (unsigned long long)r->node_failures, (unsigned long long)r->drive_failures);
    }
}

/* --csv-links FILE: one row per link type into o (opened before the run,
 * so that a file that cannot be written stops it before it starts),
 * committed atomically (outfile.h), whatever standard output carries. */
static void
write_links_csv(const bb_scn_run *R, bb_out *o)
{
    const bbs_exec_result *r = &R->res;

    fprintf(o->fp, "link_kind,links,bytes,small_message_bytes,saturated_total_s,"
            "saturated_mean_s,saturated_max_s\n");
    for (int k = 0; k < BBS_EXEC_NLINKKINDS; k++) {
        const bbs_exec_link_result *L = &r->links[k];
        bb_csv_row(o->fp, "sdnnnnn", lk_names[k], L->nlinks, L->bytes + L->small_bytes,
                   L->small_bytes, L->saturated_s, L->nlinks ? L->saturated_s / L->nlinks : 0.0,
                   L->saturated_max_s);
    }
    bb_out_commit(o);
}

static void
print_run(const bb_scn_run *R, const scn_args *a)
{
    const bbs_scenario *s = &R->s;
    const bbs_exec_result *r = &R->res;
    if (a->out.json) {
        json_t *jobs = json_array(), *links = json_array();
        for (int j = 0; j < r->njobs; j++) {
            json_t *o = job_json(&s->jobs[j], &r->jobs[j]);
            json_object_set_new(o, "bytes_on_pfs", json_real(r->jobs[j].bytes_on_pfs));
            json_object_set_new(o, "bytes_in_buffer", json_real(r->jobs[j].bytes_in_buffer));
            json_object_set_new(o, "bytes_lost", json_real(r->jobs[j].bytes_lost));
            json_object_set_new(o, "writes_lost", json_integer((json_int_t)r->jobs[j].writes_lost));
            json_array_append_new(jobs, o);
        }
        for (int k = 0; k < BBS_EXEC_NLINKKINDS; k++) {
            const bbs_exec_link_result *L = &r->links[k];
            json_array_append_new(links, json_pack(
                "{s:s, s:i, s:f, s:f, s:f, s:f, s:f}", "kind", lk_names[k], "links", L->nlinks,
                "bytes", L->bytes + L->small_bytes, "small_message_bytes", L->small_bytes, "saturated_total_s", L->saturated_s,
                "saturated_mean_s", L->nlinks ? L->saturated_s / L->nlinks : 0.0,
                "saturated_max_s", L->saturated_max_s));
        }
        /* the network and storage mechanisms the run used (bbsize-scenario(5)) */
        json_t *mech = json_pack(
            "{s:s, s:f, s:f, s:f, s:s, s:f, s:f, s:f, s:i, s:i}",
            "injection", s->inject_fcfs ? "fcfs" : "concurrent", "packet_bytes", s->packet_bytes,
            "small_message_bytes", s->small_bytes, "route_piece_bytes", s->route_piece_bytes,
            "backpressure", s->backpressure ? "on" : "off", "send_overhead_s", s->send_overhead_s,
            "copy_s_per_byte", s->copy_s_per_byte, "piece_bytes", s->piece_bytes,
            "piece_threads", s->piece_threads, "pieces_in_flight", s->pieces_in_flight);
        /* the terminal layout and link latencies of the topology it ran on */
        json_object_set_new(mech, "compute_per_group", json_integer(R->par.compute_per_group));
        json_object_set_new(mech, "bb_per_group", json_integer(R->par.bb_per_group));
        json_object_set_new(mech, "store_forward", json_string(s->store_forward ? "on" : "off"));
        json_object_set_new(mech, "vc_priority", json_string(s->vc_priority ? "on" : "off"));
        json_object_set_new(mech, "vc_scheme", json_string(bbs_net_vc_scheme_name(s->vc_scheme)));
        json_object_set_new(mech, "jitter_s", json_real(s->jitter_s));
        json_object_set_new(mech, "queue", json_string(s->queue_per_flow ? "flow" : "channel"));
        json_object_set_new(mech, "router_delay_per_packet",
                            json_string(s->router_per_packet ? "on" : "off"));
        json_object_set_new(mech, "link_delay_s", json_pack("{s:f, s:f, s:f}", "cn",
                                                             R->par.cn_delay_s, "local",
                                                             R->par.local_delay_s, "global",
                                                             R->par.global_delay_s));
        bb_json_print(json_pack(
            "{s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:{s:f, s:I, s:I, s:f, s:f, s:f, s:f, "
            "s:I, s:I}}",
            "scenario", s->source, "topology", s->preset[0] ? s->preset : s->codes,
            "nodes", R->topo->nodes, "routing", bbs_net_route_name(s->routing),
            "placement", place_name(s), "seed", bb_json_seed(s->seed), "mechanisms", mech, "jobs", jobs,
            "links", links, "run", "simulated_s", r->end_s, "events", (json_int_t)r->events,
            "flows", (json_int_t)r->flows, "wall_s", R->wall_s,
            "events_per_s", R->wall_s > 0 ? r->events / R->wall_s : 0.0,
            "stall_s", r->stall_s, "bytes_on_pfs", r->bytes_on_pfs,
            "node_failures", (json_int_t)r->node_failures,
            "drive_failures", (json_int_t)r->drive_failures));
        return;
    }
    if (a->out.csv) {
        print_jobs_csv(R);
        return;
    }
    printf("scenario %s: %s (%d nodes), routing %s, placement %s, seed %llu\n", s->source,
           s->preset[0] ? s->preset : s->codes, R->topo->nodes, bbs_net_route_name(s->routing),
           place_name(s), (unsigned long long)s->seed);
    printf("%-12s %-10s %5s %11s %11s %11s %10s %10s %9s %10s %10s %10s %10s %6s\n", "job",
           "model", "ranks", "elapsed(s)", "comm(s)", "comm_max(s)", "io(s)", "io_max(s)",
           "sent(GB)", "lat50(us)", "lat90(us)", "lat99(us)", "latmax(us)", "hops");
    for (int j = 0; j < r->njobs; j++) {
        const bbs_exec_job_result *J = &r->jobs[j];
        printf("%-12s %-10s %5d %11.6f %11.6f %11.6f %10.6f %10.6f %9.3f %10.2f %10.2f %10.2f "
               "%10.2f %6.3f%s\n", s->jobs[j].name, bbs_scn_job_model_name(&s->jobs[j]),
               s->jobs[j].ranks, J->elapsed_s, J->comm_mean_s, J->comm_max_s, J->io_mean_s,
               J->io_max_s, J->bytes_sent / 1e9, J->lat_p50_s * 1e6, J->lat_p90_s * 1e6,
               J->lat_p99_s * 1e6, J->lat_max_s * 1e6, J->hops_mean,
               J->finished ? "" : "  (unfinished)");
    }
    printf("\n%-10s %6s %12s %14s %14s %14s\n", "links", "count", "traffic(GB)", "sat_total(s)",
           "sat_mean(s)", "sat_max(s)");
    for (int k = 0; k < BBS_EXEC_NLINKKINDS; k++) {
        const bbs_exec_link_result *L = &r->links[k];
        printf("%-10s %6d %12.3f %14.6f %14.6f %14.6f\n", lk_names[k], L->nlinks,
               (L->bytes + L->small_bytes) / 1e9,
               L->saturated_s, L->nlinks ? L->saturated_s / L->nlinks : 0, L->saturated_max_s);
    }
    if (has_failures(s))
        print_fate(R);
    printf("\nsimulated %.6f s; %llu events, %llu flows\n", r->end_s,
           (unsigned long long)r->events, (unsigned long long)r->flows);
}

static void
report_speed(const bb_scn_run *R, const scn_args *a)
{
    if (!a->out.quiet)
        fprintf(stderr, "bbsize: %s: wall %.2f s, %llu events, %.0f events/s\n", R->s.source,
                R->wall_s, (unsigned long long)R->res.events,
                R->wall_s > 0 ? R->res.events / R->wall_s : 0.0);
}


int
bb_scenario_simulate(const char *file, const bb_outopts *out, const bb_runopts *run,
                     const char *links_csv)
{
    scn_args a;
    bb_scn_run R;
    bb_out links;
    memset(&a, 0, sizeof a);
    a.files[a.nfiles++] = file;
    a.out = *out;
    a.run = *run;
    bb_scn_load(&R, a.files[0], a.run.seed_set, a.run.seed);
    if (links_csv)
        bb_out_open(&links, links_csv);
    {
        scn_job j = { &R, 0, &R.res, 0, BB_OK, "", { 0 } };
        scn_exec(&j, 1, 1, &a.out, "simulate");
        R.wall_s = j.wall_s;
    }
    print_run(&R, &a);
    if (links_csv)
        write_links_csv(&R, &links);
    report_speed(&R, &a);
    bb_scn_free(&R);
    bb_finish_stdout();
    return BB_EXIT_OK;
}

/* ratio: mix / alone, or NAN when alone is not positive */
static double
ratio(double mix, double alone)
{
    return alone > 0 ? mix / alone : NAN;
}

static const char cmp_doc[] =
    "Compare applications alone and in a mix: runs ALONE.ini (one or more scenarios) and "
    "MIX.ini and, for every job of each ALONE.ini, the job of the same name in MIX.ini: "
    "elapsed, communication and I/O times and their slowdown (mix / alone), and the mean "
    "message latency per rank (MFNetSim's \"avg msg time\") and its growth.  With --replicas "
    "N every scenario runs N times and each slowdown is given as mean, standard deviation, "
    "minimum and maximum over the replicas.";

/* The ratios compare gives per job, mix / alone. */
enum { X_ELAPSED, X_COMM, X_IO, X_LAT, X_LATMAX, NX };
static const char *const x_key[NX] = { "elapsed_slowdown", "comm_slowdown", "io_slowdown",
                                       "latency_growth", "latency_max_growth" };

static void
ratios(const bbs_exec_job_result *A, const bbs_exec_job_result *M, double *x)
{
    x[X_ELAPSED] = ratio(M->elapsed_s, A->elapsed_s);
    x[X_COMM] = ratio(M->comm_mean_s, A->comm_mean_s);
    x[X_IO] = ratio(M->io_mean_s, A->io_mean_s);
    x[X_LAT] = ratio(M->lat_rank_mean_s, A->lat_rank_mean_s);
    x[X_LATMAX] = ratio(M->lat_max_s, A->lat_max_s);
}

/* A ratio over the replicas: mean, sample standard deviation (NAN for one
 * replica: a spread of one value is not 0 but unknown), minimum, maximum;
 * all NAN when a replica's is (its alone time is 0). */
typedef struct {
    double mean, sd, min, max;
} xstat;

static xstat
xstat_of(const double *v, int n)
{
    xstat x = { 0, 0, INFINITY, -INFINITY };
    double ss = 0;

    for (int i = 0; i < n; i++) {
        if (isnan(v[i]))
            return (xstat){ NAN, NAN, NAN, NAN };
        x.mean += v[i] / n;
        x.min = fmin(x.min, v[i]);
        x.max = fmax(x.max, v[i]);
    }
    for (int i = 0; i < n; i++)
        ss += (v[i] - x.mean) * (v[i] - x.mean);
    x.sd = n > 1 ? sqrt(ss / (n - 1)) : NAN;
    return x;
}

static json_t *
json_num(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

/* A compared job: job j of alone scenario a, job k of the mix. */
typedef struct {
    int a, j, k;
} cmp_row;

/* print_one: the single-run table, CSV or JSON row of r (results A, M). */
static void
print_one(const scn_args *a, const bb_scn_run *R, const cmp_row *r,
          const bbs_exec_job_result *A, const bbs_exec_job_result *M, json_t *arr)
{
    double x[NX];
    char xs[NX][16];
    const char *nm = R[r->a].s.jobs[r->j].name, *mo = bbs_scn_job_model_name(&R[r->a].s.jobs[r->j]);

    ratios(A, M, x);
    /* NAN printed "-", empty in CSV, null in JSON */
    for (int i = 0; i < NX; i++)
        if (isnan(x[i]))
            strcpy(xs[i], "-");
        else
            snprintf(xs[i], sizeof xs[i], "%.3f", x[i]);
    if (arr) {
        json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                              "job", nm, "model", mo, "elapsed_alone_s", A->elapsed_s,
                              "elapsed_mix_s", M->elapsed_s, "comm_alone_s", A->comm_mean_s,
                              "comm_mix_s", M->comm_mean_s, "io_alone_s", A->io_mean_s,
                              "io_mix_s", M->io_mean_s, "latency_p99_alone_s", A->lat_p99_s,
                              "latency_p99_mix_s", M->lat_p99_s,
                              "latency_rank_mean_alone_s", A->lat_rank_mean_s,
                              "latency_rank_mean_mix_s", M->lat_rank_mean_s);
        json_object_set_new(o, "latency_max_alone_s", json_real(A->lat_max_s));
        json_object_set_new(o, "latency_max_mix_s", json_real(M->lat_max_s));
        json_object_set_new(o, "replicas", json_null());   /* no --replicas */
        for (int i = 0; i < NX; i++)
            json_object_set_new(o, x_key[i], json_num(x[i]));
        json_array_append_new(arr, o);
    } else if (a->out.csv)
        bb_csv_row(stdout, "ssnnnnnnnnnnnnnnnnn", nm, mo, A->elapsed_s, M->elapsed_s,
                   x[X_ELAPSED], A->comm_mean_s, M->comm_mean_s, x[X_COMM], A->io_mean_s,
                   M->io_mean_s, x[X_IO], A->lat_p99_s, M->lat_p99_s, A->lat_rank_mean_s,
                   M->lat_rank_mean_s, x[X_LAT], A->lat_max_s, M->lat_max_s, x[X_LATMAX]);
    else
        printf("%-12s %-10s %11.6f %11.6f %6s %11.6f %11.6f %6s %11.6f %11.6f %6s %11.2f "
               "%11.2f %7s\n", nm, mo, A->elapsed_s, M->elapsed_s, xs[X_ELAPSED], A->comm_mean_s,
               M->comm_mean_s, xs[X_COMM], A->io_mean_s, M->io_mean_s, xs[X_IO],
               A->lat_rank_mean_s * 1e6, M->lat_rank_mean_s * 1e6, xs[X_LAT]);
}

/* print_ensemble: row r over the N replicas (res[i nf + f]: replica i of
 * scenario f, the mix last): the times' means and each ratio's
 * statistics. */
static void
print_ensemble(const scn_args *a, const bb_scn_run *R, const cmp_row *r,
               const bbs_exec_result *res, int nf, int N, json_t *arr)
{
    double *v = malloc((size_t)N * NX * sizeof *v), t[6] = { 0 };
    const char *nm = R[r->a].s.jobs[r->j].name, *mo = bbs_scn_job_model_name(&R[r->a].s.jobs[r->j]);
    xstat st[NX];

    if (!v)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int i = 0; i < N; i++) {
        const bbs_exec_job_result *A = &res[i * nf + r->a].jobs[r->j];
        const bbs_exec_job_result *M = &res[i * nf + nf - 1].jobs[r->k];
        double x[NX];
        ratios(A, M, x);
        for (int q = 0; q < NX; q++)
            v[q * N + i] = x[q];
        t[0] += A->elapsed_s / N;
        t[1] += M->elapsed_s / N;
        t[2] += A->comm_mean_s / N;
        t[3] += M->comm_mean_s / N;
        t[4] += A->io_mean_s / N;
        t[5] += M->io_mean_s / N;
    }
    for (int q = 0; q < NX; q++)
        st[q] = xstat_of(v + q * N, N);
    if (arr) {
        json_t *o = json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "job", nm,
                              "model", mo, "replicas", N, "elapsed_alone_s", t[0],
                              "elapsed_mix_s", t[1], "comm_alone_s", t[2], "comm_mix_s", t[3],
                              "io_alone_s", t[4], "io_mix_s", t[5]);
        /* latencies: given by their growth's statistics only */
        static const char *const lat_keys[] = { "latency_p99_alone_s", "latency_p99_mix_s",
                                                "latency_rank_mean_alone_s",
                                                "latency_rank_mean_mix_s", "latency_max_alone_s",
                                                "latency_max_mix_s" };
        for (size_t q = 0; q < sizeof lat_keys / sizeof *lat_keys; q++)
            json_object_set_new(o, lat_keys[q], json_null());
        for (int q = 0; q < NX; q++) {
            json_t *vals = json_array();
            for (int i = 0; i < N; i++)
                json_array_append_new(vals, json_num(v[q * N + i]));
            json_object_set_new(o, x_key[q],
                                json_pack("{s:o, s:o, s:o, s:o, s:o}", "mean",
                                          json_num(st[q].mean), "sd", json_num(st[q].sd), "min",
                                          json_num(st[q].min), "max", json_num(st[q].max),
                                          "values", vals));
        }
        json_array_append_new(arr, o);
    } else if (a->out.csv) {
        /* each ratio's mean, sd, min and max; empty where NAN */
        bb_csv_row(stdout, "ssdnnnnnn" "nnnn" "nnnn" "nnnn" "nnnn" "nnnn", nm, mo, N, t[0], t[1],
                   t[2], t[3], t[4], t[5], st[X_ELAPSED].mean, st[X_ELAPSED].sd,
                   st[X_ELAPSED].min, st[X_ELAPSED].max, st[X_COMM].mean, st[X_COMM].sd,
                   st[X_COMM].min, st[X_COMM].max, st[X_IO].mean, st[X_IO].sd, st[X_IO].min,
                   st[X_IO].max, st[X_LAT].mean, st[X_LAT].sd, st[X_LAT].min, st[X_LAT].max,
                   st[X_LATMAX].mean, st[X_LATMAX].sd, st[X_LATMAX].min, st[X_LATMAX].max);
    } else {
        printf("%-12s %-10s %3d", nm, mo, N);
        for (int q = 0; q < X_LATMAX; q++) {
            if (isnan(st[q].mean))
                printf("  %-30s", "-");
            else {
                char b[64];

                if (isnan(st[q].sd))   /* one replica: its value, no spread */
                    snprintf(b, sizeof b, "%.3f (one replica: no sd)", st[q].mean);
                else
                    snprintf(b, sizeof b, "%.3f +- %.3f [%.3f, %.3f]", st[q].mean, st[q].sd,
                             st[q].min, st[q].max);
                printf("  %-30s", b);
            }
        }
        printf("\n");
    }
    free(v);
}

/* The slowdowns compare a job with itself: say on stderr where an alone
 * file A and the mix M give it, or the machine, something else. */
static void
warn_unlike(const bb_scn_run *A, const bb_scn_run *M, const char *fa, const char *fm)
{
    const bbs_scenario *s0 = &A->s, *s1 = &M->s;

    if (strcmp(s0->preset, s1->preset) != 0 || strcmp(s0->codes, s1->codes) != 0
        || A->topo->nodes != M->topo->nodes)
        bb_warn("%s and %s run on different machines (%s, %d nodes; %s, %d nodes): the "
                "slowdowns mix the machine's effect with the other jobs'", fa, fm,
                s0->preset[0] ? s0->preset : s0->codes, A->topo->nodes,
                s1->preset[0] ? s1->preset : s1->codes, M->topo->nodes);
    if (s0->routing != s1->routing)
        bb_warn("%s and %s route differently (%s, %s): the slowdowns mix the routing's effect "
                "with the other jobs'", fa, fm, bbs_net_route_name(s0->routing),
                bbs_net_route_name(s1->routing));
    for (int j = 0; j < s0->njobs; j++) {
        const bbs_scn_job *x = &s0->jobs[j], *y = NULL;
        for (int k = 0; k < s1->njobs; k++)
            if (!strcmp(x->name, s1->jobs[k].name))
                y = &s1->jobs[k];
        if (!y)
            continue;
        const char *mx = bbs_scn_job_model_name(x), *my = bbs_scn_job_model_name(y);
        if (x->ranks != y->ranks || strcmp(mx, my) != 0
            || (!x->trace && !y->trace
                && (x->model.iterations != y->model.iterations
                    || x->model.compute_s != y->model.compute_s)))
            bb_warn("job '%s' differs between %s (line %d: %s, %d ranks) and %s (line %d: %s, "
                    "%d ranks%s): its slowdown compares two different jobs", x->name, fa,
                    x->line, mx, x->ranks, fm, y->line, my, y->ranks,
                    x->ranks == y->ranks && strcmp(mx, my) == 0
                        ? ", other iterations or compute time" : "");
    }
}

int
bb_cmd_compare(int argc, char **argv)
{
    scn_args a;
    bb_scn_run *R;
    struct argp argp = { cmp_options, scn_parse, "ALONE.ini [ALONE2.ini ...] MIX.ini", cmp_doc,
                         cmp_children, NULL, NULL };
    int nf, N, nrow = 0;
    cmp_row *row;
    scn_job *runs;
    bbs_exec_result *res;

    memset(&a, 0, sizeof a);
    a.compare = 1;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    nf = a.nfiles;
    N = a.replicas > 0 ? a.replicas : 1;
    R = calloc((size_t)nf, sizeof *R);
    runs = calloc((size_t)nf * N, sizeof *runs);
    res = calloc((size_t)nf * N, sizeof *res);
    if (!R || !runs || !res)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int f = 0; f < nf; f++)
        bb_scn_load(&R[f], a.files[f], a.run.seed_set, a.run.seed);
    for (int f = 0; f < nf - 1; f++)
        nrow += R[f].s.njobs;
    if (!(row = malloc((size_t)nrow * sizeof *row)))
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    nrow = 0;
    for (int f = 0; f < nf - 1; f++)
        for (int j = 0; j < R[f].s.njobs; j++) {
            cmp_row *r = &row[nrow++];
            r->a = f;
            r->j = j;
            r->k = -1;
            for (int k = 0; k < R[nf - 1].s.njobs; k++)
                if (!strcmp(R[f].s.jobs[j].name, R[nf - 1].s.jobs[k].name))
                    r->k = k;
            if (r->k < 0)
                bb_die(BB_EXIT_DATAERR, "%s: job '%s' (line %d) is not in %s (its jobs must have "
                       "the same names)", a.files[f], R[f].s.jobs[j].name, R[f].s.jobs[j].line,
                       a.files[nf - 1]);
        }
    for (int f = 0; f < nf - 1; f++)
        warn_unlike(&R[f], &R[nf - 1], a.files[f], a.files[nf - 1]);
    /* replica i of every scenario, then replica i + 1: the runs of a
     * replica finish together */
    for (int i = 0; i < N; i++)
        for (int f = 0; f < nf; f++)
            runs[i * nf + f] = (scn_job){ &R[f], (uint64_t)i, &res[i * nf + f], 0, BB_OK, "",
                                          { 0 } };
    scn_exec(runs, nf * N, a.run.threads, &a.out, "compare");
    for (int f = 0; f < nf && !a.out.quiet; f++) {
        double wall = 0, ev = 0;
        for (int i = 0; i < N; i++) {
            wall += runs[i * nf + f].wall_s;
            ev += (double)res[i * nf + f].events;
        }
        fprintf(stderr, "bbsize: %s: %d run%s, wall %.2f s, %.0f events, %.0f events/s\n",
                R[f].s.source, N, N > 1 ? "s" : "", wall, ev, wall > 0 ? ev / wall : 0.0);
    }
    json_t *arr = a.out.json ? json_array() : NULL;
    if (a.replicas > 0) {
        if (a.out.csv) {
            printf("job,model,replicas,elapsed_alone_s,elapsed_mix_s,comm_alone_s,comm_mix_s,"
                   "io_alone_s,io_mix_s");
            for (int q = 0; q < NX; q++)
                printf(",%s_mean,%s_sd,%s_min,%s_max", x_key[q], x_key[q], x_key[q], x_key[q]);
            printf("\n");
        } else if (!a.out.json)
            printf("%-12s %-10s %3s  %-30s  %-30s  %-30s  %-30s\n", "job", "model", "n",
                   "elapsed x: mean +- sd [min, max]", "comm x", "io x", "latency x");
        for (int r = 0; r < nrow; r++)
            print_ensemble(&a, R, &row[r], res, nf, N, arr);
    } else {
        if (a.out.csv)
            printf("job,model,elapsed_alone_s,elapsed_mix_s,elapsed_slowdown,comm_alone_s,"
                   "comm_mix_s,comm_slowdown,io_alone_s,io_mix_s,io_slowdown,latency_p99_alone_s,"
                   "latency_p99_mix_s,latency_rank_mean_alone_s,latency_rank_mean_mix_s,"
                   "latency_growth,latency_max_alone_s,latency_max_mix_s,latency_max_growth\n");
        else if (!a.out.json)
            printf("%-12s %-10s %11s %11s %6s %11s %11s %6s %11s %11s %6s %11s %11s %7s\n",
                   "job", "model", "alone(s)", "mix(s)", "x", "comm_al(s)", "comm_mix(s)", "x",
                   "io_al(s)", "io_mix(s)", "x", "lat_al(us)", "lat_mix(us)", "x");
        for (int r = 0; r < nrow; r++)
            print_one(&a, R, &row[r], &res[row[r].a].jobs[row[r].j],
                      &res[nf - 1].jobs[row[r].k], arr);
    }
    if (arr) {
        json_t *al = json_array();
        for (int f = 0; f < nf - 1; f++)
            json_array_append_new(al, json_string(a.files[f]));
        json_t *o = json_pack("{s:s, s:o, s:s, s:o, s:o}", "alone", a.files[0], "alone_files", al,
                              "mix", a.files[nf - 1], "seed", bb_json_seed(R[nf - 1].s.seed),
                              "jobs", arr);
        json_object_set_new(o, "replicas", a.replicas > 0 ? json_integer(N) : json_null());
        bb_json_print(o);
    }
    for (int i = 0; i < nf * N; i++)
        bbs_exec_result_free(&res[i]);
    for (int f = 0; f < nf; f++)
        bb_scn_free(&R[f]);
    free(row);
    free(runs);
    free(res);
    free(R);
    bb_finish_stdout();
    return BB_EXIT_OK;
}
