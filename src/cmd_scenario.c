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
#include "scnmode.h"
#include "scnrun.h"

enum { OPT_SCENARIO = 0x3100 };

typedef struct {
    const char *files[2];
    int nfiles;
    int compare;
    bb_outopts out;     /* the output child: --csv, --json, --quiet */
    bb_runopts run;     /* the runs child: --seed */
} scn_args;

static const struct argp_option scn_options[] = {
    { "scenario", OPT_SCENARIO, "FILE", 0, "the scenario file (bbsize-scenario(5))", 0 },
    { 0 }
};

/* --seed overrides the scenario's [run] seed; --csv prints the tables as
 * CSV (one header line per table), --json one JSON object; --quiet: no run
 * statistics on stderr; --threads 1 runs ALONE.ini, then MIX.ini,
 * otherwise both at once when there are two cores (the results do not
 * change). */
static const struct argp_child cmp_children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET), 0, NULL, 0 },
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
        if (a->nfiles >= (a->compare ? 2 : 1))
            argp_error(state, "too many scenario files");
        a->files[a->nfiles++] = arg;
        break;
    case ARGP_KEY_END:
        if (a->nfiles != (a->compare ? 2 : 1))
            argp_error(state, a->compare ? "give ALONE.ini and MIX.ini" : "give a scenario file");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* scn_job: a scenario to run; after scn_run (R's simulation, timed into
 * R->wall_s) its status, with a message in err. */
typedef struct {
    bb_scn_run *R;
    int rc;
    char err[BB_ERRLEN];
} scn_job;

static void *
scn_run(void *arg)
{
    scn_job *j = arg;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    j->rc = bbs_exec_run(j->R->w, &j->R->cfg, &j->R->res, j->err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    j->R->wall_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return NULL;
}

/* scn_exec: run the n (1 or 2) scenarios, side by side on two threads when
 * allowed and there are two cores; dies with the first one's error (in
 * the order given, whatever finished first). */
static void
scn_exec(bb_scn_run *R, int n, int threads)
{
    scn_job j[2] = { { &R[0], 0, "" }, { n > 1 ? &R[1] : NULL, 0, "" } };
    pthread_t tid;
    int side = n > 1 && threads != 1 && sysconf(_SC_NPROCESSORS_ONLN) > 1
               && pthread_create(&tid, NULL, scn_run, &j[1]) == 0;

    scn_run(&j[0]);
    if (side)
        pthread_join(tid, NULL);
    else if (n > 1 && j[0].rc == BB_OK)
        scn_run(&j[1]);
    for (int i = 0; i < n; i++)
        if (j[i].rc != BB_OK)
            bb_die(bb_exit_status(j[i].rc), "%s: %s", R[i].s.source, j[i].err);
}

static const char *
place_name(const bbs_scenario *s)
{
    return s->placement < 0 ? "file" : bbs_net_place_name(s->placement);
}

static json_t *
job_json(const bbs_scn_job *sj, const bbs_exec_job_result *J)
{
    return json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:f, "
                     "s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b}",
                     "job", sj->name, "model", bbs_scn_job_model_name(sj), "ranks", sj->ranks,
                     "elapsed_s", J->elapsed_s, "comm_mean_s", J->comm_mean_s,
                     "comm_max_s", J->comm_max_s, "io_mean_s", J->io_mean_s,
                     "io_max_s", J->io_max_s, "compute_mean_s", J->compute_mean_s,
                     "bytes_sent", J->bytes_sent, "bytes_written", J->bytes_written,
                     "bytes_read", J->bytes_read, "messages", (json_int_t)J->messages,
                     "latency_mean_s", J->lat_mean_s, "latency_rank_mean_s", J->lat_rank_mean_s,
                     "latency_rank_max_s", J->lat_rank_max_s, "latency_p50_s", J->lat_p50_s,
                     "latency_p90_s", J->lat_p90_s, "latency_p99_s", J->lat_p99_s,
                     "latency_max_s", J->lat_max_s, "hops_mean", J->hops_mean,
                     "finished", J->finished);
}

static int
has_failures(const bbs_scenario *s)
{
    return s->fail.node_mttf_s > 0 || s->fail.drive_scale_s > 0;
}

/* The fate of every job's written bytes, printed when [failures] is on. */
static void
print_fate(const bb_scn_run *R, const scn_args *a)
{
    const bbs_scenario *s = &R->s;
    const bbs_exec_result *r = &R->res;
    if (a->out.csv) {
        printf("\njob,bytes_written,bytes_on_pfs,bytes_in_buffer,bytes_lost,writes_lost\n");
        for (int j = 0; j < r->njobs; j++)
            printf("%s,%.0f,%.0f,%.0f,%.0f,%llu\n", s->jobs[j].name, r->jobs[j].bytes_written,
                   r->jobs[j].bytes_on_pfs, r->jobs[j].bytes_in_buffer, r->jobs[j].bytes_lost,
                   (unsigned long long)r->jobs[j].writes_lost);
        printf("\nnode_failures,drive_failures\n%llu,%llu\n",
               (unsigned long long)r->node_failures, (unsigned long long)r->drive_failures);
        return;
    }
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
            "{s:s, s:s, s:i, s:s, s:s, s:I, s:o, s:o, s:o, s:{s:f, s:I, s:I, s:f, s:f, s:f, s:f, "
            "s:I, s:I}}",
            "scenario", s->source, "topology", s->preset[0] ? s->preset : s->codes,
            "nodes", R->topo->nodes, "routing", bbs_net_route_name(s->routing),
            "placement", place_name(s), "seed", (json_int_t)s->seed, "mechanisms", mech, "jobs", jobs,
            "links", links, "run", "simulated_s", r->end_s, "events", (json_int_t)r->events,
            "flows", (json_int_t)r->flows, "wall_s", R->wall_s,
            "events_per_s", R->wall_s > 0 ? r->events / R->wall_s : 0.0,
            "stall_s", r->stall_s, "bytes_on_pfs", r->bytes_on_pfs,
            "node_failures", (json_int_t)r->node_failures,
            "drive_failures", (json_int_t)r->drive_failures));
        return;
    }
    if (a->out.csv) {
        printf("job,model,ranks,elapsed_s,comm_mean_s,comm_max_s,io_mean_s,io_max_s,"
               "bytes_sent,bytes_written,bytes_read,messages,latency_p50_s,latency_p90_s,"
               "latency_p99_s,latency_max_s,hops_mean,latency_mean_s,latency_rank_mean_s,"
               "latency_rank_max_s\n");
        for (int j = 0; j < r->njobs; j++) {
            const bbs_exec_job_result *J = &r->jobs[j];
            printf("%s,%s,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.0f,%.0f,%.0f,%llu,%.6g,%.6g,%.6g,%.6g,"
                   "%.6g,%.6g,%.6g,%.6g\n",
                   s->jobs[j].name, bbs_scn_job_model_name(&s->jobs[j]), s->jobs[j].ranks,
                   J->elapsed_s, J->comm_mean_s, J->comm_max_s, J->io_mean_s, J->io_max_s,
                   J->bytes_sent, J->bytes_written, J->bytes_read,
                   (unsigned long long)J->messages, J->lat_p50_s, J->lat_p90_s, J->lat_p99_s,
                   J->lat_max_s, J->hops_mean, J->lat_mean_s, J->lat_rank_mean_s,
                   J->lat_rank_max_s);
        }
        printf("\nlink_kind,links,bytes,saturated_total_s,saturated_mean_s,saturated_max_s\n");
        for (int k = 0; k < BBS_EXEC_NLINKKINDS; k++) {
            const bbs_exec_link_result *L = &r->links[k];
            printf("%s,%d,%.0f,%.9g,%.9g,%.9g\n", lk_names[k], L->nlinks, L->bytes + L->small_bytes,
                   L->saturated_s, L->nlinks ? L->saturated_s / L->nlinks : 0, L->saturated_max_s);
        }
        if (has_failures(s))
            print_fate(R, a);
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
        print_fate(R, a);
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
bb_scenario_simulate(const char *file, const bb_outopts *out, const bb_runopts *run)
{
    scn_args a;
    bb_scn_run R;
    memset(&a, 0, sizeof a);
    a.files[a.nfiles++] = file;
    a.out = *out;
    a.run = *run;
    bb_scn_load(&R, a.files[0], a.run.seed_set, a.run.seed);
    scn_exec(&R, 1, 1);
    print_run(&R, &a);
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
    "Compare applications alone and in a mix: runs ALONE.ini and MIX.ini and, for every job "
    "of ALONE.ini, the job of the same name in MIX.ini: elapsed, communication and I/O times "
    "and their slowdown (mix / alone), and the mean message latency per rank (MFNetSim's "
    "\"avg msg time\") and its growth.";

int
bb_cmd_compare(int argc, char **argv)
{
    scn_args a;
    bb_scn_run R[2];
    struct argp argp = { scn_options, scn_parse, "ALONE.ini MIX.ini", cmp_doc, cmp_children,
                         NULL, NULL };
    memset(&a, 0, sizeof a);
    a.compare = 1;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    bb_scn_load(&R[0], a.files[0], a.run.seed_set, a.run.seed);
    bb_scn_load(&R[1], a.files[1], a.run.seed_set, a.run.seed);
    int *match = malloc((size_t)R[0].s.njobs * sizeof *match);
    if (!match)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int j = 0; j < R[0].s.njobs; j++) {
        match[j] = -1;
        for (int k = 0; k < R[1].s.njobs; k++)
            if (!strcmp(R[0].s.jobs[j].name, R[1].s.jobs[k].name))
                match[j] = k;
        if (match[j] < 0)
            bb_die(BB_EXIT_DATAERR, "%s: job '%s' (line %d) is not in %s (its jobs must have the "
                   "same names)", a.files[0], R[0].s.jobs[j].name, R[0].s.jobs[j].line,
                   a.files[1]);
    }
    scn_exec(R, 2, a.run.threads);
    report_speed(&R[0], &a);
    report_speed(&R[1], &a);
    json_t *arr = a.out.json ? json_array() : NULL;
    if (a.out.csv)
        printf("job,model,elapsed_alone_s,elapsed_mix_s,elapsed_slowdown,comm_alone_s,"
               "comm_mix_s,comm_slowdown,io_alone_s,io_mix_s,io_slowdown,lat_p99_alone_s,"
               "lat_p99_mix_s,lat_rank_mean_alone_s,lat_rank_mean_mix_s,lat_growth,"
               "lat_max_alone_s,lat_max_mix_s,lat_max_growth\n");
    else if (!a.out.json)
        printf("%-12s %-10s %11s %11s %6s %11s %11s %6s %11s %11s %6s %11s %11s %7s\n", "job",
               "model", "alone(s)", "mix(s)", "x", "comm_al(s)", "comm_mix(s)", "x", "io_al(s)",
               "io_mix(s)", "x", "lat_al(us)", "lat_mix(us)", "x");
    for (int j = 0; j < R[0].s.njobs; j++) {
        const bbs_exec_job_result *A = &R[0].res.jobs[j], *M = &R[1].res.jobs[match[j]];
        /* mix / alone; NAN (printed empty, "-" or null) when alone is 0 */
        double x[5] = { ratio(M->elapsed_s, A->elapsed_s), ratio(M->comm_mean_s, A->comm_mean_s),
                        ratio(M->io_mean_s, A->io_mean_s),
                        ratio(M->lat_rank_mean_s, A->lat_rank_mean_s),
                        ratio(M->lat_max_s, A->lat_max_s) };
        char xs[5][16];
        const char *nm = R[0].s.jobs[j].name, *mo = bbs_scn_job_model_name(&R[0].s.jobs[j]);
        for (int i = 0; i < 5; i++)
            if (isnan(x[i]))
                strcpy(xs[i], a.out.csv ? "" : "-");
            else
                snprintf(xs[i], sizeof xs[i], a.out.csv ? "%.6g" : "%.3f", x[i]);
        if (a.out.json) {
            json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                                  "job", nm, "model", mo, "elapsed_alone_s", A->elapsed_s,
                                  "elapsed_mix_s", M->elapsed_s, "comm_alone_s", A->comm_mean_s,
                                  "comm_mix_s", M->comm_mean_s, "io_alone_s", A->io_mean_s,
                                  "io_mix_s", M->io_mean_s, "lat_p99_alone_s", A->lat_p99_s,
                                  "lat_p99_mix_s", M->lat_p99_s,
                                  "lat_rank_mean_alone_s", A->lat_rank_mean_s,
                                  "lat_rank_mean_mix_s", M->lat_rank_mean_s);
            static const char *const xk[5] = { "elapsed_slowdown", "comm_slowdown",
                                               "io_slowdown", "lat_growth", "lat_max_growth" };
            json_object_set_new(o, "lat_max_alone_s", json_real(A->lat_max_s));
            json_object_set_new(o, "lat_max_mix_s", json_real(M->lat_max_s));
            for (int i = 0; i < 5; i++)
                json_object_set_new(o, xk[i], isnan(x[i]) ? json_null() : json_real(x[i]));
            json_array_append_new(arr, o);
        } else if (a.out.csv)
            printf("%s,%s,%.9g,%.9g,%s,%.9g,%.9g,%s,%.9g,%.9g,%s,%.6g,%.6g,%.6g,%.6g,%s,"
                   "%.6g,%.6g,%s\n", nm, mo, A->elapsed_s, M->elapsed_s, xs[0], A->comm_mean_s,
                   M->comm_mean_s, xs[1], A->io_mean_s, M->io_mean_s, xs[2], A->lat_p99_s,
                   M->lat_p99_s, A->lat_rank_mean_s, M->lat_rank_mean_s, xs[3], A->lat_max_s,
                   M->lat_max_s, xs[4]);
        else
            printf("%-12s %-10s %11.6f %11.6f %6s %11.6f %11.6f %6s %11.6f %11.6f %6s %11.2f "
                   "%11.2f %7s\n", nm, mo, A->elapsed_s, M->elapsed_s, xs[0], A->comm_mean_s,
                   M->comm_mean_s, xs[1], A->io_mean_s, M->io_mean_s, xs[2],
                   A->lat_rank_mean_s * 1e6, M->lat_rank_mean_s * 1e6, xs[3]);
    }
    if (a.out.json)
        bb_json_print(json_pack("{s:s, s:s, s:o}", "alone", a.files[0], "mix", a.files[1],
                                "jobs", arr));
    free(match);
    bb_scn_free(&R[0]);
    bb_scn_free(&R[1]);
    bb_finish_stdout();
    return BB_EXIT_OK;
}
