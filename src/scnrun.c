/* scnrun.c: a scenario file loaded into a runnable workload and executor
 * configuration (scnrun.h): every file it names is read here (the
 * scenario, the CODES .conf, the allocation file, device files, VEF traces
 * and their size tables); what is pure is sim/workload/scnbuild.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "vef_file.h"
#include "alloc_file.h"
#include "sizedist_file.h"
#include "rng.h"
#include "workload/scnbuild.h"
#include "formats/scenario_ini.h"
#include "cli.h"
#include "devload.h"
#include "topoload.h"
#include "readfile.h"
#include "scnrun.h"

/* A device of the scenario: a preset name (devload.h) or a file, as
 * written or beside the scenario; an unknown one exits 66 naming the
 * scenario and the key. */
static void
load_device(const bbs_scenario *s, const char *name, bbs_dev_params *p)
{
    char *path = NULL;

    if (!strchr(name, '/') && !strstr(name, ".dev")) {
        char *list = bb_device_presets();
        size_t n = strlen(name);
        int known = 0;

        for (const char *q = list; !known && (q = strstr(q, name)) != NULL; q += n)
            known = (q == list || q[-1] == ' ') && (q[n] == ',' || q[n] == '\0');
        if (!known)
            bb_die(BB_EXIT_NOINPUT, "%s: [storage] device '%s': no such device (the presets "
                   "are %s; or give a path)", s->source, name, *list ? list : "(none found)");
        free(list);
        bb_device_load(NULL, name, NULL, p);
    } else if ((path = bb_path_beside(s->source, name, 0)) == NULL) {
        bb_die(BB_EXIT_NOINPUT, "%s: [storage] device '%s': no such device file", s->source,
               name);
    } else {
        bb_device_load(NULL, NULL, path, p);
        free(path);
    }
}

/* A vef job's trace (beside the scenario) read here, because nothing
 * under sim/ reads files; its tasks must be the job's ranks. */
static void
vef_read(bb_scn_run *R, const char *file, int j)
{
    const bbs_scn_job *sj = &R->s.jobs[j];
    char *path = bb_path_beside(file, sj->tj.trace, 0), err[BB_ERRLEN];
    size_t len;
    bbs_vef *v = NULL;
    if (!path)
        bb_die(BB_EXIT_NOINPUT, "%s: job '%s' (line %d): trace '%s': no such file", file,
               sj->name, sj->line, sj->tj.trace);
    char *text = bb_read_or_die(path, &len, BB_READ_TEXT);
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
    char *path = NULL;
    int rc;
    memset(R, 0, sizeof *R);
    char *text = bb_read_or_die(file, &len, BB_READ_TEXT);
    rc = bb_scenario_parse(text, len, file, &R->s, err);
    free(text);
    if (rc != BB_OK)
        bb_die_lib(BB_EDATA, err);
    bbs_scenario *s = &R->s;
    if (have_seed)
        s->seed = seed;
    /* topology: the one loader (topoload.h); a .conf's wiring is generated
     * with CODES' rule (bbsize-scenario(5)), its wiring files not read */
    if (s->preset[0] && bbs_net_preset(s->preset, &R->par, err) != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s: [topology] preset: %s", file, err);
    if (!s->preset[0] && !(path = bb_path_beside(file, s->codes, 0)))
        bb_die(BB_EXIT_NOINPUT, "%s: [topology] codes '%s': no such file", file, s->codes);
    bb_topo_opts o;
    bb_topo t;
    bb_topo_opts_init(&o);
    o.topology = s->preset[0] ? s->preset : path;
    o.base = file;
    o.generate = 1;
    o.bb_per_group = s->bb_per_group;
    o.compute_per_group = s->compute_per_group;
    bb_topo_read(&o, NULL, &t);
    free(path);
    /* a topology the scenario's keys make impossible is named by the file */
    snprintf(t.source, sizeof t.source, "%s: [topology] %s", file,
             s->preset[0] ? s->preset : s->codes);
    {
        double *delay[3] = { &t.par.cn_delay_s, &t.par.local_delay_s, &t.par.global_delay_s };
        for (int k = 0; k < 3; k++)
            if (s->link_delay_s[k] >= 0)
                *delay[k] = s->link_delay_s[k];
    }
    t.par.port_chunk_bytes = s->router_per_packet ? s->packet_bytes : 0;
    bb_topo_build(&t);
    R->par = t.par;
    R->topo = t.topo;    /* R owns it; t has no wiring (generated) */
    /* placement */
    int *ranks = malloc((size_t)s->njobs * sizeof *ranks);
    if (!ranks)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    long total = 0;
    for (int j = 0; j < s->njobs; j++)
        total += ranks[j] = s->jobs[j].ranks;
    if (total > R->topo->ncompute) {
        free(ranks);
        bb_die(BB_EXIT_DATAERR, "%s: the jobs ask for %ld nodes but the topology has %d compute "
               "nodes (one rank per node)", file, total, R->topo->ncompute);
    }
    if (s->placement >= 0) {
        gsl_rng *r = bbs_rng_stream_new(NULL, s->seed, 0, BBS_ENTITY(BBS_ECLASS_NETWORK, 0));
        if (!r)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        rc = bbs_net_place(R->topo, s->placement, ranks, s->njobs, r, &R->pl, err);
        gsl_rng_free(r);
        if (rc != BB_OK)
            bb_die(BB_EXIT_DATAERR, "%s: [placement]: %s", file, err);
    } else {
        path = bb_path_beside(file, s->alloc, 0);
        if (!path)
            bb_die(BB_EXIT_NOINPUT, "%s: [placement] file '%s': no such file", file, s->alloc);
        char *at = bb_read_or_die(path, &len, BB_READ_TEXT);
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
            if (got < ranks[j]) {
                int want = ranks[j];

                /* freed first: the exit is not a leak (ASan's check) */
                free(ranks);
                free(q.job_off);
                free(q.node);
                bb_die(BB_EXIT_DATAERR, "%s: job '%s' (line %d): %d ranks but line %d of the "
                       "allocation file %s gives %d nodes: ranks %d..%d have no placement",
                       file, s->jobs[j].name, s->jobs[j].line, want, ln + 1, path, got,
                       got, want - 1);
            }
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
    /* bounded before anything is built: the streams of 10^9 iterations
     * would fill memory before the engine's bounds act */
    bbs_scenario_cost cost;
    char what[BB_ERRLEN + 64];
    int nbb = R->topo->nodes - R->topo->ncompute;

    bbs_scenario_estimate(s, nbb > 0 ? nbb : 1, R->topo->par.cn_bw_Bps, &cost);
    snprintf(what, sizeof what, "the scenario %s", file);
    bb_limits_check(what, cost.events, cost.bytes, cost.what, cost.change);
    if ((rc = bb_scn_build(R, 0, &R->w, err)) != BB_OK)
        bb_die(bb_exit_status(rc), "%s", err);
    /* the run's events: the estimate with its lower bound of operations
     * replaced by the operations built (trace jobs' too) */
    R->est_events = cost.events;
    if (!isfinite(s->horizon_s) && (double)bbs_wl_nops(R->w) > cost.ops)
        R->est_events += (double)bbs_wl_nops(R->w) - cost.ops;
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
    const char *dirs[BB_DATADIR_MAX];
    size_t ndirs = bb_datadirs(dirs);
    char path[2048], err[BB_ERRLEN];
    const bbs_sizemodel *m = NULL;
    bbs_sizedist *d;
    size_t len;
    char *text;
    int rc;

    if (v->kind == BBS_VEF_DCNW) {
        m = bbs_sizemodel_find(v->model);
        path[0] = '\0';
        for (size_t i = 0; i < ndirs && !path[0]; i++) {
            FILE *fp;
            snprintf(path, sizeof path, "%s/vef/%s", dirs[i], m->file);
            if ((fp = fopen(path, "rb")))
                fclose(fp);
            else
                path[0] = '\0';
        }
        if (!path[0])
            bb_die(BB_EXIT_NOINPUT, "size table vef/%s of model %s not found in the data "
                   "directory %s", m->file, m->name, ndirs ? dirs[ndirs - 1] : "(none found)");
    } else if (override) {
        snprintf(path, sizeof path, "%s", override);
    } else if (v->model[0] == '/' || !strchr(trace, '/')) {
        snprintf(path, sizeof path, "%s", v->model);
    } else {
        snprintf(path, sizeof path, "%.*s/%s", (int)(strrchr(trace, '/') - trace), trace, v->model);
    }
    text = bb_read_or_die(path, &len, BB_READ_TEXT);
    rc = bbs_sizedist_parse(&d, bb_datadir_shown(path), text, len, m ? m->unit_bytes : 1.0,
                            m ? m->tail : BBS_TAIL_NONE, err);
    free(text);
    if (rc)
        bb_die_lib(rc, err);
    return d;
}
