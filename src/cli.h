/* cli.h: what every bbsize subcommand shares: the platform and solver
 * options (an argp child), loading the workload and quantising it, status
 * mapping, messages, progress; the other shared option children are in
 * options.h, output files in outfile.h (cli.c, options.c, outfile.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_H
#define BBSIZE_SRC_CLI_H

#include <argp.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bbanalytic.h"
#include "exitcodes.h"
#include "options.h"
#include "outfile.h"
#include "systems.h"
#include "units.h"
#include "workload_csv.h"

/* Options shared by the analytic commands. */
typedef struct {
    bb_qty pfs_bw, bb_bw, time_unit;
    long resolution;            /* 0: not given */
    bba_solver_kind solver;
    int solver_set;             /* 1 when --solver was given */
    double max_memory_bytes;    /* 0: default (75% of physical memory) */
    bb_outopts out;             /* the output options (options.h): the
                                   command gives &common.out to its output child */
    const char *system;         /* --system NAME (platform preset), or NULL */
} bb_common;

/* The argp child that parses bb_common's platform and solver options (pass
 * &common as the input of the child: the parent's parser must set
 * state->child_inputs[0] = common); the output options come from an output
 * child (options.h) whose input is &common.out. */
extern const struct argp bb_common_argp;
void bb_common_init(bb_common *c);

/* Which model answered (issue 13): the paper's memoryless chain, the
 * ON/OFF-modulated chain solved exactly, or its approximation. */
enum { BB_MODEL_BERNOULLI = 0, BB_MODEL_BURSTS_EXACT, BB_MODEL_BURSTS_APPROX };

/* Everything an analytic command computes from. */
typedef struct {
    bb_workload_file wl;
    bba_platform pf;
    int plain;               /* print in data units (no unit anywhere) */
    bba_quantized q;
    bba_model model;
    bba_solver_opts so;
    const bb_common *opt;
    int has_system;          /* --system NAME was given: sys is loaded */
    bb_system sys;
    int model_kind;          /* BB_MODEL_* */
    bba_onoff onoff;         /* the modulated chain when the workload has
                                bursts (model.onoff points here); for the
                                approximation, the reduced model R */
    /* BB_MODEL_BURSTS_APPROX (effbw.h): */
    size_t classes_total;    /* burst classes of the whole workload */
    double phases_total;     /* their phase count, prod (N_c + 1) */
    double theta_full;       /* theta*, per quantum */
    int has_check;           /* onoff_check is set */
    bba_onoff onoff_check;   /* R with one burst class fewer */
    double decay_check;      /* theta*_R - theta*_check, per quantum */
    /* where each platform value came from: "--pfs-bw", a preset's path,
     * "FILE:LINE ('#@ key')" or "the default" */
    char src_pfs[640], src_bb[640], src_tu[640];
    const char *src_res;
} bb_ctx;

/* bb_ctx_approx_error: the measured error of the approximation at size S
 * (quanta) under pol: the same approximation built from one burst class
 * fewer, against the exact solve of the reduced model R, relative.  NAN
 * when it cannot be measured (R has no burst class, or a solve failed). */
double bb_ctx_approx_error(const bb_ctx *ctx, long S, const bba_policy *pol);
/* bb_ctx_approx_note: "" for an exact model, else "; approximation error
 * measured here +12% (...)" for the one-line answers. */
void bb_ctx_approx_note(const bb_ctx *ctx, long S, const bba_policy *pol, char *buf,
                        size_t len);

/* bb_ctx_attach_bursts: after quantising and bba_model_init, set up the
 * modulated chain when the workload has bursts (model.onoff), else the
 * Bernoulli model.  Exits with a message on failure. */
void bb_ctx_attach_bursts(bb_ctx *ctx);
/* bb_ctx_model_name: "Bernoulli", "bursts exact" or "bursts approximate". */
const char *bb_ctx_model_name(const bb_ctx *ctx);
/* bb_ctx_model_desc: what every one-line answer ends with: the model (and
 * its phases) and the time unit, e.g. "model bursts exact (2 classes, 36
 * phases), time unit 60 s". */
void bb_ctx_model_desc(const bb_ctx *ctx, char *buf, size_t len);

/* bb_ctx_load: read FILE (or the built-in workload when file is NULL),
 * combine the platform from the options, --system and the file's "#@"
 * lines (PFS and burst-buffer bandwidth, resolution: option > --system >
 * file; the time unit: option > file > --system; then the defaults), saying
 * on stderr when a source overrides a different value, check the quantum's
 * bounds, quantise (warning when an application rounds to 0 quanta),
 * compute DIST.  Exits with a message on any error (64 for an unknown
 * system, listing the known ones). */
void bb_ctx_load(bb_ctx *ctx, const bb_common *opt, const char *file);
/* bb_ctx_read: the part of bb_ctx_load before quantising: the file read,
 * the platform combined and checked, the applications' bandwidths, periods
 * and bursts resolved to bytes/s and seconds (ctx->wl.apps, ctx->pf); no
 * model (ctx->q and ctx->model stay empty).  For the continuous-time
 * commands, which need no quanta.  Exits with a message on any error. */
void bb_ctx_read(bb_ctx *ctx, const bb_common *opt, const char *file);
/* bb_ctx_resolution_is_default: 1 when no option, preset or file line set
 * the resolution (idle and size then choose it: doubling it must move the
 * answer by less than BB_RES_SETTLE). */
int bb_ctx_resolution_is_default(const bb_ctx *ctx);
#define BB_RES_SETTLE 1e-3
#define BB_RES_MAX 6400
/* bb_ctx_requantize: quantise the loaded workload again at resolution R
 * and rebuild the model.  Exits with a message on error. */
void bb_ctx_requantize(bb_ctx *ctx, long R);
void bb_ctx_free(bb_ctx *ctx);

/* Quantities between user units and quanta. */
double bb_ctx_quanta_to_bytes(const bb_ctx *ctx, long quanta);
/* bb_ctx_size_to_quanta: floor(bytes / q); a plain size is in data units. */
long bb_ctx_size_to_quanta(const bb_ctx *ctx, const bb_qty *size);
void bb_ctx_fmt_size(const bb_ctx *ctx, char *buf, size_t len, double bytes);
void bb_ctx_fmt_rate(const bb_ctx *ctx, char *buf, size_t len, double Bps);

/* bb_ctx_s_max: the largest buffer size (quanta) whose chain fits the
 * memory budget. */
long bb_ctx_s_max(const bb_ctx *ctx);

/* Messages: "bbsize: ..." on stderr. */
void bb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void bb_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* bb_exit_status: the exit status for a library status code. */
int bb_exit_status(int bb_status);
/* bb_die_lib: die with the library message and the mapped status. */
_Noreturn void bb_die_lib(int bb_status, const char *err);

/* Progress on stderr (a terminal, or --progress; never with --quiet). */
int bb_progress_enabled(const bb_outopts *o);
void bb_progress_cb(void *ctx, int evaluations, long S, double idle);

/* JSON: print obj to stdout (indented, one trailing newline) and release it. */
void bb_json_print(json_t *obj);
/* bb_json_seed: a seed as a JSON integer, or as a decimal string above
 * 2^63-1 (JSON integers here are signed 64-bit). */
json_t *bb_json_seed(uint64_t seed);
/* bb_json_platform: an object with the platform, resolution and rounding. */
json_t *bb_json_platform(const bb_ctx *ctx);

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
/* bb_limits_check: before a run, die with status 2 when about `events`
 * events or `bytes` bytes exceed the bounds.  what names the run ("the
 * simulation"), detail says how the estimate was made, shrink names the
 * options that make it smaller. */
void bb_limits_check(const char *what, double events, double bytes, const char *detail,
                     const char *shrink);

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

/* bb_opt_die: "bbsize: option '--OPT': " then fmt with arg; exit 64. */
_Noreturn void bb_opt_die(const char *opt, const char *fmt, const char *arg);

/* Parse helpers for option values; exit 64 with the option's name. */
double bb_opt_fraction_open(const char *opt, const char *arg);   /* (0, 1) */
double bb_opt_fraction_closed(const char *opt, const char *arg); /* [0, 1] */
long bb_opt_long(const char *opt, const char *arg, long lo, long hi);
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
} bb_policy_opts;

void bb_policy_opts_init(bb_policy_opts *p);
/* bb_policy_opt_parse: handle --policy, --threshold, --empty-prob values;
 * returns 1 if key was one of them.  Exits 64 on a bad value. */
int bb_policy_opt_parse(bb_policy_opts *p, const char *name, const char *arg);
/* bb_policy_resolve: the concrete policy for buffer size S (quanta);
 * exits 64 if a size threshold exceeds S. */
void bb_policy_resolve(const bb_ctx *ctx, const bb_policy_opts *p, long S, bba_policy *out);
const char *bb_policy_name(const bba_policy *p);

/* The argp child for --policy, --threshold and --empty-prob; its input is
 * a bb_policy_opts (initialised with bb_policy_opts_init).  A threshold
 * implies --policy lazy. */
extern const struct argp bb_policy_argp;

/* bb_argp_file: store the positional workload FILE of a command; a second
 * one is a usage error. */
void bb_argp_file(struct argp_state *state, char *arg, const char **file);

#endif
