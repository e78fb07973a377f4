/* grid.c: option grids and scenario models for sweep and report (grid.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grid.h"
#include "progress.h"
#include "sweeprun.h"

typedef enum bb_status (*qty_parser)(const char *, bb_qty *, char *, size_t);

/* Split arg at commas or colons into a fresh array of strings. */
static size_t
split(const char *arg, char sep, char ***out)
{
    size_t n = 1, i = 0;
    char *copy = strdup(arg), *p, **v;

    for (const char *c = arg; *c; c++)
        n += *c == sep;
    v = calloc(n + 1, sizeof *v);
    if (copy == NULL || v == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    /* strtok would merge empty fields; walk by hand to keep them. */
    p = copy;
    for (;;) {
        char *e = strchr(p, sep);

        if (e)
            *e = '\0';
        v[i++] = p;
        if (!e)
            break;
        p = e + 1;
    }
    *out = v;
    return n;
}

static void
split_free(char **v)
{
    if (v) {
        free(v[0]);
        free(v);
    }
}

/* Expand "A:B:STEP" given its three parsed values into count and check. */
static size_t
range_count(const char *opt, const char *arg, double a, double b, double step)
{
    double k;

    if (!(step > 0))
        bb_usage_error(opt, "'%s': the step of a range A:B:STEP must be positive", arg);
    if (b < a)
        bb_usage_error(opt, "'%s': the end of a range A:B:STEP is below its start", arg);
    k = floor((b - a) / step + 1e-9);
    if (k + 1 > BB_GRID_MAX)
        bb_usage_error(opt, "'%s': too many values in the range (at most 100000)", arg);
    return (size_t)k + 1;
}

static void
grid_qty(const char *opt, const char *arg, qty_parser parse, bb_qty_list *out)
{
    char **f, msg[256];
    size_t nf;

    memset(out, 0, sizeof *out);
    if (strchr(arg, ':')) {
        bb_qty q[3];

        nf = split(arg, ':', &f);
        if (nf != 3) {
            split_free(f);
            bb_usage_value(opt, arg, "a range START:END:STEP");
        }
        for (int i = 0; i < 3; i++)
            if (parse(f[i], &q[i], msg, sizeof msg) != BB_OK) {
                split_free(f);
                bb_usage_error(opt, "%s", msg);
            }
        split_free(f);
        /* A plain 0 mixes with any unit; other plain values must not. */
        for (int i = 0; i < 3; i++)
            if (q[i].plain && q[i].v != 0 && !(q[0].plain && q[1].plain && q[2].plain))
                bb_usage_error(opt, "'%s': give every value of the range in units, or none",
                               arg);
        out->n = range_count(opt, arg, q[0].v, q[1].v, q[2].v);
        out->v = calloc(out->n, sizeof *out->v);
        if (out->v == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        for (size_t i = 0; i < out->n; i++) {
            out->v[i] = q[2];
            out->v[i].plain = q[0].plain && q[1].plain && q[2].plain;
            out->v[i].v = q[0].v + (double)i * q[2].v;
        }
        return;
    }
    nf = split(arg, ',', &f);
    if (nf > BB_GRID_MAX) {
        split_free(f);
        bb_usage_error(opt, "'%s': too many values (at most 100000)", arg);
    }
    out->n = nf;
    out->v = calloc(nf, sizeof *out->v);
    if (out->v == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < nf; i++)
        if (parse(f[i], &out->v[i], msg, sizeof msg) != BB_OK) {
            split_free(f);
            bb_usage_error(opt, "%s", msg);
        }
    split_free(f);
}

void
bb_grid_sizes(const char *opt, const char *arg, bb_qty_list *out)
{
    grid_qty(opt, arg, bb_parse_size, out);
}

void
bb_grid_rates(const char *opt, const char *arg, bb_qty_list *out)
{
    grid_qty(opt, arg, bb_parse_rate, out);
    for (size_t i = 0; i < out->n; i++)
        if (!(out->v[i].v > 0))
            bb_usage_error(opt, "'%s': rates must be positive", arg);
}

void
bb_grid_numbers(const char *opt, const char *arg, double lo, double hi, bb_num_list *out)
{
    char **f, msg[256];
    int range = strchr(arg, ':') != NULL;
    size_t nf = split(arg, range ? ':' : ',', &f);
    double *x = calloc(nf, sizeof *x);

    memset(out, 0, sizeof *out);
    if (x == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < nf; i++)
        if (bb_parse_number(f[i], &x[i], msg, sizeof msg) != BB_OK || !isfinite(x[i])) {
            split_free(f);
            bb_usage_value(opt, arg, "a number, a list of numbers or a range of them");
        }
    split_free(f);
    if (!range && nf > BB_GRID_MAX)
        bb_usage_error(opt, "'%s': too many values (at most 100000)", arg);
    if (range) {
        if (nf != 3)
            bb_usage_value(opt, arg, "a range START:END:STEP");
        out->n = range_count(opt, arg, x[0], x[1], x[2]);
        out->v = calloc(out->n, sizeof *out->v);
        if (out->v == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        for (size_t i = 0; i < out->n; i++)
            out->v[i] = x[0] + (double)i * x[2];
        /* The last point may overshoot the end by the 1e-9 tolerance. */
        if (out->v[out->n - 1] > x[1])
            out->v[out->n - 1] = x[1];
        free(x);
    } else {
        out->n = nf;
        out->v = x;
    }
    for (size_t i = 0; i < out->n; i++)
        if (!(out->v[i] >= lo && out->v[i] <= hi))
            bb_usage_error(opt, "'%s': %g is not in [%g, %g]", arg, out->v[i], lo, hi);
}

void
bb_qty_list_free(bb_qty_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void
bb_num_list_free(bb_num_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void
bb_scenario_apps(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps)
{
    memset(sc, 0, sizeof *sc);
    sc->load_scale = load_scale;
    sc->pfs_bw_Bps = pfs_bw_Bps;
    sc->apps = calloc(base->wl.n, sizeof *sc->apps);
    if (sc->apps == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < base->wl.n; i++) {
        sc->apps[i] = base->wl.apps[i];
        sc->apps[i].bw_Bps *= load_scale;
    }
}

void
bb_scenario_init(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps)
{
    char err[BB_ERRLEN];
    int rc = bb_scenario_try(sc, base, load_scale, pfs_bw_Bps, err);

    if (rc != BB_OK)
        bb_die_lib(rc, err);
}

int
bb_scenario_try(bb_scenario *sc, const bb_ctx *base, double load_scale, double pfs_bw_Bps,
                char *err)
{
    bba_question q = base->qn;
    int rc;

    bb_scenario_apps(sc, base, load_scale, pfs_bw_Bps);
    q.apps = sc->apps;
    q.pf.pfs_bw_Bps = pfs_bw_Bps;
    q.pf.resolution = base->pf.resolution;   /* settled once, for the base */
    q.progress = NULL;
    rc = bba_front_new(&q, &sc->front, err);
    if (rc != BB_OK) {
        const char *opt = bb_ctx_blame(base, rc, err);

        if (opt != NULL) {   /* a value of the command line (a --pfs-bw entry) */
            char r[64];

            bb_ctx_fmt_rate(base, r, sizeof r, pfs_bw_Bps);
            bb_usage_error(opt, "%s (load scale %g): %s", r, load_scale, err);
        }
        if (rc == BB_EINVAL || rc == BB_EDATA)
            bb_die(BB_EXIT_DATAERR, "%s (load scale %g): %s", base->wl.source, load_scale, err);
        if (rc != BB_EINFEASIBLE)
            bb_die_lib(rc, err);
        sc->front = NULL;
    }
    return rc;
}

void
bb_scenario_free(bb_scenario *sc)
{
    bba_front_free(sc->front);
    sc->front = NULL;
    free(sc->apps);
    sc->apps = NULL;
}

int
bb_grid_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n >= 1 ? (n > 1024 ? 1024 : (int)n) : 1;
}

void
bb_grid_cost(const bb_common *opt, const bba_sweep_point *pts, size_t n)
{
    bba_solver_opts so;
    bba_cost tot;
    char err[BB_ERRLEN], what[160];
    int rc;

    bba_solver_defaults(&so);
    so.kind = opt->solver;
    so.max_ops = opt->max_ops;
    bb_solver_announce(&so, &opt->out);
    if ((rc = bba_sweep_cost(pts, n, &so, &tot, err)) != BB_OK)
        bb_die_lib(rc, err);
    snprintf(what, sizeof what, "the grid of %zu points (fewer or smaller sizes shrink it)", n);
    if (bba_cost_admit(NULL, &tot, &so, what, err) != BB_OK)
        bb_die_lib(BB_ETOOBIG, err);
}

void
bb_grid_run(const bb_common *opt, const bba_sweep_point *pts, size_t n,
            int nthreads, bba_sweep_out *out)
{
    char err[BB_ERRLEN];
    bb_meter m;
    int rc;

    bb_grid_cost(opt, pts, n);
    bb_meter_start(&m, &opt->out, "sweep", "points", n);
    rc = bb_sweep_run(pts, n, nthreads, bb_meter_progress, &m, out, err);
    bb_meter_end(&m);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
}
