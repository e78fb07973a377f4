/* options.h: the argp children every bbsize command shares, so that an
 * option has one spelling, one range and one meaning in every command
 * (bbsize(1), COMMON OPTIONS):
 *
 *   output   --json, --csv, -o/--output FILE, -q/--quiet, --progress
 *   runs     --seed N       a whole number in [0, 2^64-1], read exactly
 *            --threads N    in [0, 1024]; 0 = every core (the default)
 *            --replications R  in [1, 10^6]
 *            --horizon T    simulated time, > 0: a duration with a unit
 *                           (2d, 600s), or a plain number in the command's
 *                           time unit (seconds where it has none)
 *   targets  --target-idle F  the largest acceptable idle fraction, in (0, 1)
 *            --bb-size SIZE   one burst-buffer size, e.g. 2PB
 *
 * A command takes the subset it understands (a mask of BB_OUT_*, BB_RUN_*,
 * BB_TGT_*): BB_OUTPUT_ARGP(mask) and friends name a struct argp whose
 * table has only those options, for the command's argp_child array (a
 * constant address, so the arrays stay static const); its
 * input (state->child_inputs[i], set by the command at ARGP_KEY_INIT) is a
 * bb_outopts, bb_runopts or bb_tgtopts the command initialised (defaults
 * stay per command: 15 replications in simulate, 5 in validate
 * --scenario).  A bad value exits with status 64 (BB_EXIT_USAGE) and a
 * message naming the option, the same in every command.  The tables are
 * filled once by bb_options_init, before any command runs.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_OPTIONS_H
#define BBSIZE_SRC_OPTIONS_H

#include <argp.h>
#include <stdint.h>

#include "bbanalytic.h"
#include "units.h"

/* ---- output -------------------------------------------------------------- */

typedef struct {
    int json, csv, quiet, progress;
    const char *output;  /* -o FILE, or NULL (standard output) */
} bb_outopts;

enum {
    BB_OUT_JSON = 1,       /* --json: print JSON */
    BB_OUT_CSV = 2,        /* --csv: print CSV: one table, its header line first */
    BB_OUT_FILE = 4,       /* -o, --output FILE: written atomically (bb_out_open) */
    BB_OUT_QUIET = 8,      /* -q, --quiet: nothing on stderr but warnings and errors */
    BB_OUT_PROGRESS = 16   /* --progress: progress even when stderr is no terminal */
};
#define BB_OUT_ALL 31
extern struct argp bb_output_argps[BB_OUT_ALL + 1];
#define BB_OUTPUT_ARGP(which) (&bb_output_argps[(which)])

/* ---- runs ---------------------------------------------------------------- */

#define BB_THREADS_MAX 1024
#define BB_REPLICATIONS_MAX 1000000L
typedef struct {
    uint64_t seed;
    int seed_set;             /* --seed was given */
    int threads;              /* 0: every core */
    long replications;        /* 0 until given or defaulted by the command */
    const char *horizon_arg;  /* the text, NULL when not given */
    bb_qty horizon;           /* parsed; .plain: in the command's time unit */
} bb_runopts;

enum { BB_RUN_SEED = 1, BB_RUN_THREADS = 2, BB_RUN_REPLICATIONS = 4, BB_RUN_HORIZON = 8 };
#define BB_RUN_ALL 15
extern struct argp bb_runs_argps[BB_RUN_ALL + 1];
#define BB_RUNS_ARGP(which) (&bb_runs_argps[(which)])

/* bb_parse_seed: a whole number in [0, 2^64-1], decimal digits only, read
 * exactly (no rounding through a double).  Returns 0, or -1 with what
 * the value must be in msg (for bb_usage_value). */
int bb_parse_seed(const char *arg, uint64_t *out, char *msg, size_t len);

/* ---- targets ------------------------------------------------------------- */

typedef struct {
    double target_idle;       /* default 0.001 (bb_tgtopts_init) */
    bb_qty bb_size;           /* .set when --bb-size was given */
} bb_tgtopts;

enum { BB_TGT_IDLE = 1, BB_TGT_SIZE = 2 };
#define BB_TGT_ALL 3
extern struct argp bb_targets_argps[BB_TGT_ALL + 1];
#define BB_TARGETS_ARGP(which) (&bb_targets_argps[(which)])
void bb_tgtopts_init(bb_tgtopts *t);

/* ---- endurance and prices (options_cost.c) ------------------------------- */

/* --dwpd D, --lifetime Y (default 5), --rated-years R (default 5), --waf W
 * (default 1): the drives' rating and the service life (endurance.h); the
 * command sizes for endurance only when --dwpd is given (set), and the
 * other three without it are a usage error (64), not ignored.  The input
 * of bb_endurance_argp is a bb_endopts initialised by bb_endopts_init. */
typedef struct {
    int set;                   /* --dwpd was given */
    double dwpd, lifetime_years, rated_years, waf;
    const char *needs_dwpd;    /* the first of lifetime, rated-years, waf given */
} bb_endopts;
void bb_endopts_init(bb_endopts *o);
extern const struct argp bb_endurance_argp;

/* --cost-tb PRICE (a TB of burst-buffer capacity), --cost-gbs PRICE (a
 * GB/s of burst-buffer bandwidth), --cost-pfs-gbs PRICE (a GB/s of PFS
 * bandwidth), --currency SYMBOL (printed before every price; default
 * none: at most 16 characters of UTF-8, no control or markup character,
 * and only with a price, else 64).  Prices are numbers >= 0 in any
 * currency.  The input of
 * bb_prices_argp is a bb_prices (zeroed: no price given). */
typedef struct {
    double tb, gbs, pfs_gbs;
    int has_tb, has_gbs, has_pfs_gbs;
    const char *currency;      /* NULL: none */
} bb_prices;
extern const struct argp bb_prices_argp;

/* The longest --currency, in characters, and a buffer that holds any
 * money bb_fmt_money prints: 16 characters of up to 4 bytes, a sign, 63
 * digits with their separators, the cents. */
#define BB_CURRENCY_MAX 16
#define BB_MONEY_LEN 192

/* bb_fmt_money: v with thousands separators and two decimals after the
 * currency symbol ("$1,234,567.89"; "1,234,567.89" without one). */
void bb_fmt_money(char *buf, size_t len, const bb_prices *p, double v);
/* bb_fmt_thousands: v rounded to a whole number with thousands
 * separators ("1,234,568"). */
void bb_fmt_thousands(char *buf, size_t len, double v);

/* bb_options_init: fill the tables of every subset (main calls it before
 * any command parses its options). */
void bb_options_init(void);

/* ---- the analytic commands' platform and solver options ------------------- */

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

/* ---- option values ---------------------------------------------------------- */

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
    bb_drain_kind kind;
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
/* bb_policy_drain: the policy as the front door takes it (answer.h). */
void bb_policy_drain(const bb_policy_opts *p, bb_drain *d);

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
