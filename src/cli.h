/* cli.h: what every bbsize subcommand shares: the platform and solver
 * options (an argp child), loading the workload and quantising it, status
 * mapping, messages, progress; the other shared option children are in
 * options.h, output files in outfile.h, messages and exit statuses in
 * status.h (cli.c, options.c, outfile.c, status.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_H
#define BBSIZE_SRC_CLI_H

#include <argp.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bbanalytic.h"
#include "options.h"
#include "outfile.h"
#include "status.h"
#include "usage.h"
#include "systems.h"
#include "units.h"
#include "workload_csv.h"

/* Options shared by the analytic commands. */
typedef struct {
    bb_qty pfs_bw, bb_bw, time_unit;
    long resolution;            /* 0: not given */
    bba_model_kind model;       /* --model (answer.h) */
    bba_solver_kind solver;
    int solver_set;             /* 1 when --solver was given */
    double max_memory_bytes;    /* 0: default (75% of physical memory) */
    double max_ops;             /* --max-ops: the analytic cost bound (cost.h) */
    bb_outopts out;             /* the output options (options.h): the
                                   command gives &common.out to its output child */
    const char *system;         /* --system NAME (platform preset), or NULL */
    unsigned walks;             /* BB_PLAT_*: the command walks these values over its
                                   own list, and pfs_bw or bb_bw holds the list's first
                                   (bb_ctx_read calls it no override) */
    int dist_rows;              /* 1: the command writes a row per load of DIST
                                   (dist --csv), costed before DIST is built */
} bb_common;

/* Platform options a command may walk over a list of its own instead. */
enum { BB_PLAT_PFS_BW = 1, BB_PLAT_BB_BW = 2 };
#define BB_PLAT_ALL 3

/* The argp children that parse bb_common's platform and solver options,
 * BB_COMMON_ARGP(walks) without the options in walks (their input is a
 * bb_common); the output options come from an output child (options.h)
 * whose input is &common.out.  Filled by bb_options_init. */
extern struct argp bb_common_argps[BB_PLAT_ALL + 1];
#define BB_COMMON_ARGP(walks) (&bb_common_argps[(walks)])
void bb_common_init(bb_common *c);

/* Everything an analytic command computes from: the workload and platform
 * as read (once), the question they make, and the front door's answerer
 * (analytic/answer.h) built by bb_ctx_load. */
typedef struct {
    bb_workload_file wl;
    bba_platform pf;         /* resolution 0 when none was given */
    int plain;               /* print in data units (no unit anywhere) */
    const bb_common *opt;
    int has_system;          /* --system NAME was given: sys is loaded */
    bb_system sys;
    bba_question qn;         /* what bb_ctx_load hands the front door */
    bba_front *front;        /* after bb_ctx_load */
    /* the front's quantised workload and chain (NULL for the fluid model) */
    const bba_quantized *q;
    const bba_model *model;
    bba_solver_opts so;      /* the solver options of the question */
    /* where each platform value came from: "--pfs-bw", a preset's path,
     * "FILE:LINE ('#@ key')" or "the default" */
    char src_pfs[640], src_bb[640], src_tu[640];
    const char *src_res;
} bb_ctx;

/* What the front door settles the resolution on (answer.h): the target
 * idle fraction and the policy of the command's question, and a size to
 * settle on when no size meets the target (0: none). */
typedef struct {
    double target;
    bba_drain drain;
    double settle_bytes;
    int check_size;          /* 1: settle_bytes is the question's buffer, and a
                                lazy threshold given as a size above it is a
                                usage error (exit 64) before any model is built */
    int bbbw_unasked;        /* answer.h bba_question.bbbw_unasked */
} bb_settle;

/* bb_ctx_model_desc: what every one-line answer ends with: the model and
 * its accuracy ("model Bernoulli, time unit 1 min"). */
void bb_ctx_model_desc(const bb_ctx *ctx, char *buf, size_t len);
/* bb_size_answer_line: the one line `size` prints for answer a of the size
 * question at target (rc BB_OK or BB_EINFEASIBLE), without the newline:
 * the report prints the same one. */
void bb_size_answer_line(const bb_ctx *ctx, const bba_answer *a, int rc, double target,
                         char *buf, size_t len);
/* bb_size_dwpd_note: what `size` adds to that line, the drive writes a
 * day at the answer ("; 26 drive writes a day"; "" when there is no
 * buffer, no volume, or no time: data units). */
void bb_size_dwpd_note(const bb_ctx *ctx, const bba_answer *a, int rc, char *buf, size_t len);
/* bb_ctx_answer_notes: the warnings an answer line carries (applications
 * that vanished, a time unit nobody chose), "" when none. */
void bb_ctx_answer_notes(const bb_ctx *ctx, const bba_answer *a, char *buf, size_t len);

/* bb_ctx_load: read FILE (or the built-in workload when file is NULL),
 * once, and combine the platform from the options, --system and the
 * file's "#@" lines (PFS and burst-buffer bandwidth, resolution: option >
 * --system > file; the time unit: option > file > --system; then the
 * defaults), saying on stderr when a source overrides a different value,
 * and check the quantum's bounds (and st's threshold, when check_size);
 * then build the question and the front door's answerer (st NULL: target
 * 0.001, greedy), warn of the applications that round to nothing, and set
 * q and model.  The command's own work comes first: from the question on,
 * src/ calls analytic/ only.  Exits with a message on any error (64 for an
 * unknown system, listing the known ones). */
void bb_ctx_load(bb_ctx *ctx, const bb_common *opt, const char *file, const bb_settle *st);
/* bb_system_lookup: the preset NAME from the data directories
 * (datadir.h), with s->path shown relative to the one it lies in
 * ("systems/cori.conf").  Returns the statuses of bb_system_find (the
 * caller names the option of an unknown NAME). */
int bb_system_lookup(const char *name, bb_system *s, char *err, size_t errlen);
/* bb_ctx_read: the part of bb_ctx_load before quantising: the file read,
 * the platform combined and checked, the applications' bandwidths, periods
 * and bursts resolved to bytes/s and seconds (ctx->wl.apps, ctx->pf); no
 * model (ctx->q, ctx->model and ctx->front stay empty; ctx->qn is the
 * question bb_ctx_load hands the front door).  For the continuous-time
 * commands, which need no quanta.  Exits with a message on any error. */
void bb_ctx_read(bb_ctx *ctx, const bb_common *opt, const char *file);
/* bb_ctx_blame: the option (without dashes) whose value a library refused
 * with st and err, when the refusal (a status of exit 65) names a quantity
 * the command line gave: EPS (--empty-prob), the burst-buffer bandwidth
 * (--bb-bw), the PFS bandwidth (--pfs-bw); else NULL (the workload's
 * fault).  bb_ctx_die_answer then dies in the usage form, status 64. */
const char *bb_ctx_blame(const bb_ctx *ctx, int st, const char *err);
/* bb_workload_verify: what `bbsize size` does with text as the workload
 * file name, short of solving: the reader (bb_workload_parse), and when
 * the text names its PFS bandwidth, the platform its '#@' lines give and
 * the front door's model (bba_front_new: the quanta, the bounds), with the
 * command's defaults and 64 MB of memory at most (a model beyond it is a
 * cost the user may raise, not a refusal of the data: not reported).  The one check of a workload bbsize writes (fit,
 * generate): no file bbsize writes is refused by bbsize.  Returns BB_OK,
 * or the status with the reader's or the model's message in err.  Exits
 * only where size would (a platform whose quantum does not fit a double).
 * O(what bb_ctx_load costs the size question, no solve). */
int bb_workload_verify(const char *text, const char *name, char *err, size_t errlen);
void bb_ctx_free(bb_ctx *ctx);

/* Quantities between user units and quanta. */
double bb_ctx_quanta_to_bytes(const bb_ctx *ctx, long quanta);
void bb_ctx_fmt_size(const bb_ctx *ctx, char *buf, size_t len, double bytes);
void bb_ctx_fmt_rate(const bb_ctx *ctx, char *buf, size_t len, double Bps);

/* bb_ctx_s_max: the largest buffer size (quanta) whose chain fits the
 * memory budget. */
long bb_ctx_s_max(const bb_ctx *ctx);

/* bb_ctx_die_answer: die with the front door's status and message, naming
 * the workload file. */
_Noreturn void bb_ctx_die_answer(const bb_ctx *ctx, int st, const char *err);

/* Messages and the status -> exit map: status.h. */

/* Progress on stderr (a terminal, or --progress; never with --quiet).
 * bb_progress_cb: the front door's progress (ctx the command's search
 * meter, set by its context): each search's solves of at most how many,
 * and the time left as that many of its slowest solve while no larger
 * size is to come. */
int bb_progress_enabled(const bb_outopts *o);
void bb_progress_cb(void *ctx, const bba_progress *p);

/* bb_solver_announce: so hears the estimate of each solve and search
 * before it runs (stationary.h announce) and prints, once a run, the
 * line of bb_meter_estimate (progress.h) when it is over 10 s of CPU
 * (or with --progress), at BBA_COST_OPS_PER_S (cost.h). */
void bb_solver_announce(bba_solver_opts *so, const bb_outopts *out);

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

/* bb_finish_stdout: flush and check stdout; exits 74 on a write error. */
void bb_finish_stdout(void);

/* Bounds of every simulation (bbsize(1), BOUNDS): a command estimates the
 * events and memory of a run before it starts and refuses (status 2) one
 * beyond them; the event engine stops any run that still exceeds them.
 * --max-events and --max-memory raise them on purpose. */
#define BB_DEFAULT_MAX_EVENTS 1e9
typedef struct {
    double max_events;        /* events in all replications of one command */
    double max_memory_bytes;  /* 0: 75% of physical memory */
} bb_limits;
extern bb_limits bb_run_limits;
/* bb_limits_init: the defaults, handed to the event engine (main calls it
 * before any command). */
void bb_limits_init(void);
/* bb_limits_set_events, bb_limits_set_memory: parse an option value
 * (exit 64 on a bad one) and hand the new bounds to the engine. */
void bb_limits_set_events(const char *arg);
void bb_limits_set_memory(const char *arg);
/* The argp child with --max-events and --max-memory, for the simulation
 * commands that have no bb_common (its input is unused). */
extern const struct argp bb_limits_argp;
/* The same with --max-events only, for commands with a --max-memory of
 * their own. */
extern const struct argp bb_events_argp;
/* The --max-events option, for argp tables that have --max-memory already. */
#define BB_OPT_MAX_EVENTS 0x1f00
#define BB_OPT_MAX_MEMORY 0x1f01
#define BB_MAX_EVENTS_OPTION { "max-events", BB_OPT_MAX_EVENTS, "N", 0, \
      "refuse runs of more events than this (default 1e9, a few minutes)", 0 }
/* bb_limits_memory: the memory bound, bytes: --max-memory, or three
 * quarters of the machine's memory. */
double bb_limits_memory(void);
/* bb_limits_check: before a run, die with status 2 when about `events`
 * events or `bytes` bytes exceed the bounds.  what names the run ("the
 * simulation"), detail says how the estimate was made, shrink names the
 * options that make it smaller. */
void bb_limits_check(const char *what, double events, double bytes, const char *detail,
                     const char *shrink);
/* bb_limits_test: the same check returning BB_OK, or BB_ETOOBIG with the
 * message in err (BB_ERRLEN bytes), for a caller that returns statuses. */
int bb_limits_test(const char *what, double events, double bytes, const char *detail,
                   const char *shrink, char *err);

/* bb_limits_check_topology: the same for building a dragonfly of shape
 * par (source names where it came from), before anything is allocated. */
void bb_limits_check_topology(const void *par, const char *source);

/* bb_read_or_die: path read whole through bb_read_file (readfile.h: mode
 * BB_READ_TEXT or BB_READ_BINARY); on failure, exit with its status and
 * message (66 unreadable, 65 a NUL byte in text or too large). */
char *bb_read_or_die(const char *path, size_t *len, int mode);

/* bb_path_beside: a path named by file `from` (a .conf, a scenario; NULL:
 * none) as written (relative to the working directory), else relative to
 * from's directory, else (by_base) its base name there; malloc'd, NULL if
 * none exists (out of memory exits 70).  bb_path_exists: stat succeeds. */
char *bb_path_beside(const char *from, const char *p, int by_base);
int bb_path_exists(const char *p);

/* Parse helpers for option values; exit 64 with the option's name. */
double bb_opt_fraction_open(const char *opt, const char *arg);   /* (0, 1) */
double bb_opt_fraction_closed(const char *opt, const char *arg); /* [0, 1] */
long bb_opt_long(const char *opt, const char *arg, long lo, long hi);
/* bb_opt_eps: --empty-prob, 0 or in [BBA_EPS_MIN, 1] (exits 64). */
double bb_opt_eps(const char *arg);
void bb_opt_size(const char *opt, const char *arg, bb_qty *q);

/* Draining policy as given on the command line: --policy, --threshold
 * (a fraction of the buffer size, or a size with a unit), --empty-prob. */
typedef struct {
    int lazy;
    int threshold_is_size;   /* --threshold had a unit */
    double threshold_frac;   /* fraction of S when !threshold_is_size */
    bb_qty threshold_size;
    double eps;              /* EPS, default 0.01 */
    int threshold_set;
    int policy_set;          /* --policy given */
    int eps_set;             /* --empty-prob given */
} bb_policy_opts;

void bb_policy_opts_init(bb_policy_opts *p);
/* bb_policy_opt_parse: handle --policy, --threshold, --empty-prob values;
 * returns 1 if key was one of them.  Exits 64 on a bad value. */
int bb_policy_opt_parse(bb_policy_opts *p, const char *name, const char *arg);
const char *bb_policy_name(const bba_policy *p);
/* bb_policy_drain: the policy as the front door takes it (answer.h). */
void bb_policy_drain(const bb_policy_opts *p, bba_drain *d);

/* The argp child for --policy, --threshold and --empty-prob; its input is
 * a bb_policy_opts (initialised with bb_policy_opts_init).  A threshold
 * implies --policy lazy; a threshold or --empty-prob with --policy greedy,
 * and --empty-prob with greedy draining, are refused (64): greedy draining
 * has neither. */
extern const struct argp bb_policy_argp;

/* bb_argp_file: store the positional workload FILE of a command; a second
 * one is a usage error. */
void bb_argp_file(char *arg, const char **file);

#endif
