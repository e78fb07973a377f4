/* cmd_partition.c: `bbsize partition`, static partitions of the burst
 * buffer (one per group of the workload's group column, each with its own
 * capacity and share of the PFS and buffer bandwidths, each meeting the
 * target) against the shared buffer (analytic/questions/partition.h); with
 * --validate the partitioned platform simulated (sim/bbpart.h), its PFS
 * split in the static shares and shared work-conservingly.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bbpart.h"
#include "cli.h"
#include "csvout.h"
#include "cmdspec.h"
#include "commands.h"
#include "simcli.h"
#include "grid.h"
#include "progress.h"
#include "replicate.h"
#include "stats.h"

enum { OPT_STEPS = 0x2100, OPT_GRAN, OPT_VALIDATE };

#define PART_REPLICATIONS 10
#define PART_HORIZON_UNITS 100000L

static const struct argp_option options[] = {
    { "steps", OPT_STEPS, "K", 0,
      "split the PFS bandwidth in K equal steps (default 100; each group gets a whole "
      "number of them)", 0 },
    { "granularity", OPT_GRAN, "SIZE", 0,
      "round each allocation up to a multiple of SIZE (e.g. 82GiB, a Slurm pool's)", 0 },
    { "validate", OPT_VALIDATE, NULL, 0,
      "simulate the partitioned platform at the allocations, the PFS split in the static "
      "shares and shared work-conservingly (Bernoulli model)", 0 },
    { 0 }
};

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    long steps;
    bb_qty gran;
    int validate;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_STEPS:
        a->steps = bb_opt_long("steps", arg, 1, 100000);
        break;
    case OPT_GRAN:
        bb_opt_size("granularity", arg, &a->gran);
        if (!(a->gran.v > 0))
            bb_usage_value("granularity", arg, "a positive size");
        break;
    case OPT_VALIDATE:
        a->validate = 1;
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const bb_cmd_spec spec = {
    .options = options,
    .parser = parse,
    .args_doc = "FILE",
    .doc = "Static partitions of the burst buffer, one per group of FILE's group column, each "
    "with its own capacity and a share of the PFS (and buffer) bandwidth and each "
    "meeting the target, against one shared buffer: the shares that minimise the total "
    "capacity, and what partitioning costs.\v"
    "The shares are found exactly on the grid of K steps by dynamic programming over the "
    "groups (bbsize-partition(1)).  With --validate the partitioned platform is "
    "simulated (--replications, default 10, of --horizon, default 100000 time units; "
    "--seed): each group's idle fraction with the PFS split in the static shares, which "
    "the analytic sizes bound, and shared work-conservingly.  Exit status 1 when no "
    "partition meets the target.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .runs = BB_RUN_ALL,
    .targets = BB_TGT_IDLE,
    .groups = BB_CMD_POLICY,
};

/* The groups of the file, in order of first appearance. */
static size_t
group_index(const bb_workload_file *wl, size_t *gi, char (*names)[BBA_NAME_LEN])
{
    size_t G = 0;

    for (size_t i = 0; i < wl->n; i++) {
        size_t g = 0;

        while (g < G && strcmp(names[g], wl->group[i]) != 0)
            g++;
        if (g == G) {
            if (G == BBS_PART_MAX)
                bb_die(BB_EXIT_DATAERR, "%s:%ld: field 'group': more than %d groups", wl->source,
                       wl->line[i], BBS_PART_MAX);
            snprintf(names[G++], BBA_NAME_LEN, "%s", wl->group[i]);
        }
        gi[i] = g;
    }
    return G;
}

typedef struct {
    const bba_partition_spec *sp;
    bba_partition *p;
    int (*stage)(const bba_partition_spec *, bba_partition *, size_t, char *);
} groups_ctx;

/* Distinct groups touch distinct memory (partition.h): one unit each. */
static int
group_unit(size_t g, void *result, const void *vctx, char *err)
{
    const groups_ctx *c = vctx;

    (void)result;
    return c->stage(c->sp, c->p, g, err);
}

/* A per-group stage on the threads, its progress on meter (NULL: none). */
static int
per_group(groups_ctx *gc, int (*stage)(const bba_partition_spec *, bba_partition *, size_t,
                                       char *), int threads, bb_meter *meter, char *err)
{
    size_t G = gc->sp->ngroups;
    char *unused = calloc(G, 1);
    int rc;

    if (unused == NULL)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    gc->stage = stage;
    rc = bbs_replicate_run(G, 1, unused, group_unit, gc, threads,
                           meter != NULL ? bb_meter_progress : NULL, meter, err);
    free(unused);
    return rc;
}

/* ---- the simulated partitioned platform ----------------------------------- */

typedef struct {
    bbs_ci idle[BBS_PART_MAX];
} part_sim;

/* Replications of cfg, each group's idle interval. */
static void
simulate(const bbs_part_config *cfg, long R, int threads, double level, part_sim *out)
{
    bbs_part_result *res = calloc((size_t)R, sizeof *res);
    char err[BB_ERRLEN];
    int rc;

    if (res == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory for %ld replications", R);
    rc = bbs_replicate_run((size_t)R, sizeof *res, res, bbs_part_run_unit, cfg, threads, NULL,
                           NULL, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    for (size_t g = 0; g < cfg->G; g++) {
        bbs_welford w;

        bbs_welford_init(&w);
        for (long r = 0; r < R; r++)
            bbs_welford_add(&w, res[r].idle[g]);
        rc = bbs_ci_fraction(&w, (double)cfg->horizon_units, level, &out->idle[g], err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
    }
    free(res);
}

/* The platform at the allocations, in the shared quanta: the
 * applications' bandwidths as the shared buffer's front quantises them. */
static void
validate(const bb_ctx *ctx, const struct args *a, const bba_partition *p, const size_t *gi,
         part_sim *st, part_sim *sh, long *R, long *H)
{
    bba_question q = ctx->qn;
    bba_front *f = NULL;
    const bba_quantized *qz;
    size_t *gx;
    bbs_part_config c;
    long B[BBS_PART_MAX], S[BBS_PART_MAX];
    char err[BB_ERRLEN];
    int rc, threads = a->run.threads > 0 ? a->run.threads : bb_grid_threads();

    if (p->model != BBA_MODEL_BERNOULLI)
        bb_usage_error("validate", "the partitioned simulation is of the "
                       "Bernoulli model, and the %s model answers this workload; give --model "
                       "bernoulli", bba_model_kind_name(p->model));
    if (ctx->pf.bb_bw_Bps > 0)
        bb_usage_error("validate", "the partitioned simulation does not model "
                       "the burst buffer's bandwidth; give --bb-bw 0 or leave it out");
    q.pf.resolution = p->resolution;
    q.model = BBA_MODEL_BERNOULLI;
    q.progress = NULL;
    rc = bba_front_new(&q, &f, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    qz = bba_front_quantized(f);
    for (size_t g = 0; g < p->ngroups; g++) {
        B[g] = p->resolution / p->steps * p->k[g];
        S[g] = bba_size_quanta(p->bytes[g], qz->quantum_bytes);
    }
    /* the simulator takes the applications one by one: a row's group for
     * each of its count's entries (bba_quantize) */
    gx = malloc(qz->n * sizeof *gx);
    if (gx == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t k = 0; k < qz->n; k++)
        gx[k] = gi[qz->row[k]];
    memset(&c, 0, sizeof c);
    c.n = qz->n;
    c.b = qz->b;
    c.p = qz->p;
    c.group = gx;
    c.G = p->ngroups;
    c.B = B;
    c.S = S;
    c.horizon_units = PART_HORIZON_UNITS;
    if (a->run.horizon.set)
        c.horizon_units = (long)ceil(a->run.horizon.plain ? a->run.horizon.v
                                     : a->run.horizon.v / ctx->pf.time_unit_s);
    c.warmup_units = c.horizon_units / 10;
    c.time_unit_s = ctx->pf.time_unit_s;
    c.seed = a->run.seed_set ? a->run.seed : 1;
    *R = a->run.replications > 0 ? a->run.replications : PART_REPLICATIONS;
    *H = c.horizon_units;
    /* two runs (static and shared PFS), one tick event per time unit */
    bb_limits_check("the simulation", 2.0 * (double)*R
                    * (double)(c.horizon_units + c.warmup_units), 0,
                    "2 x replications x (horizon + warm-up) ticks",
                    "--horizon or --replications");
    c.pfs = BBS_PART_STATIC;
    simulate(&c, *R, threads, 0.95, st);
    c.pfs = BBS_PART_SHARED;
    simulate(&c, *R, threads, 0.95, sh);
    free(gx);
    bba_front_free(f);
}


int
bb_cmd_partition(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_partition_spec sp;
    bba_partition p;
    groups_ctx gc;
    size_t *gi, G, *napps;
    char (*names)[BBA_NAME_LEN];
    char err[BB_ERRLEN];
    part_sim st, sh;
    long R = 0, H = 0;
    int rc, threads;
    bb_meter meter;

    memset(&a, 0, sizeof a);
    a.steps = 100;
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    if (a.pol.threshold_is_size)
        bb_usage_error("threshold", "give a fraction of each partition's size (the sizes are "
                       "what is searched)");
    if (a.validate && a.pol.kind == BB_DRAIN_LAZY)
        bb_usage_error("validate", "the partitioned simulation drains greedily; leave out "
                       "--policy lazy and --threshold");
    if (a.file == NULL)
        bb_usage_missing("FILE", "a workload with a group column; the built-in workload has "
                         "no groups");
    bb_ctx_read(&ctx, &a.common, a.file);
    if (!ctx.wl.has_group)
        bb_die(BB_EXIT_DATAERR, "%s: no group column: name each application's partition in "
               "a column 'group'", ctx.wl.source);
    if (ctx.plain && a.gran.set && a.gran.plain == 0)
        bb_usage_error("granularity", "the workload is in data units, not "
                       "bytes; give it without a unit");
    gi = calloc(ctx.wl.n, sizeof *gi);
    names = calloc(BBS_PART_MAX, sizeof *names);
    napps = calloc(BBS_PART_MAX, sizeof *napps);
    if (gi == NULL || names == NULL || napps == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    G = group_index(&ctx.wl, gi, names);
    for (size_t i = 0; i < ctx.wl.n; i++)
        napps[gi[i]] += (size_t)ctx.wl.apps[i].count;
    if ((long)G > a.steps)
        bb_usage_error("steps", "%ld is fewer steps than the %zu groups", a.steps, G);
    ctx.qn.target = a.tgt.target_idle;
    bb_policy_drain(&a.pol, &ctx.qn.drain);   /* every group's search, and the shared one */
    memset(&sp, 0, sizeof sp);
    sp.base = &ctx.qn;
    sp.group = gi;
    sp.ngroups = G;
    sp.steps = (int)a.steps;
    sp.granularity_bytes = a.gran.set ? a.gran.v : 0;
    rc = bba_partition_begin(&sp, &p, err);
    if (rc != BB_OK)
        bb_die(bb_exit_status(rc), "%s: %s", ctx.wl.source, err);
    /* a granule above the whole shared buffer makes every partition one
     * granule or more and the comparison the granularity's, not the
     * partitioning's (--granularity 1e300B printed 1e+282 EB both ways) */
    if (sp.granularity_bytes > 0 && p.shared_status == BB_OK && p.shared.S_bytes > 0
        && sp.granularity_bytes > p.shared.S_bytes) {
        char gs[32], ss[32];

        bb_ctx_fmt_size(&ctx, gs, sizeof gs, sp.granularity_bytes);
        bb_ctx_fmt_size(&ctx, ss, sizeof ss, p.shared.S_bytes);
        bba_partition_free(&p);
        bb_usage_error("granularity", "%s is more than the whole shared buffer (%s): every "
                       "partition would be one granule and the totals the granularity's; give "
                       "at most %s", gs, ss, ss);
    }
    gc.sp = &sp;
    gc.p = &p;
    threads = a.run.threads > 0 ? a.run.threads : bb_grid_threads();
    bb_meter_start(&meter, &a.common.out, "partition: the bounds", "groups", G);
    rc = per_group(&gc, bba_partition_bound, threads, &meter, err);
    bb_meter_end(&meter);
    if (rc == BB_OK) {
        bba_partition_caps(&p);
        bb_meter_start(&meter, &a.common.out, "partition: the tables", "groups", G);
        rc = per_group(&gc, bba_partition_group, threads, &meter, err);
        bb_meter_end(&meter);
    }
    if (rc == BB_OK)
        rc = bba_partition_finish(&sp, &p, err);
    if (rc != BB_OK)
        bb_die(bb_exit_status(rc), "%s: %s", ctx.wl.source, err);
    if (a.validate && p.feasible)
        validate(&ctx, &a, &p, gi, &st, &sh, &R, &H);

    if (a.common.out.json) {
        json_t *arr = json_array(), *o;

        for (size_t g = 0; g < G; g++) {
            int ok = p.feasible;
            json_t *x = json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o}",
                                  "group", names[g], "applications", (json_int_t)napps[g],
                                  "bb_size_bytes", ok ? json_real(p.bytes[g]) : json_null(),
                                  "pfs_bw_bytes_per_s", ok ? json_real(p.pfs_bw_Bps[g])
                                                           : json_null(),
                                  "bb_bw_bytes_per_s", ok && p.bb_bw_Bps[g] > 0
                                                           ? json_real(p.bb_bw_Bps[g])
                                                           : json_null(),
                                  "steps", ok ? json_integer(p.k[g]) : json_null(),
                                  "idle_fraction", ok ? bb_json_real_or_null(p.a[g].idle)
                                                      : json_null());

            /* null without --validate (docs/json.md) */
            json_object_set_new(x, "static", json_null());
            json_object_set_new(x, "shared", json_null());
            if (ok && a.validate) {
                json_object_set_new(x, "static", json_pack(
                    "{s:f, s:f, s:f}", "simulated_idle_fraction", st.idle[g].mean,
                    "simulated_idle_fraction_low", st.idle[g].lo,
                    "simulated_idle_fraction_high", st.idle[g].hi));
                json_object_set_new(x, "shared", json_pack(
                    "{s:f, s:f, s:f}", "simulated_idle_fraction", sh.idle[g].mean,
                    "simulated_idle_fraction_low", sh.idle[g].lo,
                    "simulated_idle_fraction_high", sh.idle[g].hi));
            }
            json_array_append_new(arr, x);
        }
        o = json_pack("{s:b, s:o, s:o, s:o, s:i, s:f, s:f, s:s, s:o}", "feasible", p.feasible,
                      "groups", arr, "total_bb_size_bytes", bb_json_real_or_null(p.total_bytes),
                      "shared_bb_size_bytes", bb_json_real_or_null(p.shared_bytes), "steps", p.steps,
                      "granularity_bytes", sp.granularity_bytes, "target_idle",
                      a.tgt.target_idle, "model", bba_model_kind_name(p.model),
                      "platform", bb_json_platform(&ctx));
        json_object_set_new(o, "resolution", p.resolution > 0 ? json_integer(p.resolution)
                                                              : json_null());
        json_object_set_new(o, "simulation", json_null());
        if (a.validate && p.feasible)
            json_object_set_new(o, "simulation",
                                json_pack("{s:I, s:I, s:I}", "replications", (json_int_t)R,
                                          "horizon_units", (json_int_t)H, "seed",
                                          (json_int_t)(a.run.seed_set ? a.run.seed : 1)));
        bb_json_head(o, &ctx);
        bb_json_print(o);
    } else if (a.common.out.csv) {
        /* the simulated columns are empty without --validate */
        int v = a.validate;

        printf("group,applications,steps,pfs_bw_bytes_per_s,bb_bw_bytes_per_s,bb_size_bytes,"
               "idle_fraction,static_simulated_idle_fraction,static_simulated_idle_fraction_low,"
               "static_simulated_idle_fraction_high,shared_simulated_idle_fraction,"
               "shared_simulated_idle_fraction_low,shared_simulated_idle_fraction_high\n");
        for (size_t g = 0; p.feasible && g < G; g++)
            bb_csv_row(stdout, "sudnnnnnnnnnn", names[g], (unsigned long long)napps[g], p.k[g],
                       p.pfs_bw_Bps[g], p.bb_bw_Bps[g] > 0 ? p.bb_bw_Bps[g] : NAN, p.bytes[g],
                       p.a[g].idle, v ? st.idle[g].mean : NAN, v ? st.idle[g].lo : NAN,
                       v ? st.idle[g].hi : NAN, v ? sh.idle[g].mean : NAN,
                       v ? sh.idle[g].lo : NAN, v ? sh.idle[g].hi : NAN);
    } else if (!p.feasible) {
        printf("no static partition meets the target: in every split of the PFS bandwidth "
               "in %d steps some group's share is at or below its expected load, or too "
               "small for any capacity\n", p.steps);
    } else {
        char tot[32], shs[32];

        printf("%-20s %5s %-11s %6s %-11s %-10s", "GROUP", "APPS", "PFS_BW", "SHARE", "BB_SIZE",
               "IDLE");
        if (a.validate)
            printf(" %-30s %-30s", "SIMULATED (STATIC)", "SIMULATED (SHARED PFS)");
        printf("\n");
        for (size_t g = 0; g < G; g++) {
            char bw[32], sz[32];

            bb_ctx_fmt_rate(&ctx, bw, sizeof bw, p.pfs_bw_Bps[g]);
            bb_ctx_fmt_size(&ctx, sz, sizeof sz, p.bytes[g]);
            printf("%-20s %5zu %-11s %6.2f %-11s %-10.3g", names[g], napps[g], bw,
                   (double)p.k[g] / p.steps, sz, p.a[g].idle);
            if (a.validate) {
                char s1[64], s2[64];

                snprintf(s1, sizeof s1, "%.3g [%.3g, %.3g]", st.idle[g].mean, st.idle[g].lo,
                         st.idle[g].hi);
                snprintf(s2, sizeof s2, "%.3g [%.3g, %.3g]", sh.idle[g].mean, sh.idle[g].lo,
                         sh.idle[g].hi);
                printf(" %-30s %-30s", s1, s2);
            }
            printf("\n");
        }
        bb_ctx_fmt_size(&ctx, tot, sizeof tot, p.total_bytes);
        if (isfinite(p.shared_bytes)) {
            bb_ctx_fmt_size(&ctx, shs, sizeof shs, p.shared_bytes);
            char dif[32];

            bb_ctx_fmt_size(&ctx, dif, sizeof dif, fabs(p.total_bytes - p.shared_bytes));
            if (p.total_bytes == p.shared_bytes)
                printf("total %s in %zu partitions against %s shared: partitioning needs "
                       "nothing more\n", tot, G, shs);
            else
                printf("total %s in %zu partitions against %s shared: partitioning needs %s "
                       "%s (%.3g times the shared buffer)\n", tot, G, shs, dif,
                       p.total_bytes >= p.shared_bytes ? "more" : "less",
                       p.shared_bytes > 0 ? p.total_bytes / p.shared_bytes : INFINITY);
        } else {
            printf("total %s in %zu partitions; no shared buffer meets the target\n", tot, G);
        }
        if (a.validate)
            printf("simulated: %ld replications x %ld time units, seed %llu, 95%% intervals\n",
                   R, H, (unsigned long long)(a.run.seed_set ? a.run.seed : 1));
    }
    rc = p.feasible ? BB_EXIT_OK : BB_EXIT_NO;
    bba_partition_free(&p);
    free(gi);
    free(names);
    free(napps);
    bb_ctx_free(&ctx);
    return rc;
}
