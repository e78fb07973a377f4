/* cli.c: shared options, workload loading, messages and output (cli.h).
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
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "engine.h"
#include "network/topo.h"
#include "workload/ops.h"

/* Bursts: the exact modulated chain up to this many phases (its solve
 * costs about the scalar chain's times the phase count per iteration);
 * beyond, the effective-bandwidth approximation on a reduced model of at
 * most BB_APPROX_PHASES phases (effbw.h). */
#define BB_EXACT_MAX_PHASES 64
#define BB_APPROX_PHASES 16

/* ---- messages ---------------------------------------------------------- */

void
bb_warn(const char *fmt, ...)
{
    va_list ap;

    fputs("bbsize: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void
bb_die(int status, const char *fmt, ...)
{
    va_list ap;

    fputs("bbsize: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

int
bb_exit_status(int st)
{
    switch (st) {
    case BB_OK: return BB_EXIT_OK;
    case BB_EINVAL:
    case BB_EDATA: return BB_EXIT_DATAERR;
    case BB_ETOOBIG: return BB_EXIT_TOOBIG;
    case BB_EINFEASIBLE: return BB_EXIT_NO;
    case BB_EIO: return BB_EXIT_IOERR;
    default: return BB_EXIT_SOFTWARE;
    }
}

void
bb_die_lib(int st, const char *err)
{
    bb_die(bb_exit_status(st), "%s", err);
}

/* ---- options ------------------------------------------------------------ */

enum {
    OPT_PFS_BW = 0x1000, OPT_BB_BW, OPT_TIME_UNIT, OPT_RESOLUTION, OPT_SOLVER,
    OPT_MAX_MEMORY, OPT_JSON, OPT_CSV, OPT_QUIET, OPT_PROGRESS, OPT_SYSTEM
};

static const struct argp_option common_options[] = {
    { NULL, 0, NULL, 0, "Platform (override the workload file's #@ lines):", 1 },
    { "pfs-bw", OPT_PFS_BW, "RATE", 0,
      "PFS bandwidth B, e.g. 1.45TB/s (plain number: data units per time unit)", 1 },
    { "bb-bw", OPT_BB_BW, "RATE", 0, "burst-buffer bandwidth B_BB (optional)", 1 },
    { "time-unit", OPT_TIME_UNIT, "DURATION", 0,
      "the model's time unit, e.g. 60s or 1min (default 1 s)", 1 },
    { "resolution", OPT_RESOLUTION, "R", 0,
      "quanta per PFS bandwidth and time unit (default 100, as in the paper)", 1 },
    { "system", OPT_SYSTEM, "NAME", 0, "platform preset of a real machine (see `bbsize systems`)", 1 },
    { NULL, 0, NULL, 0, "Solver and output:", 2 },
    { "solver", OPT_SOLVER, "NAME", 0,
      "stationary solver: fft (FFT Wiener-Hopf GMRES, default), banded (GTH "
      "elimination), umfpack (sparse LU) or gauss-seidel (iterative)", 2 },
    { "max-memory", OPT_MAX_MEMORY, "SIZE", 0,
      "refuse models and runs needing more memory than this (default 75% of RAM)", 2 },
    { "max-events", BB_OPT_MAX_EVENTS, "N", 0,
      "refuse simulations of more events than this (default 1e9, a few minutes)", 2 },
    { "json", OPT_JSON, NULL, 0, "print JSON instead of text", 2 },
    { "quiet", OPT_QUIET, NULL, 0, "no progress messages", 2 },
    { "progress", OPT_PROGRESS, NULL, 0, "progress on stderr even when it is not a terminal", 2 },
    { 0 }
};

static void
usage_die(struct argp_state *state, const char *opt, const char *msg)
{
    argp_failure(state, BB_EXIT_USAGE, 0, "option '--%s': %s", opt, msg);
    exit(BB_EXIT_USAGE); /* argp_failure exits; this keeps the compiler sure */
}

static error_t
common_parse(int key, char *arg, struct argp_state *state)
{
    bb_common *c = state->input;
    char msg[256];

    switch (key) {
    case OPT_PFS_BW:
        if (bb_parse_rate(arg, &c->pfs_bw, msg, sizeof msg) < 0)
            usage_die(state, "pfs-bw", msg);
        if (!(c->pfs_bw.v > 0))
            usage_die(state, "pfs-bw", "the PFS bandwidth must be positive");
        break;
    case OPT_BB_BW:
        if (bb_parse_rate(arg, &c->bb_bw, msg, sizeof msg) < 0)
            usage_die(state, "bb-bw", msg);
        if (!(c->bb_bw.v > 0))   /* 0 silently meant "no burst-buffer bandwidth" */
            usage_die(state, "bb-bw", "must be positive (leave --bb-bw out for no "
                      "burst-buffer bandwidth)");
        break;
    case OPT_TIME_UNIT:
        if (bb_parse_duration(arg, &c->time_unit, msg, sizeof msg) < 0)
            usage_die(state, "time-unit", msg);
        if (!(c->time_unit.v > 0))
            usage_die(state, "time-unit", "the time unit must be positive");
        break;
    case OPT_RESOLUTION:
        c->resolution = bb_opt_long("resolution", arg, 1, 100000000L);
        break;
    case OPT_SYSTEM:
        c->system = arg;
        break;
    case OPT_SOLVER:
        c->solver_set = 1;
        if (strcmp(arg, "fft") == 0)
            c->solver = BBA_SOLVER_FFT;
        else if (strcmp(arg, "banded") == 0)
            c->solver = BBA_SOLVER_BANDED;
        else if (strcmp(arg, "umfpack") == 0)
            c->solver = BBA_SOLVER_UMFPACK;
        else if (strcmp(arg, "gauss-seidel") == 0 || strcmp(arg, "gs") == 0)
            c->solver = BBA_SOLVER_GAUSS_SEIDEL;
        else
            usage_die(state, "solver", "expected fft, banded, umfpack or gauss-seidel");
        break;
    case OPT_MAX_MEMORY:
        bb_limits_set_memory(arg);
        c->max_memory_bytes = bb_run_limits.max_memory_bytes;
        break;
    case BB_OPT_MAX_EVENTS:
        bb_limits_set_events(arg);
        break;
    case OPT_JSON:
        c->json = 1;
        break;
    case OPT_QUIET:
        c->quiet = 1;
        break;
    case OPT_PROGRESS:
        c->progress = 1;
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_common_argp = { common_options, common_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_common_init(bb_common *c)
{
    memset(c, 0, sizeof *c);
    c->solver = BBA_SOLVER_FFT;
}

static void
opt_die(const char *opt, const char *fmt, const char *arg)
{
    fprintf(stderr, "bbsize: option '--%s': ", opt);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(BB_EXIT_USAGE);
}

double
bb_opt_fraction_open(const char *opt, const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0 || !isfinite(v))
        opt_die(opt, "%s", msg);
    if (!(v > 0 && v < 1))
        opt_die(opt, "%s is not in (0, 1)", arg);
    return v;
}

double
bb_opt_fraction_closed(const char *opt, const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0 || !isfinite(v))
        opt_die(opt, "%s", msg);
    if (!(v >= 0 && v <= 1))
        opt_die(opt, "%s is not in [0, 1]", arg);
    return v;
}

long
bb_opt_long(const char *opt, const char *arg, long lo, long hi)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0)
        opt_die(opt, "%s", msg);
    if (v != floor(v))
        opt_die(opt, "'%s' is not a whole number", arg);
    if (v < (double)lo || v > (double)hi) {
        fprintf(stderr, "bbsize: option '--%s': %s is not in [%ld, %ld]\n", opt, arg, lo, hi);
        exit(BB_EXIT_USAGE);
    }
    return (long)v;
}

void
bb_opt_size(const char *opt, const char *arg, bb_qty *q)
{
    char msg[256];

    if (bb_parse_size(arg, q, msg, sizeof msg) < 0) {
        fprintf(stderr, "bbsize: option '--%s': %s\n", opt, msg);
        exit(BB_EXIT_USAGE);
    }
}

/* ---- loading ------------------------------------------------------------ */

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
    double mem = bb_run_limits.max_memory_bytes > 0 ? bb_run_limits.max_memory_bytes
                                                    : default_memory_limit();
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

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0)
        opt_die("max-events", "%s", msg);
    if (!(v >= 1) || v > 1.8e19)
        opt_die("max-events", "'%s' is not a number of events in [1, 1.8e19]", arg);
    bb_run_limits.max_events = floor(v);
    limits_apply();
}

void
bb_limits_set_memory(const char *arg)
{
    bb_qty q;
    char msg[256];

    if (bb_parse_size(arg, &q, msg, sizeof msg) < 0)
        opt_die("max-memory", "%s", msg);
    if (!(q.v > 0))
        opt_die("max-memory", "'%s' is not positive", arg);
    bb_run_limits.max_memory_bytes = q.v;
    limits_apply();
}

static const struct argp_option limits_options[] = {
    { NULL, 0, NULL, 0, "Bounds:", 50 },
    BB_MAX_EVENTS_OPTION,
    { "max-memory", OPT_MAX_MEMORY, "SIZE", 0,
      "refuse runs needing more memory than this (default 75% of RAM)", 0 },
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
    case OPT_MAX_MEMORY:
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

void
bb_limits_check(const char *what, double events, double bytes, const char *detail,
                const char *shrink)
{
    double mem = bb_run_limits.max_memory_bytes > 0 ? bb_run_limits.max_memory_bytes
                                                    : default_memory_limit();
    char b1[64], b2[64];

    if (!(events <= bb_run_limits.max_events))
        bb_die(BB_EXIT_TOOBIG, "%s would execute about %.3g events (%s), more than the bound "
               "of %.6g: shorten it (%s), or raise --max-events to run it anyway", what,
               events, detail, bb_run_limits.max_events, shrink);
    if (!(bytes <= mem)) {
        bb_fmt_size(b1, sizeof b1, bytes, 0);
        bb_fmt_size(b2, sizeof b2, mem, 0);
        bb_die(BB_EXIT_TOOBIG, "%s would need about %s of memory (%s), more than the bound "
               "of %s: shrink it (%s), or raise --max-memory", what, b1, detail, b2, shrink);
    }
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
 * value, stderr says which value was used and where both came from. */
static const bb_qty *
pick3(const char *what, const bb_ctx *ctx, const bb_qty *a, const char *as,
      const bb_qty *b, const char *bs, const bb_qty *c, const char *cs, char src[640])
{
    const bb_qty *q[3] = { a, b, c };
    const char *s[3] = { as, bs, cs };
    int k = -1;

    (void)ctx;
    for (int i = 0; i < 3 && k < 0; i++)
        if (q[i] != NULL && q[i]->set)
            k = i;
    static const bb_qty unset;

    if (k < 0) {
        snprintf(src, 640, "the default");
        return &unset;   /* callers test ->set */
    }
    for (int j = k + 1; j < 3; j++)
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
    double qb = ctx->pf.pfs_bw_Bps * ctx->pf.time_unit_s / (double)ctx->pf.resolution;
    int st = opt->pfs_bw.set || opt->time_unit.set || opt->resolution ? BB_EXIT_USAGE
                                                                         : BB_EXIT_DATAERR;

    if (!isfinite(ctx->pf.pfs_bw_Bps) || !isfinite(qb) || qb < DBL_MIN)
        bb_die(st, "the quantum, PFS bandwidth (%g B/s, from %s) times the time unit (%g s, "
               "from %s) over the resolution (%ld, from %s), is %g bytes: %s; give a smaller "
               "--time-unit or --pfs-bw", ctx->pf.pfs_bw_Bps, ctx->src_pfs,
               ctx->pf.time_unit_s, ctx->src_tu, ctx->pf.resolution, ctx->src_res, qb,
               isfinite(qb) && isfinite(ctx->pf.pfs_bw_Bps) ? "too small to represent"
                                                             : "it overflows");
}

/* An application whose bandwidth rounds to 0 quanta leaves the model:
 * say so, with the share of the expected load that vanished. */
static void
warn_vanished(const bb_ctx *ctx)
{
    double total = 0, lost = 0;
    size_t nlost = 0;

    for (size_t i = 0; i < ctx->wl.n; i++)
        total += ctx->wl.apps[i].p * ctx->wl.apps[i].bw_Bps;
    for (size_t i = 0; i < ctx->q.n; i++)
        if (ctx->q.b[i] == 0 && ctx->wl.apps[i].bw_Bps > 0 && ctx->wl.apps[i].p > 0) {
            char bw[64], qb[64];

            lost += ctx->wl.apps[i].p * ctx->wl.apps[i].bw_Bps;
            nlost++;
            bb_ctx_fmt_rate(ctx, bw, sizeof bw, ctx->wl.apps[i].bw_Bps);
            bb_ctx_fmt_size(ctx, qb, sizeof qb, ctx->q.quantum_bytes);
            bb_warn("%s: application '%s' (%s) rounds to 0 quanta of %s per time unit at "
                    "resolution %ld and leaves the model", ctx->wl.source,
                    ctx->wl.apps[i].name, bw, qb, ctx->pf.resolution);
        }
    if (nlost > 0)
        bb_warn("%s: %zu application%s vanished: %.3g%% of the expected load; raise "
                "--resolution to keep %s", ctx->wl.source, nlost, nlost > 1 ? "s" : "",
                total > 0 ? 100.0 * lost / total : 0.0, nlost > 1 ? "them" : "it");
}

void
bb_ctx_load(bb_ctx *ctx, const bb_common *opt, const char *file)
{
    char err[BB_ERRLEN];
    int rc;
    const bb_qty *pfs, *bb, *tu;

    memset(ctx, 0, sizeof *ctx);
    ctx->opt = opt;
    rc = file ? bb_workload_read(file, &ctx->wl, err, sizeof err)
              : bb_workload_default(&ctx->wl, err, sizeof err);
    if (rc != 0)
        bb_die(rc, "%s", err);
    if (opt->system) {
        rc = bb_system_find(opt->system, &ctx->sys, err, sizeof err);
        if (rc != 0)
            bb_die(rc, "%s", err);
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
        pfs = pick3("PFS bandwidth", ctx, &opt->pfs_bw, "--pfs-bw",
                    ctx->has_system ? &ctx->sys.pfs_bw : no, ctx->sys.path,
                    &ctx->wl.pfs_bw, wl_src[0], ctx->src_pfs);
        bb = pick3("burst-buffer bandwidth", ctx, &opt->bb_bw, "--bb-bw",
                   ctx->has_system ? &ctx->sys.bb_bw : no, ctx->sys.path,
                   &ctx->wl.bb_bw, wl_src[1], ctx->src_bb);
        tu = pick3("time unit", ctx, &opt->time_unit, "--time-unit",
                   &ctx->wl.time_unit, wl_src[2],
                   ctx->has_system ? &ctx->sys.time_unit : no, ctx->sys.path, ctx->src_tu);
    }
    if (!pfs->set)
        bb_die(BB_EXIT_USAGE, "%s: no PFS bandwidth: give --pfs-bw RATE or a line "
               "'#@ pfs-bw = RATE' in the workload file", ctx->wl.source);
    ctx->pf.time_unit_s = tu->set ? tu->v : 1.0;
    ctx->pf.pfs_bw_Bps = bb_qty_rate_Bps(pfs, ctx->pf.time_unit_s);
    ctx->pf.bb_bw_Bps = bb->set ? bb_qty_rate_Bps(bb, ctx->pf.time_unit_s) : 0;
    {
        long r[3] = { opt->resolution, ctx->has_system ? ctx->sys.resolution : 0,
                      ctx->wl.resolution };
        const char *rs[3] = { "--resolution", ctx->sys.path, ctx->wl.source };
        int k = r[0] ? 0 : r[1] ? 1 : r[2] ? 2 : -1;

        ctx->pf.resolution = k >= 0 ? r[k] : 100;
        ctx->src_res = k >= 0 ? rs[k] : "the default";
        for (int j = k + 1; k >= 0 && j < 3; j++)
            if (r[j] && r[j] != r[k])
                bb_warn("resolution %ld from %s overrides %ld from %s", r[k], rs[k], r[j], rs[j]);
    }
    bb_workload_resolve(&ctx->wl, ctx->pf.time_unit_s);
    ctx->plain = bb_workload_all_plain(&ctx->wl) && pfs->plain && (!bb->set || bb->plain);
    check_platform(ctx, opt);

    rc = bba_quantize(ctx->wl.apps, ctx->wl.n, &ctx->pf, &ctx->q, err);
    if (rc != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s: %s", ctx->wl.source, err);
    warn_vanished(ctx);
    bba_solver_defaults(&ctx->so);
    ctx->so.kind = opt->solver;
    ctx->so.tol = 1e-12;
    ctx->so.mem_limit_bytes = opt->max_memory_bytes > 0 ? opt->max_memory_bytes
                                                        : default_memory_limit();
    rc = bba_model_init(&ctx->model, ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.B,
                        ctx->so.mem_limit_bytes, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    bb_ctx_attach_bursts(ctx);
}

void
bb_ctx_attach_bursts(bb_ctx *ctx)
{
    char err[BB_ERRLEN];
    int rc;

    bba_onoff full;
    double th_r, th_c;
    size_t k;

    memset(&ctx->onoff, 0, sizeof ctx->onoff);
    memset(&ctx->onoff_check, 0, sizeof ctx->onoff_check);
    ctx->has_check = 0;
    ctx->model_kind = BB_MODEL_BERNOULLI;
    ctx->model.onoff = NULL;
    ctx->model.idle_decay = 0;
    if (!ctx->q.has_burst)
        return;
    /* Bursts that last (issue 13): the modulated chain, exact when its
     * phases fit. */
    rc = bba_onoff_init(&full, ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu, ctx->q.B, 0,
                        -1, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    ctx->classes_total = full.n_classes;
    ctx->phases_total = 1;
    for (size_t c = 0; c < full.n_classes; c++)
        ctx->phases_total *= full.N[c] + 1;
    if (ctx->phases_total <= BB_EXACT_MAX_PHASES) {
        bba_onoff_free(&full);
        rc = bba_onoff_init(&ctx->onoff, ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu,
                            ctx->q.B, 0, 0, err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        ctx->model.onoff = &ctx->onoff;
        ctx->model_kind = BB_MODEL_BURSTS_EXACT;
        return;
    }
    /* Too many phases: keep the k burst classes of largest effect exact
     * (at most BB_APPROX_PHASES phases) and correct the decay for the
     * others (effbw.h); R with k - 1 classes measures the error. */
    rc = bba_effbw_decay(&full, &ctx->theta_full, err);
    bba_onoff_free(&full);
    if (rc != BB_OK)
        bb_die_lib(rc == BB_EINFEASIBLE ? BB_EINFEASIBLE : rc, err);
    for (k = 1;; k++) {
        bba_onoff r;

        rc = bba_effbw_reduce(ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu, ctx->q.B,
                              ctx->theta_full, k, &r, err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        if (r.n_phases > BB_APPROX_PHASES || k > ctx->classes_total) {
            bba_onoff_free(&r);
            break;
        }
        bba_onoff_free(&ctx->onoff_check);
        ctx->onoff_check = ctx->onoff;
        ctx->has_check = k > 1;
        ctx->onoff = r;
    }
    k--;
    if (k == 0) {
        rc = bba_effbw_reduce(ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu, ctx->q.B,
                              ctx->theta_full, 0, &ctx->onoff, err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
    } else if (k == 1) {
        /* The check model is the memoryless one. */
        rc = bba_effbw_reduce(ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu, ctx->q.B,
                              ctx->theta_full, 0, &ctx->onoff_check, err);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        ctx->has_check = 1;
    }
    if (bba_effbw_decay(&ctx->onoff, &th_r, err) != BB_OK)
        th_r = ctx->theta_full;
    ctx->model.onoff = &ctx->onoff;
    ctx->model.idle_decay = ctx->theta_full - th_r;
    if (ctx->has_check) {
        if (bba_effbw_decay(&ctx->onoff_check, &th_c, err) == BB_OK)
            ctx->decay_check = th_r - th_c;
        else
            ctx->has_check = 0;
    }
    /* The many-sources correction (effbw.h) replaces the decay rate's
     * where it applies: measured closer (README, bursts section). */
    if (bba_effbw_ms_attach(&ctx->onoff, ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.burst_tu,
                            err) == BB_OK) {
        ctx->model.idle_decay = 0;
        ctx->decay_check = 0;
        if (ctx->has_check && bba_effbw_ms_attach(&ctx->onoff_check, ctx->q.n, ctx->q.b,
                                                  ctx->q.p, ctx->q.burst_tu, err) != BB_OK)
            ctx->has_check = 0;
    }
    ctx->model_kind = BB_MODEL_BURSTS_APPROX;
}

void
bb_ctx_approx_note(const bb_ctx *ctx, long S, const bba_policy *pol, char *buf, size_t len)
{
    double e;

    buf[0] = '\0';
    if (ctx->model_kind != BB_MODEL_BURSTS_APPROX)
        return;
    e = bb_ctx_approx_error(ctx, S, pol);
    if (isnan(e))
        snprintf(buf, len, "; approximation error not measurable (no burst class fits the "
                 "exact budget)");
    else
        snprintf(buf, len, "; idle uncertain by about %+.0f%% (the same approximation from "
                 "one burst class fewer, against the exact solve, at this size)", 100 * e);
}

double
bb_ctx_approx_error(const bb_ctx *ctx, long S, const bba_policy *pol)
{
    bba_onoff_opts o;
    bba_eval_result r, c;
    char err[BB_ERRLEN];
    double approx;

    if (ctx->model_kind != BB_MODEL_BURSTS_APPROX || !ctx->has_check)
        return NAN;
    bba_onoff_defaults(&o);
    o.tol = ctx->so.tol;
    o.mem_limit_bytes = ctx->so.mem_limit_bytes;
    if (bba_onoff_eval(&ctx->onoff, S, pol, &o, &r, NULL, err) != BB_OK
        || bba_onoff_eval(&ctx->onoff_check, S, pol, &o, &c, NULL, err) != BB_OK
        || !(r.meas.idle > 0))
        return NAN;
    approx = c.meas.idle * exp(-ctx->decay_check * (double)S);
    return (approx - r.meas.idle) / r.meas.idle;
}

const char *
bb_ctx_model_name(const bb_ctx *ctx)
{
    return ctx->model_kind == BB_MODEL_BURSTS_EXACT    ? "bursts exact"
           : ctx->model_kind == BB_MODEL_BURSTS_APPROX ? "bursts approximate"
                                                       : "Bernoulli";
}

void
bb_ctx_model_desc(const bb_ctx *ctx, char *buf, size_t len)
{
    char tu[64];

    bb_fmt_duration(tu, sizeof tu, ctx->pf.time_unit_s);
    if (ctx->model_kind == BB_MODEL_BERNOULLI)
        snprintf(buf, len, "model Bernoulli, time unit %s", tu);
    else if (ctx->model_kind == BB_MODEL_BURSTS_APPROX)
        snprintf(buf, len, "model bursts approximate (%zu burst classes, %.3g phases: "
                 "%zu kept exact in %ld phases, %s for the rest), "
                 "time unit %s", ctx->classes_total, ctx->phases_total,
                 ctx->onoff.n_classes, ctx->onoff.n_phases,
                 ctx->onoff.ms ? "many-sources correction" : "effective-bandwidth decay", tu);
    else
        snprintf(buf, len, "model %s (%zu burst class%s, %ld phases), time unit %s",
                 bb_ctx_model_name(ctx), ctx->onoff.n_classes,
                 ctx->onoff.n_classes == 1 ? "" : "es", ctx->onoff.n_phases, tu);
}

int
bb_ctx_resolution_is_default(const bb_ctx *ctx)
{
    return !ctx->opt->resolution && !(ctx->has_system && ctx->sys.resolution)
           && !ctx->wl.resolution;
}

void
bb_ctx_requantize(bb_ctx *ctx, long R)
{
    char err[BB_ERRLEN];
    int rc;

    bba_onoff_free(&ctx->onoff);
    bba_onoff_free(&ctx->onoff_check);
    bba_model_free(&ctx->model);
    bba_quantized_free(&ctx->q);
    ctx->pf.resolution = R;
    rc = bba_quantize(ctx->wl.apps, ctx->wl.n, &ctx->pf, &ctx->q, err);
    if (rc != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s: %s", ctx->wl.source, err);
    rc = bba_model_init(&ctx->model, ctx->q.n, ctx->q.b, ctx->q.p, ctx->q.B,
                        ctx->so.mem_limit_bytes, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    bb_ctx_attach_bursts(ctx);
}

void
bb_ctx_free(bb_ctx *ctx)
{
    bba_onoff_free(&ctx->onoff);
    bba_onoff_free(&ctx->onoff_check);
    bba_model_free(&ctx->model);
    bba_quantized_free(&ctx->q);
    bb_workload_free(&ctx->wl);
}

double
bb_ctx_quanta_to_bytes(const bb_ctx *ctx, long quanta)
{
    return (double)quanta * ctx->q.quantum_bytes;
}

long
bb_ctx_size_to_quanta(const bb_ctx *ctx, const bb_qty *size)
{
    double x = size->v / ctx->q.quantum_bytes;

    /* A size within rounding of a whole number of quanta is that number. */
    if (fabs(x - nearbyint(x)) < 1e-9 * (x > 1 ? x : 1))
        x = nearbyint(x);
    if (x >= (double)LONG_MAX / 2)
        return LONG_MAX / 2;
    return (long)floor(x);
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
    /* The chain's bytes grow linearly with S (bba_chain_estimate);
     * UMFPACK's factors need about as much again: keep the chain under a
     * third of the budget. */
    double b0, b1, s;

    if (ctx->model.onoff) {
        /* The modulated solve's bytes, linear in S too. */
        bba_onoff_estimate(ctx->model.onoff, 0, NULL, &b0, NULL);
        bba_onoff_estimate(ctx->model.onoff, 1, NULL, &b1, NULL);
        s = (ctx->so.mem_limit_bytes / 2.0 - b0) / (b1 - b0);
        return s > 0 ? (long)fmin(s, (double)INT_MAX / 2) : 0;
    }
    if (ctx->so.kind == BBA_SOLVER_FFT) {
        /* no chain: the FFT solver's workspace, linear in S */
        b0 = bba_fftwh_bytes(ctx->model.M, ctx->model.B, 0, &ctx->so);
        b1 = bba_fftwh_bytes(ctx->model.M, ctx->model.B, 1, &ctx->so);
        s = (ctx->so.mem_limit_bytes - b0) / (b1 - b0);
        if (s > (double)INT_MAX / 4)
            s = (double)INT_MAX / 4;
        return s > 0 ? (long)s : 0;
    }
    bba_chain_estimate(0, ctx->model.B, ctx->model.M, NULL, NULL, &b0);
    bba_chain_estimate(1, ctx->model.B, ctx->model.M, NULL, NULL, &b1);
    s = (ctx->so.mem_limit_bytes / 3.0 - b0) / (b1 - b0);
    if (s > (double)INT_MAX / 2)
        s = (double)INT_MAX / 2;
    return s > 0 ? (long)s : 0;
}

/* ---- progress and output ------------------------------------------------ */

int
bb_progress_enabled(const bb_common *c)
{
    return !c->quiet && (c->progress || isatty(STDERR_FILENO));
}

void
bb_progress_cb(void *ctx, int evaluations, long S, double idle)
{
    (void)ctx;
    fprintf(stderr, "bbsize: solve %d: %ld quanta -> idle %.3g\n", evaluations, S, idle);
}

void
bb_json_print(json_t *obj)
{
    if (obj == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory building JSON");
    if (json_dumpf(obj, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        bb_die(BB_EXIT_IOERR, "cannot write JSON to standard output");
    fputc('\n', stdout);
    json_decref(obj);
}

json_t *
bb_json_platform(const bb_ctx *ctx)
{
    json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:I, s:f, s:I, s:f, s:b}",
                     "workload", ctx->wl.source,
                     "pfs_bw_bytes_per_s", ctx->pf.pfs_bw_Bps,
                     "bb_bw_bytes_per_s", ctx->pf.bb_bw_Bps,
                     "time_unit_s", ctx->pf.time_unit_s,
                     "resolution", (json_int_t)ctx->pf.resolution,
                     "quantum_bytes", ctx->q.quantum_bytes,
                     "applications", (json_int_t)ctx->q.n,
                     "max_rounding_bytes", ctx->q.max_round_bytes,
                     "data_units", ctx->plain);

    if (o != NULL && ctx->has_system)
        json_object_set_new(o, "system", json_string(ctx->sys.name));
    if (o != NULL) {
        json_object_set_new(o, "model", json_string(bb_ctx_model_name(ctx)));
        if (ctx->model_kind != BB_MODEL_BERNOULLI)
            json_object_set_new(o, "phases", json_real(ctx->phases_total));
        if (ctx->model_kind == BB_MODEL_BURSTS_APPROX)
            json_object_set_new(o, "phases_exact", json_integer((json_int_t)ctx->onoff.n_phases));
    }
    return o;
}

void
bb_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        bb_die(BB_EXIT_IOERR, "write error on standard output: %s", strerror(errno));
}

/* ---- output files ------------------------------------------------------ */

/* resolve_target: follow symbolic links from path (at most 40, as the
 * kernel does) to the name that is really written; a relative link is
 * taken relative to the directory of the link.  st gets the lstat of the
 * result, or st_mode 0 when it does not exist.  Returns a malloc'd path,
 * or NULL with errno set. */
static char *
resolve_target(const char *path, struct stat *st)
{
    char *cur = strdup(path);
    int hops;

    for (hops = 0; cur != NULL; hops++) {
        char buf[PATH_MAX];
        ssize_t n;
        char *next;

        if (lstat(cur, st) != 0) {
            if (errno != ENOENT) {
                free(cur);
                return NULL;
            }
            memset(st, 0, sizeof *st);
            return cur;
        }
        if (!S_ISLNK(st->st_mode))
            return cur;
        if (hops == 40) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        buf[n] = '\0';
        if (buf[0] == '/' || strchr(cur, '/') == NULL) {
            next = strdup(buf);
        } else {
            size_t dl = (size_t)(strrchr(cur, '/') - cur) + 1;

            next = malloc(dl + (size_t)n + 1);
            if (next != NULL) {
                memcpy(next, cur, dl);
                memcpy(next + dl, buf, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

void
bb_out_open(bb_out *o, const char *path)
{
    struct stat st;
    int fd;

    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        o->kind = BB_OUT_STDOUT;
        return;
    }
    o->path = resolve_target(path, &st);
    if (o->path == NULL)
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: is a directory", path);
    }
    if (S_ISBLK(st.st_mode)) {
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: refusing to write to a block device", path);
    }
    if (st.st_mode != 0 && !S_ISREG(st.st_mode)) {
        /* A character device, FIFO or socket: write to it in place; never
         * rename over it. */
        fd = open(o->path, O_WRONLY | O_NOCTTY);
        if (fd < 0 || (o->fp = fdopen(fd, "w")) == NULL) {
            int e = errno;

            if (fd >= 0)
                close(fd);
            free(o->path);
            bb_die(BB_EXIT_CANTCREAT, "%s: cannot open: %s", path, strerror(e));
        }
        o->kind = BB_OUT_DIRECT;
        return;
    }
    /* A regular file or a new one: a temporary beside the real name,
     * renamed over it on commit (a symbolic link stays a link). */
    o->tmp = malloc(strlen(o->path) + 32);
    if (o->tmp == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    sprintf(o->tmp, "%s.tmp.XXXXXX", o->path);
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;

        free(o->tmp);
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(e));
    }
    if (st.st_mode != 0) {
        /* Keep the mode of the file being replaced. */
        (void)fchmod(fd, st.st_mode & 07777);
    } else {
        /* mkstemp makes 0600; give the file the mode open(2) would. */
        mode_t um = umask(0);

        umask(um);
        (void)fchmod(fd, 0666 & ~um);
    }
    o->fp = fdopen(fd, "w");
    if (o->fp == NULL) {
        int e = errno;

        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(e));
    }
    o->kind = BB_OUT_RENAME;
}

void
bb_out_abort(bb_out *o)
{
    if (o->kind == BB_OUT_STDOUT) {
        memset(o, 0, sizeof *o);
        return;
    }
    if (o->fp)
        fclose(o->fp);
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

void
bb_out_commit(bb_out *o)
{
    const char *step = NULL;
    int e = 0;

    if (o->kind == BB_OUT_STDOUT) {
        memset(o, 0, sizeof *o);
        bb_finish_stdout();
        return;
    }
    if (fflush(o->fp) != 0 || ferror(o->fp)) {
        step = "write";
        e = errno;
    } else if (o->kind == BB_OUT_RENAME && fsync(fileno(o->fp)) != 0) {
        step = "fsync";
        e = errno;
    }
    if (fclose(o->fp) != 0 && step == NULL) {
        step = "close";
        e = errno;
    }
    o->fp = NULL;
    if (step == NULL && o->kind == BB_OUT_RENAME && rename(o->tmp, o->path) != 0) {
        step = "rename";
        e = errno;
    }
    if (step != NULL) {
        char *path = strdup(o->path);

        bb_out_abort(o);
        bb_die(BB_EXIT_IOERR, "%s: %s failed: %s", path ? path : "output", step, strerror(e));
    }
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

/* ---- draining policy ---------------------------------------------------- */

void
bb_policy_opts_init(bb_policy_opts *p)
{
    memset(p, 0, sizeof *p);
    p->eps = 0.01;
}

int
bb_policy_opt_parse(bb_policy_opts *p, const char *name, const char *arg)
{
    if (strcmp(name, "policy") == 0) {
        if (strcmp(arg, "greedy") == 0)
            p->lazy = 0;
        else if (strcmp(arg, "lazy") == 0)
            p->lazy = 1;
        else
            opt_die("policy", "'%s' is not greedy or lazy", arg);
        return 1;
    }
    if (strcmp(name, "threshold") == 0) {
        bb_qty q;
        char msg[256];

        if (bb_parse_size(arg, &q, msg, sizeof msg) < 0) {
            fprintf(stderr, "bbsize: option '--threshold': %s\n", msg);
            exit(BB_EXIT_USAGE);
        }
        if (q.plain) {
            p->threshold_frac = bb_opt_fraction_closed("threshold", arg);
            p->threshold_is_size = 0;
        } else {
            p->threshold_size = q;
            p->threshold_is_size = 1;
        }
        p->threshold_set = 1;
        return 1;
    }
    if (strcmp(name, "empty-prob") == 0) {
        p->eps = bb_opt_fraction_closed("empty-prob", arg);
        return 1;
    }
    return 0;
}

void
bb_policy_resolve(const bb_ctx *ctx, const bb_policy_opts *p, long S, bba_policy *out)
{
    out->lazy = p->lazy;
    out->eps = p->eps;
    out->threshold = 0;
    if (!p->lazy)
        return;
    if (p->threshold_is_size) {
        out->threshold = bb_ctx_size_to_quanta(ctx, &p->threshold_size);
        if (out->threshold > S) {
            char a[64], b[64];

            bb_ctx_fmt_size(ctx, a, sizeof a, p->threshold_size.v);
            bb_ctx_fmt_size(ctx, b, sizeof b, bb_ctx_quanta_to_bytes(ctx, S));
            bb_die(BB_EXIT_USAGE, "option '--threshold': %s is larger than the buffer (%s)", a, b);
        }
    } else {
        out->threshold = (long)floor(p->threshold_frac * (double)S);
    }
}

enum { OPT_POL_POLICY = 0x1100, OPT_POL_THRESHOLD, OPT_POL_EPS };

static const struct argp_option policy_options[] = {
    { NULL, 0, NULL, 0, "Draining policy:", 3 },
    { "policy", OPT_POL_POLICY, "greedy|lazy", 0, "draining policy (default greedy)", 3 },
    { "threshold", OPT_POL_THRESHOLD, "T", 0,
      "lazy threshold: a fraction of the buffer size in [0, 1], or a size with a "
      "unit (default 0; implies --policy lazy)", 3 },
    { "empty-prob", OPT_POL_EPS, "EPS", 0,
      "lazy: probability of draining below the threshold (default 0.01)", 3 },
    { 0 }
};

static error_t
policy_parse(int key, char *arg, struct argp_state *state)
{
    bb_policy_opts *p = state->input;

    switch (key) {
    case OPT_POL_POLICY:
        bb_policy_opt_parse(p, "policy", arg);
        break;
    case OPT_POL_THRESHOLD:
        bb_policy_opt_parse(p, "threshold", arg);
        break;
    case OPT_POL_EPS:
        bb_policy_opt_parse(p, "empty-prob", arg);
        break;
    case ARGP_KEY_END:
        if (p->threshold_set && !p->lazy)
            p->lazy = 1; /* a threshold implies lazy draining */
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_policy_argp = { policy_options, policy_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_argp_file(struct argp_state *state, char *arg, const char **file)
{
    if (*file)
        argp_error(state, "more than one workload file ('%s' and '%s')", *file, arg);
    *file = arg;
}

const char *
bb_policy_name(const bba_policy *p)
{
    return p->lazy ? "lazy" : "greedy";
}
