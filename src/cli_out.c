/* cli_out.c: results on standard output as JSON and CSV (cli_out.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "csvout.h"

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
               bb_drain_kind_name(a->drain.kind),
               ok && a->drain.kind == BB_DRAIN_LAZY ? a->drain.threshold : none,
               a->drain.kind == BB_DRAIN_LAZY ? a->drain.eps : none,
               ok ? a->mean_occupancy_bytes : none, a->load_ratio,
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
