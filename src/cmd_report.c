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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "sweeprun.h"
#include "commands.h"
#include "grid.h"
#include "plot.h"

enum { OPT_COST_TB = 0x2000, OPT_COST_GBS, OPT_FORMAT,
       OPT_VALIDATE, OPT_LOAD_SCALE, OPT_POINTS, OPT_EPS };

static const struct argp_option options[] = {
    { "format", OPT_FORMAT, "html|md", 0,
      "html: one self-contained file with inline SVG (default); md: Markdown plus "
      "FILE-BASE-*.svg files beside it", 0 },
    { "cost-tb", OPT_COST_TB, "PRICE", 0, "price of one TB of burst-buffer capacity (any currency)", 0 },
    { "cost-gbs", OPT_COST_GBS, "PRICE", 0, "price of one GB/s of burst-buffer bandwidth", 0 },
    { "load-scale", OPT_LOAD_SCALE, "FACTORS", 0,
      "load growth scenarios for the idle-versus-size plot (default 1,1.2,1.5)", 0 },
    { "points", OPT_POINTS, "N", 0, "buffer sizes per curve (default 41)", 0 },
    { "empty-prob", OPT_EPS, "EPS", 0, "lazy: probability of draining below the threshold (default 0.01)", 0 },
    { "validate", OPT_VALIDATE, NULL, 0,
      "add the simulated intervals beside the predictions (needs `bbsize validate`)", 0 },
    { 0 }
};

struct args {
    bb_common common;
    const char *output, *file;
    int md, validate, points, threads;
    double target, eps, cost_tb, cost_gbs;
    int has_cost_tb, has_cost_gbs;
    bb_num_list scales;
    bb_runopts run;     /* --threads (options.h) */
    bb_tgtopts tgt;     /* --target-idle */
};

static double
price(struct argp_state *state, const char *opt, const char *arg)
{
    double v;
    char msg[128];

    if (bb_parse_number(arg, &v, msg, sizeof msg) < 0 || !isfinite(v))
        argp_error(state, "--%s: '%s' is not a number", opt, arg);
    if (v < 0)
        argp_error(state, "--%s: %s is negative (a price is >= 0)", opt, arg);
    return v;
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->common;
        state->child_inputs[1] = &a->common.out;
        state->child_inputs[2] = &a->run;
        state->child_inputs[3] = &a->tgt;
        bb_tgtopts_init(&a->tgt);
        break;
    case OPT_FORMAT:
        if (strcmp(arg, "html") == 0)
            a->md = 0;
        else if (strcmp(arg, "md") == 0 || strcmp(arg, "markdown") == 0)
            a->md = 1;
        else
            argp_error(state, "--format: '%s' is not html or md", arg);
        break;
    case OPT_COST_TB:
        a->cost_tb = price(state, "cost-tb", arg);
        a->has_cost_tb = 1;
        break;
    case OPT_COST_GBS:
        a->cost_gbs = price(state, "cost-gbs", arg);
        a->has_cost_gbs = 1;
        break;
    case OPT_LOAD_SCALE:
        bb_num_list_free(&a->scales);
        bb_grid_numbers("load-scale", arg, 1e-6, 1e6, &a->scales);
        if (a->scales.n > 8)
            argp_error(state, "--load-scale: at most 8 scenarios in a report");
        break;
    case OPT_POINTS:
        a->points = (int)bb_opt_long("points", arg, 3, 1000);
        break;
    case OPT_EPS:
        a->eps = bb_opt_fraction_closed("empty-prob", arg);
        break;
    case OPT_VALIDATE:
        a->validate = 1;
        break;
    case ARGP_KEY_ARG:
        bb_argp_file(state, arg, &a->file);
        break;
    case ARGP_KEY_END:
        a->output = a->common.out.output;   /* -o FILE, the report */
        a->target = a->tgt.target_idle;
        if (a->run.threads > 0)
            a->threads = a->run.threads;
        if (a->output == NULL)
            argp_error(state, "-o FILE is required");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* -o FILE: the report (required; written atomically). */
static const struct argp_child children[] = {
    { &bb_common_argp, 0, NULL, 0 },
    { BB_OUTPUT_ARGP(BB_OUT_FILE | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 },
    { BB_RUNS_ARGP(BB_RUN_THREADS), 0, NULL, 0 },
    { BB_TARGETS_ARGP(BB_TGT_IDLE), 0, NULL, 0 },
    { 0 }
};
static const struct argp argp = {
    options, parse, "[FILE]",
    "A what-if report: recommendation, idle fraction versus buffer size under load "
    "growth, load distribution, greedy versus lazy draining, inputs and assumptions.\v"
    "Plots are drawn by gnuplot (found on PATH).  Nothing is written unless the "
    "whole report succeeds.",
    children, NULL, NULL
};

/* ---- document writer: XHTML or Markdown --------------------------------- */

typedef struct {
    FILE *fp;
    int md;
} doc;

static void
esc(doc *d, const char *s)
{
    for (; *s; s++) {
        if (d->md) {
            if (*s == '|' || *s == '*' || *s == '_' || *s == '`')
                fputc('\\', d->fp);
            fputc(*s, d->fp);
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", d->fp); break;
        case '<': fputs("&lt;", d->fp); break;
        case '>': fputs("&gt;", d->fp); break;
        case '"': fputs("&quot;", d->fp); break;
        default: fputc(*s, d->fp);
        }
    }
}

static void
vtext(doc *d, const char *fmt, va_list ap)
{
    char buf[4096];

    vsnprintf(buf, sizeof buf, fmt, ap);
    esc(d, buf);
}

/* A paragraph or a list item: kind PARA or ITEM. */
enum { PARA, ITEM };

static void __attribute__((format(printf, 3, 4)))
block(doc *d, int kind, const char *fmt, ...)
{
    static const char *const open[2][2] = { { "<p>", "" }, { "<li>", "- " } };
    static const char *const close[2][2] = { { "</p>\n", "\n\n" }, { "</li>\n", "\n" } };
    va_list ap;

    fputs(open[kind][d->md], d->fp);
    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
    fputs(close[kind][d->md], d->fp);
}
#define para(d, ...) block((d), PARA, __VA_ARGS__)
#define item(d, ...) block((d), ITEM, __VA_ARGS__)

static void
list_begin(doc *d)
{
    if (!d->md)
        fputs("<ul>\n", d->fp);
}

static void
list_end(doc *d)
{
    fputs(d->md ? "\n" : "</ul>\n", d->fp);
}

static void
section(doc *d, const char *id, const char *title)
{
    if (d->md) {
        fprintf(d->fp, "## %s\n\n", title);
    } else {
        fprintf(d->fp, "<section id=\"%s\">\n<h2>", id);
        esc(d, title);
        fputs("</h2>\n", d->fp);
    }
}

static void
section_end(doc *d)
{
    if (!d->md)
        fputs("</section>\n", d->fp);
}

/* Tables: cells separated by '\t' in one string per row. */
static void
table_row(doc *d, const char *cells, int header)
{
    char buf[2048], *c, *next;
    int n = 0;

    snprintf(buf, sizeof buf, "%s", cells);
    fputs(d->md ? "|" : "<tr>", d->fp);
    for (c = buf; c; c = next, n++) {
        /* Split at each tab by hand: empty cells are kept. */
        if ((next = strchr(c, '\t')) != NULL)
            *next++ = '\0';
        if (d->md) {
            fputc(' ', d->fp);
            esc(d, c);
            fputs(" |", d->fp);
        } else {
            fputs(header ? "<th>" : "<td>", d->fp);
            esc(d, c);
            fputs(header ? "</th>" : "</td>", d->fp);
        }
    }
    fputs(d->md ? "\n" : "</tr>\n", d->fp);
    if (d->md && header) {
        fputc('|', d->fp);
        for (int i = 0; i < n; i++)
            fputs(" --- |", d->fp);
        fputc('\n', d->fp);
    }
}

static void
table_begin(doc *d, const char *id, const char *header)
{
    if (!d->md)
        fprintf(d->fp, "<table id=\"%s\">\n", id);
    table_row(d, header, 1);
}

static void
table_end(doc *d)
{
    fputs(d->md ? "\n" : "</table>\n", d->fp);
}

static void __attribute__((format(printf, 3, 4)))
row(doc *d, char *buf, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, 2048, fmt, ap);
    va_end(ap);
    table_row(d, buf, 0);
}

/* ---- the figures ------------------------------------------------------- */

typedef struct {
    const char *id, *caption;
    char *svg;
    bb_out out;        /* Markdown: the SVG file */
    char file[4200];   /* its path */
} figure;

static void
figure_put(doc *d, const figure *f)
{
    if (d->md) {
        char tmp[4200], *base;

        snprintf(tmp, sizeof tmp, "%s", f->file);
        base = basename(tmp);
        fprintf(d->fp, "![%s](%s)\n\n*", f->caption, base);
        esc(d, f->caption);
        fputs("*\n\n", d->fp);
    } else {
        fprintf(d->fp, "<figure id=\"%s\">\n%s\n<figcaption>", f->id, f->svg);
        esc(d, f->caption);
        fputs("</figcaption>\n</figure>\n", d->fp);
    }
}

static bb_plot_session plots;

static void
plots_cleanup(void)
{
    bb_plot_session_end(&plots);
}

static void
draw(figure *f, const bb_plot *p)
{
    char err[BB_ERRLEN];
    int rc = bb_plot_svg(&plots, p, &f->svg, err, sizeof err);

    if (rc != 0)
        bb_die(rc, "%s", err);
}

/* Display unit for sizes on an axis: divisor and name. */
static void
size_unit(const bb_ctx *c, double max_bytes, double *div, const char **name)
{
    if (c->plain) {
        *div = 1;
        *name = "data units";
    } else if (max_bytes >= 1e15 * 2) {
        *div = 1e15;
        *name = "PB";
    } else if (max_bytes >= 1e12 * 2) {
        *div = 1e12;
        *name = "TB";
    } else {
        *div = 1e9;
        *name = "GB";
    }
}

/* The smallest extra bandwidth k (quanta) above B with Pr(load > B + k) <=
 * target: what the burst buffer must absorb in all but a target fraction
 * of time units. */
static long
bb_bw_needed(const bba_model *m, double target)
{
    for (long k = 0; k + m->B <= m->M; k++)
        if (bba_dist_tail(m->dist, m->M, (double)(m->B + k)) <= target)
            return k;
    return m->M > m->B ? m->M - m->B : 0;
}

/* ---- section 6: `bbsize validate` as a child process ------------------- */

typedef struct {
    double size_bytes, analytic, mean, lo, hi;
    int agrees;
} vrow;

/* run_validate: run this binary's `validate` command on sizes 0, S/2, ...,
 * 2S (quanta) with the resolved platform and parse its CSV (the columns of
 * bbsize-validate(1)).  Returns 1 with rows, 0 when this build has no
 * validate command, -1 with a message in err when it failed. */
static int
run_validate(const bb_ctx *c, const char *file, long S, const char *dir, vrow **rows,
             size_t *nrows, char *err, size_t errlen)
{
    char exe[4096], sizes[256], pfs[64], bbw[64], tu[64], res[32], out[600], errf[600];
    const char *av[20];
    int n = 0, status, col[6], ncol = 0;
    long step = S > 1 ? S / 2 : 1;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    FILE *fp;
    char line[2048];
    static const char *const names[6] = { "bb_size_bytes", "analytic_idle", "idle_mean",
                                          "idle_ci_low", "idle_ci_high", "agrees" };

    *rows = NULL;
    *nrows = 0;
    if (len <= 0) {
        snprintf(err, errlen, "cannot find the bbsize binary: %s", strerror(errno));
        return -1;
    }
    exe[len] = '\0';
    if (c->plain) {
        snprintf(sizes, sizeof sizes, "0:%.17g:%.17g", bb_ctx_quanta_to_bytes(c, 2 * S),
                 bb_ctx_quanta_to_bytes(c, step));
        snprintf(pfs, sizeof pfs, "%.17g", c->pf.pfs_bw_Bps * c->pf.time_unit_s);
        snprintf(bbw, sizeof bbw, "%.17g", c->pf.bb_bw_Bps * c->pf.time_unit_s);
    } else {
        snprintf(sizes, sizeof sizes, "0:%.17gB:%.17gB", bb_ctx_quanta_to_bytes(c, 2 * S),
                 bb_ctx_quanta_to_bytes(c, step));
        snprintf(pfs, sizeof pfs, "%.17gB/s", c->pf.pfs_bw_Bps);
        snprintf(bbw, sizeof bbw, "%.17gB/s", c->pf.bb_bw_Bps);
    }
    snprintf(tu, sizeof tu, "%.17gs", c->pf.time_unit_s);
    snprintf(res, sizeof res, "%ld", c->pf.resolution);
    av[n++] = "bbsize";
    av[n++] = "validate";
    if (file)
        av[n++] = file;
    av[n++] = "--bb-size";
    av[n++] = sizes;
    av[n++] = "--pfs-bw";
    av[n++] = pfs;
    if (c->pf.bb_bw_Bps > 0) {
        av[n++] = "--bb-bw";
        av[n++] = bbw;
    }
    av[n++] = "--time-unit";
    av[n++] = tu;
    av[n++] = "--resolution";
    av[n++] = res;
    av[n++] = "--csv";
    av[n++] = "--quiet";
    av[n] = NULL;
    snprintf(out, sizeof out, "%s/validate.csv", dir);
    snprintf(errf, sizeof errf, "%s/validate.err", dir);
    if (bb_child_run(exe, av, out, errf, &status) < 0) {
        snprintf(err, errlen, "cannot run bbsize validate: %s", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char msg[512] = "";

        if ((fp = fopen(errf, "r")) != NULL) {
            if (fgets(msg, sizeof msg, fp) == NULL)
                msg[0] = '\0';
            fclose(fp);
        }
        msg[strcspn(msg, "\n")] = '\0';
        if (strstr(msg, "unknown command"))
            return 0;
        snprintf(err, errlen, "bbsize validate failed (status %d): %s",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, msg);
        return -1;
    }
    if ((fp = fopen(out, "r")) == NULL) {
        snprintf(err, errlen, "%.200s: %s", out, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, fp)) {
        char *f[32], *p = line, *save = NULL;
        int nf = 0;

        line[strcspn(line, "\r\n")] = '\0';
        for (p = strtok_r(line, ",", &save); p && nf < 32; p = strtok_r(NULL, ",", &save))
            f[nf++] = p;
        if (ncol == 0) {
            for (int k = 0; k < 6; k++) {
                col[k] = -1;
                for (int i = 0; i < nf; i++)
                    if (strcmp(f[i], names[k]) == 0)
                        col[k] = i;
                if (col[k] < 0) {
                    fclose(fp);
                    snprintf(err, errlen, "bbsize validate: no column '%s' in its CSV", names[k]);
                    return -1;
                }
            }
            ncol = nf;
            continue;
        }
        if (nf != ncol)
            continue;
        {
            vrow *r = realloc(*rows, (*nrows + 1) * sizeof **rows);

            if (r == NULL) {
                fclose(fp);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            *rows = r;
            r += *nrows;
            r->size_bytes = atof(f[col[0]]);
            r->analytic = atof(f[col[1]]);
            r->mean = atof(f[col[2]]);
            r->lo = atof(f[col[3]]);
            r->hi = atof(f[col[4]]);
            r->agrees = atoi(f[col[5]]);
            (*nrows)++;
        }
    }
    fclose(fp);
    return 1;
}

static void
check_output_dir(const char *path)
{
    char tmp[4096], *dir;

    snprintf(tmp, sizeof tmp, "%s", path);
    dir = dirname(tmp);
    if (access(dir, W_OK | X_OK) != 0)
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: directory %s: %s", path, dir, strerror(errno));
}

int
bb_cmd_report(int argc, char **argv)
{
    struct args a;
    bb_ctx ctx;
    bba_size_result sr;
    bba_threshold_result tr;
    bba_policy_spec ps = { 0, 0, 0.01 };
    char err[BB_ERRLEN], b1[64], b2[64], b3[64], buf[2048];
    int rc, feasible;
    long S_star, S_top, S_lazy, bwq, nsz;
    long *sizes = NULL;
    bb_scenario *sc = NULL;
    bba_sweep_point *pts = NULL;
    bba_sweep_out *out = NULL;
    size_t npts, nth = 21, nsc, nfailed = 0;
    char failed_msg[BB_ERRLEN] = "", thr_msg[BB_ERRLEN] = "";
    double qrate, sdiv, ratio;
    const char *sunit;
    figure fig[4];
    bb_out main_out;
    doc d;

    memset(&a, 0, sizeof a);
    memset(fig, 0, sizeof fig);
    bb_common_init(&a.common);
    a.target = 1e-3;
    a.eps = 0.01;
    a.points = 41;
    a.threads = bb_grid_threads();
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    if (a.scales.n == 0)
        bb_grid_numbers("load-scale", "1,1.2,1.5", 1e-6, 1e6, &a.scales);
    check_output_dir(a.output);
    bb_ctx_load(&ctx, &a.common, a.file);
    if (ctx.plain && (a.has_cost_tb || a.has_cost_gbs))
        bb_die(BB_EXIT_USAGE, "options '--cost-tb', '--cost-gbs': the workload and platform are in "
               "data units, not bytes; give --pfs-bw with a unit (e.g. 1.45TB/s) to price them");
    rc = bb_plot_session_begin(&plots, err, sizeof err);
    if (rc != 0)
        bb_die(rc, "%s", err);
    atexit(plots_cleanup);

    /* 1. The recommendation: exactly what `bbsize size` computes. */
    ps.eps = a.eps;
    ratio = bba_model_load_ratio(&ctx.model);
    rc = bba_size_min(&ctx.model, a.target, &ps, &ctx.so, bb_ctx_s_max(&ctx), NULL, NULL, &sr, err);
    if (rc != BB_OK && rc != BB_EINFEASIBLE)
        bb_die_lib(rc, err);
    feasible = rc == BB_OK;
    S_star = feasible ? sr.best.S : -1;
    bwq = bb_bw_needed(&ctx.model, a.target);
    qrate = ctx.q.quantum_bytes / ctx.pf.time_unit_s;

    /* 2. Idle versus size for each load scale, sizes 0..S_top. */
    S_top = feasible ? 2 * S_star : ctx.model.M;
    if (S_top < 10)
        S_top = 10;
    if (S_top > bb_ctx_s_max(&ctx))
        S_top = bb_ctx_s_max(&ctx);
    sizes = calloc((size_t)a.points, sizeof *sizes);
    if (sizes == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    nsz = 0;
    for (int i = 0; i < a.points; i++) {
        long s = lround((double)i * (double)S_top / (double)(a.points - 1));

        if (nsz == 0 || s != sizes[nsz - 1])
            sizes[nsz++] = s;
    }
    nsc = a.scales.n;
    npts = nsc * (size_t)nsz + nth;
    sc = calloc(nsc, sizeof *sc);
    pts = calloc(npts, sizeof *pts);
    out = calloc(npts, sizeof *out);
    if (sc == NULL || pts == NULL || out == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < nsc; i++) {
        bb_scenario_init(&sc[i], &ctx, a.scales.v[i], ctx.pf.pfs_bw_Bps);
        for (long z = 0; z < nsz; z++) {
            bba_sweep_point *p = &pts[i * (size_t)nsz + (size_t)z];

            p->model = &sc[i].ctx.model;
            /* Same bytes in every scenario: the quantum does not depend on the load. */
            p->S = sizes[z];
            p->pol.eps = a.eps;
        }
    }
    /* 4. Lazy thresholds 0, 0.05, ..., 1 at the recommended size. */
    S_lazy = feasible ? S_star : S_top;
    for (size_t t = 0; t < nth; t++) {
        bba_sweep_point *p = &pts[nsc * (size_t)nsz + t];

        p->model = &ctx.model;
        p->S = S_lazy;
        p->pol.lazy = 1;
        p->pol.eps = a.eps;
        p->pol.threshold = (long)floor((double)t / (double)(nth - 1) * (double)S_lazy);
    }
    /* A point the solver cannot do (a lazy chain at an extreme threshold,
     * say) is left out of the plots and named, not fatal to the report. */
    rc = bb_sweep_run(pts, npts, &ctx.so, a.threads, NULL, NULL, out, err);
    if (rc != BB_OK && rc != BB_ENOMEM) {
        for (size_t i = 0; i < npts; i++)
            if (out[i].status != BB_OK) {
                out[i].r.meas.idle = out[i].r.meas.quiet = NAN;
                out[i].r.threshold = pts[i].pol.threshold;
                nfailed++;
            }
        snprintf(failed_msg, sizeof failed_msg, "%s", err);
        bb_warn("%zu of %zu points could not be solved and are left out (first: %s)", nfailed,
                npts, err);
    } else if (rc != BB_OK) {
        bb_die_lib(rc, err);
    }
    rc = bba_threshold_best(&ctx.model, S_lazy, a.target, a.eps, 20, &ctx.so, NULL, NULL, &tr, err);
    if (rc != BB_OK) {
        snprintf(thr_msg, sizeof thr_msg, "%s", err);
        bb_warn("best threshold: %s", err);
    }

    /* The plots. */
    size_unit(&ctx, bb_ctx_quanta_to_bytes(&ctx, S_top), &sdiv, &sunit);
    {
        bb_plot_series *se = calloc(nsc + 1, sizeof *se);
        double *xs = calloc((size_t)nsz, sizeof *xs), *ys = calloc(nsc * (size_t)nsz, sizeof *ys);
        double tx[2], ty[2];
        char (*names)[96] = calloc(nsc, sizeof *names);
        char xl[128], ttl[256];
        bb_plot p;

        if (se == NULL || xs == NULL || ys == NULL || names == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        for (long z = 0; z < nsz; z++)
            xs[z] = bb_ctx_quanta_to_bytes(&ctx, sizes[z]) / sdiv;
        for (size_t i = 0; i < nsc; i++) {
            for (long z = 0; z < nsz; z++)
                ys[i * (size_t)nsz + (size_t)z] = out[i * (size_t)nsz + (size_t)z].r.meas.idle;
            snprintf(names[i], sizeof names[i], "load x%g (E/B = %.3g)", a.scales.v[i],
                     bba_model_load_ratio(&sc[i].ctx.model));
            se[i] = (bb_plot_series){ names[i], xs, ys + i * (size_t)nsz, (size_t)nsz, "linespoints", 0 };
        }
        tx[0] = xs[0];
        tx[1] = xs[nsz - 1];
        ty[0] = ty[1] = a.target;
        snprintf(ttl, sizeof ttl, "target idle fraction %g", a.target);
        se[nsc] = (bb_plot_series){ ttl, tx, ty, 2, "lines", 2 };
        snprintf(xl, sizeof xl, "burst-buffer size (%s)", sunit);
        p = (bb_plot){ "Idle fraction versus burst-buffer size (greedy draining)", xl,
                       "idle fraction (log scale)", 1, 0, 0, se, nsc + 1, "idle-vs-size" };
        fig[0].id = "fig-idle-vs-size";
        fig[0].caption = "Idle fraction versus buffer size, for the workload and for load growth "
                         "(every bandwidth scaled); the paper's Figure 3 view.";
        draw(&fig[0], &p);
        free(se);
        free(xs);
        free(ys);
        free(names);
    }
    {
        const bba_model *m = &ctx.model;
        size_t n = (size_t)m->M + 1;
        double *x = calloc(n, sizeof *x), *cdf = calloc(n, sizeof *cdf), *lo = calloc(n, sizeof *lo),
               *hi = calloc(n, sizeof *hi), c = 0, bx[2], by[2], rdiv = ctx.plain ? 1 : 1e9;
        char xl[128], bl[128];
        bb_plot_series se[4];
        bb_plot p;

        if (x == NULL || cdf == NULL || lo == NULL || hi == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        for (size_t k = 0; k < n; k++) {
            c += m->dist[k];
            x[k] = (double)k * qrate / rdiv * (ctx.plain ? ctx.pf.time_unit_s : 1);
            cdf[k] = c > 1 ? 1 : c;
            lo[k] = bba_chernoff_cdf_lower(&m->mom, (double)k);
            hi[k] = bba_chernoff_cdf_upper(&m->mom, (double)k);
        }
        bx[0] = bx[1] = ctx.pf.pfs_bw_Bps / rdiv * (ctx.plain ? ctx.pf.time_unit_s : 1);
        by[0] = 0;
        by[1] = 1;
        bb_ctx_fmt_rate(&ctx, b1, sizeof b1, ctx.pf.pfs_bw_Bps);
        snprintf(bl, sizeof bl, "PFS bandwidth B = %s", b1);
        se[0] = (bb_plot_series){ "exact CDF (Algorithm 1)", x, cdf, n, "steps", 0 };
        se[1] = (bb_plot_series){ "Chernoff lower bound (Theorem 1)", x, lo, n, "lines", 2 };
        se[2] = (bb_plot_series){ "Chernoff upper bound (Theorem 1)", x, hi, n, "lines", 3 };
        se[3] = (bb_plot_series){ bl, bx, by, 2, "lines", 4 };
        snprintf(xl, sizeof xl, "instantaneous I/O load (%s)", ctx.plain ? "data units per time unit" : "GB/s");
        p = (bb_plot){ "Distribution of the instantaneous load: Pr(load <= x)", xl,
                       "cumulative probability", 0, 0, 1.05, se, 4,
                       "load-distribution" };
        fig[1].id = "fig-load-distribution";
        fig[1].caption = "Cumulative distribution of the instantaneous I/O load with the Chernoff "
                         "bounds of Theorem 1; the paper's Figure 2 view.";
        draw(&fig[1], &p);
        free(x);
        free(cdf);
        free(lo);
        free(hi);
    }
    {
        double tx[21], idle[21], quiet[21], gx[2], gi[2], gq[2], ty[2];
        char ttl[128], t_idle[160], t_quiet[160], szs[64];
        bb_plot_series se[3];
        bb_plot p;
        const bba_sweep_out *lz = out + nsc * (size_t)nsz;

        for (size_t t = 0; t < nth; t++) {
            tx[t] = (double)t / (double)(nth - 1);
            idle[t] = lz[t].r.meas.idle;
            quiet[t] = lz[t].r.meas.quiet;
        }
        gx[0] = 0;
        gx[1] = 1;
        gi[0] = gi[1] = lz[0].r.meas.idle;
        gq[0] = gq[1] = lz[0].r.meas.quiet;
        ty[0] = ty[1] = a.target;
        snprintf(ttl, sizeof ttl, "target idle fraction %g", a.target);
        bb_ctx_fmt_size(&ctx, szs, sizeof szs, bb_ctx_quanta_to_bytes(&ctx, S_lazy));
        snprintf(t_idle, sizeof t_idle, "Idle fraction versus lazy threshold, %s buffer", szs);
        snprintf(t_quiet, sizeof t_quiet, "Quiet fraction versus lazy threshold, %s buffer", szs);
        se[0] = (bb_plot_series){ "lazy draining", tx, idle, nth, "linespoints", 0 };
        se[1] = (bb_plot_series){ "greedy draining", gx, gi, 2, "lines", 2 };
        se[2] = (bb_plot_series){ ttl, gx, ty, 2, "lines", 3 };
        p = (bb_plot){ t_idle, "threshold (fraction of the buffer size)",
                       "idle fraction (log scale)", 1, 0, 0, se, 3, "lazy-idle" };
        fig[2].id = "fig-lazy-idle";
        fig[2].caption = "Idle fraction of lazy draining versus its threshold at the recommended "
                         "size; the paper's Figure 5 view.";
        draw(&fig[2], &p);
        se[0] = (bb_plot_series){ "lazy draining", tx, quiet, nth, "linespoints", 0 };
        se[1] = (bb_plot_series){ "greedy draining", gx, gq, 2, "lines", 2 };
        p = (bb_plot){ t_quiet, "threshold (fraction of the buffer size)",
                       "quiet fraction (time units without draining)", 0, 0, 0, se, 2,
                       "lazy-quiet" };
        fig[3].id = "fig-lazy-quiet";
        fig[3].caption = "Quiet fraction (time units in which the buffer is not drained) versus "
                         "the threshold; the paper's Figure 6 view.";
        draw(&fig[3], &p);
    }

    /* Everything is computed: now open the outputs (nothing is left behind
     * if this fails) and write. */
    if (a.md) {
        char base[4096], *dot;

        snprintf(base, sizeof base, "%s", a.output);
        dot = strrchr(base, '.');
        if (dot != NULL && strchr(dot, '/') == NULL)
            *dot = '\0';
        for (int i = 0; i < 4; i++) {
            snprintf(fig[i].file, sizeof fig[i].file, "%s-%s.svg", base, fig[i].id + 4);
            bb_out_open(&fig[i].out, fig[i].file);
            fprintf(fig[i].out.fp, "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n%s", fig[i].svg);
        }
    }
    bb_out_open(&main_out, a.output);
    d.fp = main_out.fp;
    d.md = a.md;
    if (!d.md)
        fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n"
              "<head>\n<meta charset=\"utf-8\"/>\n<title>bbsize what-if report</title>\n<style>\n"
              "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}\n"
              "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .6em;"
              "text-align:right}th{background:#eee}figure{margin:1em 0}svg{max-width:100%;height:auto}\n"
              ".answer{font-size:1.2em;background:#eef6ee;padding:.6em;border-left:4px solid #3a3}\n"
              "</style>\n</head>\n<body>\n<h1>Burst-buffer what-if report</h1>\n", d.fp);
    else
        fputs("# Burst-buffer what-if report\n\n", d.fp);
    para(&d, "Workload %s (%zu applications)%s%s; generated by %s from the analytic model of "
         "Aupy, Beaumont and Eyraud-Dubois, \"What size should your Burst-Buffers be?\" (2017).",
         ctx.wl.source, ctx.q.n, ctx.has_system ? "; platform preset " : "",
         ctx.has_system ? ctx.sys.name : "", PACKAGE_STRING);
    {
        char md[160];

        bb_ctx_model_desc(&ctx, md, sizeof md);
        para(&d, "Every figure below comes from the %s.", md);
    }

    section(&d, "recommendation", "1. Recommendation");
    bb_ctx_fmt_rate(&ctx, b3, sizeof b3, ctx.pf.pfs_bw_Bps);
    if (feasible) {
        double size_b = bb_ctx_quanta_to_bytes(&ctx, S_star), bw_b = (double)bwq * qrate;

        bb_ctx_fmt_size(&ctx, b1, sizeof b1, size_b);
        bb_ctx_fmt_rate(&ctx, b2, sizeof b2, bw_b);
        if (!d.md)
            fputs("<p class=\"answer\" id=\"answer\">", d.fp);
        snprintf(buf, sizeof buf, "burst buffer %s (%ld quanta): idle fraction %.3g <= %g with "
                 "greedy draining; E/B = %.3g", b1, S_star, sr.best.meas.idle, a.target, ratio);
        esc(&d, buf);
        fputs(d.md ? "\n\n" : "</p>\n", d.fp);
        para(&d, "Burst-buffer bandwidth: %s above the PFS bandwidth %s covers the instantaneous "
             "load in all but a fraction %g of time units (the smallest k with "
             "Pr(load > B + k) <= the target; from the exact distribution).", b2, b3, a.target);
        if (a.has_cost_tb || a.has_cost_gbs) {
            double ct = a.has_cost_tb ? a.cost_tb * size_b / 1e12 : 0;
            double cb = a.has_cost_gbs ? a.cost_gbs * bw_b / 1e9 : 0;

            table_begin(&d, "cost", "item\tquantity\tunit price\tcost");
            if (a.has_cost_tb)
                row(&d, buf, "capacity\t%.6g TB\t%g per TB\t%.2f", size_b / 1e12, a.cost_tb, ct);
            if (a.has_cost_gbs)
                row(&d, buf, "bandwidth\t%.6g GB/s\t%g per GB/s\t%.2f", bw_b / 1e9, a.cost_gbs, cb);
            row(&d, buf, "total\t\t\t%.2f", ct + cb);
            table_end(&d);
        }
        if (ctx.has_system) {
            if (ctx.sys.bb_size.set) {
                bb_fmt_size(b1, sizeof b1, ctx.sys.bb_size.v, 0);
                if (size_b > 0)
                    para(&d, "%s has %s of burst buffer: %s the recommended size (%.3g times).",
                         ctx.sys.name, b1, ctx.sys.bb_size.v >= size_b ? "at least" : "less than",
                         ctx.sys.bb_size.v / size_b);
                else
                    para(&d, "%s has %s of burst buffer; this workload needs none to meet the "
                         "target (the PFS alone keeps idle <= %g).", ctx.sys.name, b1, a.target);
            }
            if (ctx.sys.bb_bw.set) {
                bb_fmt_rate(b1, sizeof b1, ctx.sys.bb_bw.v, 1, 0);
                para(&d, "%s's burst-buffer bandwidth is %s: %s the bandwidth above.", ctx.sys.name, b1,
                     ctx.sys.bb_bw.v >= bw_b ? "at least" : "less than");
            }
        }
    } else {
        if (!d.md)
            fputs("<p class=\"answer\" id=\"answer\">", d.fp);
        snprintf(buf, sizeof buf, "no burst-buffer size suffices: the expected load is %.4g times "
                 "the PFS bandwidth (%s), so as the buffer grows the idle fraction only falls to "
                 "1 - B/E = %.4g > %g; add PFS bandwidth or reduce the load", ratio, b3,
                 sr.idle_limit, a.target);
        esc(&d, buf);
        fputs(d.md ? "\n\n" : "</p>\n", d.fp);
    }
    para(&d, "Sizes are exact to one quantum (%s); bandwidths are rounded by at most %s per time "
         "unit (resolution %ld).",
         (bb_ctx_fmt_size(&ctx, b1, sizeof b1, ctx.q.quantum_bytes), b1),
         (bb_ctx_fmt_size(&ctx, b2, sizeof b2, ctx.q.max_round_bytes), b2), ctx.pf.resolution);
    section_end(&d);

    section(&d, "idle-vs-size", "2. Idle fraction versus buffer size");
    figure_put(&d, &fig[0]);
    {
        char hdr[1024];
        size_t off = (size_t)snprintf(hdr, sizeof hdr, "size\tsize (bytes)\tquanta");

        for (size_t i = 0; i < nsc && off < sizeof hdr; i++)
            off += (size_t)snprintf(hdr + off, sizeof hdr - off, "\tidle, load x%g", a.scales.v[i]);
        if (!d.md)
            fputs("<details><summary>Data of the plot</summary>\n", d.fp);
        table_begin(&d, "idle-table", hdr);
        for (long z = 0; z < nsz; z++) {
            off = 0;
            bb_ctx_fmt_size(&ctx, b1, sizeof b1, bb_ctx_quanta_to_bytes(&ctx, sizes[z]));
            off = (size_t)snprintf(buf, sizeof buf, "%s\t%.0f\t%ld", b1,
                                   bb_ctx_quanta_to_bytes(&ctx, sizes[z]), sizes[z]);
            for (size_t i = 0; i < nsc && off < sizeof buf; i++) {
                double v = out[i * (size_t)nsz + (size_t)z].r.meas.idle;

                off += (size_t)snprintf(buf + off, sizeof buf - off, isnan(v) ? "\tn/a" : "\t%.4g", v);
            }
            table_row(&d, buf, 0);
        }
        table_end(&d);
        if (!d.md)
            fputs("</details>\n", d.fp);
    }
    for (size_t i = 0; i < nsc; i++) {
        double r = bba_model_load_ratio(&sc[i].ctx.model);

        if (r >= 1)
            para(&d, "Load x%g: E/B = %.3g >= 1, no buffer size suffices; the idle fraction tends to "
                 "1 - B/E = %.3g.", a.scales.v[i], r, 1 - 1 / r);
    }
    section_end(&d);

    section(&d, "load-distribution", "3. Instantaneous load distribution");
    figure_put(&d, &fig[1]);
    {
        const bba_model *m = &ctx.model;

        bb_ctx_fmt_rate(&ctx, b1, sizeof b1, m->mom.mean * qrate);
        bb_ctx_fmt_rate(&ctx, b2, sizeof b2, sqrt(m->mom.variance) * qrate);
        para(&d, "Expected load E = %s (E/B = %.4g), standard deviation %s; Pr(load > B = %s) = %.6g "
             "(Theorem 1 bound: <= %.4g).", b1, ratio, b2, b3,
             bba_dist_tail(m->dist, m->M, (double)m->B),
             1.0 - bba_chernoff_cdf_lower(&m->mom, (double)m->B));
    }
    section_end(&d);

    section(&d, "greedy-vs-lazy", "4. Greedy versus lazy draining");
    figure_put(&d, &fig[2]);
    figure_put(&d, &fig[3]);
    bb_ctx_fmt_size(&ctx, b1, sizeof b1, bb_ctx_quanta_to_bytes(&ctx, S_lazy));
    if (thr_msg[0]) {
        para(&d, "The best threshold could not be computed: %s.", thr_msg);
    } else if (tr.feasible) {
        bb_ctx_fmt_size(&ctx, b2, sizeof b2, bb_ctx_quanta_to_bytes(&ctx, tr.best.threshold));
        if (!d.md)
            fputs("<p id=\"best-threshold\">", d.fp);
        snprintf(buf, sizeof buf, "Best lazy threshold for a %s buffer: %s (%.1f%% of the buffer): "
                 "quiet %.4g (greedy %.4g), idle %.3g <= %g (greedy %.3g); EPS %g.", b1, b2,
                 S_lazy > 0 ? 100.0 * (double)tr.best.threshold / (double)S_lazy : 0.0,
                 tr.best.meas.quiet, tr.greedy.meas.quiet, tr.best.meas.idle, a.target,
                 tr.greedy.meas.idle, a.eps);
        esc(&d, buf);
        fputs(d.md ? "\n\n" : "</p>\n", d.fp);
    } else {
        para(&d, "No threshold keeps idle <= %g with a %s buffer: even greedy draining idles %.3g "
             "of the time.", a.target, b1, tr.greedy.meas.idle);
    }
    if (!d.md)
        fputs("<details><summary>Data of the plots</summary>\n", d.fp);
    table_begin(&d, "lazy-table", "threshold (fraction)\tthreshold\tidle\tquiet");
    for (size_t t = 0; t < nth; t++) {
        const bba_sweep_out *o = &out[nsc * (size_t)nsz + t];

        bb_ctx_fmt_size(&ctx, b2, sizeof b2, bb_ctx_quanta_to_bytes(&ctx, o->r.threshold));
        if (isnan(o->r.meas.idle))
            row(&d, buf, "%.2f\t%s\tn/a\tn/a", (double)t / (double)(nth - 1), b2);
        else
            row(&d, buf, "%.2f\t%s\t%.4g\t%.4g", (double)t / (double)(nth - 1), b2, o->r.meas.idle,
                o->r.meas.quiet);
    }
    table_end(&d);
    if (!d.md)
        fputs("</details>\n", d.fp);
    section_end(&d);

    section(&d, "inputs", "5. Inputs, assumptions and resolution");
    if (nfailed)
        para(&d, "%zu of the %zu evaluated points could not be solved and are missing from the "
             "plots and tables (n/a); the first: %s.", nfailed, npts, failed_msg);
    table_begin(&d, "platform", "parameter\tvalue\tsource");
    row(&d, buf, "PFS bandwidth B\t%s\t%s", b3,
        a.common.pfs_bw.set ? "--pfs-bw" : ctx.has_system && ctx.sys.pfs_bw.set ? ctx.sys.path : ctx.wl.source);
    if (ctx.pf.bb_bw_Bps > 0) {
        bb_ctx_fmt_rate(&ctx, b1, sizeof b1, ctx.pf.bb_bw_Bps);
        row(&d, buf, "burst-buffer bandwidth\t%s\t%s", b1,
            a.common.bb_bw.set ? "--bb-bw" : ctx.has_system && ctx.sys.bb_bw.set ? ctx.sys.path : ctx.wl.source);
    }
    bb_fmt_duration(b1, sizeof b1, ctx.pf.time_unit_s);
    row(&d, buf, "time unit\t%s\t%s", b1,
        a.common.time_unit.set ? "--time-unit"
        : ctx.has_system && ctx.sys.time_unit.set ? ctx.sys.path
        : ctx.wl.time_unit.set ? ctx.wl.source : "default");
    row(&d, buf, "resolution R\t%ld quanta per B and time unit\t%s", ctx.pf.resolution,
        a.common.resolution ? "--resolution" : "default or file");
    bb_ctx_fmt_size(&ctx, b1, sizeof b1, ctx.q.quantum_bytes);
    row(&d, buf, "quantum q = B x time unit / R\t%s\tderived", b1);
    bb_ctx_fmt_size(&ctx, b1, sizeof b1, ctx.q.max_round_bytes);
    row(&d, buf, "largest bandwidth rounding\t%s per time unit\tderived", b1);
    row(&d, buf, "target idle fraction\t%g\t%s", a.target, "--target-idle");
    row(&d, buf, "lazy EPS\t%g\t--empty-prob", a.eps);
    /* Every solve of the report ran ctx.so; the FFT solver alone may hand
     * a chain to banded GTH, and the row says so. */
    row(&d, buf, "stationary solver\t%s%s\t%s", bba_solver_name(ctx.so.kind),
        ctx.so.kind == BBA_SOLVER_FFT ? " (banded GTH where GMRES does not converge)" : "",
        a.common.solver_set ? "--solver" : "default");
    if (ctx.has_system) {
        row(&d, buf, "platform preset\t%s: %s\t%s", ctx.sys.name, ctx.sys.title, ctx.sys.path);
        if (ctx.sys.compute_nodes)
            row(&d, buf, "compute nodes\t%ld\t%s", ctx.sys.compute_nodes, ctx.sys.path);
    }
    table_end(&d);
    table_begin(&d, "applications", "application\tp (fraction of time units)\tbandwidth\tquanta");
    for (size_t i = 0; i < ctx.q.n; i++) {
        bb_ctx_fmt_rate(&ctx, b1, sizeof b1, ctx.wl.apps[i].bw_Bps);
        row(&d, buf, "%s\t%.4g\t%s\t%ld", ctx.wl.apps[i].name, ctx.wl.apps[i].p, b1, ctx.q.b[i]);
    }
    table_end(&d);
    para(&d, "Assumptions of the model (Aupy et al. 2017, Sections 3-5):");
    list_begin(&d);
    if (ctx.model_kind == BB_MODEL_BERNOULLI)
        item(&d, "in every time unit each application does I/O with probability p at its "
             "bandwidth, independently of the others and of the previous time unit (no memory);");
    else
        item(&d, "each application does I/O a fraction p of the time units, in I/O phases of "
             "the mean length of its burst column (a two-state ON/OFF Markov chain over time "
             "units, independent of the others; issue 13), where the paper draws every time "
             "unit afresh;");
    item(&d, "all applications share one time unit, which should be close to their I/O burst "
         "duration; the PFS takes B per time unit and the excess goes to the burst buffer;");
    item(&d, "when the buffer would overflow, every application stalls for one time unit while it "
         "drains at B (the idle fraction); the buffer's own bandwidth is not a constraint of the chain;");
    item(&d, "reads and writes are one load; node-local devices are pooled as if shared;");
    item(&d, "bandwidths are rounded to quanta of B/R; the answers are stationary (long-run) fractions.");
    list_end(&d);
    section_end(&d);

    section(&d, "validation", "6. Simulation beside the predictions");
    if (a.validate) {
        vrow *vr = NULL;
        size_t nv = 0;
        int vs = run_validate(&ctx, a.file, S_lazy, plots.dir, &vr, &nv, err, sizeof err);

        if (vs == 1) {
            para(&d, "The analytic idle fraction beside the simulated mean and its 95%% confidence "
                 "interval (bbsize validate with its defaults: Bernoulli applications, 15 "
                 "replications, seed 1), greedy draining.");
            table_begin(&d, "validation-table",
                        "size\tanalytic idle\tsimulated mean\t95% interval\tagrees");
            for (size_t i = 0; i < nv; i++) {
                bb_ctx_fmt_size(&ctx, b1, sizeof b1, vr[i].size_bytes);
                row(&d, buf, "%s\t%.4g\t%.4g\t[%.4g, %.4g]\t%s", b1, vr[i].analytic, vr[i].mean,
                    vr[i].lo, vr[i].hi, vr[i].agrees ? "yes" : "no");
            }
            table_end(&d);
        } else if (vs == 0) {
            para(&d, "Pending: this build of bbsize has no `bbsize validate` command, so no "
                 "simulated intervals are shown.  Rerun with --validate once the simulator is "
                 "part of the build.");
            bb_warn("--validate: `bbsize validate` is not in this build; the validation section is pending");
        } else {
            para(&d, "Validation failed: %s.", err);
            bb_warn("--validate: %s", err);
        }
        free(vr);
    } else {
        para(&d, "Not requested (run with --validate to put simulated confidence intervals beside "
             "the predictions).");
    }
    section_end(&d);
    if (!d.md)
        fputs("</body>\n</html>\n", d.fp);

    if (a.md)
        for (int i = 0; i < 4; i++)
            bb_out_commit(&fig[i].out);
    bb_out_commit(&main_out);

    for (int i = 0; i < 4; i++)
        free(fig[i].svg);
    for (size_t i = 0; i < nsc; i++)
        bb_scenario_free(&sc[i]);
    free(sc);
    free(pts);
    free(out);
    free(sizes);
    bb_num_list_free(&a.scales);
    bb_ctx_free(&ctx);
    return BB_EXIT_OK;
}
