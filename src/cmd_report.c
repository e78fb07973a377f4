/* cmd_report.c: `bbsize report`, a what-if report a procurement committee
 * can read: the recommendation, idle fraction versus buffer size with load
 * growth (Figure 3 view), the load distribution with its Chernoff bounds
 * (Figure 2), greedy versus lazy draining (Figures 5 and 6), the inputs and
 * assumptions; one self-contained XHTML file with inline SVG plots drawn by
 * gnuplot, or Markdown with the plots as separate SVG files.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmdspec.h"
#include "commands.h"
#include "grid.h"
#include "plot.h"
#include "report/report.h"

enum { OPT_FORMAT = 0x2000, OPT_VALIDATE, OPT_LOAD_SCALE, OPT_POINTS, OPT_EPS,
       OPT_PFS_WALK };

static const struct argp_option options[] = {
    { "format", OPT_FORMAT, "html|md", 0,
      "html: one self-contained file with inline SVG (default); md: Markdown plus "
      "FILE-BASE-*.svg files beside it, each with its data as FILE-BASE-*.dat", 0 },
    { "pfs-bw-walk", OPT_PFS_WALK, "RATES", 0,
      "with prices, the PFS bandwidths of the cost plot, as bbsize design's --pfs-bw: "
      "FIRST:LAST:STEP or a list (default 0.5 to 2 times the platform's PFS bandwidth in "
      "steps of 0.1 times)", 0 },
    { "load-scale", OPT_LOAD_SCALE, "FACTORS", 0,
      "load growth scenarios for the idle-versus-size plot (default 1,1.2,1.5)", 0 },
    { "points", OPT_POINTS, "N", 0, "buffer sizes per curve (default 41)", 0 },
    { "validate", OPT_VALIDATE, NULL, 0,
      "add the simulated intervals beside the predictions (needs `bbsize validate`)", 0 },
    { 0 }
};

struct args {
    BB_CMD_ARGS;       /* the shared options (cmdspec.h) */
    int md, validate, points;
    double eps;
    bb_qty_list walk;   /* --pfs-bw-walk */
    bb_num_list scales;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case OPT_FORMAT:
        if (strcmp(arg, "html") == 0)
            a->md = 0;
        else if (strcmp(arg, "md") == 0 || strcmp(arg, "markdown") == 0)
            a->md = 1;
        else
            bb_usage_value("format", arg, "html or md");
        break;
    case OPT_PFS_WALK:
        bb_qty_list_free(&a->walk);
        bb_grid_rates("pfs-bw-walk", arg, &a->walk);
        if (a->walk.n > BB_REPORT_WALK_MAX)
            bb_usage_error("pfs-bw-walk", "at most %d PFS bandwidths in a report (%zu given)",
                           BB_REPORT_WALK_MAX, a->walk.n);
        break;
    case OPT_LOAD_SCALE:
        bb_num_list_free(&a->scales);
        bb_grid_numbers("load-scale", arg, 1e-6, 1e6, &a->scales);
        if (a->scales.n > 8)
            bb_usage_error("load-scale", "at most 8 scenarios in a report (%zu given)",
                           a->scales.n);
        break;
    case OPT_POINTS:
        a->points = (int)bb_opt_long("points", arg, 3, 1000);
        break;
    case OPT_VALIDATE:
        a->validate = 1;
        break;
    case ARGP_KEY_END:
        if (a->common.out.output == NULL)   /* -o FILE, the report */
            bb_usage_required("o", "the report's FILE");
        if (a->md && strcmp(a->common.out.output, "-") == 0)
            bb_usage_error("o", "'-': a Markdown report writes its figures beside it as "
                           "FILE-BASE-*.svg, and standard output has no name to put them "
                           "beside: give -o FILE.md");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* -o FILE: the report (required; written atomically). */
static const bb_cmd_spec spec = {
    .options = options,
    .parser = parse,
    .args_doc = "[FILE]",
    .doc = "A what-if report: recommendation, idle fraction versus buffer size under load "
    "growth, load distribution, greedy versus lazy draining, inputs and assumptions; with "
    "prices, the cost against the PFS bandwidth and the cheapest design.\v"
    "Plots are drawn by gnuplot (found on PATH).  Nothing is written unless the "
    "whole report succeeds.",
    .out = BB_OUT_FILE | BB_OUT_QUIET | BB_OUT_PROGRESS,
    .runs = BB_RUN_ALL,
    .targets = BB_TGT_IDLE,
    .groups = BB_CMD_POLICY | BB_CMD_PRICES | BB_CMD_ENDURANCE,
};

static void
check_output_dir(const char *path)
{
    char tmp[4096], *dir;

    snprintf(tmp, sizeof tmp, "%s", path);
    dir = dirname(tmp);
    if (access(dir, W_OK | X_OK) != 0)
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: directory %s: %s", path, dir, strerror(errno));
}

static bb_plot_session plots;

static void
plots_cleanup(void)
{
    bb_plot_session_end(&plots);
}

/* Markdown: the plots as FILE-BASE-*.svg beside the document, each with
 * the data it is drawn from as FILE-BASE-*.dat. */
static void
figures_open(bb_report *r, const char *output)
{
    char base[4096], *dot;

    snprintf(base, sizeof base, "%s", output);
    dot = strrchr(base, '.');
    if (dot != NULL && strchr(dot, '/') == NULL)
        *dot = '\0';
    for (int i = 0; i < r->nfig; i++) {
        bb_figure *f = &r->fig[i];

        snprintf(f->file, sizeof f->file, "%s-%s.svg", base, f->id + 4);
        bb_out_open(&f->out, f->file);
        fprintf(f->out.fp, "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n%s",
                f->svg);
        snprintf(f->dfile, sizeof f->dfile, "%s-%s.dat", base, f->id + 4);
        bb_out_open(&f->dout, f->dfile);
        fputs(f->data, f->dout.fp);
    }
}

int
bb_cmd_report(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bb_report r;
    bb_report_opts o;
    bb_out main_out;
    bb_doc d;
    double *walk = NULL;
    char err[BB_ERRLEN];
    int rc;

    memset(&a, 0, sizeof a);
    a.eps = 0.01;
    a.points = 41;
    bb_cmd_parse(&spec, argc, argv, &a.c, &a);
    if (a.pol.threshold_is_size)
        bb_usage_error("threshold", "give a fraction of the buffer size (the size is what is "
                       "searched)");
    if (a.validate && a.pol.kind == BB_DRAIN_LAZY)
        bb_usage_error("validate", "the report's simulation drains greedily; leave out "
                       "--policy lazy and --threshold");
    a.eps = a.pol.eps;
    if (a.scales.n == 0)
        bb_grid_numbers("load-scale", "1,1.2,1.5", 1e-6, 1e6, &a.scales);
    check_output_dir(a.common.out.output);
    {
        /* settled on the question of its recommendation, as `size` is */
        bb_settle st = { a.tgt.target_idle, { 0, 0, 0, a.eps }, 0, 0, 0 };
        int quiet = a.common.out.quiet;

        /* silent while the resolution settles (its search's estimate
         * would be the run's one line): the report's own follows */
        a.common.out.quiet = 1;
        bb_policy_drain(&a.pol, &st.drain);
        bb_ctx_load(&ctx, &a.common, a.file, &st);
        a.common.out.quiet = quiet;
    }
    if (!bb_prices_check(&ctx, &a.prices) && a.walk.n > 0)
        bb_usage_error("pfs-bw-walk", "the walk is the cost plot's; give prices "
                       "(--cost-tb, --cost-gbs, --cost-pfs-gbs)");
    rc = bb_plot_session_begin(&plots, err, sizeof err);
    if (rc != 0)
        bb_die(rc, "%s", err);
    atexit(plots_cleanup);

    /* Everything is computed and drawn first ... */
    o = (bb_report_opts){ a.file, &a.common, a.tgt.target_idle, a.eps, &a.prices,
                          a.prices.has_tb || a.prices.has_gbs || a.prices.has_pfs_gbs,
                          a.points, a.run.threads > 0 ? a.run.threads : bb_grid_threads(),
                          a.validate, a.scales.v, a.scales.n, NULL, a.walk.n, &a.end,
                          &a.run, ctx.qn.drain };
    if (a.walk.n > 0) {
        walk = calloc(a.walk.n, sizeof *walk);
        if (walk == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        for (size_t i = 0; i < a.walk.n; i++)
            walk[i] = bb_qty_rate_Bps(&a.walk.v[i], ctx.pf.time_unit_s);
        o.walk = walk;
    }
    /* the whole report's estimate is the run's one line (cli.c: the
     * first announced), before its first search's */
    if (ctx.qn.so.announce != NULL)
        ctx.qn.so.announce(ctx.qn.so.announce_ctx, bb_report_estimate(&ctx, &o));
    bb_report_compute(&r, &ctx, &o, &plots);
    bb_report_committee(&r);
    bb_report_validate(&r);     /* before the figures: the idle plot has its points */
    bb_report_figures(&r);

    /* ... then the outputs are opened (nothing is left behind if this
     * fails) and written. */
    if (a.md)
        figures_open(&r, a.common.out.output);
    bb_out_open(&main_out, a.common.out.output);
    d.fp = main_out.fp;
    d.md = a.md;
    bb_doc_begin(&d, "Burst-buffer what-if report");
    bb_report_preamble(&d, &r);
    bb_report_sec_recommendation(&d, &r);
    bb_report_sec_idle_vs_size(&d, &r);
    bb_report_sec_load(&d, &r);
    bb_report_sec_lazy(&d, &r);
    bb_report_sec_inputs(&d, &r);
    bb_report_sec_validation(&d, &r);
    bb_doc_end(&d);
    {
        bb_out *outs[1 + 2 * BB_REPORT_NFIG] = { &main_out };
        size_t n = 1;

        if (a.md)
            for (int i = 0; i < r.nfig; i++) {
                outs[n++] = &r.fig[i].out;
                outs[n++] = &r.fig[i].dout;
            }
        bb_out_commit_all(outs, n);
    }

    bb_report_free(&r);
    free(walk);
    bb_qty_list_free(&a.walk);
    bb_num_list_free(&a.scales);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
