/* cli.c: the one context from workload to model (cli.h): the workload
 * read once, the platform from the options, a preset and the file's
 * "#@" lines, the question and the front door's answerer, the check of a
 * workload bbsize writes, and the context's refusals in words.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "datadir.h"

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

/* The question (analytic/front/answer.h) made from the inputs read: the first
 * call into the library; nothing of src/ runs after it (so that
 * bb_ctx_load goes down into analytic/ once). */
static void
ctx_question(bb_ctx *ctx, int time_unit_given, double mem_limit_bytes)
{
    bba_solver_opts heard;   /* the cost announcement, set up before the library's first call */

    bb_solver_announce(&heard, &ctx->opt->out);
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
    ctx->qn.so.announce = heard.announce;
    ctx->qn.so.announce_ctx = heard.announce_ctx;
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
    if (st->check_size && st->drain.kind == BB_DRAIN_LAZY && st->drain.unit == BB_DRAIN_BYTES
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
    double mem = opt->max_memory_bytes > 0 ? opt->max_memory_bytes : bb_limits_memory_default();

    if (st)
        check_threshold(ctx, st);
    ctx_build(ctx, st, tu_given, mem);
}

void
bb_ctx_read(bb_ctx *ctx, const bb_common *opt, const char *file)
{
    int tu_given = ctx_read_inputs(ctx, opt, file);

    ctx_question(ctx, tu_given, opt->max_memory_bytes > 0 ? opt->max_memory_bytes
                                                          : bb_limits_memory_default());
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

/* The front door's answerer for the inputs read: the command's own work
 * (the progress meter) first, then the question and the model, so that
 * src/ hands analytic/ the whole question at once. */
static void
ctx_build(bb_ctx *ctx, const bb_settle *st, int time_unit_given, double mem_limit_bytes)
{
    char err[BB_ERRLEN];
    int rc;

    void *meter = bb_progress_search_start(&ctx->opt->out);

    ctx_question(ctx, time_unit_given, mem_limit_bytes);
    if (st) {
        ctx->qn.target = st->target;
        ctx->qn.drain = st->drain;
        ctx->qn.settle_bytes = st->settle_bytes;
        ctx->qn.bbbw_unasked = st->bbbw_unasked;
    }
    ctx->qn.progress = bb_progress_cb;
    ctx->qn.progress_ctx = meter;
    rc = bba_front_new(&ctx->qn, &ctx->front, err);
    if (rc != BB_OK)
        bb_ctx_die_answer(ctx, rc, err);
    ctx->pf = *bba_front_platform(ctx->front);
    ctx->q = bba_front_quantized(ctx->front);
    ctx->model = bba_front_chain(ctx->front);
    if (ctx->q)
        warn_vanished(ctx);
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
    /* a fluid solve that failed beyond the model's precision: the input's
     * fault (fluid_span.h) */
    char msg[2 * BB_ERRLEN];

    snprintf(msg, sizeof msg, "%s", err);
    if (ctx->qn.model != BBA_MODEL_BERNOULLI && ctx->qn.model != BBA_MODEL_CHAIN) {
        st = bba_fluid_precision(ctx->wl.apps, ctx->wl.n, ctx->pf.time_unit_s, st, msg,
                                 sizeof msg);
        err = msg;
    }
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
