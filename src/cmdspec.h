/* cmdspec.h: the one argp wiring of the analytic commands (size, idle,
 * dist, threshold, sweep, frontier, design, partition, report), as
 * simcli.h is the simulation commands'.  A command declares in a
 * bb_cmd_spec which shared option groups it takes and gives its own
 * options and their parser; bb_cmd_parse initialises the shared options,
 * builds the argp children in one order (the command's own options, the
 * platform and solver, the draining policy, output, runs, targets,
 * endurance, prices), parses, and stores the workload FILE.
 *
 * A command that walks a platform value over a list (design and sweep
 * --pfs-bw RATES, frontier --bb-bw RATES) names it in spec->walks: the
 * wiring gives the option RATES (FIRST:LAST:STEP or a list, bb_grid_rates)
 * in place of the platform group's RATE, so --help lists it once, stores
 * the list in the command's struct (spec->walk_at), and a PFS walk's
 * first value stands for the platform's, which bb_ctx_read does not call
 * an override (bb_common.walks).
 *
 * Errors: bad values and missing required options exit 64 with the
 * option's name (usage.h).  Ownership: the walk's list is allocated by
 * bb_grid_rates and freed by the command (bb_qty_list_free); nothing
 * else is allocated.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CMDSPEC_H
#define BBSIZE_SRC_CMDSPEC_H

#include <argp.h>

#include "cli.h"
#include "grid.h"
#include "options.h"

/* Everything the shared groups parse into:
 *   common  platform and solver; common.out: the output group
 *   pol     BB_CMD_POLICY
 *   run     spec->runs
 *   tgt     spec->targets (target_idle 0.001 by default)
 *   end     BB_CMD_ENDURANCE
 *   prices  BB_CMD_PRICES
 *   loads   BB_CMD_LOADS: --load-scale FACTORS (freed by bb_cmd_args_free)
 *   file    the workload FILE; NULL: the built-in workload */
#define BB_CMD_ARGS_MEMBERS                                                    \
    bb_common common;                                                          \
    bb_policy_opts pol;                                                        \
    bb_runopts run;                                                            \
    bb_tgtopts tgt;                                                            \
    bb_endopts end;                                                            \
    bb_prices prices;                                                          \
    bb_num_list loads;                                                         \
    const char *file
typedef struct { BB_CMD_ARGS_MEMBERS; } bb_cmd_args;

/* A command's own struct starts with BB_CMD_ARGS: the same members, named
 * as above (a.common, a.tgt, ...), and a.c, the bb_cmd_args that
 * bb_cmd_parse fills (a union of two structs with one member list). */
#define BB_CMD_ARGS union { bb_cmd_args c; struct { BB_CMD_ARGS_MEMBERS; }; }

/* The groups beside output, runs and targets. */
enum { BB_CMD_POLICY = 1, BB_CMD_ENDURANCE = 2, BB_CMD_PRICES = 4, BB_CMD_LOADS = 8 };

typedef struct {
    const struct argp_option *options;  /* the command's own, or NULL */
    argp_parser_t parser;   /* for them, or NULL; state->input is the own struct */
    const char *args_doc, *doc;
    unsigned out;           /* BB_OUT_* (options.h) */
    unsigned runs;          /* BB_RUN_*; 0: no runs group */
    unsigned targets;       /* BB_TGT_*; 0: no targets group */
    unsigned required;      /* BB_TGT_SIZE: --bb-size SIZE is required */
    unsigned groups;        /* BB_CMD_* */
    unsigned walks;         /* BB_PLAT_PFS_BW or BB_PLAT_BB_BW (cli.h): the walk, or 0 */
    const char *walk_doc;   /* the walk option's help */
    size_t walk_at;         /* offsetof the bb_qty_list in the own struct (freed by
                               the command) */
    size_t walk_max;        /* at most this many values; 0: the grid's bound */
    int walk_required;      /* the walk must be given */
    const char *walk_example;  /* for the message when it is not */
} bb_cmd_spec;

/* bb_cmd_parse: initialise a's shared options (bb_common_init and the
 * other groups' defaults; a->common.walks = spec->walks), then parse
 * argv with argp; own (may be a itself, or NULL when the command has no
 * own parser) is the input of spec->parser, initialised by the caller.
 * Exits 64 on a usage error, 0 after --help. */
void bb_cmd_parse(const bb_cmd_spec *spec, int argc, char **argv, bb_cmd_args *a, void *own);

/* bb_prices_check: whether any price was given; exits 64 when one was
 * and the workload and platform of ctx are in data units, which no price
 * applies to. */
int bb_prices_check(const bb_ctx *ctx, const bb_prices *p);

/* bb_cmd_design_spec: what design and frontier ask analytic/questions/design.h,
 * from their options: bb_design_spec_init (designrun.h) on the question
 * of ctx (read by bb_ctx_read; its target set to --target-idle), the
 * prices and the endurance, so design's bandwidth rule; frontier sets
 * its own.  Returns bb_prices_check's answer. */
int bb_cmd_design_spec(bb_ctx *ctx, const bb_cmd_args *a, bba_design_spec *sp);

/* --load-scale (BB_CMD_LOADS): every bandwidth of the workload times
 * each factor, one line (or row) per load.  Text output only: the
 * parser refuses it with --json or --csv (64).  bb_cmd_each_load calls
 * fn once per factor of a->loads (none given: once, at x1, prefix "")
 * with the load's question q (ctx->qn, its applications scaled: grid.h
 * bb_scenario, at ctx's resolution) and, when ctx has a front (after
 * bb_ctx_load), the load's front: ctx's own at x1 (the same answer, no
 * second model), a scenario's otherwise (NULL after bb_ctx_read); prefix
 * is "load xF: ".  Returns the last status of fn other than BB_OK, else
 * BB_OK.  The scenarios are built one at a time and freed. */
typedef int (*bb_load_fn)(const bb_ctx *ctx, const bba_front *front, const bba_question *q,
                          double scale, const char *prefix, void *arg);
int bb_cmd_each_load(const bb_ctx *ctx, const bb_cmd_args *a, bb_load_fn fn, void *arg);
/* bb_cmd_args_free: what bb_cmd_parse allocated (the load scales). */
void bb_cmd_args_free(bb_cmd_args *a);

#endif
