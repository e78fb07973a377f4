/* tracejob.c: Graph500, file loads and VEF traces as scenario jobs.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "workload/tracejob.h"
#include "workload/wl_int.h"

static const char *const names[BBS_TJ_N] = { "graph500", "fileload", "vef" };
static const char *const keys[BBS_TJ_N] = {
    "scale, edgefactor, coalescing, arch, query_time, equations, root_law, root_degree, tail, "
    "max_levels, signal_bytes",
    "files, file_size, pause, mode",
    "trace"
};

int
bbs_tracejob_parse_kind(const char *name, int *kind, char *err)
{
    for (int k = 0; k < BBS_TJ_N; k++)
        if (!strcasecmp(name, names[k])) {
            *kind = k;
            return BB_OK;
        }
    return bb_seterr(err, BB_EINVAL, "unknown model '%s' (known: graph500, fileload, vef)", name);
}

const char *bbs_tracejob_name(int kind) { return kind >= 0 && kind < BBS_TJ_N ? names[kind] : "?"; }

void
bbs_tracejob_defaults(bbs_tracejob *j, int kind)
{
    memset(j, 0, sizeof *j);
    j->kind = kind;
    bbs_g500_params_init(&j->g);
    bbs_fileload_init(&j->f);
}

static int
int_in(const char *s, long lo, long hi, long *v)
{
    char *end;
    long x;

    errno = 0;
    x = strtol(s, &end, 10);
    if (end == s || *end || errno || x < lo || x > hi)
        return BB_EINVAL;
    *v = x;
    return BB_OK;
}

/* MIN or MIN:MAX with parse (sizes or times). */
static int
range(const char *s, int (*parse)(const char *, double *), double *lo, double *hi)
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

int
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
        what = "a time >= 0 (s, ms, us, ns)";
        double v;
        ok = bbs_wl_parse_time(value, &v) == BB_OK && v >= 0 ? BB_OK : BB_EINVAL;
        if (ok == BB_OK)
            j->g.tq_s = v;
    } else if (KEY("signal_bytes", BBS_TJ_GRAPH500)) {
        what = "a size >= 0";
        double v;
        ok = bbs_wl_parse_bytes(value, &v) == BB_OK && v >= 0 ? BB_OK : BB_EINVAL;
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
        ok = range(value, bbs_wl_parse_bytes, &lo, &hi);
        if (ok == BB_OK && !(lo > 0))
            ok = BB_EINVAL;
        if (ok == BB_OK)
            j->f.size_min = lo, j->f.size_max = hi;
    } else if (KEY("pause", BBS_TJ_FILELOAD)) {
        double lo, hi;
        what = "a time or MIN:MAX times";
        ok = range(value, bbs_wl_parse_time, &lo, &hi);
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
                         bbs_tracejob_name(j->kind), keys[j->kind < 0 || j->kind >= BBS_TJ_N ? 0 : j->kind]);
    }
#undef KEY
    if (ok)
        return bb_seterr(err, BB_EINVAL, "key '%s': expected %s, got '%s'", key, what, value);
    return BB_OK;
}

int
bbs_tracejob_generate(const bbs_tracejob *j, bbs_wl *w, const char *name, int ranks,
                      uint64_t seed, uint64_t unit, int *job_out, char *err)
{
    if (j->kind == BBS_TJ_GRAPH500) {
        bbs_g500_params p = j->g;
        bbs_g500_plan *pl;
        int rc;

        p.nodes = ranks;
        if ((rc = bbs_g500_plan_new(&pl, &p, seed, unit, err)))
            return rc;
        rc = bbs_tracegen_g500(w, name, pl, job_out, err);
        bbs_g500_plan_free(pl);
        return rc;
    }
    if (j->kind == BBS_TJ_FILELOAD) {
        bbs_fileload f = j->f;
        f.ranks = ranks;
        return bbs_tracegen_fileload(w, name, &f, seed, unit, job_out, err);
    }
    return bb_seterr(err, BB_EINVAL, "a vef job's trace '%s' is read by the caller (bbs_tracegen_vef)",
                     j->trace);
}
