/* simfluid.c: `bbsize simulate --mode fluid`: the workload's applications
 * as continuous-time ON/OFF sources into the fluid burst buffer
 * (sim/fluid.h), horizon and warm-up in seconds, text or JSON
 * (simcli.h, bb_simulate_fluid; docs/fluid-sim.md).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simcli.h"


/* The applications as sources: a burst is the mean ON period (resolved to
 * seconds with the time unit when plain); without one, the memoryless
 * application of the paper, L = time unit / (1 - p).  What the file's
 * checks cannot see (a period that overflows) is refused by file, line
 * and field. */
int
bb_fluid_sources_make(const bb_ctx *ctx, bb_fluid_sources *s, char *err)
{
    const bb_workload_file *w = &ctx->wl;
    double tu = ctx->pf.time_unit_s;
    size_t k = 0;

    /* a row of count N is N sources, as the row written out N times */
    s->n = w->total;
    s->rate = malloc(s->n * sizeof *s->rate);
    s->p = malloc(s->n * sizeof *s->p);
    s->on = malloc(s->n * sizeof *s->on);
    s->memoryless = 0;
    if (!s->rate || !s->p || !s->on)
        return bb_seterr(err, BB_ENOMEM, "out of memory for %zu applications", s->n);
    for (size_t i = 0; i < w->n; i++) {
        const bba_app *a = &w->apps[i];
        int phases = a->p > 0 && a->p < 1 && a->bw_Bps > 0;
        size_t k0 = k;

        for (; k < k0 + (size_t)bba_app_count(a); k++) {
            s->rate[k] = a->bw_Bps;
            s->p[k] = a->p;
            s->on[k] = bba_app_on_period(a, tu);
        }
        if (!isfinite(a->bw_Bps))
            return bb_seterr(err, BB_EDATA, "%s:%ld: field 'bw': %g data units per time unit "
                             "of %g s is not a finite rate", w->source, w->line[i], w->bw[i].v,
                             tu);
        if (!phases)
            continue;
        s->memoryless += !(a->burst_s > 0) ? (size_t)bba_app_count(a) : 0;
        if (!isfinite(s->on[k0]))
            return bb_seterr(err, BB_EDATA, "%s:%ld: field 'burst': %g time units of %g s is "
                             "not a finite duration", w->source, w->line[i], w->burst[i].v, tu);
        if (!isfinite(s->on[k0] * (1 - a->p) / a->p))
            return bb_seterr(err, BB_EDATA, "%s:%ld: field 'p': %g with a mean ON period of "
                             "%g s gives a mean OFF period L (1 - p)/p that is not finite",
                             w->source, w->line[i], a->p, s->on[k0]);
    }
    if (s->memoryless > 0 && !ctx->qn.time_unit_given) {
        char tus[64];

        bb_fmt_duration(tus, sizeof tus, ctx->pf.time_unit_s);
        bb_warn("%s: %zu application%s without a burst enter%s as memoryless, with a mean ON "
                "period of time unit / (1 - p) at the default time unit of %s; state the "
                "workload's time unit ('#@ time-unit' or --time-unit), or give bursts",
                ctx->wl.source, s->memoryless, s->memoryless == 1 ? "" : "s",
                s->memoryless == 1 ? "s" : "", tus);
    }
    return BB_OK;
}

void
bb_fluid_sources_free(bb_fluid_sources *s)
{
    free(s->rate);
    free(s->p);
    free(s->on);
}

/* A duration option in seconds (a plain number is seconds). */
static double
seconds_opt(const char *opt, const char *arg, int positive)
{
    bb_qty q;
    char msg[256];

    if (bb_parse_duration(arg, &q, msg, sizeof msg) != BB_OK)
        bb_usage_error(opt, "%s", msg);
    if (!isfinite(q.v) || (positive && !(q.v > 0)))
        bb_usage_value(opt, arg, "a positive duration");
    return q.v;
}

/* The policy in bytes for a buffer of S bytes (--threshold a fraction of
 * S, or a size with a unit); EPS must be positive: the fluid buffer drains
 * at EPS (B - r) below the threshold. */
static void
fluid_policy(const bb_ctx *ctx, const bb_policy_opts *o, double S, bbs_fluid_platform *f)
{
    f->lazy = o->lazy;
    f->eps = o->eps;
    f->threshold_bytes = 0;
    if (!o->lazy)
        return;
    if (!(o->eps > 0))
        bb_usage_error("empty-prob", "'%s' is not in (0, 1]: the fluid buffer drains at EPS "
                       "(B - r) below the threshold, so EPS = 0 would never drain it", "0");
    f->threshold_bytes = o->threshold_is_size ? o->threshold_size.v : o->threshold_frac * S;
    if (f->threshold_bytes > S) {
        char a[64], b[64];

        bb_ctx_fmt_size(ctx, a, sizeof a, f->threshold_bytes);
        bb_ctx_fmt_size(ctx, b, sizeof b, S);
        bb_usage_error("threshold", "%s is larger than the buffer (%s)", a, b);
    }
}

/* A long simulated time in the largest unit that keeps it above 2 (days,
 * hours, minutes, seconds), to four digits. */
static void
fmt_time(char *buf, size_t len, double s)
{
    static const struct { const char *name; double s; } u[] = {
        { "d", 86400 }, { "h", 3600 }, { "min", 60 }, { "s", 1 }
    };
    size_t k = 0;

    while (k + 1 < sizeof u / sizeof u[0] && s < 2 * u[k].s)
        k++;
    snprintf(buf, len, "%.4g %s", s / u[k].s, u[k].name);
}

/* A bandwidth: "12.3 GB/s", or "unlimited" for INFINITY. */
static void
fmt_rate(const bb_ctx *ctx, char *buf, size_t len, double Bps)
{
    if (isinf(Bps))
        snprintf(buf, len, "unlimited");
    else
        bb_ctx_fmt_rate(ctx, buf, len, Bps);
}

static json_t *
ci_pack(json_t *o, const char *key, const bbs_ci *ci)
{
    char k[96];

    json_object_set_new(o, key, json_real(ci->mean));
    snprintf(k, sizeof k, "%s_low", key);
    json_object_set_new(o, k, bb_json_real_or_null(ci->lo));
    snprintf(k, sizeof k, "%s_high", key);
    json_object_set_new(o, k, bb_json_real_or_null(ci->hi));
    return o;
}

static void
print_json(const bb_ctx *ctx, const bbs_fluid_config *c, const bbs_fluid_summary *s,
           const bb_simargs *a, size_t nv)
{
    json_t *o = json_object(), *v, *pf;

    if (o == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory building JSON");
    ci_pack(o, "idle_fraction", &s->idle);
    ci_pack(o, "quiet_fraction", &s->quiet);
    ci_pack(o, "p_full", &s->p_full);
    ci_pack(o, "p_empty", &s->p_empty);
    ci_pack(o, "mean_occupancy_bytes", &s->occupancy_bytes);
    ci_pack(o, "bb_write_bytes_per_s", &s->bb_in_Bps);
    json_object_set_new(o, "bb_drain_bytes_per_s", json_real(s->bb_out_Bps));
    ci_pack(o, "written_bytes_per_s", &s->throughput_Bps);
    json_object_set_new(o, "stalled_fraction", json_real(s->idle.mean));
    json_object_set_new(o, "stall_semantics", json_string(BBS_STALL_SEMANTICS));
    json_object_set_new(o, "replications", json_integer((json_int_t)s->replications));
    json_object_set_new(o, "seed", bb_json_seed(a->sim.seed));
    json_object_set_new(o, "confidence", json_real(s->level));
    json_object_set_new(o, "horizon_s", json_real(c->horizon_s));
    json_object_set_new(o, "warmup_s", json_real(c->warmup_s));
    json_object_set_new(o, "events", json_integer((json_int_t)s->events));
    json_object_set_new(o, "mode", json_string("fluid"));
    json_object_set_new(o, "model", json_string("fluid"));
    json_object_set_new(o, "bb_size_bytes", json_real(c->pf.size_bytes));
    json_object_set_new(o, "policy", json_string(c->pf.lazy ? "lazy" : "greedy"));
    json_object_set_new(o, "threshold_bytes", json_real(c->pf.threshold_bytes));
    json_object_set_new(o, "empty_prob", json_real(c->pf.lazy ? c->pf.eps : 1));
    v = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                  "offered_bytes", s->offered, "held_bytes", s->held,
                  "written_bytes", s->written, "to_pfs_bytes", s->to_pfs,
                  "into_bb_bytes", s->into_bb, "drained_bytes", s->drained,
                  "left_in_bb_bytes", s->left,
                  "max_conservation_error_bytes", s->max_conservation_error);
    pf = bb_json_platform(ctx);
    if (v == NULL || pf == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory building JSON");
    /* the simulated platform: the buffer bandwidth the run used */
    json_object_set_new(pf, "bb_bw_bytes_per_s", bb_json_real_or_null(c->pf.bb_bw_Bps));
    json_object_set_new(pf, "onoff_sources", json_integer((json_int_t)nv));
    json_object_set_new(o, "volumes", v);
    json_object_set_new(o, "platform", pf);
    bb_json_head(o, ctx);
    bb_json_print(o);
}

static void
print_text(const bb_ctx *ctx, const bbs_fluid_config *c, const bbs_fluid_summary *s,
           const bb_simargs *a, size_t nv)
{
    char sz[64], occ[3][64], w[64], pfs[64], left[64], th[64], in[3][64], out[64];
    char B[64], bb[64], H[64], W[64], err[64], ask[64], held[64];

    for (int k = 0; k < 3; k++) {
        double v[3] = { s->occupancy_bytes.mean, s->occupancy_bytes.lo, s->occupancy_bytes.hi };
        double r[3] = { s->bb_in_Bps.mean, s->bb_in_Bps.lo, s->bb_in_Bps.hi };

        bb_ctx_fmt_size(ctx, occ[k], sizeof occ[k], v[k]);
        bb_ctx_fmt_rate(ctx, in[k], sizeof in[k], r[k]);
    }
    bb_ctx_fmt_size(ctx, sz, sizeof sz, c->pf.size_bytes);
    bb_ctx_fmt_size(ctx, th, sizeof th, c->pf.threshold_bytes);
    bb_ctx_fmt_size(ctx, w, sizeof w, s->written);
    bb_ctx_fmt_size(ctx, pfs, sizeof pfs, s->to_pfs);
    bb_ctx_fmt_size(ctx, left, sizeof left, s->left);
    fmt_rate(ctx, out, sizeof out, s->bb_out_Bps);
    fmt_rate(ctx, B, sizeof B, c->pf.pfs_bw_Bps);
    fmt_rate(ctx, bb, sizeof bb, c->pf.bb_bw_Bps);
    fmt_time(H, sizeof H, c->horizon_s);
    fmt_time(W, sizeof W, c->warmup_s);
    bb_ctx_fmt_size(ctx, err, sizeof err, s->max_conservation_error);
    bb_ctx_fmt_size(ctx, ask, sizeof ask, s->offered);
    bb_ctx_fmt_size(ctx, held, sizeof held, s->held);
    if (s->replications < 2) {
        printf("simulated idle %.4g, quiet %.4g, mean occupancy %s (%s)\n", s->idle.mean,
               s->quiet.mean, occ[0], BB_SIM_ONE_REPLICATION);
        printf("  full %.4g, empty %.4g; into the buffer %s, drained %s\n", s->p_full.mean,
               s->p_empty.mean, in[0], out);
    } else {
        printf("simulated idle %.4g (%g%% CI [%.4g, %.4g]), quiet %.4g [%.4g, %.4g], "
               "mean occupancy %s [%s, %s]\n",
               s->idle.mean, 100.0 * s->level, s->idle.lo, s->idle.hi,
               s->quiet.mean, s->quiet.lo, s->quiet.hi, occ[0], occ[1], occ[2]);
        printf("  full %.4g [%.4g, %.4g], empty %.4g [%.4g, %.4g]; into the buffer %s [%s, %s], "
               "drained %s\n", s->p_full.mean, s->p_full.lo, s->p_full.hi, s->p_empty.mean,
               s->p_empty.lo, s->p_empty.hi, in[0], in[1], in[2], out);
    }
    printf("  %s burst buffer, %s draining", sz, c->pf.lazy ? "lazy" : "greedy");
    if (c->pf.lazy)
        printf(" (threshold %s, EPS %g)", th, c->pf.eps);
    printf(", PFS %s, buffer bandwidth %s; fluid model, %zu ON/OFF source%s of %zu "
           "applications\n", B, bb, nv, nv == 1 ? "" : "s", c->n);
    printf("  %zu replication%s x %s after a warm-up of %s, seed %llu, %llu events\n",
           s->replications, s->replications == 1 ? "" : "s", H, W, (unsigned long long)a->sim.seed,
           (unsigned long long)s->events);
    printf("  written %s = to PFS %s + left in buffer %s (conservation error %s, %.2g of "
           "it)\n", w, pfs, left, err, s->written > 0 ? s->max_conservation_error / s->written : 0);
    printf("  the writers wait: asked for %s = written + held by the writers %s\n", ask,
           held);
}

size_t
bb_fluid_phased(const bbs_fluid_config *c)
{
    size_t nv = 0;

    for (size_t i = 0; i < c->n; i++)
        nv += c->p[i] > 0 && c->p[i] < 1 && c->rate_Bps[i] > 0;
    return nv;
}

void
bb_fluid_config_make(const bb_ctx *ctx, const bb_simopts *o, const bb_fluid_sources *src,
                     double S, bbs_fluid_config *c, double *horizon_s, double *warmup_s)
{
    char err[BB_ERRLEN];
    double H = 0, W = 0;

    memset(c, 0, sizeof *c);
    c->n = src->n;
    c->rate_Bps = src->rate;
    c->p = src->p;
    c->on_s = src->on;
    c->seed = o->seed;
    c->pf.pfs_bw_Bps = ctx->pf.pfs_bw_Bps;
    c->pf.bb_bw_Bps = ctx->pf.bb_bw_Bps > 0 ? ctx->pf.bb_bw_Bps : INFINITY;
    c->pf.size_bytes = S;
    fluid_policy(ctx, &o->pol, c->pf.size_bytes, &c->pf);
    /* Horizon and warm-up: given (seconds), else derived (fluid.h). */
    bbs_fluid_default_times(c, &H, &W);
    if (o->run.horizon_arg) {
        H = o->run.horizon.v;
        c->horizon_s = H;
        W = bbs_fluid_default_warmup(c, H);
    }
    if (o->warmup_arg)
        W = seconds_opt("warmup", o->warmup_arg, 0);
    c->horizon_s = H;
    c->warmup_s = W;
    if (bbs_fluid_check(c, err) != BB_OK)
        bb_usage_error(NULL, "%s", err);
    *horizon_s = H;
    *warmup_s = W;
}

int
bb_simulate_fluid(const bb_simargs *a, const bb_qty *bb_size)
{
    const bb_simopts *o = &a->sim;
    const char *f = bb_simargs_fluid_foreign(a);
    bb_ctx ctx;
    bb_fluid_sources src;
    bbs_fluid_config c;
    bbs_fluid_result *res;
    bbs_fluid_summary s;
    char err[BB_ERRLEN], detail[256];
    double ev, by, H = 0, W = 0, wall;
    size_t nv = 0, R = (size_t)o->replications;
    int rc;

    if (f)
        bb_usage_inapplicable(f, "to --mode fluid (no time unit, no quanta; see "
                              "bbsize-simulate(1))");
    bb_ctx_read(&ctx, &a->common, a->file);
    if ((rc = bb_fluid_sources_make(&ctx, &src, err)) != BB_OK)
        bb_die_lib(rc, err);
    bb_fluid_config_make(&ctx, o, &src, bb_size->v, &c, &H, &W);
    nv = bb_fluid_phased(&c);
    /* Bounded before it starts (bbsize(1), BOUNDS). */
    bbs_fluid_estimate(&c, &ev, &by);
    snprintf(detail, sizeof detail, "%zu replications of %.3g s with %zu ON/OFF sources, "
             "%.3g phase changes per second", R, H + W, nv, bbs_fluid_event_rate(&c));
    bb_limits_check("the simulation", ev * (double)R,
                    by * (o->threads > 0 ? o->threads : 64), detail,
                    "--horizon, --warmup or --replications");
    bb_sim_announce(&a->common.out, o, ev * (double)R, BB_FLUID_S_PER_EVENT, R);
    res = calloc(R, sizeof *res);
    if (res == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory for %zu replications", R);
    rc = bb_sim_run_units(R, sizeof *res, res, bbs_fluid_run_unit, &c, o, &a->common.out,
                          "simulate", &wall, err);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    if (bbs_fluid_summarize(res, R, o->confidence, &s, err) != BB_OK)
        bb_die_lib(BB_EINVAL, err);
    if (s.replications < 2) {   /* one replication: no interval (bbsize-simulate(1)) */
        bbs_ci *ci[] = { &s.idle, &s.quiet, &s.p_empty, &s.p_full, &s.occupancy_bytes,
                         &s.bb_in_Bps };

        for (size_t k = 0; k < sizeof ci / sizeof ci[0]; k++)
            ci[k]->lo = ci[k]->hi = NAN;
    }
    if (a->common.out.json)
        print_json(&ctx, &c, &s, a, nv);
    else
        print_text(&ctx, &c, &s, a, nv);
    /* The wall time on stderr: stdout depends only on the inputs and --seed. */
    if (!a->common.out.quiet)
        fprintf(stderr, "bbsize: simulate: wall %.2f s, %llu events, %.3g events/s\n", wall,
                (unsigned long long)s.events, wall > 0 ? (double)s.events / wall : 0.0);
    free(res);
    bb_fluid_sources_free(&src);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
