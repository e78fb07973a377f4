/* cli_out.h: results on standard output as JSON and CSV: the keys every
 * command's JSON carries, an answer's JSON and CSV (cli_out.c; the output
 * files are outfile.h's).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_OUT_H
#define BBSIZE_SRC_CLI_OUT_H

#include <stdint.h>

#include <jansson.h>

#include "bbanalytic.h"

/* the context of an analytic command (cli.h) */
typedef struct bb_ctx bb_ctx;

/* JSON: print obj to stdout (indented, one trailing newline) and release it. */
void bb_json_print(json_t *obj);
/* bb_json_seed: a seed as a JSON integer, or as a decimal string above
 * 2^63-1 (JSON integers here are signed 64-bit). */
json_t *bb_json_seed(uint64_t seed);
/* bb_json_platform: an object with the platform, resolution and rounding
 * (system: the preset's name, or null). */
json_t *bb_json_platform(const bb_ctx *ctx);
/* bb_json_head: add to o what every command's JSON object carries (docs/
 * json.md): "workload" (the file, or the built-in workload's label),
 * "model" (the analytic model that answers, null where none does) and
 * "platform", each unless o has it already, and "stall_semantics"
 * (BB_STALL_SEMANTICS).  o NULL: exits 70. */
void bb_json_head(json_t *o, const bb_ctx *ctx);
/* the stall semantics every answer naming its model carries (issue 35) */
#define BB_STALL_SEMANTICS "writers-wait"

/* bb_json_real_or_null: a JSON real, or null for a non-finite value. */
json_t *bb_json_real_or_null(double v);

/* bb_json_quanta: a count of quanta, or null when negative (the fluid
 * model has none). */
json_t *bb_json_quanta(long q);

/* bb_csv_answer: print answer a of size (rc BB_OK or BB_EINFEASIBLE,
 * target its target idle fraction) or idle (target NAN) as CSV, a header
 * line and one row: feasible (size only), bb_size_bytes, bb_size_quanta,
 * idle_fraction, log10_idle_fraction, quiet_fraction, policy,
 * threshold_bytes, empty_prob, mean_occupancy_bytes, load_ratio,
 * target_idle, idle_fraction_limit, states, residual, model; numbers as csvout.h
 * writes them, empty where none (no size when none suffices, no quanta for
 * the fluid model, no log10 unless idle underflowed). */
void bb_csv_answer(const bba_answer *a, int rc, double target);

/* bb_json_answer: add to o what every answer's JSON carries about its
 * model and accuracy: model, exact, idle_fraction_low/high (null where not
 * measured), phases, warnings, and its endurance figures
 * (bb_write_bytes_per_day, drive_writes_per_day: null where not computed
 * or with no buffer).  o NULL: out of memory, exits 70. */
void bb_json_answer(json_t *o, const bb_ctx *ctx, const bba_answer *a);

#endif
