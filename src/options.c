/* options.c: the shared argp children, output, runs and targets
 * (options.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* Keys above every command's own (0x1000 .. 0x5fff) and the short ones. */
enum {
    OPT_JSON = 0x7000, OPT_CSV, OPT_PROGRESS,
    OPT_SEED = 0x7100, OPT_THREADS, OPT_REPLICATIONS, OPT_HORIZON,
    OPT_TARGET_IDLE = 0x7200, OPT_BB_SIZE
};

/* A help group per child, after the commands' own options. */
enum { GROUP_TARGETS = 20, GROUP_RUNS = 30, GROUP_OUTPUT = 40 };

static _Noreturn void
bad(const char *opt, const char *arg, const char *why)
{
    fprintf(stderr, "bbsize: option '--%s': '%s': %s\n", opt, arg, why);
    exit(BB_EXIT_USAGE);
}

/* pick: the entries of all[] whose bit is in which, after the group header,
 * into out (NULL-terminated). */
static void
pick(const struct argp_option *header, const struct argp_option *all, const unsigned *bits,
     size_t n, unsigned which, struct argp_option *out)
{
    size_t k = 0;

    out[k++] = *header;
    for (size_t i = 0; i < n; i++)
        if (which & bits[i])
            out[k++] = all[i];
    memset(&out[k], 0, sizeof out[k]);
}

/* ---- output -------------------------------------------------------------- */

static const struct argp_option out_header = { NULL, 0, NULL, 0, "Output:", GROUP_OUTPUT };
static const struct argp_option out_all[] = {
    { "json", OPT_JSON, NULL, 0, "print JSON instead of text", GROUP_OUTPUT },
    { "csv", OPT_CSV, NULL, 0, "print CSV (one header line per table)", GROUP_OUTPUT },
    { "output", 'o', "FILE", 0,
      "write to FILE (atomically; - is standard output) instead of standard output",
      GROUP_OUTPUT },
    { "quiet", 'q', NULL, 0, "no progress or run statistics on stderr", GROUP_OUTPUT },
    { "progress", OPT_PROGRESS, NULL, 0, "progress on stderr even when it is not a terminal",
      GROUP_OUTPUT },
};
static const unsigned out_bits[] = { BB_OUT_JSON, BB_OUT_CSV, BB_OUT_FILE, BB_OUT_QUIET,
                                     BB_OUT_PROGRESS };
#define NOUT (sizeof out_all / sizeof out_all[0])

static error_t
out_parse(int key, char *arg, struct argp_state *state)
{
    bb_outopts *o = state->input;

    switch (key) {
    case OPT_JSON: o->json = 1; break;
    case OPT_CSV: o->csv = 1; break;
    case 'o': o->output = arg; break;
    case 'q': o->quiet = 1; break;
    case OPT_PROGRESS: o->progress = 1; break;
    case ARGP_KEY_END:
        if (o->json && o->csv)
            argp_error(state, "--csv and --json exclude each other");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

struct argp bb_output_argps[BB_OUT_ALL + 1];
static struct argp_option out_opts[BB_OUT_ALL + 1][NOUT + 2];

/* ---- runs ---------------------------------------------------------------- */

static const struct argp_option run_header = { NULL, 0, NULL, 0, "Runs:", GROUP_RUNS };
static const struct argp_option run_all[] = {
    { "seed", OPT_SEED, "N", 0, "random seed, a whole number in [0, 2^64-1]", GROUP_RUNS },
    { "threads", OPT_THREADS, "N", 0,
      "worker threads in [0, 1024], 0 = every core (the default); results do not depend "
      "on it", GROUP_RUNS },
    { "replications", OPT_REPLICATIONS, "R", 0, "independent replications, in [1, 10^6]",
      GROUP_RUNS },
    { "horizon", OPT_HORIZON, "T", 0,
      "simulated time: a duration with a unit (600s, 2d), or a plain number in the "
      "command's time unit (seconds where it has none)", GROUP_RUNS },
};
static const unsigned run_bits[] = { BB_RUN_SEED, BB_RUN_THREADS, BB_RUN_REPLICATIONS,
                                     BB_RUN_HORIZON };
#define NRUN (sizeof run_all / sizeof run_all[0])

int
bb_parse_seed(const char *arg, uint64_t *out, char *msg, size_t len)
{
    unsigned long long v;
    char *end;

    if (arg[0] == '\0' || strspn(arg, "0123456789") != strlen(arg)) {
        snprintf(msg, len, "not a whole number in [0, 2^64-1]");
        return -1;
    }
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (errno == ERANGE || *end != '\0') {
        snprintf(msg, len, "larger than 2^64-1");
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static error_t
run_parse(int key, char *arg, struct argp_state *state)
{
    bb_runopts *r = state->input;
    char msg[256];

    (void)state;
    switch (key) {
    case OPT_SEED:
        if (bb_parse_seed(arg, &r->seed, msg, sizeof msg) < 0)
            bad("seed", arg, msg);
        r->seed_set = 1;
        break;
    case OPT_THREADS:
        r->threads = (int)bb_opt_long("threads", arg, 0, BB_THREADS_MAX);
        break;
    case OPT_REPLICATIONS:
        r->replications = bb_opt_long("replications", arg, 1, BB_REPLICATIONS_MAX);
        break;
    case OPT_HORIZON:
        if (bb_parse_duration(arg, &r->horizon, msg, sizeof msg) < 0)
            bad("horizon", arg, msg);
        if (!(r->horizon.v > 0) || !isfinite(r->horizon.v))
            bad("horizon", arg, "not a positive duration");
        r->horizon_arg = arg;
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

struct argp bb_runs_argps[BB_RUN_ALL + 1];
static struct argp_option run_opts[BB_RUN_ALL + 1][NRUN + 2];

/* ---- targets ------------------------------------------------------------- */

static const struct argp_option tgt_header = { NULL, 0, NULL, 0, "Targets:", GROUP_TARGETS };
static const struct argp_option tgt_all[] = {
    { "target-idle", OPT_TARGET_IDLE, "F", 0,
      "largest acceptable idle fraction, in (0, 1) (default 0.001)", GROUP_TARGETS },
    { "bb-size", OPT_BB_SIZE, "SIZE", 0,
      "burst-buffer size S, e.g. 2PB (a plain number: data units)", GROUP_TARGETS },
};
static const unsigned tgt_bits[] = { BB_TGT_IDLE, BB_TGT_SIZE };
#define NTGT (sizeof tgt_all / sizeof tgt_all[0])

void
bb_tgtopts_init(bb_tgtopts *t)
{
    memset(t, 0, sizeof *t);
    t->target_idle = 0.001;
}

static error_t
tgt_parse(int key, char *arg, struct argp_state *state)
{
    bb_tgtopts *t = state->input;

    switch (key) {
    case OPT_TARGET_IDLE:
        t->target_idle = bb_opt_fraction_open("target-idle", arg);
        break;
    case OPT_BB_SIZE:
        bb_opt_size("bb-size", arg, &t->bb_size);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

struct argp bb_targets_argps[BB_TGT_ALL + 1];
static struct argp_option tgt_opts[BB_TGT_ALL + 1][NTGT + 2];

/* ---- the tables ------------------------------------------------------------ */

void
bb_options_init(void)
{
    for (unsigned m = 0; m <= BB_OUT_ALL; m++) {
        pick(&out_header, out_all, out_bits, NOUT, m, out_opts[m]);
        bb_output_argps[m].options = out_opts[m];
        bb_output_argps[m].parser = out_parse;
    }
    for (unsigned m = 0; m <= BB_RUN_ALL; m++) {
        pick(&run_header, run_all, run_bits, NRUN, m, run_opts[m]);
        bb_runs_argps[m].options = run_opts[m];
        bb_runs_argps[m].parser = run_parse;
    }
    for (unsigned m = 0; m <= BB_TGT_ALL; m++) {
        pick(&tgt_header, tgt_all, tgt_bits, NTGT, m, tgt_opts[m]);
        bb_targets_argps[m].options = tgt_opts[m];
        bb_targets_argps[m].parser = tgt_parse;
    }
}
