/* simfluid.c: `bbsize simulate --mode fluid` and `validate`'s fluid
 * model, the command's side of the fluid simulation (sim/replicate.h,
 * bbs_fluidplat_*): the question from the options, its progress and the
 * memoryless warning on stderr, the results as text or JSON, the mixing
 * warning (simcli.h; docs/fluid-sim.md).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "simcli.h"

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

/* The start of the run (bbs_fluidplat_question.start): the memoryless
 * applications named when the time unit that gives them their ON period is
 * a default nobody chose, then the estimate and the progress meter. */
static void
fluid_start(void *rctx, double events, size_t units)
{
    bb_fluid_report *fr = rctx;
    const bb_ctx *ctx = fr->ctx;
    size_t m = fr->run ? fr->run->src.memoryless : 0;

    if (m > 0 && ctx && !ctx->qn.time_unit_given) {
        char tus[64];

        bb_fmt_duration(tus, sizeof tus, ctx->pf.time_unit_s);
        bb_warn("%s: %zu application%s without a burst enter%s as memoryless, with a mean ON "
                "period of time unit / (1 - p) at the default time unit of %s; state the "
                "workload's time unit ('#@ time-unit' or --time-unit), or give bursts",
                ctx->wl.source, m, m == 1 ? "" : "s", m == 1 ? "s" : "", tus);
    }
    bb_sim_announce(fr->rep.out, fr->rep.o, events, BB_FLUID_S_PER_EVENT, units);
    bb_meter_start(&fr->rep.meter, fr->rep.out, fr->rep.what, "replications", units);
    fr->rep.started = 1;
}

static void
fluid_progress(void *pctx, size_t done, size_t total)
{
    (void)total;
    bb_meter_update(pctx, done);   /* the meter is fr->rep's first member */
}

void
bb_fluid_question(bbs_fluidplat_question *qn, bb_fluid_report *fr, const bb_simopts *o,
                  const bb_outopts *out, const char *what)
{
    memset(qn, 0, sizeof *qn);
    memset(fr, 0, sizeof *fr);
    bb_policy_drain(&o->pol, &qn->drain);
    if (o->pol.kind == BB_DRAIN_LAZY && !(o->pol.eps > 0))
        bb_usage_error("empty-prob", "'%s' is not in (0, 1]: the fluid buffer drains at EPS "
                       "(B - r) below the threshold, so EPS = 0 would never drain it", "0");
    /* horizon and warm-up in seconds when given, else derived (fluidsim.h) */
    qn->horizon_given = o->run.horizon_arg != NULL;
    qn->horizon_s = o->run.horizon.v;
    qn->warmup_given = o->warmup_arg != NULL;
    if (o->warmup_arg)
        qn->warmup_s = seconds_opt("warmup", o->warmup_arg, 0);
    bb_sim_runs_spec(&qn->run, o);
    fr->rep.out = out;
    fr->rep.o = o;
    fr->rep.what = what;
    qn->run.start = fluid_start;
    qn->run.progress = fluid_progress;
    qn->run.rctx = fr;
}

void
bb_fluid_warn_mixing(const bb_ctx *ctx, const bbs_fluidplat_runs *r)
{
    char msg[BB_ERRLEN];

    for (size_t k = 0; k < r->nsizes; k++)
        if (bbs_fluid_mix_message(&r->mix[k], &r->cfg[k], &r->sum[k], msg, sizeof msg)) {
            char sz[64];

            bb_ctx_fmt_size(ctx, sz, sizeof sz, r->cfg[k].pf.size_bytes);
            bb_warn("%s%s%s", r->nsizes > 1 ? sz : "", r->nsizes > 1 ? ": " : "", msg);
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
    json_object_set_new(o, "policy", json_string(bb_drain_kind_name(c->pf.drain.kind)));
    json_object_set_new(o, "threshold_bytes", json_real(c->pf.drain.threshold));
    json_object_set_new(o, "empty_prob", json_real(bb_drain_share(&c->pf.drain)));
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
    bb_ctx_fmt_size(ctx, th, sizeof th, c->pf.drain.threshold);
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
    printf("  %s burst buffer, %s draining", sz, bb_drain_kind_name(c->pf.drain.kind));
    if (c->pf.drain.kind == BB_DRAIN_LAZY)
        printf(" (threshold %s, EPS %g)", th, c->pf.drain.eps);
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

void
bb_fluid_print(const bb_ctx *ctx, const bbs_fluidplat_runs *r, const bb_simargs *a)
{
    const bbs_fluid_config *c = &r->cfg[0];
    bbs_fluid_summary s = r->sum[0];

    if (s.replications < 2) {   /* one replication: no interval (bbsize-simulate(1)) */
        bbs_ci *ci[] = { &s.idle, &s.quiet, &s.p_empty, &s.p_full, &s.occupancy_bytes,
                         &s.bb_in_Bps };

        for (size_t k = 0; k < sizeof ci / sizeof ci[0]; k++)
            ci[k]->lo = ci[k]->hi = NAN;
    }
    if (a->common.out.json)
        print_json(ctx, c, &s, a, r->src.phased);
    else
        print_text(ctx, c, &s, a, r->src.phased);
    /* The wall time on stderr: stdout depends only on the inputs and --seed. */
    if (!a->common.out.quiet)
        fprintf(stderr, "bbsize: simulate: wall %.2f s, %llu events, %.3g events/s\n", r->wall_s,
                (unsigned long long)s.events, r->wall_s > 0 ? (double)s.events / r->wall_s : 0.0);
    bb_fluid_warn_mixing(ctx, r);
}
