/* options.c: the argp children every command shares: output, runs and
 * targets (options.h), and the platform and solver child, the option-value
 * helpers and the draining-policy child of cli.h.  Every option of every
 * command that is not the command's own is parsed here.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_limits.h"
#include "options.h"
#include "outfile.h"
#include "status.h"
#include "usage.h"

/* Keys above every command's own (0x1000 .. 0x5fff) and the short ones. */
enum {
    OPT_JSON = 0x7000, OPT_CSV, OPT_PROGRESS,
    OPT_SEED = 0x7100, OPT_THREADS, OPT_REPLICATIONS, OPT_HORIZON,
    OPT_TARGET_IDLE = 0x7200, OPT_BB_SIZE
};

/* A help group per child, after the commands' own options. */
enum { GROUP_TARGETS = 20, GROUP_RUNS = 30, GROUP_OUTPUT = 40 };

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
    { "csv", OPT_CSV, NULL, 0, "print CSV: one table, its header line first", GROUP_OUTPUT },
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
    case 'o':
        bb_out_claim("o", arg);
        o->output = arg;
        break;
    case 'q': o->quiet = 1; break;
    case OPT_PROGRESS: o->progress = 1; break;
    case ARGP_KEY_END:
        if (o->json && o->csv)
            bb_usage_exclusive("csv", "json", NULL);
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
        snprintf(msg, len, "a whole number in [0, 2^64-1]");
        return -1;
    }
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (errno == ERANGE || *end != '\0') {
        snprintf(msg, len, "a whole number in [0, 2^64-1] (it is larger)");
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

    switch (key) {
    case OPT_SEED:
        if (bb_parse_seed(arg, &r->seed, msg, sizeof msg) < 0)
            bb_usage_value("seed", arg, "%s", msg);
        r->seed_set = 1;
        break;
    case OPT_THREADS:
        r->threads = (int)bb_opt_long("threads", arg, 0, BB_THREADS_MAX);
        break;
    case OPT_REPLICATIONS:
        r->replications = bb_opt_long("replications", arg, 1, BB_REPLICATIONS_MAX);
        break;
    case OPT_HORIZON:
        if (bb_parse_duration(arg, &r->horizon, msg, sizeof msg) != BB_OK)
            bb_usage_error("horizon", "%s", msg);
        if (!(r->horizon.v > 0) || !isfinite(r->horizon.v))
            bb_usage_value("horizon", arg, "a positive duration");
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

static void common_fill(unsigned walks);

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
    for (unsigned m = 0; m <= BB_PLAT_ALL; m++)
        common_fill(m);   /* below */
}

/* ---- options ------------------------------------------------------------ */

enum {
    OPT_PFS_BW = 0x1000, OPT_BB_BW, OPT_TIME_UNIT, OPT_RESOLUTION, OPT_SOLVER,
    OPT_SYSTEM, OPT_MODEL, OPT_MAX_OPS
};

static const struct argp_option common_options[] = {
    { NULL, 0, NULL, 0, "Platform (override the workload file's #@ lines):", 1 },
    { "pfs-bw", OPT_PFS_BW, "RATE", 0,
      "PFS bandwidth B, e.g. 1.45TB/s (plain number: data units per time unit)", 1 },
    { "bb-bw", OPT_BB_BW, "RATE", 0, "burst-buffer bandwidth B_BB (optional)", 1 },
    { "time-unit", OPT_TIME_UNIT, "DURATION", 0,
      "the time unit of p and of plain numbers, e.g. 60s or 1min (default: the "
      "file's, else the preset's, else 1 s with a warning)", 1 },
    { "resolution", OPT_RESOLUTION, "R", 0,
      "quanta per PFS bandwidth and time unit (default: doubled from 100, the "
      "paper's, until the size moves by less than 0.1%)", 1 },
    { "model", OPT_MODEL, "NAME", 0,
      "which model answers (default: auto, which is bernoulli without a burst "
      "column, else fluid): bernoulli (the paper's chain), chain (the ON/OFF "
      "chain at a time unit) or fluid (the continuous-time model)", 1 },
    { "system", OPT_SYSTEM, "NAME", 0, "platform preset of a real machine (see `bbsize systems`)", 1 },
    { NULL, 0, NULL, 0, "Solver:", 2 },
    { "solver", OPT_SOLVER, "NAME", 0,
      "stationary solver: fft (FFT Wiener-Hopf GMRES, default), banded (GTH "
      "elimination), umfpack (sparse LU) or gauss-seidel (iterative)", 2 },
    { "max-memory", BB_OPT_MAX_MEMORY, "SIZE", 0,
      "refuse models and runs needing more memory than this (default 75% of "
      "physical memory)", 2 },
    { "max-events", BB_OPT_MAX_EVENTS, "N", 0,
      "refuse simulations of more events than this (default 1e9, a few minutes)", 2 },
    { "max-ops", OPT_MAX_OPS, "N", 0,
      "refuse analytic solves and searches estimated at more multiply-adds than "
      "this (default 1e12, minutes)", 2 },
    { 0 }
};

static error_t
common_parse(int key, char *arg, struct argp_state *state)
{
    bb_common *c = state->input;
    char msg[256];

    switch (key) {
    case OPT_PFS_BW:
        if (bb_parse_rate(arg, &c->pfs_bw, msg, sizeof msg) != BB_OK)
            bb_usage_error("pfs-bw", "%s", msg);
        if (!(c->pfs_bw.v > 0))
            bb_usage_value("pfs-bw", arg, "positive");
        break;
    case OPT_BB_BW:
        if (bb_parse_rate(arg, &c->bb_bw, msg, sizeof msg) != BB_OK)
            bb_usage_error("bb-bw", "%s", msg);
        if (!(c->bb_bw.v > 0))   /* 0 silently meant "no burst-buffer bandwidth" */
            bb_usage_value("bb-bw", arg, "positive (leave --bb-bw out for no burst-buffer "
                           "bandwidth)");
        break;
    case OPT_TIME_UNIT:
        if (bb_parse_duration(arg, &c->time_unit, msg, sizeof msg) != BB_OK)
            bb_usage_error("time-unit", "%s", msg);
        if (!(c->time_unit.v > 0))
            bb_usage_value("time-unit", arg, "positive");
        break;
    case OPT_RESOLUTION:
        c->resolution = bb_opt_long("resolution", arg, 1, 100000000L);
        break;
    case OPT_SYSTEM:
        c->system = arg;
        break;
    case OPT_MODEL:
        if (strcmp(arg, "auto") == 0)
            c->model = BBA_MODEL_AUTO;
        else if (strcmp(arg, "bernoulli") == 0)
            c->model = BBA_MODEL_BERNOULLI;
        else if (strcmp(arg, "chain") == 0)
            c->model = BBA_MODEL_CHAIN;
        else if (strcmp(arg, "fluid") == 0)
            c->model = BBA_MODEL_FLUID;
        else
            bb_usage_value("model", arg, "auto, bernoulli, chain or fluid");
        break;
    case OPT_SOLVER:
        c->solver_set = 1;
        if (strcmp(arg, "fft") == 0)
            c->solver = BBA_SOLVER_FFT;
        else if (strcmp(arg, "banded") == 0)
            c->solver = BBA_SOLVER_BANDED;
        else if (strcmp(arg, "umfpack") == 0)
            c->solver = BBA_SOLVER_UMFPACK;
        else if (strcmp(arg, "gauss-seidel") == 0 || strcmp(arg, "gs") == 0)
            c->solver = BBA_SOLVER_GAUSS_SEIDEL;
        else
            bb_usage_value("solver", arg, "fft, banded, umfpack or gauss-seidel");
        break;
    case BB_OPT_MAX_MEMORY:
        bb_limits_set_memory(arg);
        c->max_memory_bytes = bb_run_limits.max_memory_bytes;
        break;
    case BB_OPT_MAX_EVENTS:
        bb_limits_set_events(arg);
        break;
    case OPT_MAX_OPS: {
        double v;

        if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK)
            bb_usage_error("max-ops", "%s", msg);
        if (!(v >= 1) || v > 1e30)
            bb_usage_value("max-ops", arg, "a number of operations in [1, 1e30]");
        c->max_ops = v;
        break;
    }
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

struct argp bb_common_argps[BB_PLAT_ALL + 1];
static struct argp_option common_opts[BB_PLAT_ALL + 1][sizeof common_options
                                                       / sizeof common_options[0]];

/* common_fill: the platform and solver options without those in walks. */
static void
common_fill(unsigned walks)
{
    size_t k = 0;

    for (const struct argp_option *o = common_options; o->name || o->doc; o++)
        if (!((walks & BB_PLAT_PFS_BW) && o->key == OPT_PFS_BW)
            && !((walks & BB_PLAT_BB_BW) && o->key == OPT_BB_BW))
            common_opts[walks][k++] = *o;
    memset(&common_opts[walks][k], 0, sizeof common_opts[walks][k]);
    bb_common_argps[walks].options = common_opts[walks];
    bb_common_argps[walks].parser = common_parse;
}

void
bb_common_init(bb_common *c)
{
    memset(c, 0, sizeof *c);
    c->solver = BBA_SOLVER_FFT;
    c->max_ops = BBA_COST_MAX_OPS_DEFAULT;
}

double
bb_opt_fraction_open(const char *opt, const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK || !isfinite(v))
        bb_usage_error(opt, "%s", msg);
    if (!(v > 0 && v < 1))
        bb_usage_value(opt, arg, "in (0, 1)");
    return v;
}

double
bb_opt_fraction_closed(const char *opt, const char *arg)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK || !isfinite(v))
        bb_usage_error(opt, "%s", msg);
    if (!(v >= 0 && v <= 1))
        bb_usage_value(opt, arg, "in [0, 1]");
    return v;
}

double
bb_opt_eps(const char *arg)
{
    double v = bb_opt_fraction_closed("empty-prob", arg);

    if (v > 0 && v < BBA_EPS_MIN)
        bb_usage_error("empty-prob", "'%s' is below 1e-15: EPS moves the answer only to first "
                       "order, so below 1e-15 it changes nothing a double can hold, while the "
                       "solvers lose the states that hold for 1/EPS time units; use 1e-15 (or 0)",
                       arg);
    return v;
}

long
bb_opt_long(const char *opt, const char *arg, long lo, long hi)
{
    double v;
    char msg[256];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK)
        bb_usage_error(opt, "%s", msg);
    if (v != floor(v))
        bb_usage_value(opt, arg, "a whole number");
    if (v < (double)lo || v > (double)hi)
        bb_usage_value(opt, arg, "in [%ld, %ld]", lo, hi);
    return (long)v;
}

void
bb_opt_size(const char *opt, const char *arg, bb_qty *q)
{
    char msg[256];

    if (bb_parse_size(arg, q, msg, sizeof msg) != BB_OK)
        bb_usage_error(opt, "%s", msg);
}

/* ---- draining policy ---------------------------------------------------- */

void
bb_policy_opts_init(bb_policy_opts *p)
{
    memset(p, 0, sizeof *p);
    p->eps = 0.01;
}

int
bb_policy_opt_parse(bb_policy_opts *p, const char *name, const char *arg)
{
    if (strcmp(name, "policy") == 0) {
        if (bb_drain_kind_parse(arg, &p->kind) != 0)
            bb_usage_value("policy", arg, "greedy or lazy");
        p->policy_set = 1;
        return 1;
    }
    if (strcmp(name, "threshold") == 0) {
        bb_qty q;
        char msg[256];

        if (bb_parse_size(arg, &q, msg, sizeof msg) != BB_OK)
            bb_usage_error("threshold", "%s", msg);
        if (q.plain) {
            p->threshold_frac = bb_opt_fraction_closed("threshold", arg);
            p->threshold_is_size = 0;
        } else {
            p->threshold_size = q;
            p->threshold_is_size = 1;
        }
        p->threshold_set = 1;
        return 1;
    }
    if (strcmp(name, "empty-prob") == 0) {
        p->eps = bb_opt_eps(arg);
        p->eps_set = 1;
        return 1;
    }
    return 0;
}

void
bb_policy_drain(const bb_policy_opts *p, bb_drain *d)
{
    d->kind = p->kind;
    d->eps = p->eps;
    d->unit = p->kind == BB_DRAIN_LAZY && p->threshold_is_size ? BB_DRAIN_BYTES : BB_DRAIN_FRACTION;
    d->threshold = p->kind != BB_DRAIN_LAZY ? 0
                   : p->threshold_is_size ? p->threshold_size.v : p->threshold_frac;
}

enum { OPT_POL_POLICY = 0x1100, OPT_POL_THRESHOLD, OPT_POL_EPS };

static const struct argp_option policy_options[] = {
    { NULL, 0, NULL, 0, "Draining policy:", 3 },
    { "policy", OPT_POL_POLICY, "greedy|lazy", 0, "draining policy (default greedy)", 3 },
    { "threshold", OPT_POL_THRESHOLD, "T", 0,
      "lazy threshold: a fraction of the buffer size in [0, 1], or a size with a "
      "unit; giving one implies --policy lazy, and --policy lazy alone means 0", 3 },
    { "empty-prob", OPT_POL_EPS, "EPS", 0,
      "lazy: probability of draining below the threshold (default 0.01)", 3 },
    { 0 }
};

static error_t
policy_parse(int key, char *arg, struct argp_state *state)
{
    bb_policy_opts *p = state->input;

    switch (key) {
    case OPT_POL_POLICY:
        bb_policy_opt_parse(p, "policy", arg);
        break;
    case OPT_POL_THRESHOLD:
        bb_policy_opt_parse(p, "threshold", arg);
        break;
    case OPT_POL_EPS:
        bb_policy_opt_parse(p, "empty-prob", arg);
        break;
    case ARGP_KEY_END:
        if (p->threshold_set && p->policy_set && p->kind != BB_DRAIN_LAZY)
            bb_usage_error("threshold", "greedy draining has no threshold, but --policy greedy "
                           "was given: drop one of them");
        if (p->threshold_set && p->kind != BB_DRAIN_LAZY)
            p->kind = BB_DRAIN_LAZY; /* a threshold implies lazy draining */
        if (p->eps_set && p->kind != BB_DRAIN_LAZY)
            bb_usage_error("empty-prob", "EPS is lazy draining's, but the policy is greedy: add "
                           "--policy lazy or --threshold, or drop --empty-prob");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_policy_argp = { policy_options, policy_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_argp_file(char *arg, const char **file)
{
    if (*file)
        bb_usage_unexpected(arg, "a second workload file after '%s'", *file);
    bb_in_claim(arg);
    *file = arg;
}
