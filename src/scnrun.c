/* scnrun.c: a scenario file loaded into a runnable workload and executor
 * configuration (scnrun.h): every file it names is read here (the
 * scenario, the CODES .conf, the allocation file, device files, VEF traces
 * and their size tables); what is pure is sim/workload/scnbuild.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codesconf.h"
#include "device_file.h"
#include "vef_file.h"
#include "alloc_file.h"
#include "sizedist_file.h"
#include "rng.h"
#include "workload/scnbuild.h"
#include "formats/scenario_ini.h"
#include "cli.h"
#include "readfile.h"
#include "scnrun.h"

static char *
slurp(const char *path, size_t *len)
{
    char *b, err[BB_ERRLEN];
    int rc = bb_read_file(path, BB_READ_TEXT, &b, len, err, sizeof err);

    if (rc != 0)
        bb_die(rc, "%s", err);
    return b;
}

static int
exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* path as written, else relative to the scenario's directory; NULL if neither. */
static char *
beside(const char *scn, const char *p)
{
    if (exists(p))
        return strdup(p);
    const char *slash = strrchr(scn, '/');
    size_t dl = slash ? (size_t)(slash - scn + 1) : 0;
    char *s = malloc(dl + strlen(p) + 1);
    if (!s)
        return NULL;
    memcpy(s, scn, dl);
    strcpy(s + dl, p);
    if (p[0] != '/' && exists(s))
        return s;
    free(s);
    return NULL;
}

/* A device: a name of data/devices or a file. */
static void
load_device(const bbs_scenario *s, const char *name, bbs_dev_params *p)
{
    static const char *dirs[] = { BBSIZE_SRCDATADIR "/devices", BBSIZE_DATADIR "/devices" };
    char err[BB_ERRLEN], buf[2048];
    char *path = NULL;
    if (!strchr(name, '/') && !strstr(name, ".dev")) {
        for (size_t i = 0; i < 2 && !path; i++) {
            snprintf(buf, sizeof buf, "%s/%s.dev", dirs[i], name);
            if (exists(buf))
                path = strdup(buf);
        }
    } else {
        path = beside(s->source, name);
    }
    if (!path)
        bb_die(BB_EXIT_NOINPUT, "%s: [storage] device '%s': no such device file (names are "
               "those of %s/*.dev, or give a path)", s->source, name, dirs[0]);
    size_t len;
    char *text = slurp(path, &len);
    int rc = bbs_dev_params_parse(p, text, path, err);
    free(text);
    free(path);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
}

/* A vef job's trace (beside the scenario) read here, because nothing
 * under sim/ reads files; its tasks must be the job's ranks. */
static void
vef_read(bb_scn_run *R, const char *file, int j)
{
    const bbs_scn_job *sj = &R->s.jobs[j];
    char *path = beside(file, sj->tj.trace), err[BB_ERRLEN];
    size_t len;
    bbs_vef *v = NULL;
    if (!path)
        bb_die(BB_EXIT_NOINPUT, "%s: job '%s' (line %d): trace '%s': no such file", file,
               sj->name, sj->line, sj->tj.trace);
    char *text = slurp(path, &len);
    int rc = bbs_vef_parse(&v, path, text, len, err);
    free(text);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    if (v->ntasks != sj->ranks)
        bb_die(BB_EXIT_DATAERR, "%s: job '%s' (line %d): ranks = %d but trace %s has %d tasks",
               file, sj->name, sj->line, sj->ranks, path, v->ntasks);
    if (v->kind == BBS_VEF_DCNW || v->kind == BBS_VEF_CDCNW)
        R->sizes[j] = bb_trace_load_sizes(v, path, NULL);
    R->vef[j] = v;
    free(path);
}

int
bb_scn_build(const bb_scn_run *R, uint64_t unit, bbs_wl **out, char *err)
{
    return bbs_scenario_build(&R->s, R->vef, R->sizes, unit, out, err);
}

void
bb_scn_load(bb_scn_run *R, const char *file, int have_seed, unsigned long long seed)
{
    char err[BB_ERRLEN];
    size_t len;
    int rc;
    memset(R, 0, sizeof *R);
    char *text = slurp(file, &len);
    rc = bb_scenario_parse(text, len, file, &R->s, err);
    free(text);
    if (rc != BB_OK)
        bb_die_lib(BB_EDATA, err);
    bbs_scenario *s = &R->s;
    if (have_seed)
        s->seed = seed;
    /* topology */
    if (s->preset[0]) {
        if (bbs_net_preset(s->preset, &R->par, err) != BB_OK)
            bb_die(BB_EXIT_DATAERR, "%s: [topology] preset: %s", file, err);
    } else {
        char *path = beside(file, s->codes);
        if (!path)
            bb_die(BB_EXIT_NOINPUT, "%s: [topology] codes '%s': no such file", file, s->codes);
        char *ct = slurp(path, &len);
        bbs_net_conf *c = NULL;
        bbs_net_conf_dally d;
        rc = bbs_net_conf_parse(ct, len, path, &c, err);
        free(ct);
        free(path);
        if (rc == BB_OK)
            rc = bbs_net_conf_dally_params(c, &d, err);
        bbs_net_conf_free(c);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        R->par = d.par;     /* wiring: CODES' rule (= dally-1056 files, topo.h) */
    }
    if (s->bb_per_group >= 0)
        R->par.bb_per_group = s->bb_per_group;
    bb_limits_check_topology(&R->par, file);
    if ((rc = bbs_net_topo_build(&R->par, NULL, &R->topo, err)) != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s: [topology]: %s", file, err);
    /* placement */
    int *ranks = malloc((size_t)s->njobs * sizeof *ranks);
    if (!ranks)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    long total = 0;
    for (int j = 0; j < s->njobs; j++)
        total += ranks[j] = s->jobs[j].ranks;
    if (total > R->topo->ncompute)
        bb_die(BB_EXIT_DATAERR, "%s: the jobs ask for %ld nodes but the topology has %d compute "
               "nodes (one rank per node)", file, total, R->topo->ncompute);
    if (s->placement >= 0) {
        gsl_rng *r = bbs_rng_stream_new(NULL, s->seed, 0, BBS_ENTITY(BBS_ECLASS_NETWORK, 0));
        if (!r)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        rc = bbs_net_place(R->topo, s->placement, ranks, s->njobs, r, &R->pl, err);
        gsl_rng_free(r);
        if (rc != BB_OK)
            bb_die(BB_EXIT_DATAERR, "%s: [placement]: %s", file, err);
    } else {
        char *path = beside(file, s->alloc);
        if (!path)
            bb_die(BB_EXIT_NOINPUT, "%s: [placement] file '%s': no such file", file, s->alloc);
        char *at = slurp(path, &len);
        rc = bbs_net_alloc_parse(R->topo, at, len, path, &R->pl, err);
        free(at);
        if (rc != BB_OK)
            bb_die_lib(rc, err);
        /* job j takes the first ranks[j] nodes of its line */
        bbs_net_placement q = { s->njobs, NULL, NULL };
        q.job_off = malloc((size_t)(s->njobs + 1) * sizeof(int));
        q.node = malloc((size_t)total * sizeof(int));
        if (!q.job_off || !q.node)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        q.job_off[0] = 0;
        for (int j = 0; j < s->njobs; j++) {
            int ln = s->jobs[j].alloc_line > 0 ? s->jobs[j].alloc_line - 1 : j;
            int got = ln < R->pl.njobs ? R->pl.job_off[ln + 1] - R->pl.job_off[ln] : 0;
            if (got < ranks[j])
                bb_die(BB_EXIT_DATAERR, "%s: job '%s' (line %d): %d ranks but line %d of the "
                       "allocation file %s gives %d nodes: ranks %d..%d have no placement",
                       file, s->jobs[j].name, s->jobs[j].line, ranks[j], ln + 1, path, got,
                       got, ranks[j] - 1);
            for (int k = 0; k < j; k++)
                if ((s->jobs[k].alloc_line > 0 ? s->jobs[k].alloc_line - 1 : k) == ln)
                    bb_die(BB_EXIT_DATAERR, "%s: jobs '%s' and '%s' use the same line %d of %s",
                           file, s->jobs[k].name, s->jobs[j].name, ln + 1, path);
            q.job_off[j + 1] = q.job_off[j] + ranks[j];
            memcpy(q.node + q.job_off[j], R->pl.node + R->pl.job_off[ln],
                   (size_t)ranks[j] * sizeof(int));
        }
        bbs_net_placement_free(&R->pl);
        R->pl = q;
        free(path);
    }
    free(ranks);
    /* workload: traces read once, streams generated for unit 0 */
    R->vef = calloc((size_t)s->njobs, sizeof *R->vef);
    R->sizes = calloc((size_t)s->njobs, sizeof *R->sizes);
    if (!R->vef || !R->sizes)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int j = 0; j < s->njobs; j++) {
        R->random_wl |= s->jobs[j].trace;
        if (s->jobs[j].trace && s->jobs[j].tj.kind == BBS_TJ_VEF)
            vef_read(R, file, j);
    }
    if ((rc = bb_scn_build(R, 0, &R->w, err)) != BB_OK)
        bb_die(bb_exit_status(rc), "%s", err);
    /* executor */
    bbs_exec_config *c = &R->cfg;
    bbs_scenario_exec_config(s, c);
    c->topo = R->topo;
    c->place = &R->pl;
    load_device(s, s->device, &c->bb_dev);
    if (s->arch == BBS_ARCH_STORAGE_SIDE)
        load_device(s, s->hdd, &c->hdd_dev);
}

void
bb_scn_free(bb_scn_run *R)
{
    bbs_exec_result_free(&R->res);
    bbs_wl_free(R->w);
    for (int j = 0; R->vef && j < R->s.njobs; j++) {
        bbs_vef_free(R->vef[j]);
        bbs_sizedist_free(R->sizes[j]);
    }
    free(R->vef);
    free(R->sizes);
    bbs_net_placement_free(&R->pl);
    bbs_net_topo_free(R->topo);
    bbs_scenario_free(&R->s);
}


/* The size table of a DCNW model (data/vef) or a CDCNW file. */
bbs_sizedist *
bb_trace_load_sizes(const bbs_vef *v, const char *trace, const char *override)
{
    static const char *dirs[] = { BBSIZE_SRCDATADIR "/vef", BBSIZE_DATADIR "/vef" };
    char path[2048], err[BB_ERRLEN];
    const bbs_sizemodel *m = NULL;
    bbs_sizedist *d;
    size_t len;
    char *text;
    int rc;

    if (v->kind == BBS_VEF_DCNW) {
        m = bbs_sizemodel_find(v->model);
        path[0] = '\0';
        for (int i = 0; i < 2 && !path[0]; i++) {
            FILE *fp;
            snprintf(path, sizeof path, "%s/%s", dirs[i], m->file);
            if ((fp = fopen(path, "rb")))
                fclose(fp);
            else
                path[0] = '\0';
        }
        if (!path[0])
            bb_die(BB_EXIT_NOINPUT, "size table %s of model %s not found in %s", m->file, m->name,
                   dirs[1]);
    } else if (override) {
        snprintf(path, sizeof path, "%s", override);
    } else if (v->model[0] == '/' || !strchr(trace, '/')) {
        snprintf(path, sizeof path, "%s", v->model);
    } else {
        snprintf(path, sizeof path, "%.*s/%s", (int)(strrchr(trace, '/') - trace), trace, v->model);
    }
    text = slurp(path, &len);
    rc = bbs_sizedist_parse(&d, path, text, len, m ? m->unit_bytes : 1.0,
                            m ? m->tail : BBS_TAIL_NONE, err);
    free(text);
    if (rc)
        bb_die_lib(rc, err);
    return d;
}
