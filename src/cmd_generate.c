/* cmd_generate.c: `bbsize generate`, the paper's random workloads
 * (Aupy et al. 2017, Section 4.3) as a workload file, for reproducing its
 * experiments and for tests.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

enum { OPT_N = 0x2000, OPT_PMAX, OPT_LOAD, OPT_DMIN, OPT_BURST };

static const struct argp_option options[] = {
    { "apps", OPT_N, "N", 0, "number of applications (default 20)", 0 },
    { "p-max", OPT_PMAX, "P", 0, "p_i ~ U(0, P), P in (0, 1] (default 0.1)", 0 },
    { "load", OPT_LOAD, "ALPHA", 0, "expected load over PFS bandwidth, sum p_i b_i / B (default 0.8)", 0 },
    { "d-min", OPT_DMIN, "D", 0, "also write periods d_i ~ U(D, 2D) in time units (Section 6.3)", 0 },
    { "burst", OPT_BURST, "L|pd", 0, "also write a burst column (mean I/O phase length): L time units "
      "for every application, or pd for p_i d_i (with --d-min), each raised to "
      "max(1, p_i/(1-p_i)) where shorter", 0 },
    { 0 }
};

struct args {
    long n;
    double p_max, alpha, d_min;
    double burst;   /* time units; 0: no burst column; -1: p_i d_i */
    bb_outopts out; /* -o FILE */
    bb_runopts run; /* --seed (default 1) */
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_N:
        a->n = bb_opt_long("apps", arg, 1, 100000);
        break;
    case OPT_PMAX:
        a->p_max = bb_opt_fraction_closed("p-max", arg);
        if (a->p_max == 0)
            bb_usage_value("p-max", arg, "in (0, 1]");
        break;
    case OPT_LOAD: {
        char msg[256];

        if (bb_parse_number(arg, &a->alpha, msg, sizeof msg) != BB_OK || !(a->alpha > 0)
            || a->alpha > 1e6)
            bb_usage_value("load", arg, "a positive number (at most 1e6)");
        break;
    }
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        state->child_inputs[1] = &a->run;
        break;
    case OPT_DMIN: {
        char msg[256];

        if (bb_parse_number(arg, &a->d_min, msg, sizeof msg) != BB_OK || !(a->d_min > 0))
            bb_usage_value("d-min", arg, "a positive number");
        if (!isfinite(2 * a->d_min))
            bb_usage_error("d-min", "'%s' is too large: periods reach 2D, which overflows; "
                           "at most %.6g", arg, DBL_MAX / 2);
        break;
    }
    case OPT_BURST: {
        char msg[256];

        if (strcmp(arg, "pd") == 0)
            a->burst = -1;
        else if (bb_parse_number(arg, &a->burst, msg, sizeof msg) != BB_OK || !(a->burst >= 1)
                 || a->burst > 1e9)
            bb_usage_value("burst", arg, "pd or a number of time units in [1, 1e9]");
        break;
    }
    case ARGP_KEY_ARG:
        bb_usage_unexpected(arg, NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_FILE), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_SEED), 0, NULL, 0 },
    { 0 }
};

static const struct argp argp = {
    options, parse, NULL,
    "Write a random workload as in the paper: p_i ~ U(0, p_max), b_i ~ U(0, 1) "
    "scaled so that sum p_i b_i = ALPHA B, with B = 100 data units per time unit "
    "and resolution 100 (one quantum = one data unit).\v"
    "The same seed always gives the same file.  The paper's generator (GSL's MT19937) "
    "takes 32 bits of the seed: seeds equal modulo 2^32 give the same file (a warning "
    "says so).",
    children, NULL, NULL
};

int
bb_cmd_generate(int argc, char **argv)
{
    struct args a = { 20, 0.1, 0.8, 0, 0, { 0 }, { 0 } };
    bba_app *apps;
    char err[BB_ERRLEN];
    bb_workload_style st = { 0, 17, 1, "", "" };
    FILE *fp;
    char *text = NULL;
    size_t tlen = 0;
    int rc;

    a.run.seed = 1;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    st.cols = (a.d_min > 0 ? BB_WL_PERIOD : 0) | (a.burst != 0 ? BB_WL_BURST : 0);
    if (a.run.seed > 0xffffffffULL)
        bb_warn("--seed %llu: the paper's generator takes 32 bits of the seed; this is the "
                "workload of seed %llu", (unsigned long long)a.run.seed,
                (unsigned long long)(a.run.seed & 0xffffffffULL));
    if (a.burst < 0 && !(a.d_min > 0))
        bb_usage_needs("burst", "d-min", "--burst pd draws the bursts from the periods d_i");
    apps = calloc((size_t)a.n, sizeof *apps);
    if (apps == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    rc = bba_generate_paper((size_t)a.n, a.p_max, a.alpha, 100.0, a.d_min, (unsigned long)(a.run.seed & 0xffffffffULL), apps,
                            err);
    if (rc != BB_OK)
        bb_usage_error(NULL, "%s", err);
    /* The text in memory, checked as `bbsize size` reads it before it is
     * written: generate never writes a file bbsize refuses. */
    if ((fp = open_memstream(&text, &tlen)) == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    fprintf(fp, "# bbsize generate --apps %ld --p-max %g --load %g --seed %llu%s\n"
                "# Aupy et al. 2017, Section 4.3: p ~ U(0, p_max), b ~ U(0, 1) scaled to "
                "sum p b = %g B.\n#@ pfs-bw = 100\n#@ time-unit = 1 s\n#@ resolution = 100\n",
            a.n, a.p_max, a.alpha, (unsigned long long)a.run.seed, a.d_min > 0 ? " (with periods)" : "",
            a.alpha);
    bb_workload_write_header(fp, &st);
    for (long i = 0; i < a.n; i++) {
        bb_workload_row r = { apps[i].name, apps[i].p, apps[i].bw_Bps, apps[i].period_s, NAN, 1 };

        if (a.burst != 0) {
            /* Plain time units; the bound of bbsize-workload(5). */
            double p = apps[i].p, L = a.burst > 0 ? a.burst : p * apps[i].period_s;
            double lo = p < 1 ? p / (1 - p) : 1;

            r.burst = L > lo ? (L > 1 ? L : 1) : (lo > 1 ? lo : 1);
        }
        bb_workload_write_row(fp, &st, &r);
    }
    free(apps);
    if (fclose(fp) != 0 || text == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory writing the workload");
    rc = bb_workload_verify(text, a.out.output ? a.out.output : "(standard output)", err,
                            sizeof err);
    if (rc != BB_OK) {
        free(text);
        bb_usage_error(NULL, "the workload generated would be refused when read (%s); no "
                       "file written: change --apps, --p-max or --load", err);
    }
    bb_out_text(a.out.output, text, tlen);
    free(text);
    return BB_EXIT_OK;
}
