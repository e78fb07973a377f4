/* cli.c: run bounds, loading the workload into
 * a bb_ctx, progress and JSON helpers (cli.h; the option parsers of cli.h
 * are in options.c, the output files in outfile.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "csvout.h"
#include "progress.h"
#include "usage.h"
#include "datadir.h"
#include "readfile.h"
#include "engine.h"
#include "network/topo.h"
#include "workload/ops.h"

/* ---- loading ------------------------------------------------------------ */

char *
bb_read_or_die(const char *path, size_t *len, int mode)
{
    char *b, err[BB_ERRLEN];
    size_t n;
    int rc = bb_read_file(path, mode, &b, len ? len : &n, err, sizeof err);

    if (rc != BB_OK)
        bb_die_lib(rc, err);
    return b;
}

int
bb_path_exists(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0;
}

char *
bb_path_beside(const char *from, const char *p, int by_base)
{
    const char *slash = from ? strrchr(from, '/') : NULL, *base = strrchr(p, '/');
    size_t dl = slash ? (size_t)(slash - from + 1) : 0;
    char *s;

    if (bb_path_exists(p) || from == NULL)
        return bb_path_exists(p) ? strdup(p) : NULL;
    s = malloc(dl + strlen(p) + 1);
    if (!s)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    memcpy(s, from, dl);
    strcpy(s + dl, p);
    if (p[0] != '/' && bb_path_exists(s))
        return s;
    if (by_base) {
        strcpy(s + dl, base ? base + 1 : p);
        if (bb_path_exists(s))
            return s;
    }
    free(s);
    return NULL;
}

static double
default_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);

    if (pages <= 0 || psize <= 0)
        return 4e9;
    return 0.75 * (double)pages * (double)psize;
}

/* ---- run bounds --------------------------------------------------------- */

bb_limits bb_run_limits = { BB_DEFAULT_MAX_EVENTS, 0 };

static void
limits_apply(void)
{
    double mem = bb_limits_memory();
    double pend = mem / (double)bbs_engine_event_bytes();

    bbs_engine_set_default_limits((uint64_t)bb_run_limits.max_events,
                                  pend > (double)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)pend);
    bbs_wl_set_default_max_ops((uint64_t)(mem / (double)sizeof(bbs_op)));
}

void
bb_limits_init(void)
{
    limits_apply();
}

void
bb_limits_set_events(const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK)
        bb_usage_error("max-events", "%s", msg);
    if (!(v >= 1) || v > 1.8e19)
        bb_usage_error("max-events", "'%s' is not a number of events in [1, 1.8e19]", arg);
    bb_run_limits.max_events = floor(v);
    limits_apply();
}

void
bb_limits_set_memory(const char *arg)
{
    bb_qty q;
    char msg[256];

    if (bb_parse_size(arg, &q, msg, sizeof msg) != BB_OK)
        bb_usage_error("max-memory", "%s", msg);
    if (!(q.v > 0))
        bb_usage_error("max-memory", "'%s' is not positive", arg);
    bb_run_limits.max_memory_bytes = q.v;
    limits_apply();
}

static const struct argp_option limits_options[] = {
    { NULL, 0, NULL, 0, "Bounds:", 50 },
    BB_MAX_EVENTS_OPTION,
    { "max-memory", BB_OPT_MAX_MEMORY, "SIZE", 0,
      "refuse runs needing more memory than this (default 75% of physical memory)", 0 },
    { 0 }
};

static error_t
limits_parse(int key, char *arg, struct argp_state *state)
{
    (void)state;
    switch (key) {
    case BB_OPT_MAX_EVENTS:
        bb_limits_set_events(arg);
        return 0;
    case BB_OPT_MAX_MEMORY:
        bb_limits_set_memory(arg);
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

const struct argp bb_limits_argp = { limits_options, limits_parse, NULL, NULL, NULL, NULL, NULL };

static const struct argp_option events_options[] = {
    { NULL, 0, NULL, 0, "Bounds:", 50 },
    BB_MAX_EVENTS_OPTION,
    { 0 }
};

const struct argp bb_events_argp = { events_options, limits_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_limits_check_topology(const void *vpar, const char *source)
{
    const bbs_net_params *par = vpar;
    char what[600], detail[256];

    snprintf(what, sizeof what, "the topology of %s", source);
    snprintf(detail, sizeof detail, "a dragonfly of %d groups x %d routers x %d nodes, %d "
             "global channels per router", par->g, par->a, par->p, par->h);
    bb_limits_check(what, 0, bbs_net_topo_estimate(par), detail,
                    "fewer groups, routers or nodes per router");
}

double
bb_limits_memory(void)
{
    return bb_run_limits.max_memory_bytes > 0 ? bb_run_limits.max_memory_bytes
                                              : default_memory_limit();
}

int
bb_limits_test(const char *what, double events, double bytes, const char *detail,
               const char *shrink, char *err)
{
    return bb_bound_test(what, events, bytes, bb_run_limits.max_events, bb_limits_memory(),
                         detail, shrink, err);
}

void
bb_limits_check(const char *what, double events, double bytes, const char *detail,
                const char *shrink)
{
    char err[BB_ERRLEN];
    int rc = bb_limits_test(what, events, bytes, detail, shrink, err);

    if (rc != BB_OK)
        bb_die_lib(rc, err);
}

/* How a value of a quantity reads in a message ("60 s", "1.45 TB/s", "5
 * data units per time unit"). */
static void
fmt_qty(char *buf, size_t len, const char *what, const bb_qty *q)
{
    if (strcmp(what, "time unit") == 0)
        bb_fmt_duration(buf, len, q->v);
    else if (q->plain)
        snprintf(buf, len, "%g data units per time unit", q->v);
    else
        bb_fmt_rate(buf, len, q->v, 1, 0);
}

/* pick3: the first set value of a, b, c (in that order of precedence);
 * *src names where it came from.  When a lower source gives a different
 * value, stderr says which value was used and where both came from,
 * unless walked: a is the first of the values the command walks, which
 * replace the others rather than override them. */
static const bb_qty *
pick3(const char *what, int walked, const bb_qty *a, const char *as,
      const bb_qty *b, const char *bs, const bb_qty *c, const char *cs, char src[640])
{
    const bb_qty *q[3] = { a, b, c };
    const char *s[3] = { as, bs, cs };
    int k = -1;

    for (int i = 0; i < 3 && k < 0; i++)
        if (q[i] != NULL && q[i]->set)
            k = i;
    static const bb_qty unset;

    if (k < 0) {
        snprintf(src, 640, "the default");
        return &unset;   /* callers test ->set */
    }
    for (int j = k + 1; j < 3 && !(walked && k == 0); j++)
        if (q[j] != NULL && q[j]->set && (q[j]->v != q[k]->v || q[j]->plain != q[k]->plain)) {
            char v1[64], v2[64];

            fmt_qty(v1, sizeof v1, what, q[k]);
            fmt_qty(v2, sizeof v2, what, q[j]);
            bb_warn("%s %s from %s overrides %s from %s", what, v1, s[k], v2, s[j]);
        }
    snprintf(src, 640, "%s", s[k]);   /* s[k] may be the caller's stack buffer */
    return q[k];
}

/* One place for the platform's bounds, before any model is built: the
 * quantum B * time unit / R must be a finite, normal number of bytes. */
static void
check_platform(const bb_ctx *ctx, const bb_common *opt)
{
    /* an automatic resolution reaches at most BBA_RES_MAX */
    long R = ctx->pf.resolution > 0 ? ctx->pf.resolution : BBA_RES_MAX;
    double qb = ctx->pf.pfs_bw_Bps * ctx->pf.time_unit_s / (double)R;
    int over = !isfinite(qb) || !isfinite(ctx->pf.pfs_bw_Bps);
    char msg[2048];

    if (!over && qb >= DBL_MIN)
        return;
    snprintf(msg, sizeof msg, "the quantum, PFS bandwidth (%g B/s, from %s) times the time "
             "unit (%g s, from %s) over the resolution (%ld, from %s), is %g bytes: %s; give "
             "a %s --time-unit or --pfs-bw", ctx->pf.pfs_bw_Bps, ctx->src_pfs,
             ctx->pf.time_unit_s, ctx->src_tu, R, ctx->src_res, qb,
             over ? "it overflows" : "too small to represent", over ? "smaller" : "larger");
    /* given on the command line: a usage error; from a file: bad data */
    if (opt->pfs_bw.set || opt->time_unit.set || opt->resolution)
        bb_usage_error(NULL, "%s", msg);
    bb_die(BB_EXIT_DATAERR, "%s", msg);
}

int
bb_system_lookup(const char *name, bb_system *s, char *err, size_t errlen)
{
    const char *dirs[BB_DATADIR_MAX];
    size_t n = bb_datadirs(dirs);
    int rc = bb_system_find(name, dirs, n, s, err, errlen);

    if (rc == BB_OK) {
        const char *shown = bb_datadir_shown(s->path);

        memmove(s->path, shown, strlen(shown) + 1);
    }
    return rc;
}

/* The question (analytic/answer.h) made from the inputs read: the first
 * call into the library; nothing of src/ runs after it (so that
 * bb_ctx_load goes down into analytic/ once). */
static void
ctx_question(bb_ctx *ctx, int time_unit_given, double mem_limit_bytes)
{
    bba_question_init(&ctx->qn);
    ctx->qn.apps = ctx->wl.apps;
    ctx->qn.n = ctx->wl.n;
    ctx->qn.pf = ctx->pf;
    ctx->qn.time_unit_given = time_unit_given;
    ctx->qn.model = ctx->opt->model;
    ctx->qn.so.kind = ctx->opt->solver;
    ctx->qn.so.mem_limit_bytes = mem_limit_bytes;
    ctx->qn.so.max_ops = ctx->opt->max_ops;
    ctx->qn.so.dist_rows = ctx->opt->dist_rows;
    bb_solver_announce(&ctx->qn.so, &ctx->opt->out);
    ctx->so = ctx->qn.so;
}

static int ctx_read_inputs(bb_ctx *ctx, const bb_common *opt, const char *file);
static int ctx_platform(bb_ctx *ctx, const bb_common *opt);
static void ctx_build(bb_ctx *ctx, const bb_settle *st, int time_unit_given,
                      double mem_limit_bytes);

/* A lazy threshold given as a size must fit in the question's buffer:
 * a usage error, before any model is built. */
static void
check_threshold(const bb_ctx *ctx, const bb_settle *st)
{
    if (st->check_size && st->drain.lazy && st->drain.threshold_is_bytes
        && st->drain.threshold > st->settle_bytes) {
        char a[64], b[64];

        bb_ctx_fmt_size(ctx, a, sizeof a, st->drain.threshold);
        bb_ctx_fmt_size(ctx, b, sizeof b, st->settle_bytes);
        bb_usage_error("threshold", "%s is larger than the buffer (%s)", a, b);
    }
}

void
bb_ctx_load(bb_ctx *ctx, const bb_common *opt, const char *file, const bb_settle *st)
{
    int tu_given = ctx_read_inputs(ctx, opt, file);
    double mem = opt->max_memory_bytes > 0 ? opt->max_memory_bytes : default_memory_limit();

    if (st)
        check_threshold(ctx, st);
    ctx_build(ctx, st, tu_given, mem);
}

void
bb_ctx_read(bb_ctx *ctx, const bb_common *opt, const char *file)
{
    int tu_given = ctx_read_inputs(ctx, opt, file);

    ctx_question(ctx, tu_given, opt->max_memory_bytes > 0 ? opt->max_memory_bytes
                                                          : default_memory_limit());
}

/* bb_ctx_read without the question: src/ only.  Returns 1 when a time
 * unit was given (option, file or preset). */
static int
ctx_read_inputs(bb_ctx *ctx, const bb_common *opt, const char *file)
{
    char err[BB_ERRLEN];
    int rc;

    memset(ctx, 0, sizeof *ctx);
    ctx->opt = opt;
    rc = file ? bb_workload_read(file, &ctx->wl, err, sizeof err)
              : bb_workload_default(&ctx->wl, err, sizeof err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    return ctx_platform(ctx, opt);
}

/* ctx_read_inputs after the workload: the preset, the platform picked
 * from the three sources, the workload resolved and the platform checked.
 * Returns 1 when a time unit was given. */
static int
ctx_platform(bb_ctx *ctx, const bb_common *opt)
{
    char err[BB_ERRLEN];
    int rc;
    const bb_qty *pfs, *bb, *tu;

    if (opt->system) {
        rc = bb_system_lookup(opt->system, &ctx->sys, err, sizeof err);
        if (rc == BB_EUNKNOWN)
            bb_usage_error("system", "%s", err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        ctx->has_system = 1;
    }
    /* Precedence (bbsize(1), PRECEDENCE): machine values (PFS and
     * burst-buffer bandwidth, resolution) come from the command line, then
     * --system, then the file's "#@" lines; the time unit belongs to the
     * workload (its p are per time unit): the command line, then the file,
     * then the preset, which is only a default for files that state none. */
    {
        char wl_src[3][600];
        const bb_qty *no = NULL;

        snprintf(wl_src[0], sizeof wl_src[0], "%s:%ld ('#@ pfs-bw')", ctx->wl.source, ctx->wl.pfs_bw_line);
        snprintf(wl_src[1], sizeof wl_src[1], "%s:%ld ('#@ bb-bw')", ctx->wl.source, ctx->wl.bb_bw_line);
        snprintf(wl_src[2], sizeof wl_src[2], "%s:%ld ('#@ time-unit')", ctx->wl.source, ctx->wl.time_unit_line);
        pfs = pick3("PFS bandwidth", (opt->walks & BB_PLAT_PFS_BW) != 0, &opt->pfs_bw, "--pfs-bw",
                    ctx->has_system ? &ctx->sys.pfs_bw : no, ctx->sys.path,
                    &ctx->wl.pfs_bw, wl_src[0], ctx->src_pfs);
        bb = pick3("burst-buffer bandwidth", (opt->walks & BB_PLAT_BB_BW) != 0, &opt->bb_bw, "--bb-bw",
                   ctx->has_system ? &ctx->sys.bb_bw : no, ctx->sys.path,
                   &ctx->wl.bb_bw, wl_src[1], ctx->src_bb);
        tu = pick3("time unit", 0, &opt->time_unit, "--time-unit",
                   &ctx->wl.time_unit, wl_src[2],
                   ctx->has_system ? &ctx->sys.time_unit : no, ctx->sys.path, ctx->src_tu);
    }
    if (!pfs->set)
        bb_usage_error(NULL, "%s: no PFS bandwidth: give --pfs-bw RATE or a line "
                       "'#@ pfs-bw = RATE' in the workload file", ctx->wl.source);
    ctx->pf.time_unit_s = tu->set ? tu->v : 1.0;
    ctx->pf.pfs_bw_Bps = bb_qty_rate_Bps(pfs, ctx->pf.time_unit_s);
    ctx->pf.bb_bw_Bps = bb->set ? bb_qty_rate_Bps(bb, ctx->pf.time_unit_s) : 0;
    {
        long r[3] = { opt->resolution, ctx->has_system ? ctx->sys.resolution : 0,
                      ctx->wl.resolution };
        const char *rs[3] = { "--resolution", ctx->sys.path, ctx->wl.source };
        int k = r[0] ? 0 : r[1] ? 1 : r[2] ? 2 : -1;

        /* 0: the front door settles it (answer.h) */
        ctx->pf.resolution = k >= 0 ? r[k] : 0;
        ctx->src_res = k >= 0 ? rs[k] : "automatic";
        for (int j = k + 1; k >= 0 && j < 3; j++)
            if (r[j] && r[j] != r[k])
                bb_warn("resolution %ld from %s overrides %ld from %s", r[k], rs[k], r[j], rs[j]);
    }
    bb_workload_resolve(&ctx->wl, ctx->pf.time_unit_s);
    ctx->plain = bb_workload_all_plain(&ctx->wl) && pfs->plain && (!bb->set || bb->plain);
    check_platform(ctx, opt);
    return tu->set;
}

#define VERIFY_MEMORY_BYTES 64e6
int
bb_workload_verify(const char *text, const char *name, char *err, size_t errlen)
{
    bb_common opt;
    bb_ctx ctx;
    char msg[BB_ERRLEN];
    int rc, tu;

    bb_common_init(&opt);
    opt.out.quiet = 1;
    memset(&ctx, 0, sizeof ctx);
    ctx.opt = &opt;
    if ((rc = bb_workload_parse(text, name, &ctx.wl, err, errlen)) != BB_OK)
        return rc;
    if (!ctx.wl.pfs_bw.set) {   /* the platform is the user's to give */
        bb_workload_free(&ctx.wl);
        return BB_OK;
    }
    tu = ctx_platform(&ctx, &opt);
    /* a model over the bound is refused for its cost, which the user can
     * raise, not for its data: a small bound keeps the check cheap */
    ctx_question(&ctx, tu, VERIFY_MEMORY_BYTES);
    ctx.qn.target = 0.001;   /* size's default target (bb_tgtopts_init) */
    ctx.qn.so.announce = NULL;
    rc = bba_front_new(&ctx.qn, &ctx.front, msg);
    if (rc != BB_OK && bb_exit_status(rc) == BB_EXIT_DATAERR)
        snprintf(err, errlen, "%s: %s", name, msg);
    else
        rc = BB_OK;
    bb_ctx_free(&ctx);
    return rc;
}

/* The first estimate of a solve or search that bb_meter_estimate prints
 * (over 10 s of CPU at BBA_COST_OPS_PER_S, or any with --progress) is the
 * one line of the run; the walks' threads may call it at once. */
static void
announce_cost(void *out, double ops)
{
    static atomic_int said;
    const bb_outopts *o = out;
    double s = ops / BBA_COST_OPS_PER_S;

    if (!o->quiet && (s > 10 || o->progress) && atomic_exchange(&said, 1) == 0)
        bb_meter_estimate(o, s, ops, "multiply-adds");
}

void
bb_solver_announce(bba_solver_opts *so, const bb_outopts *out)
{
    so->announce = announce_cost;
    so->announce_ctx = (void *)out;
}

/* An application whose bandwidth rounds to 0 quanta leaves the model:
 * say so, with the share of the expected load that vanished. */
static void
warn_vanished(const bb_ctx *ctx)
{
    double frac;
    size_t n = bba_front_vanished(ctx->front, &frac), napps = 0;
    char qb[64];

    if (n == 0)
        return;
    bb_ctx_fmt_size(ctx, qb, sizeof qb, ctx->q->quantum_bytes);
    for (size_t k = 0; k < n; k++) {
        size_t i = bba_front_vanished_app(ctx->front, k);
        char bw[64];

        napps += (size_t)ctx->wl.apps[i].count;
        bb_ctx_fmt_rate(ctx, bw, sizeof bw, ctx->wl.apps[i].bw_Bps);
        bb_warn("%s: application '%s' (%s) rounds to 0 quanta of %s per time unit at "
                "resolution %ld and leaves the model", ctx->wl.source, ctx->wl.apps[i].name,
                bw, qb, ctx->pf.resolution);
    }
    bb_warn("%s: %zu application%s vanished: %.3g%% of the expected load; raise "
            "--resolution to keep %s", ctx->wl.source, napps, napps > 1 ? "s" : "", 100.0 * frac,
            napps > 1 ? "them" : "it");
}

/* One command runs one search at a time: the meter of its solves, how
 * many the run has made, and the current search's slowest solve, which
 * bounds the time of each one left while no larger size is to come
 * (bba_progress sizes_seen). */
typedef struct {
    bb_meter m;
    size_t solves;
    double last, slowest;
} search_meter;
static search_meter search;

/* The front door's answerer for the inputs read: the command's own work
 * (the progress meter) first, then the question and the model, so that
 * src/ hands analytic/ the whole question at once. */
static void
ctx_build(bb_ctx *ctx, const bb_settle *st, int time_unit_given, double mem_limit_bytes)
{
    char err[BB_ERRLEN];
    int rc;

    /* the solves of a search: bounded, not known, in advance */
    bb_meter_start(&search.m, &ctx->opt->out, "search", "solves", 0);
    ctx_question(ctx, time_unit_given, mem_limit_bytes);
    if (st) {
        ctx->qn.target = st->target;
        ctx->qn.drain = st->drain;
        ctx->qn.settle_bytes = st->settle_bytes;
        ctx->qn.bbbw_unasked = st->bbbw_unasked;
    }
    ctx->qn.progress = bb_progress_cb;
    ctx->qn.progress_ctx = &search;
    rc = bba_front_new(&ctx->qn, &ctx->front, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    ctx->pf = *bba_front_platform(ctx->front);
    ctx->q = bba_front_quantized(ctx->front);
    ctx->model = bba_front_chain(ctx->front);
    if (ctx->q)
        warn_vanished(ctx);
}

/* The fluid model's spectral solve and boundary conditions lose double
 * precision when the workload's time scales (its bursts, and the time
 * unit memoryless applications enter with) span more than about 1e12
 * (measured: bursts of 3 and 1e13 time units leave a residual of 1e-6,
 * 1e17 a singular boundary block; 3 and 1e12 answer).  The span, when
 * the model is the fluid one and it is beyond that; else 0. */
#define FLUID_SPAN_MAX 1e12
static double
fluid_span(const bb_ctx *ctx, double *lo, double *hi)
{
    *lo = ctx->pf.time_unit_s;
    *hi = 0;
    if (ctx->qn.model == BBA_MODEL_BERNOULLI || ctx->qn.model == BBA_MODEL_CHAIN)
        return 0;
    for (size_t i = 0; i < ctx->wl.n; i++) {
        double b = ctx->wl.apps[i].burst_s;

        if (b > 0 && b < *lo)
            *lo = b;
        if (b > *hi)
            *hi = b;
    }
    return *lo > 0 && *hi / *lo > FLUID_SPAN_MAX ? *hi / *lo : 0;
}

const char *
bb_ctx_blame(const bb_ctx *ctx, int st, const char *err)
{
    if (bb_exit_status(st) != BB_EXIT_DATAERR)
        return NULL;
    if (strstr(err, "EPS") != NULL)   /* only the option sets it */
        return "empty-prob";
    if (strstr(err, "burst-buffer bandwidth") != NULL && strcmp(ctx->src_bb, "--bb-bw") == 0)
        return "bb-bw";
    if (strstr(err, "PFS bandwidth") != NULL && strcmp(ctx->src_pfs, "--pfs-bw") == 0)
        return "pfs-bw";
    return NULL;
}

void
bb_ctx_die_answer(const bb_ctx *ctx, int st, const char *err)
{
    const char *opt = bb_ctx_blame(ctx, st, err);

    if (opt != NULL) {   /* a value of the command line: a usage error */
        char opts[256];

        bb_status_options(err, opts, sizeof opts);
        bb_usage_error(opt, "%s%s", err, opts);
    }
    double lo, hi, span = fluid_span(ctx, &lo, &hi);

    if (span > 0 && (st == BB_ESINGULAR || st == BB_ENOCONV || st == BB_EDATA))
        /* not an internal failure: an input beyond the model's precision */
        bb_die(BB_EXIT_DATAERR, "%s: %s; the workload's time scales span %.3g (bursts of up "
               "to %g s against %g s), beyond the %.0e the fluid model resolves in double "
               "precision: shorten the longest bursts (a burst far longer than the buffer "
               "takes to fill acts as one that never ends) or give the shortest ones a "
               "longer time unit", ctx->wl.source, err, span, hi, lo, FLUID_SPAN_MAX);
    if (st == BB_EINVAL || st == BB_EDATA)
        bb_die(BB_EXIT_DATAERR, "%s: %s", ctx->wl.source, err);
    if (st == BB_ENOCONV && ctx->qn.model != BBA_MODEL_BERNOULLI &&
        ctx->qn.model != BBA_MODEL_CHAIN)
        /* the exact fluid solve could not resolve it: say what can */
        bb_die(bb_exit_status(st), "%s: %s; `bbsize simulate --mode fluid` estimates this "
               "workload with confidence intervals, and `--model chain` answers it on the "
               "ON/OFF chain", ctx->wl.source, err);
    bb_die_lib(st, err);
}

void
bb_ctx_model_desc(const bb_ctx *ctx, char *buf, size_t len)
{
    bba_front_describe(ctx->front, buf, len);
}

void
bb_ctx_answer_notes(const bb_ctx *ctx, const bba_answer *a, char *buf, size_t len)
{
    double frac;
    size_t n = bba_front_vanished(ctx->front, &frac), o = 0;

    buf[0] = '\0';
    if (!a->exact && a->model == BBA_MODEL_FLUID && !isnan(a->idle_low)) {
        o += (size_t)snprintf(buf + o, len - o, "; approximate: idle fraction in [%.3g, %.3g]",
                              a->idle_low, a->idle_high);
        if (o < len && !isnan(a->S_low_bytes)) {
            char lo[64], hi[64];

            bb_ctx_fmt_size(ctx, lo, sizeof lo, a->S_low_bytes);
            if (isfinite(a->S_high_bytes))
                bb_ctx_fmt_size(ctx, hi, sizeof hi, a->S_high_bytes);
            else
                snprintf(hi, sizeof hi, "unbounded");
            o += (size_t)snprintf(buf + o, len - o, ", size for the target in [%s, %s]", lo,
                                  hi);
        }
        if (o < len && !a->interval_trusted)
            o += (size_t)snprintf(buf + o, len - o, "; the interval is not trusted: the "
                                  "folded sources carry %.0f%% of the load", 100 * a->folded_load);
        if (o < len && a->safe_end) {
            char m[64];

            bb_ctx_fmt_size(ctx, m, sizeof m, a->S_model_bytes);
            o += (size_t)snprintf(buf + o, len - o, "; the size answered is the interval's "
                                  "safe end (the folded model alone: %s)", m);
        }
    }
    if (o < len && n > 0)
        o += (size_t)snprintf(buf + o, len - o, "; warning: %zu application%s rounded to "
                              "nothing (%.3g%% of the expected load)", n, n > 1 ? "s" : "",
                              100 * frac);
    if (o < len && a->S_bytes == 0 && a->idle == 0) {
        /* a real zero, not a rounding: say why, and the time unit then
         * changes nothing */
        snprintf(buf + o, len - o, "; no buffer is needed: the applications together never "
                 "write faster than the PFS takes");
        return;
    }
    if (o < len && !isnan(a->S_double_unit_bytes)) {
        char tu[64], s2[64];

        bb_fmt_duration(tu, sizeof tu, a->time_unit_s);
        bb_ctx_fmt_size(ctx, s2, sizeof s2, a->S_double_unit_bytes);
        snprintf(buf + o, len - o, "; warning: the time unit %s is the default, not a choice: "
                 "at twice it the size would be %s (give --time-unit or '#@ time-unit')",
                 tu, s2);
    }
}

void
bb_size_answer_line(const bb_ctx *ctx, const bba_answer *a, int rc, double target, char *buf,
                    size_t len)
{
    char sz[64], q[64], rb[64], pfs[64], md[256], notes[600];
    const char *pol = a->lazy ? "lazy" : "greedy";
    size_t o;

    bb_ctx_fmt_rate(ctx, pfs, sizeof pfs, ctx->pf.pfs_bw_Bps);
    if (rc == BB_EINFEASIBLE && a->bandwidth_bound) {
        char bbw[64], need[64];

        bb_ctx_fmt_rate(ctx, bbw, sizeof bbw, ctx->pf.bb_bw_Bps);
        bb_ctx_fmt_rate(ctx, need, sizeof need, a->bb_bw_min_Bps);
        snprintf(buf, len, "no burst-buffer capacity suffices: its bandwidth (%s) throttles the "
                 "applications %.4g of the time whatever its size, above the target %g; a "
                 "burst-buffer bandwidth of at least %s would allow it%s", bbw, a->idle_limit,
                 target, need,
                 a->exact ? "" : " (approximate: from the folded fluid model)");
        return;
    }
    if (rc == BB_EINFEASIBLE && a->lazy_bound) {
        snprintf(buf, len, "no burst-buffer size suffices: with the lazy threshold at the "
                 "whole buffer (--threshold 1) and EPS %g the buffer fills and stays full, so "
                 "the idle fraction stays at %.4g > %g whatever the size; lower --threshold or "
                 "raise --empty-prob", a->eps, a->idle_limit, target);
        return;
    }
    if (rc == BB_EINFEASIBLE) {
        char er[40], one[40], lim[40], tg[40];

        bb_fmt_apart(a->load_ratio, 1.0, er, one, sizeof er);
        bb_fmt_apart(a->idle_limit, target, lim, tg, sizeof lim);
        if (a->idle_limit < target)   /* E = B exactly: null-recurrent */
            snprintf(buf, len, "no burst-buffer size suffices: the expected load equals the "
                     "PFS bandwidth (%s; E/B = %s), so the buffer's content grows without "
                     "bound and no finite size keeps the idle fraction at %s; add PFS "
                     "bandwidth or reduce the load", pfs, er, tg);
        else
            snprintf(buf, len, "no burst-buffer size suffices: the expected load is %s times "
                     "the PFS bandwidth (%s), so as the buffer grows the idle fraction only "
                     "falls to %s%s, above the target %s%s; add PFS bandwidth or reduce the "
                     "load", er, pfs, a->model == BBA_MODEL_FLUID ? "" : "1 - B/E = ", lim, tg,
                     a->exact ? "" : " (approximate: from the folded fluid model)");
        return;
    }
    bb_ctx_fmt_size(ctx, sz, sizeof sz, a->S_bytes);
    bb_ctx_model_desc(ctx, md, sizeof md);
    bb_ctx_answer_notes(ctx, a, notes, sizeof notes);
    if (a->model == BBA_MODEL_FLUID) {
        /* no quanta, no time unit: the size to 4 digits (the search's
         * tolerance is 1e-4 of it) */
        snprintf(buf, len, "burst buffer %s: idle fraction %.3g <= %g with %s draining; "
                 "E/B = %.3g; %s%s", sz, a->idle, target, pol, a->load_ratio, md, notes);
        return;
    }
    bb_ctx_fmt_size(ctx, q, sizeof q, a->quantum_bytes);
    bb_ctx_fmt_size(ctx, rb, sizeof rb, a->max_round_bytes);
    o = (size_t)snprintf(buf, len, "burst buffer %s (%ld quanta): idle fraction %.3g <= %g "
                         "with %s draining; E/B = %.3g, resolution %ld (size exact to 1 "
                         "quantum = %s, bandwidths rounded by <= %s per time unit", sz,
                         a->S_quanta, a->idle, target, pol, a->load_ratio, a->resolution, q, rb);
    if (o < len && a->res_change >= 0)
        o += (size_t)snprintf(buf + o, len - o, "; doubling it moves the size by %.2g%%",
                              100.0 * a->res_change);
    if (o < len)
        snprintf(buf + o, len - o, "); %s%s", md, notes);
}

void
bb_ctx_free(bb_ctx *ctx)
{
    bba_front_free(ctx->front);
    ctx->front = NULL;
    bb_workload_free(&ctx->wl);
}

double
bb_ctx_quanta_to_bytes(const bb_ctx *ctx, long quanta)
{
    return (double)quanta * ctx->q->quantum_bytes;
}

void
bb_ctx_fmt_size(const bb_ctx *ctx, char *buf, size_t len, double bytes)
{
    bb_fmt_size(buf, len, bytes, ctx->plain);
}

void
bb_ctx_fmt_rate(const bb_ctx *ctx, char *buf, size_t len, double Bps)
{
    bb_fmt_rate(buf, len, Bps, ctx->pf.time_unit_s, ctx->plain);
}

long
bb_ctx_s_max(const bb_ctx *ctx)
{
    return bba_model_s_max(ctx->model, &ctx->so);
}

/* ---- progress and output ------------------------------------------------ */

int
bb_progress_enabled(const bb_outopts *o)
{
    return !o->quiet && (o->progress || isatty(STDERR_FILENO));
}

void
bb_progress_cb(void *ctx, const bba_progress *p)
{
    search_meter *sm = ctx;
    double t = bb_meter_elapsed(&sm->m);
    char what[96];

    if (p->solves == 0) {   /* a search starts */
        sm->last = t;
        sm->slowest = 0;
        return;
    }
    if (t - sm->last > sm->slowest)
        sm->slowest = t - sm->last;
    sm->last = t;
    sm->solves++;
    if (p->resolution > 0)
        snprintf(what, sizeof what, "search at resolution %ld (settling it, up to %ld)",
                 p->resolution, p->resolution_max);
    else if (p->stage == BBA_STAGE_DOUBLE_UNIT)
        snprintf(what, sizeof what, "search at twice the time unit");
    else if (p->stage == BBA_STAGE_INTERVAL)
        snprintf(what, sizeof what, "search for the size interval");
    bb_meter_bound(&sm->m, p->resolution > 0 || p->stage != BBA_STAGE_ANSWER ? what : NULL,
                   sm->solves, (size_t)p->solves,
                   (size_t)p->solves_max,
                   p->sizes_seen ? (p->solves_max - p->solves) * sm->slowest : -1);
}

void
bb_json_print(json_t *obj)
{
    if (obj == NULL)
        bb_die(BB_EXIT_SOFTWARE, "cannot build the JSON output (out of memory, or a "
               "number that is not finite: a bug)");
    if (json_dumpf(obj, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        bb_die(BB_EXIT_IOERR, "cannot write JSON to standard output");
    fputc('\n', stdout);
    json_decref(obj);
}

json_t *
bb_json_seed(uint64_t seed)
{
    char buf[32];

    if (seed <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)seed);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    return json_string(buf);
}

json_t *
bb_json_platform(const bb_ctx *ctx)
{
    const bba_quantized *q = ctx->q;
    json_t *o = json_pack("{s:f, s:o, s:f, s:b}",
                          "pfs_bw_bytes_per_s", ctx->pf.pfs_bw_Bps,
                          "bb_bw_bytes_per_s", ctx->pf.bb_bw_Bps > 0
                              ? json_real(ctx->pf.bb_bw_Bps) : json_null(),
                          "time_unit_s", ctx->pf.time_unit_s,
                          "data_units", ctx->plain);

    if (o == NULL)
        return NULL;
    /* the rows' counts summed: a row of count N is N applications */
    json_object_set_new(o, "applications", json_integer((json_int_t)ctx->wl.total));
    if (q != NULL) {
        json_object_set_new(o, "resolution", json_integer((json_int_t)ctx->pf.resolution));
        json_object_set_new(o, "quantum_bytes", json_real(q->quantum_bytes));
        json_object_set_new(o, "max_rounding_bytes", json_real(q->max_round_bytes));
    }
    json_object_set_new(o, "system", ctx->has_system ? json_string(ctx->sys.name) : json_null());
    return o;
}

void
bb_json_head(json_t *o, const bb_ctx *ctx)
{
    if (o == NULL)
        bb_die(BB_EXIT_SOFTWARE, "cannot build the JSON output (out of memory, or a "
               "number that is not finite: a bug)");
    json_object_set_new(o, "workload", json_string(ctx->wl.source));
    if (json_object_get(o, "model") == NULL)
        json_object_set_new(o, "model", ctx->front
                            ? json_string(bba_model_kind_name(bba_front_kind(ctx->front)))
                            : json_null());
    /* issue 35: every answer naming its model says that writers wait at a
     * full buffer (their I/O phases are volumes), so figures from before
     * (phases on the clock) are never confused with these */
    if (json_object_get(o, "stall_semantics") == NULL)
        json_object_set_new(o, "stall_semantics", json_string(BB_STALL_SEMANTICS));
    if (json_object_get(o, "platform") == NULL)
        json_object_set_new(o, "platform", bb_json_platform(ctx));
}

json_t *
bb_json_real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *
bb_json_quanta(long q)
{
    return q >= 0 ? json_integer((json_int_t)q) : json_null();
}

void
bb_csv_answer(const bba_answer *a, int rc, double target)
{
    int size_q = !isnan(target), ok = rc == BB_OK;
    double none = NAN;

    printf("%sbb_size_bytes,bb_size_quanta,idle_fraction,log10_idle_fraction,quiet_fraction,"
           "policy,threshold_bytes,empty_prob,mean_occupancy_bytes,load_ratio,target_idle,"
           "idle_fraction_limit,states,residual,model\n", size_q ? "feasible," : "");
    if (size_q)
        printf("%d,", ok);
    bb_csv_row(stdout, "nnnnnsnnnnnnnns", ok ? a->S_bytes : none,
               ok && a->S_quanta >= 0 ? (double)a->S_quanta : none, ok ? a->idle : none,
               ok && a->idle == 0 ? a->log10_idle : none, ok ? a->quiet : none,
               a->lazy ? "lazy" : "greedy", ok && a->lazy ? a->threshold_bytes : none,
               a->lazy ? a->eps : none, ok ? a->mean_occupancy_bytes : none, a->load_ratio,
               target, !ok ? a->idle_limit : none, ok ? (double)a->states : none,
               ok ? a->residual : none, bba_model_kind_name(a->model));
}

void
bb_json_answer(json_t *o, const bb_ctx *ctx, const bba_answer *a)
{
    double frac;
    size_t nv;

    if (o == NULL)
        bb_die(BB_EXIT_SOFTWARE, "cannot build the JSON output (out of memory, or a "
               "number that is not finite: a bug)");
    nv = bba_front_vanished(ctx->front, &frac);
    json_object_set_new(o, "model", json_string(bba_model_kind_name(a->model)));
    json_object_set_new(o, "stall_semantics", json_string(BB_STALL_SEMANTICS));
    json_object_set_new(o, "exact", json_boolean(a->exact));
    json_object_set_new(o, "idle_fraction_low", bb_json_real_or_null(a->idle_low));
    json_object_set_new(o, "idle_fraction_high", bb_json_real_or_null(a->idle_high));
    /* null where the model has none (docs/json.md) */
    json_object_set_new(o, "phases", a->model != BBA_MODEL_BERNOULLI ? json_real(a->phases)
                                                                     : json_null());
    json_object_set_new(o, "phases_solved", a->model != BBA_MODEL_BERNOULLI
                        ? json_integer((json_int_t)a->phases_solved) : json_null());
    json_object_set_new(o, "bb_write_bytes_per_s", bb_json_real_or_null(a->bb_write_Bps));
    json_object_set_new(o, "vanished_applications", json_integer((json_int_t)nv));
    json_object_set_new(o, "vanished_load_fraction", json_real(frac));
    /* endurance (endurance.h): bytes into the buffer a day, and drive
     * writes per day at this size (null with no buffer) */
    json_object_set_new(o, "bb_write_bytes_per_day", bb_json_real_or_null(a->bb_write_Bps * 86400.0));
    json_object_set_new(o, "drive_writes_per_day",
                        bb_json_real_or_null(bba_drive_writes_per_day(a->bb_write_Bps, a->S_bytes)));
}

void
bb_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        bb_die(BB_EXIT_IOERR, "write error on standard output: %s", strerror(errno));
}

/* The drive writes a day at the answer, for its line ("" when there is
 * no buffer, no volume, or no time: data units). */
void
bb_size_dwpd_note(const bb_ctx *ctx, const bba_answer *r, int rc, char *buf, size_t len)
{
    double w = rc == BB_OK && !ctx->plain ? bba_drive_writes_per_day(r->bb_write_Bps, r->S_bytes)
                                          : NAN;

    buf[0] = '\0';
    if (isfinite(w))
        snprintf(buf, len, "; %.3g drive writes a day", w);
}
