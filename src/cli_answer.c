/* cli_answer.c: an analytic answer in words (cli_answer.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "cli.h"

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
    const char *pol = bb_drain_kind_name(a->drain.kind);
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
                 "raise --empty-prob", a->drain.eps, a->idle_limit, target);
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
