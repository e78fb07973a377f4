/* cmd_size.c: `bbsize size`, the smallest burst buffer whose idle fraction
 * is at most the target: the one-line answer.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdspec.h"
#include "commands.h"
#include "grid.h"
#include "simcli.h"

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h; --load-scale: a.loads) */
};

static const bb_cmd_spec spec = {
    .args_doc = "[FILE]",
    .doc = "The smallest burst-buffer size whose idle fraction is at most the target (and, "
    "with --dwpd, whose drives last).\v"
    "Exit status 1 when no size suffices: the expected load is at least the PFS bandwidth, "
    "or the burst buffer's bandwidth alone keeps the idle fraction above the target.",
    .out = BB_OUT_JSON | BB_OUT_CSV | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .targets = BB_TGT_IDLE,
    .groups = BB_CMD_POLICY | BB_CMD_ENDURANCE | BB_CMD_LOADS,
};

/* The policy of a search: a threshold is a fraction of the size. */
static void
drain_of(const bb_policy_opts *p, bb_drain *d)
{
    d->kind = p->kind;
    d->unit = BB_DRAIN_FRACTION;
    d->threshold = p->threshold_frac;
    d->eps = p->eps;
}

/* The answer as JSON (docs/json/size.schema.json): the same keys whether
 * a size was found or not, null where there is none. */
static void
size_json(const bb_ctx *ctx, const bba_answer *r, int feasible, const struct args *a,
          const bba_answer *stall, double need, int binds)
{
    json_t *o = json_object();
    json_t *(*num)(double) = bb_json_real_or_null;

    if (o == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory building JSON");
    json_object_set_new(o, "feasible", json_boolean(feasible));
    json_object_set_new(o, "bb_size_quanta", feasible ? bb_json_quanta(r->S_quanta) : json_null());
    json_object_set_new(o, "bb_size_bytes", feasible ? num(r->S_bytes) : json_null());
    json_object_set_new(o, "idle_fraction", feasible ? num(r->idle) : json_null());
    json_object_set_new(o, "target_idle", json_real(a->tgt.target_idle));
    json_object_set_new(o, "quiet_fraction", feasible ? num(r->quiet) : json_null());
    json_object_set_new(o, "policy", json_string(bb_drain_kind_name(a->pol.kind)));
    json_object_set_new(o, "load_ratio", num(r->load_ratio));
    json_object_set_new(o, "threshold_quanta", feasible && r->quantum_bytes > 0
                        ? bb_json_quanta((long)(r->drain.threshold / r->quantum_bytes + 0.5))
                        : json_null());
    json_object_set_new(o, "states", feasible ? json_integer((json_int_t)r->states) : json_null());
    json_object_set_new(o, "residual", feasible ? num(r->residual) : json_null());
    json_object_set_new(o, "evaluations", json_integer((json_int_t)r->evaluations));
    /* infeasible: the limit the idle fraction falls to, and whether the
     * buffer's bandwidth alone sets it */
    json_object_set_new(o, "idle_fraction_limit", feasible ? json_null() : num(r->idle_limit));
    json_object_set_new(o, "bandwidth_bound", json_boolean(!feasible && r->bandwidth_bound));
    json_object_set_new(o, "lazy_bound", json_boolean(!feasible && r->lazy_bound));
    /* the pair: the least B_BB any capacity needs (0: none needed), and
     * the idle fraction the buffer's bandwidth alone causes */
    json_object_set_new(o, "bb_bw_min_bytes_per_s", num(r->bb_bw_min_Bps));
    json_object_set_new(o, "bandwidth_idle_fraction", feasible || r->bandwidth_bound
                        ? num(r->idle_limit) : json_null());
    /* endurance (--dwpd): which of the two sizes binds; null without */
    json_object_set_new(o, "stall_size_bytes", stall ? num(stall->S_bytes) : json_null());
    json_object_set_new(o, "endurance_size_bytes", stall ? num(need) : json_null());
    json_object_set_new(o, "binding", stall ? json_string(binds ? "endurance" : "idle")
                                            : json_null());
    json_object_set_new(o, "endurance", stall
                        ? json_pack("{s:f, s:f, s:f, s:f}", "dwpd", a->end.dwpd,
                                    "rated_years", a->end.rated_years,
                                    "lifetime_years", a->end.lifetime_years, "waf", a->end.waf)
                        : json_null());
    bb_json_answer(o, ctx, r);
    if (!feasible) {
        json_object_set_new(o, "idle_fraction_low", json_null());
        json_object_set_new(o, "idle_fraction_high", json_null());
        json_object_set_new(o, "bb_write_bytes_per_s", json_null());
    }
    json_object_set_new(o, "resolution_doubling_change", r->res_change >= 0
                        ? json_real(r->res_change) : json_null());
    json_object_set_new(o, "bb_size_bytes_at_double_time_unit",
                        feasible ? num(r->S_double_unit_bytes) : json_null());
    /* the sizes at which the ends of the idle interval reach the target */
    json_object_set_new(o, "bb_size_bytes_low", feasible ? num(r->S_low_bytes) : json_null());
    json_object_set_new(o, "bb_size_bytes_high", feasible ? num(r->S_high_bytes) : json_null());
    /* beyond exact: whether the interval is trusted, whether the size is
     * its safe end, and the folded model's own size then */
    json_object_set_new(o, "interval_trusted", json_boolean(r->interval_trusted));
    json_object_set_new(o, "bb_size_bytes_model", feasible && r->safe_end
                        ? num(r->S_model_bytes) : json_null());
    bb_json_head(o, ctx);
    bb_json_print(o);
}

/* The second half of the pair: the bandwidth given, the least any
 * capacity needs, and what throttling costs at it. */
static void
print_bandwidth(const bb_ctx *ctx, const bba_answer *r)
{
    char bbw[64], need[64];

    bb_ctx_fmt_rate(ctx, bbw, sizeof bbw, ctx->pf.bb_bw_Bps);
    if (!(r->bb_bw_min_Bps > 0)) {
        printf("burst-buffer bandwidth %s: no load exceeds the PFS bandwidth, nothing is "
               "throttled\n", bbw);
        return;
    }
    bb_ctx_fmt_rate(ctx, need, sizeof need, r->bb_bw_min_Bps);
    printf("burst-buffer bandwidth %s: its throttling idles the applications %.3g of the "
           "time whatever the size; any capacity needs at least %s\n", bbw, r->idle_limit,
           need);
}

/* What the drives endure at the answer, and whether that set the size. */
static void
print_endurance(const bb_ctx *ctx, const bb_endopts *e, const bba_answer *stall,
                const bba_answer *r, double need, int binds)
{
    char day[64], st[64], nd[64];

    bb_ctx_fmt_size(ctx, day, sizeof day, r->bb_write_Bps * 86400.0);
    bb_ctx_fmt_size(ctx, st, sizeof st, stall->S_bytes);
    bb_ctx_fmt_size(ctx, nd, sizeof nd, need);
    printf("endurance: %s a day into the buffer, %.3g drive writes per day; drives rated "
           "%g a day for %g years, write amplification %g, last %g years from %s; ",
           day, bba_drive_writes_per_day(r->bb_write_Bps, r->S_bytes), e->dwpd, e->rated_years,
           e->waf, e->lifetime_years, nd);
    if (binds)
        printf("endurance sets the size (the idle target alone needs %s)\n", st);
    else
        printf("the idle target sets the size\n");
}

/* The text answer on one front (the workload, or a load scale of it):
 * the size, the bandwidth and endurance lines; the status. */
static int
answer_text(const bb_ctx *ctx, const bba_front *front, const struct args *a,
            const bb_drain *d, const char *prefix)
{
    bba_answer r, stall;
    char err[BB_ERRLEN], line[1400], dw[64];
    double need = NAN;
    int rc, binds = 0;

    rc = bba_front_size(front, a->tgt.target_idle, d, &r, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_ctx_die_answer(ctx, rc, err);
    if (rc == BB_OK && a->end.set) {
        bba_endurance e = { a->end.dwpd, a->end.rated_years, a->end.lifetime_years, a->end.waf };

        stall = r;
        rc = bba_front_endure(front, &stall, d, &e, &r, &binds, err);
        if (rc != BB_OK)
            bb_ctx_die_answer(ctx, rc, err);
        need = bba_endurance_bytes(&e, r.bb_write_Bps);
    }
    bb_size_answer_line(ctx, &r, rc, a->tgt.target_idle, line, sizeof line);
    bb_size_dwpd_note(ctx, &r, rc, dw, sizeof dw);
    printf("%s%s%s\n", prefix, line, dw);
    if (rc == BB_OK && ctx->pf.bb_bw_Bps > 0)
        print_bandwidth(ctx, &r);
    if (rc == BB_OK && a->end.set)
        print_endurance(ctx, &a->end, &stall, &r, need, binds);
    return rc;
}

/* --load-scale: one answer per load (cmdspec.h bb_cmd_each_load). */
static int
load_answer(const bb_ctx *ctx, const bba_front *front, const bba_question *q, double scale,
            const char *prefix, void *arg)
{
    const struct args *a = arg;

    (void)q;
    (void)scale;
    return answer_text(ctx, front, a, &ctx->qn.drain, prefix);
}

int
bb_cmd_size(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_settle st;
    bba_answer r, stall;
    char err[BB_ERRLEN];
    double need = NAN;
    int rc, binds = 0;

    memset(&a, 0, sizeof a);
    bb_cmd_parse(&spec, argc, argv, &a.c, NULL);
    if (a.pol.threshold_is_size)
        bb_usage_error("threshold", "give a fraction of the buffer size "
                       "(the size is what is searched)");
    memset(&st, 0, sizeof st);
    st.target = a.tgt.target_idle;
    drain_of(&a.pol, &st.drain);
    /* the text shows the least bandwidth only beside a given one */
    st.bbbw_unasked = !a.common.out.json && !a.common.out.csv;
    bb_ctx_load(&ctx, &a.common, a.file, &st);
    if (a.loads.n > 0) {
        rc = bb_cmd_each_load(&ctx, &a.c, load_answer, &a);
        bb_cmd_args_free(&a.c);
        bb_ctx_free(&ctx);
        return rc == BB_OK ? BB_EXIT_OK : BB_EXIT_NO;
    }
    rc = bba_front_size(ctx.front, a.tgt.target_idle, &st.drain, &r, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_ctx_die_answer(&ctx, rc, err);
    if (rc == BB_OK && a.end.set) {
        bba_endurance e = { a.end.dwpd, a.end.rated_years, a.end.lifetime_years, a.end.waf };

        stall = r;
        rc = bba_front_endure(ctx.front, &stall, &st.drain, &e, &r, &binds, err);
        if (rc != BB_OK)
            bb_ctx_die_answer(&ctx, rc, err);
        need = bba_endurance_bytes(&e, r.bb_write_Bps);
    }
    if (a.common.out.csv) {
        bb_csv_answer(&r, rc, a.tgt.target_idle);
    } else if (a.common.out.json) {
        size_json(&ctx, &r, rc == BB_OK, &a, rc == BB_OK && a.end.set ? &stall : NULL, need,
                  binds);
    } else {
        char line[1400], dw[64];

        bb_size_answer_line(&ctx, &r, rc, a.tgt.target_idle, line, sizeof line);
        bb_size_dwpd_note(&ctx, &r, rc, dw, sizeof dw);
        printf("%s%s\n", line, dw);
        if (rc == BB_OK && ctx.pf.bb_bw_Bps > 0)
            print_bandwidth(&ctx, &r);
        if (rc == BB_OK && a.end.set)
            print_endurance(&ctx, &a.end, &stall, &r, need, binds);
    }
    bb_ctx_free(&ctx);
    return rc == BB_OK ? BB_EXIT_OK : BB_EXIT_NO;
}
