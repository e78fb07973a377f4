/* job_keys.c: the keys of a scenario job (job_keys.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "job_keys.h"
#include "units.h"

/* ---- MFNetSim models ----------------------------------------------------- */

/* An integer in [0, 1e9]. */
static int
parse_int(const char *s, int *v)
{
    long x;

    if (bb_parse_long_in(s, 0, 1000000000, &x))
        return BB_EINVAL;
    *v = (int)x;
    return BB_OK;
}

/* "3x4x5x5" into at most max ints. */
static int
parse_dims(const char *s, int *d, int max, int *n)
{
    char buf[128];
    if (strlen(s) >= sizeof buf)
        return BB_EINVAL;
    strcpy(buf, s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, "xX", &save); t; t = strtok_r(NULL, "xX", &save)) {
        if (*n >= max || parse_int(t, &d[*n]) || d[*n] <= 0)
            return BB_EINVAL;
        (*n)++;
    }
    return *n > 0 ? BB_OK : BB_EINVAL;
}

static const char *const keys_of[BBS_MODEL_N] = {
    "iterations, compute, msg_bytes, dims, allreduces, allreduce_bytes",
    "grid, elements, orders, cg_iterations, dof_bytes, compute, allreduces, allreduce_bytes",
    "iterations, compute, total_bytes, mtti, delta",
    "iterations, compute, allreduce_bytes, read_bytes, batch_op"
};

enum bb_status
bbs_model_set(bbs_model *m, const char *key, const char *value, char *err)
{
    int k = m->kind, ok = BB_EINVAL, n;
    const char *what = "a number";
#define IS(name, ...) (strcmp(key, name) == 0 && (0 __VA_ARGS__))
    if (IS("iterations", || k == BBS_MODEL_MILC || k == BBS_MODEL_CHECKPOINT
           || k == BBS_MODEL_COSMOFLOW)) {
        what = "an integer >= 1";
        ok = parse_int(value, &m->iterations) == BB_OK && m->iterations >= 1 ? BB_OK : BB_EINVAL;
    } else if (IS("compute", || 1)) {
        what = "a time in " BB_SIM_TIME_RANGE " (" BB_TIME_UNITS ")";
        ok = bb_unit_sim_seconds(value, &m->compute_s);
    } else if (IS("msg_bytes", || k == BBS_MODEL_MILC)) {
        what = "a size >= 0 (" BB_SIZE_UNITS ")";
        ok = bb_unit_bytes(value, &m->msg_bytes);
    } else if (IS("dims", || k == BBS_MODEL_MILC)) {
        what = "dimensions like 3x4x5x5";
        ok = parse_dims(value, m->dims, BBS_MODEL_MAXDIMS, &m->ndims);
    } else if (IS("allreduces", || k == BBS_MODEL_MILC || k == BBS_MODEL_NEKBONE)) {
        what = "an integer >= 0";
        ok = parse_int(value, &m->allreduces);
    } else if (IS("allreduce_bytes", || k != BBS_MODEL_CHECKPOINT)) {
        what = "a size >= 0 (" BB_SIZE_UNITS ")";
        ok = bb_unit_bytes(value, &m->allreduce_bytes);
    } else if (IS("grid", || k == BBS_MODEL_NEKBONE)) {
        what = "three dimensions like 5x6x10";
        ok = parse_dims(value, m->grid, 3, &n) == BB_OK && n == 3 ? BB_OK : BB_EINVAL;
    } else if (IS("elements", || k == BBS_MODEL_NEKBONE)) {
        what = "elements per rank along x, y, z like 13x13x5, or one for all three";
        ok = parse_dims(value, m->elem, 3, &n) == BB_OK && (n == 1 || n == 3) ? BB_OK
                                                                             : BB_EINVAL;
        if (ok == BB_OK && n == 1)
            m->elem[1] = m->elem[2] = m->elem[0];
    } else if (IS("orders", || k == BBS_MODEL_NEKBONE)) {
        what = "begin:end:step like 8:18:3";
        int b, e, s;
        char tail;
        ok = sscanf(value, "%d:%d:%d%c", &b, &e, &s, &tail) == 3 && b >= 1 && e > b && s >= 1
                 ? BB_OK : BB_EINVAL;
        if (ok == BB_OK)
            m->p_begin = b, m->p_end = e, m->p_step = s;
    } else if (IS("cg_iterations", || k == BBS_MODEL_NEKBONE)) {
        what = "an integer >= 1";
        ok = parse_int(value, &m->cg_iterations) == BB_OK && m->cg_iterations >= 1 ? BB_OK
                                                                                     : BB_EINVAL;
    } else if (IS("dof_bytes", || k == BBS_MODEL_NEKBONE)) {
        what = "a size > 0";
        ok = bb_unit_bytes(value, &m->dof_bytes) == BB_OK && m->dof_bytes > 0 ? BB_OK
                                                                                    : BB_EINVAL;
    } else if (IS("total_bytes", || k == BBS_MODEL_CHECKPOINT)) {
        what = "a size > 0 (" BB_SIZE_UNITS "; a request of 0 B moves nothing)";
        ok = bb_unit_bytes(value, &m->total_bytes) == BB_OK && m->total_bytes > 0 ? BB_OK
                                                                                  : BB_EINVAL;
    } else if (IS("mtti", || k == BBS_MODEL_CHECKPOINT)) {
        what = "a time >= 0 (" BB_TIME_UNITS ")";
        ok = bb_unit_seconds(value, &m->mtti_s);
    } else if (IS("delta", || k == BBS_MODEL_CHECKPOINT)) {
        what = "a time in " BB_SIM_TIME_RANGE " (" BB_TIME_UNITS ")";
        ok = bb_unit_sim_seconds(value, &m->delta_s);
    } else if (IS("read_bytes", || k == BBS_MODEL_COSMOFLOW)) {
        what = "a size > 0 (" BB_SIZE_UNITS "; a request of 0 B moves nothing)";
        ok = bb_unit_bytes(value, &m->read_bytes) == BB_OK && m->read_bytes > 0 ? BB_OK
                                                                                : BB_EINVAL;
    } else if (IS("batch_op", || k == BBS_MODEL_COSMOFLOW)) {
        what = "read (the paper) or write (the artifact)";
        ok = !strcasecmp(value, "read") || !strcasecmp(value, "write") ? BB_OK : BB_EINVAL;
        if (ok == BB_OK)
            m->batch_write = !strcasecmp(value, "write");
    } else {
        return bb_seterr(err, BB_EINVAL, "unknown parameter '%s' for model %s (known: %s)", key,
                         bbs_model_name(k), keys_of[k]);
    }
#undef IS
    if (ok != BB_OK)
        return bb_seterr(err, BB_EINVAL, "parameter '%s': '%s' is not %s", key, value, what);
    return BB_OK;
}

/* ---- trace jobs ---------------------------------------------------------- */

static const char *const keys[BBS_TJ_N] = {
    "scale, edgefactor, coalescing, arch, query_time, equations, root_law, root_degree, tail, "
    "max_levels, signal_bytes",
    "files, file_size, pause, mode",
    "trace"
};

static int
int_in(const char *s, long lo, long hi, long *v)
{
    return bb_parse_long_in(s, lo, hi, v) ? BB_EINVAL : BB_OK;
}

/* MIN or MIN:MAX with parse (sizes or times). */
static int
range(const char *s, enum bb_status (*parse)(const char *, double *), double *lo, double *hi)
{
    char buf[128], *c;

    if (strlen(s) >= sizeof buf)
        return BB_EINVAL;
    strcpy(buf, s);
    c = strchr(buf, ':');
    if (c)
        *c++ = '\0';
    if (parse(buf, lo) || (c && parse(c, hi)))
        return BB_EINVAL;
    if (!c)
        *hi = *lo;
    return *lo >= 0 && *hi >= *lo ? BB_OK : BB_EINVAL;
}

static int
word(const char *s, const char *a, const char *b, int *out)
{
    if (!strcasecmp(s, a))
        *out = 0;
    else if (!strcasecmp(s, b))
        *out = 1;
    else
        return BB_EINVAL;
    return BB_OK;
}

enum bb_status
bbs_tracejob_set(bbs_tracejob *j, const char *key, const char *value, char *err)
{
    const char *what = NULL;
    long x;
    int ok = BB_EINVAL;

#define KEY(k, kd) (j->kind == (kd) && !strcmp(key, k))
    if (KEY("scale", BBS_TJ_GRAPH500)) {
        what = "an integer in [1, 40]";
        if ((ok = int_in(value, 1, 40, &x)) == BB_OK)
            j->g.scale = (int)x;
    } else if (KEY("edgefactor", BBS_TJ_GRAPH500)) {
        what = "an integer in [1, 1024]";
        if ((ok = int_in(value, 1, 1024, &x)) == BB_OK)
            j->g.edgefactor = (int)x;
    } else if (KEY("coalescing", BBS_TJ_GRAPH500)) {
        what = "an integer >= 1";
        if ((ok = int_in(value, 1, 1L << 30, &x)) == BB_OK)
            j->g.coalescing = (int)x;
    } else if (KEY("root_degree", BBS_TJ_GRAPH500)) {
        what = "an integer >= 1";
        if ((ok = int_in(value, 1, 1L << 40, &x)) == BB_OK)
            j->g.root_degree = x;
    } else if (KEY("max_levels", BBS_TJ_GRAPH500)) {
        what = "an integer in [2, 64]";
        if ((ok = int_in(value, 2, 64, &x)) == BB_OK)
            j->g.max_levels = (int)x;
    } else if (KEY("arch", BBS_TJ_GRAPH500)) {
        const bbs_g500_arch *a = bbs_g500_arch_find(value);
        what = "altamira, i5-5200u, xeon-e5-2620 or mont-blanc";
        if (a) {
            j->g.tq_s = a->tq_s;
            ok = BB_OK;
        }
    } else if (KEY("query_time", BBS_TJ_GRAPH500)) {
        what = "a time in " BB_SIM_TIME_RANGE " (" BB_TIME_UNITS ")";
        double v;
        ok = bb_unit_sim_seconds(value, &v);
        if (ok == BB_OK)
            j->g.tq_s = v;
    } else if (KEY("signal_bytes", BBS_TJ_GRAPH500)) {
        what = "a size >= 0 (" BB_SIZE_UNITS ")";
        double v;
        ok = bb_unit_bytes(value, &v);
        if (ok == BB_OK)
            j->g.signal_bytes = v;
    } else if (KEY("equations", BBS_TJ_GRAPH500)) {
        what = "kronecker, fogsim or ccpe";
        if (!strcasecmp(value, "kronecker")) {
            j->g.eqset = BBS_G500_EQ_KRONECKER;
            ok = BB_OK;
        } else {
            ok = word(value, "fogsim", "ccpe", &j->g.eqset);
        }
    } else if (KEY("root_law", BBS_TJ_GRAPH500)) {
        what = "lognormal or kronecker";
        ok = word(value, "lognormal", "kronecker", &j->g.rootlaw);
    } else if (KEY("tail", BBS_TJ_GRAPH500)) {
        what = "fogsim or keep";
        ok = word(value, "fogsim", "keep", &j->g.tail);
    } else if (KEY("files", BBS_TJ_FILELOAD)) {
        what = "an integer >= 0";
        if ((ok = int_in(value, 0, 1L << 30, &x)) == BB_OK)
            j->f.files = x;
    } else if (KEY("file_size", BBS_TJ_FILELOAD)) {
        double lo, hi;
        what = "a size or MIN:MAX sizes, MIN > 0";
        ok = range(value, bb_unit_bytes, &lo, &hi);
        if (ok == BB_OK && !(lo > 0))
            ok = BB_EINVAL;
        if (ok == BB_OK)
            j->f.size_min = lo, j->f.size_max = hi;
    } else if (KEY("pause", BBS_TJ_FILELOAD)) {
        double lo, hi;
        what = "a time or MIN:MAX times in " BB_SIM_TIME_RANGE;
        ok = range(value, bb_unit_sim_seconds, &lo, &hi);
        if (ok == BB_OK)
            j->f.pause_min = lo, j->f.pause_max = hi;
    } else if (KEY("mode", BBS_TJ_FILELOAD)) {
        int r;
        what = "write or read";
        if ((ok = word(value, "write", "read", &r)) == BB_OK)
            j->f.write = !r;
    } else if (KEY("trace", BBS_TJ_VEF)) {
        what = "a file name";
        if (value[0] && strlen(value) < sizeof j->trace) {
            strcpy(j->trace, value);
            ok = BB_OK;
        }
    } else {
        return bb_seterr(err, BB_EINVAL, "unknown key '%s' for %s (known: %s)", key,
                         bbs_tracejob_name(j->kind),
                         keys[j->kind < 0 || j->kind >= BBS_TJ_N ? 0 : j->kind]);
    }
#undef KEY
    if (ok)
        return bb_seterr(err, BB_EINVAL, "key '%s': expected %s, got '%s'", key, what, value);
    return BB_OK;
}

