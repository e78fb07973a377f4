/* cmd_validate_scn.c: `bbsize validate --scenario FILE`, the system-level
 * cross-check: the per-application (p, b) a scenario's workload implies,
 * fed to the analytic model, beside the stall fraction simulated on the
 * dragonfly and burst buffers, with its confidence interval over
 * replications.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The mapping (documented in bbsize-validate(1)):
 *  - a demand run (replication unit 0) with unbounded buffer capacity
 *    and no failures measures, per job j, its elapsed time E_j, its write time W_j (the
 *    union of the intervals during which at least one of its writes is in
 *    progress) and its written bytes V_j; p_j = W_j / E_j, b_j = V_j / W_j;
 *  - the time unit is the median write-burst duration of the demand run
 *    (a burst: a maximal interval with a write of the job in progress),
 *    or --time-unit;
 *  - B is the scenario's PFS bandwidth, S the capacity of the buffer nodes
 *    that serve at least one rank, summed;
 *  - replications 1..R run the scenario as written with the executor's
 *    streams of unit r (trace jobs also regenerate their streams with
 *    unit r); the simulated stall fraction is the time during
 *    which at least one write waits for buffer room, over the jobs' span
 *    (first job start to last job end: the drain after it is left out). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bbmpi.h"
#include "replicate.h"
#include "stats.h"
#include "cli.h"
#include "csvout.h"
#include "commands.h"
#include "execmeter.h"
#include "scnmode.h"
#include "scnrun.h"
#include "simcli.h"
#include "units.h"

typedef bb_scn_vopts vs_args;   /* parsed by `bbsize validate` (scnmode.h) */

/* One run's figures: plain data, so the MPI back end can move it. */
typedef struct {
    double elapsed_s, write_s, bytes_written;
    int nbursts, finished;
} vs_job;

typedef struct {
    double end_s, span_s, stall_busy_s, stall_s, median_burst_s, capacity_bytes, bytes_on_pfs;
    uint64_t events;
    int nbb_used, nbursts;
    vs_job job[];
} vs_res;

typedef struct {
    const bb_scn_run *R;
    double cap_bytes;      /* per node for replications (0: the scenario's) */
    int replications;      /* 1: unit 0 (the demand, run before) is skipped */
    double check_s;        /* lazy: the executor's EPS check interval, > 0 */
    bb_exec_slot *slots;   /* per unit, its progress (NULL: none) */
} vs_ctx;

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Unit 0: the demand run (unbounded capacity); unit r >= 1: replication r. */
static int
vs_unit(size_t unit, void *result, const void *vctx, char *err)
{
    const vs_ctx *C = vctx;
    vs_res *o = result;
    bbs_exec_config cfg = C->R->cfg;
    bbs_exec_result r;
    int rc;
    if (unit == 0 && C->replications)
        return BB_OK;
    cfg.unit = unit;
    cfg.lazy_check_s = C->check_s;
    if (C->slots)
        bb_exec_slot_report(&C->slots[unit], &cfg);
    if (unit == 0) {           /* the demand: no capacity limit, no failures */
        cfg.capacity_bytes = INFINITY;
        cfg.fail.node_mttf_s = cfg.fail.drive_scale_s = 0;
    }
    else if (C->cap_bytes > 0)
        cfg.capacity_bytes = C->cap_bytes;
    /* trace jobs draw their streams anew for every replication */
    bbs_wl *w = C->R->w, *own = NULL;
    if (unit > 0 && C->R->random_wl) {
        if ((rc = bb_scn_build(C->R, unit, &own, err)) != BB_OK)
            return rc;
        w = own;
    }
    rc = bbs_exec_run(w, &cfg, &r, err);
    bbs_wl_free(own);
    if (rc != BB_OK)
        return rc;
    o->end_s = r.end_s;
    o->stall_busy_s = r.stall_busy_s;
    o->stall_s = r.stall_s;
    o->capacity_bytes = r.capacity_total_bytes;
    o->bytes_on_pfs = r.bytes_on_pfs;
    o->events = r.events;
    o->nbb_used = r.nbb_used;
    double t0 = INFINITY, t1 = -INFINITY;
    for (int j = 0; j < r.njobs; j++) {
        t0 = fmin(t0, r.jobs[j].start_s);
        t1 = fmax(t1, r.jobs[j].end_s);
        o->job[j].elapsed_s = r.jobs[j].elapsed_s;
        o->job[j].write_s = r.jobs[j].write_s;
        o->job[j].bytes_written = r.jobs[j].bytes_written;
        o->job[j].nbursts = r.jobs[j].nbursts;
        o->job[j].finished = r.jobs[j].finished;
        o->nbursts += r.jobs[j].nbursts;
    }
    o->span_s = r.njobs > 0 && t1 > t0 ? t1 - t0 : 0;
    if (o->nbursts > 0) {
        double *all = malloc((size_t)o->nbursts * sizeof *all);
        int k = 0;
        if (!all) {
            bbs_exec_result_free(&r);
            return bb_seterr(err, BB_ENOMEM, "out of memory (bursts)");
        }
        for (int j = 0; j < r.njobs; j++)
            for (int i = 0; i < r.jobs[j].nbursts; i++)
                all[k++] = r.jobs[j].bursts_s[i];
        qsort(all, (size_t)k, sizeof *all, cmp_d);
        o->median_burst_s = k % 2 ? all[k / 2] : 0.5 * (all[k / 2 - 1] + all[k / 2]);
        free(all);
    }
    bbs_exec_result_free(&r);
    return BB_OK;
}


int
bb_validate_scenario(const vs_args *ap)
{
    const vs_args a = *ap;
    bb_scn_run R;
    char err[BB_ERRLEN];
    bb_scn_load(&R, a.file, a.have_seed, a.seed);
    const bbs_scenario *s = &R.s;
    const int nj = s->njobs;
    double B = a.pfs_Bps > 0 ? a.pfs_Bps : s->pfs_bw_Bps;
    if (!(B > 0))
        bb_die(BB_EXIT_DATAERR, "%s: the analytic model needs a PFS bandwidth: set [storage] "
               "pfs_bandwidth or give --pfs-bw", a.file);
    R.cfg.pfs_bw_Bps = B;

    /* the runs: unit 0 the demand, then 1..reps the replications, whose
     * lazy buffers drain below threshold with EPS per time unit as the
     * chain does (the executor's check interval is the time unit) */
    size_t rsz = sizeof(vs_res) + (size_t)nj * sizeof(vs_job), nu = (size_t)a.reps + 1;
    vs_res *res = calloc(nu, rsz);
    if (!res)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
#define RES(u) ((vs_res *)((char *)res + (u) * rsz))
    vs_res *D = calloc(1, rsz);
    if (!D)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    vs_ctx C = { &R, a.cap_bytes, 0, R.cfg.lazy_check_s, NULL };
    /* the demand run, then the replications on nt threads, their ops on
     * the meter as they complete; under an MPI launcher on rank 0 alone,
     * a unit's ops when it ends, on whichever rank (its runner counts them
     * there) */
    bb_outopts po = { .quiet = a.quiet || bbs_mpi_rank() != 0, .progress = a.progress };
    bb_exec_meter em;
    bbs_progress_fn ended = NULL;
    size_t ops = (size_t)bbs_wl_nops(R.w);
    long nt = a.threads > 0 ? a.threads : bbs_replicate_threads();
    nt = nt < a.reps ? nt : a.reps > 0 ? a.reps : 1;
    bb_meter_estimate(&po, bb_exec_seconds(R.est_events, R.topo->nodes)
                               * (1 + ceil((double)a.reps / (double)nt)),
                      R.est_events * (double)nu, "events");
    bb_exec_meter_start(&em, &po, "validate", ops * nu);
    if (bbs_mpi_size() > 1) {
        em.per_unit = ops;
        ended = bb_exec_meter_units;
    } else if ((C.slots = calloc(nu, sizeof *C.slots)))
        for (size_t u = 0; u < nu; u++)
            bb_exec_meter_slot(&em, &C.slots[u], ops);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* unit 0 of either run is the demand's: one unit's ops */
    int rc = bbs_replicate_run(1, rsz, D, vs_unit, &C, 1, ended, &em, err);
    double tu = a.tu_s > 0 ? a.tu_s : D->median_burst_s;
    if (rc == BB_OK && D->nbursts == 0)
        bb_die(BB_EXIT_DATAERR, "%s: no job writes to the burst buffer: nothing for the "
               "analytic model to size", a.file);
    if (rc == BB_OK && !(tu > 0))
        bb_die(BB_EXIT_DATAERR, "%s: the median write burst lasts 0 s; give --time-unit", a.file);
    C.replications = 1;
    C.check_s = tu;
    if (rc == BB_OK)
        rc = bbs_replicate_run(nu, rsz, res, vs_unit, &C, (int)a.threads, ended, &em, err);
    bb_exec_meter_end(&em);
    free(C.slots);
    memcpy(RES(0), D, rsz);   /* unit 0 of the results: the demand */
    free(D);
    D = RES(0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (rc != BB_OK)
        bb_die(bb_exit_status(rc), "%s: %s", a.file, err);

    /* the implied workload */
    bba_app *apps = calloc((size_t)nj, sizeof *apps);
    if (!apps)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int j = 0; j < nj; j++) {
        const bbs_job_demand dem = { D->job[j].elapsed_s, D->job[j].write_s,
                                     D->job[j].bytes_written };
        snprintf(apps[j].name, sizeof apps[j].name, "%s", s->jobs[j].name);
        if ((rc = bbs_implied_pb(&dem, &apps[j].p, &apps[j].bw_Bps, err)) != BB_OK)
            bb_die(BB_EXIT_SOFTWARE, "%s: job '%s' in the demand run: %s", a.file,
                   s->jobs[j].name, err);
    }
    double S_bytes = RES(1)->capacity_bytes;
    bba_platform pf = { B, 0, tu, a.resolution };
    bba_quantized q;
    bba_model m;
    bba_solver_opts so;
    bba_eval_result ev;
    memset(&q, 0, sizeof q);
    if ((rc = bba_quantize(apps, (size_t)nj, &pf, &q, err)) != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s: the implied workload: %s", a.file, err);
    bba_solver_defaults(&so);
    so.tol = 1e-12;
    so.mem_limit_bytes = a.maxmem;
    long Sq = bba_size_quanta(S_bytes, q.quantum_bytes);
    bb_drain pol = bb_drain_greedy(0);
    if (s->drain.kind == BB_DRAIN_LAZY) {
        /* the simulator drains a node while it holds lazy_threshold: the
         * aggregate threshold is that times the nodes in use */
        long th = bba_size_quanta(s->drain.threshold * D->nbb_used, q.quantum_bytes);
        /* EPS per time unit, as the replications check */
        pol = bb_drain_lazy(BB_DRAIN_QUANTA, (double)(th < Sq ? th : Sq), R.cfg.drain.eps);
    }
    if ((rc = bba_model_init(&m, q.n, q.b, q.p, q.B, so.mem_limit_bytes, err)) != BB_OK)
        bb_die_lib(rc, err);
    if (Sq > bba_model_s_max(&m, &so))
        bb_die(BB_EXIT_TOOBIG, "%s: the buffer is %ld quanta of %.3g B: too large a chain for "
               "--max-memory (lower --resolution or give a larger --time-unit)", a.file, Sq,
               q.quantum_bytes);
    if ((rc = bba_eval(&m, Sq, &pol, &so, &ev, NULL, err)) != BB_OK)
        bb_die_lib(rc, err);

    /* the simulated stall fraction */
    bbs_welford wf;
    bbs_ci ci;
    double sim_units = 0;
    int unfinished = 0;
    bbs_welford_init(&wf);
    for (size_t u = 1; u < nu; u++) {
        const vs_res *r = RES(u);
        bbs_welford_add(&wf, r->span_s > 0 ? r->stall_busy_s / r->span_s : 0);
        sim_units += r->span_s / tu;
        for (int j = 0; j < nj; j++)
            unfinished += !r->job[j].finished;
    }
    /* an interval made for a fraction (inside [0, 1]; Clopper-Pearson
     * over the simulated time units when no replication stalled) */
    double units_per_rep = nu > 1 ? sim_units / (double)(nu - 1) : 0;
    if ((rc = bbs_ci_fraction(&wf, units_per_rep, a.level, &ci, err)) != BB_OK)
        bb_die_lib(rc, err);
    ci.mean = wf.mean;
    double pred = ev.meas.idle;
    bbs_agreement ag;
    if ((rc = bbs_agreement_judge(pred, &ci, (double)(nu - 1), units_per_rep, 0.5, &ag, err)) != BB_OK)
        bb_die_lib(rc, err);
    const bbs_verdict vd = ag.v;
    int agrees = ag.covered, below = ag.below_resolution;
    double gap = ag.gap;

    if (a.json) {
        json_t *jobs = json_array();
        for (int j = 0; j < nj; j++)
            json_array_append_new(jobs, json_pack(
                "{s:s, s:s, s:i, s:f, s:f, s:f, s:i, s:f, s:f, s:I}", "job", s->jobs[j].name,
                "model", bbs_scn_job_model_name(&s->jobs[j]), "ranks", s->jobs[j].ranks,
                "elapsed_s", D->job[j].elapsed_s, "write_s", D->job[j].write_s,
                "bytes_written", D->job[j].bytes_written, "write_bursts", D->job[j].nbursts,
                "p", apps[j].p, "bw_bytes_per_s", apps[j].bw_Bps, "b_quanta", (json_int_t)q.b[j]));
        json_t *reps = json_array();
        for (size_t u = 1; u < nu; u++)
            json_array_append_new(reps, json_pack(
                "{s:f, s:f, s:f, s:f, s:f}", "jobs_span_s", RES(u)->span_s, "end_s", RES(u)->end_s,
                "stall_busy_s", RES(u)->stall_busy_s, "stall_fraction",
                RES(u)->span_s > 0 ? RES(u)->stall_busy_s / RES(u)->span_s : 0.0,
                "write_wait_total_s", RES(u)->stall_s));
        bb_json_print(json_pack(
            "{s:s, s:o, s:f, s:f, s:i, s:f, s:f, s:s, s:I, s:I, s:f, s:o, s:o, s:f, s:f, s:o, "
            "s:o, s:f, s:I, s:b, s:o, s:i}",
            "scenario", a.file, "seed", bb_json_seed(s->seed), "pfs_bw_bytes_per_s", B,
            "bb_size_bytes", S_bytes, "bb_nodes", RES(1)->nbb_used,
            "time_unit_s", tu, "median_write_burst_s", D->median_burst_s,
            "time_unit_from", a.tu_s > 0 ? "option" : "median write burst",
            "resolution", (json_int_t)a.resolution, "bb_size_quanta", (json_int_t)Sq,
            "quantum_bytes", q.quantum_bytes, "jobs", jobs, "replication_runs", reps,
            "load_ratio", bba_model_load_ratio(&m), "idle_fraction", pred,
            "simulated_idle_fraction_low", bb_json_real_or_null(ci.lo),
            "simulated_idle_fraction_high", bb_json_real_or_null(ci.hi), "simulated_idle_fraction", ci.mean,
            "replications", (json_int_t)a.reps, "agrees", agrees,
            "relative_gap", bb_json_real_or_null(gap), "unfinished_jobs", unfinished));
    } else if (a.csv) {
        /* one table: a row per job, the scenario's figures repeated on
         * each (docs/json.md: one table per CSV stream) */
        printf("job,model,ranks,elapsed_s,write_s,bytes_written,write_bursts,p,bw_bytes_per_s,"
               "b_quanta,pfs_bw_bytes_per_s,bb_size_bytes,bb_size_quanta,time_unit_s,"
               "resolution,quantum_bytes,load_ratio,idle_fraction,simulated_idle_fraction,"
               "simulated_idle_fraction_low,simulated_idle_fraction_high,replications,agrees,"
               "relative_gap\n");
        for (int j = 0; j < nj; j++)
            bb_csv_row(stdout, "ssdnnndnnl" "nnlnlnnnnnnldn", s->jobs[j].name,
                       bbs_scn_job_model_name(&s->jobs[j]), s->jobs[j].ranks, D->job[j].elapsed_s,
                       D->job[j].write_s, D->job[j].bytes_written, D->job[j].nbursts, apps[j].p,
                       apps[j].bw_Bps, q.b[j], B, S_bytes, Sq, tu, a.resolution,
                       q.quantum_bytes, bba_model_load_ratio(&m), pred, ci.mean, ci.lo, ci.hi,
                       a.reps, agrees, gap);
    } else {
        char bs[64], ss[64], ts[64], qs[64];
        bb_fmt_rate(bs, sizeof bs, B, 1, 0);
        bb_fmt_size(ss, sizeof ss, S_bytes, 0);
        bb_fmt_duration(ts, sizeof ts, tu);
        bb_fmt_size(qs, sizeof qs, q.quantum_bytes, 0);
        printf("scenario %s, seed %llu\n", a.file, (unsigned long long)s->seed);
        printf("B = %s (PFS), S = %s (%d buffer nodes in use), time unit %s (%s), "
               "R = %ld: quantum %s, S = %ld quanta\n", bs, ss, RES(1)->nbb_used, ts,
               a.tu_s > 0 ? "--time-unit" : "median write burst", a.resolution, qs, Sq);
        printf("%-12s %-10s %5s %11s %10s %11s %6s %9s %12s %9s\n", "job", "model", "ranks",
               "elapsed(s)", "write(s)", "written(GB)", "bursts", "p", "b(GB/s)", "b(quanta)");
        for (int j = 0; j < nj; j++)
            printf("%-12s %-10s %5d %11.6f %10.6f %11.3f %6d %9.6f %12.4f %9ld\n",
                   s->jobs[j].name, bbs_scn_job_model_name(&s->jobs[j]), s->jobs[j].ranks,
                   D->job[j].elapsed_s, D->job[j].write_s, D->job[j].bytes_written / 1e9,
                   D->job[j].nbursts, apps[j].p, apps[j].bw_Bps / 1e9, q.b[j]);
        char verdict[160];
        if (vd.kind == BBS_INCONCLUSIVE)
            snprintf(verdict, sizeof verdict, "inconclusive%s: ~%.0f more replications "
                     "would decide", below ? " (below resolution: no stall simulated)" : "",
                     vd.more_replications);
        else if (agrees)
            snprintf(verdict, sizeof verdict, "agrees");
        else if (isfinite(gap))
            snprintf(verdict, sizeof verdict, "gap %+.1f%%", 100.0 * gap);
        else
            snprintf(verdict, sizeof verdict, "gap (analytic 0)");
        printf("E/B = %.4f; predicted idle fraction %.6g; simulated stall fraction %.6g, "
               "%g%% CI [%.6g, %.6g] over %ld replications: %s\n", bba_model_load_ratio(&m),
               pred, ci.mean, 100 * a.level, ci.lo, ci.hi, a.reps, verdict);
        if (unfinished)
            printf("warning: %d job runs did not finish before the horizon\n", unfinished);
    }
    if (!a.quiet) {
        uint64_t ev_total = 0;
        for (size_t u = 0; u < nu; u++)
            ev_total += RES(u)->events;
        fprintf(stderr, "bbsize: %s: %zu runs, wall %.2f s, %llu events\n", a.file, nu, wall,
                (unsigned long long)ev_total);
    }
#undef RES
    bba_model_free(&m);
    bba_quantized_free(&q);
    free(apps);
    free(res);
    bb_scn_free(&R);
    bb_finish_stdout();
    return BB_EXIT_OK;
}
