/* scenario.c: parsing bbsize-scenario(5) files (scenario.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "network/place.h"
#include "network/route.h"
#include "workload/exec.h"
#include "workload/scenario.h"
#include "workload/wl_int.h"

enum { S_NONE = 0, S_TOPO, S_STORAGE, S_PLACEMENT, S_RUN, S_JOB, S_FAIL };

static char *
trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static int
copy_str(char *dst, size_t n, const char *v)
{
    if (strlen(v) >= n)
        return BB_EINVAL;
    strcpy(dst, v);
    return BB_OK;
}

static int
parse_intv(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return end != s && *end == 0 && errno == 0 && *v >= lo && *v <= hi ? BB_OK : BB_EINVAL;
}

/* Strip "/s" from a bandwidth and parse the size. */
static int
parse_bw(const char *s, double *v)
{
    char buf[64];
    size_t n = strlen(s);
    if (n >= sizeof buf)
        return BB_EINVAL;
    strcpy(buf, s);
    if (n > 2 && strcmp(buf + n - 2, "/s") == 0)
        buf[n - 2] = 0;
    return bbs_wl_parse_bytes(trim(buf), v);
}

static const char *const sec_names[] = { "", "topology", "storage", "placement", "run", "job",
                                         "failures" };

static int
set_key(bbs_scenario *s, int sec, bbs_scn_job *jb, const char *key, const char *val,
        const char *where, char *err)
{
    long l;
    int k;
    char sub[BB_ERRLEN];
#define BAD(what) bb_seterr(err, BB_EINVAL, "%s: [%s] %s '%s': %s", where, sec_names[sec], key, \
                            val, what)
    switch (sec) {
    case S_TOPO:
        if (!strcmp(key, "preset")) {
            s->codes[0] = 0;
            return copy_str(s->preset, sizeof s->preset, val) ? BAD("too long") : BB_OK;
        }
        if (!strcmp(key, "codes")) {
            s->preset[0] = 0;
            return copy_str(s->codes, sizeof s->codes, val) ? BAD("too long") : BB_OK;
        }
        if (!strcmp(key, "bb_per_group"))
            return parse_intv(val, 0, 1000000, &l) ? BAD("not an integer >= 0")
                                                    : (s->bb_per_group = (int)l, BB_OK);
        if (!strcmp(key, "routing")) {
            if (bbs_net_route_parse(val, &k, sub))
                return BAD(sub);
            s->routing = k;
            return BB_OK;
        }
        if (!strcmp(key, "bias"))
            return bbs_wl_parse_double(val, &s->bias) || s->bias < 0 ? BAD("not a number >= 0")
                                                                     : BB_OK;
        if (!strcmp(key, "candidates"))
            return parse_intv(val, 1, 64, &l) ? BAD("not an integer in 1..64")
                                              : (s->candidates = (int)l, BB_OK);
        if (!strcmp(key, "small_message"))
            return bbs_wl_parse_bytes(val, &s->small_bytes) || s->small_bytes < 0
                       ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "exact_limit"))
            return parse_intv(val, -1, 100000000, &l) ? BAD("not an integer >= -1")
                                                      : (s->exact_limit = (int)l, BB_OK);
        if (!strcmp(key, "injection")) {
            if (!strcasecmp(val, "fcfs"))
                s->inject_fcfs = 1;
            else if (!strcasecmp(val, "concurrent"))
                s->inject_fcfs = 0;
            else
                return BAD("not fcfs or concurrent");
            return BB_OK;
        }
        if (!strcmp(key, "packet"))
            return bbs_wl_parse_bytes(val, &s->packet_bytes) || s->packet_bytes < 0
                       ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "route_piece"))
            return bbs_wl_parse_bytes(val, &s->route_piece_bytes) || s->route_piece_bytes < 0
                       ? BAD("not a size >= 0") : BB_OK;
        return bb_seterr(err, BB_EDATA, "%s: [topology] unknown key '%s' (known: preset, codes, "
                         "bb_per_group, routing, bias, candidates, exact_limit, small_message, "
                         "injection, packet, route_piece)", where, key);
    case S_STORAGE:
        if (!strcmp(key, "architecture")) {
            if (!strcasecmp(val, "compute-global") || !strcasecmp(val, "global"))
                s->arch = BBS_ARCH_COMPUTE_GLOBAL;
            else if (!strcasecmp(val, "node-local") || !strcasecmp(val, "local"))
                s->arch = BBS_ARCH_NODE_LOCAL;
            else if (!strcasecmp(val, "storage-side"))
                s->arch = BBS_ARCH_STORAGE_SIDE;
            else
                return BAD("unknown architecture (known: compute-global, node-local, "
                           "storage-side)");
            return BB_OK;
        }
        if (!strcmp(key, "device"))
            return copy_str(s->device, sizeof s->device, val) ? BAD("too long") : BB_OK;
        if (!strcmp(key, "hdd"))
            return copy_str(s->hdd, sizeof s->hdd, val) ? BAD("too long") : BB_OK;
        if (!strcmp(key, "capacity"))
            return bbs_wl_parse_bytes(val, &s->capacity_bytes) || s->capacity_bytes < 0
                       ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "ssd_threshold"))
            return bbs_wl_parse_bytes(val, &s->ssd_threshold_bytes)
                           || s->ssd_threshold_bytes < 0 ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "pfs_bandwidth"))
            return parse_bw(val, &s->pfs_bw_Bps) || s->pfs_bw_Bps < 0
                       ? BAD("not a bandwidth >= 0 (e.g. 10GB/s)") : BB_OK;
        if (!strcmp(key, "drain")) {
            if (!strcasecmp(val, "greedy"))
                s->drain = BBS_DRAIN_GREEDY;
            else if (!strcasecmp(val, "lazy"))
                s->drain = BBS_DRAIN_LAZY;
            else
                return BAD("unknown drain policy (known: greedy, lazy)");
            return BB_OK;
        }
        if (!strcmp(key, "lazy_threshold"))
            return bbs_wl_parse_bytes(val, &s->lazy_threshold_bytes)
                           || s->lazy_threshold_bytes < 0 ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "chunk"))
            return bbs_wl_parse_bytes(val, &s->chunk_bytes) || !(s->chunk_bytes > 0)
                       ? BAD("not a size > 0") : BB_OK;
        if (!strcmp(key, "piece"))
            return bbs_wl_parse_bytes(val, &s->piece_bytes) || s->piece_bytes < 0
                       ? BAD("not a size >= 0") : BB_OK;
        if (!strcmp(key, "pieces_in_flight"))
            return parse_intv(val, 1, 64, &l) ? BAD("not an integer in 1..64")
                                              : (s->pieces_in_flight = (int)l, BB_OK);
        return bb_seterr(err, BB_EDATA, "%s: [storage] unknown key '%s' (known: architecture, "
                         "device, hdd, capacity, ssd_threshold, pfs_bandwidth, drain, "
                         "lazy_threshold, chunk, piece, pieces_in_flight)", where, key);
    case S_PLACEMENT:
        if (!strcmp(key, "policy")) {
            if (!strcasecmp(val, "file")) {
                s->placement = -1;
                return BB_OK;
            }
            if (bbs_net_place_parse(val, &k, sub))
                return BAD(sub);
            s->placement = k;
            return BB_OK;
        }
        if (!strcmp(key, "file")) {
            s->placement = -1;
            return copy_str(s->alloc, sizeof s->alloc, val) ? BAD("too long") : BB_OK;
        }
        return bb_seterr(err, BB_EDATA,
                         "%s: [placement] unknown key '%s' (known: policy, file)", where, key);
    case S_RUN:
        if (!strcmp(key, "seed")) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(val, &end, 10);
            if (end == val || *end || errno || val[0] == '-')
                return BAD("not an unsigned integer");
            s->seed = v;
            return BB_OK;
        }
        if (!strcmp(key, "horizon"))
            return bbs_wl_parse_time(val, &s->horizon_s) || !(s->horizon_s > 0)
                       ? BAD("not a time > 0") : BB_OK;
        if (!strcmp(key, "allreduce"))
            return bbs_coll_algo_parse(val, &k, sub) ? BAD(sub) : (s->allreduce_algo = k, BB_OK);
        return bb_seterr(err, BB_EDATA,
                         "%s: [run] unknown key '%s' (known: seed, horizon, allreduce)", where,
                         key);
    case S_JOB:
        if (!strcmp(key, "model")) {
            if (bbs_model_parse_kind(val, &k, sub) == BB_OK) {
                bbs_model_defaults(&jb->model, k);
                jb->trace = 0;
                return BB_OK;
            }
            if (bbs_tracejob_parse_kind(val, &k, sub) == BB_OK) {
                bbs_tracejob_defaults(&jb->tj, k);
                jb->model.kind = BBS_MODEL_N;   /* set: not an MFNetSim model */
                jb->trace = 1;
                return BB_OK;
            }
            snprintf(sub, sizeof sub, "unknown model '%s' (known: milc, nekbone, checkpoint, "
                     "cosmoflow, graph500, fileload, vef)", val);
            return BAD(sub);
        }
        if ((int)jb->model.kind < 0)
            return bb_seterr(err, BB_EDATA, "%s: [job %s] '%s' before 'model' (model must come "
                             "first)", where, jb->name, key);
        if (!strcmp(key, "ranks"))
            return parse_intv(val, 1, 100000000, &l) ? BAD("not an integer >= 1")
                                                     : (jb->ranks = (int)l, BB_OK);
        if (!strcmp(key, "alloc_line"))
            return parse_intv(val, 1, 100000000, &l) ? BAD("not an integer >= 1")
                                                     : (jb->alloc_line = (int)l, BB_OK);
        if (!strcmp(key, "start"))
            return bbs_wl_parse_time(val, &jb->start_s) || jb->start_s < 0
                       ? BAD("not a time >= 0") : BB_OK;
        if (!strcmp(key, "allreduce"))
            return bbs_coll_algo_parse(val, &k, sub) ? BAD(sub)
                                                     : (jb->allreduce_algo = k, BB_OK);
        if (jb->trace && jb->tj.kind == BBS_TJ_VEF && !strcmp(key, "messages"))
            return parse_intv(val, 1, 1000000000000L, &l) ? BAD("not an integer >= 1")
                                                          : (jb->messages = l, BB_OK);
        if (jb->trace ? bbs_tracejob_set(&jb->tj, key, val, sub)
                      : bbs_model_set(&jb->model, key, val, sub))
            return bb_seterr(err, BB_EINVAL, "%s: [job %s] %s", where, jb->name, sub);
        return BB_OK;
    case S_FAIL: {
        bbs_exec_failures *f = &s->fail;
        static const struct { const char *key; int time; double lo; size_t off; } fk[] = {
            { "mttf", 1, 0, offsetof(bbs_exec_failures, node_mttf_s) },
            { "temperature", 0, -273.15, offsetof(bbs_exec_failures, temp_C) },
            { "reference_temperature", 0, -273.15, offsetof(bbs_exec_failures, tref_C) },
            { "activation_energy", 0, 0, offsetof(bbs_exec_failures, ea_eV) },
            { "drive_shape", 0, 0, offsetof(bbs_exec_failures, drive_shape) },
            { "drive_scale", 1, 0, offsetof(bbs_exec_failures, drive_scale_s) },
            { "drive_age", 1, 0, offsetof(bbs_exec_failures, drive_age_s) },
            { "mttr", 1, 0, offsetof(bbs_exec_failures, mttr_s) },
        };
        if (!strcmp(key, "repair")) {
            if (!strcasecmp(val, "fixed"))
                f->repair_exponential = 0;
            else if (!strcasecmp(val, "exponential"))
                f->repair_exponential = 1;
            else
                return BAD("unknown repair law (known: fixed, exponential)");
            return BB_OK;
        }
        for (size_t i = 0; i < sizeof fk / sizeof fk[0]; i++)
            if (!strcmp(key, fk[i].key)) {
                double v, *dst = (double *)((char *)f + fk[i].off);
                char *end;
                if (fk[i].time) {
                    if (bbs_wl_parse_time(val, &v) || !(v >= 0) || !isfinite(v))
                        return BAD("not a time >= 0");
                } else {
                    errno = 0;
                    v = strtod(val, &end);
                    if (end == val || *end || errno || !isfinite(v)
                        || (fk[i].lo == 0 ? !(v >= 0) : !(v > fk[i].lo)))
                        return BAD(fk[i].lo == 0 ? "not a number >= 0"
                                                 : "not a temperature above -273.15 C");
                }
                *dst = v;
                return BB_OK;
            }
        return bb_seterr(err, BB_EDATA, "%s: [failures] unknown key '%s' (known: mttf, "
                         "temperature, reference_temperature, activation_energy, drive_shape, "
                         "drive_scale, drive_age, mttr, repair)", where, key);
    }
    default:
        return bb_seterr(err, BB_EDATA, "%s: key '%s' outside any section", where, key);
    }
#undef BAD
}

const char *
bbs_scn_job_model_name(const bbs_scn_job *j)
{
    return j->trace ? bbs_tracejob_name(j->tj.kind) : bbs_model_name(j->model.kind);
}

void
bbs_scenario_free(bbs_scenario *s)
{
    if (s) {
        free(s->jobs);
        s->jobs = NULL;
        s->njobs = 0;
    }
}

int
bbs_scenario_parse(const char *text, size_t len, const char *source, bbs_scenario *s,
                   char *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->source, sizeof s->source, "%s", source);
    strcpy(s->preset, "mfnetsim-1056");
    s->bb_per_group = -1;
    s->routing = BBS_NET_ROUTE_MIN;
    s->candidates = 2;
    s->exact_limit = -1;
    s->inject_fcfs = 1;
    s->packet_bytes = 4096;
    s->route_piece_bytes = 262144;
    s->arch = BBS_ARCH_COMPUTE_GLOBAL;
    strcpy(s->device, "mfnetsim-bb");
    strcpy(s->hdd, "seagate-st2000nx0253");
    s->ssd_threshold_bytes = 65536;
    s->chunk_bytes = 64.0 * 1048576;
    s->piece_bytes = 1048576;
    s->pieces_in_flight = 4;
    s->placement = BBS_NET_PLACE_CONT;
    s->seed = 1;
    {
        bbs_exec_config d;
        bbs_exec_config_init(&d);
        s->fail = d.fail;
    }
    s->horizon_s = INFINITY;
    int sec = S_NONE, jcap = 0, rc = BB_OK, lineno = 0;
    size_t pos = 0;
    char line[4096], where[BBS_SCN_PATH + 32];
    while (pos < len) {
        size_t e = pos;
        while (e < len && text[e] != '\n')
            e++;
        lineno++;
        snprintf(where, sizeof where, "%s:%d", source, lineno);
        if (e - pos >= sizeof line) {
            rc = bb_seterr(err, BB_EDATA, "%s: line longer than %zu bytes", where,
                           sizeof line - 1);
            goto fail;
        }
        memcpy(line, text + pos, e - pos);
        line[e - pos] = 0;
        pos = e + 1;
        for (char *h = line; *h; h++)
            if (*h == '#' || *h == ';') {
                *h = 0;
                break;
            }
        char *l = trim(line);
        if (!*l)
            continue;
        if (*l == '[') {
            char *close = strchr(l, ']');
            if (!close || trim(close + 1)[0]) {
                rc = bb_seterr(err, BB_EDATA, "%s: section header '%s' is not '[name]'", where, l);
                goto fail;
            }
            *close = 0;
            char *name = trim(l + 1);
            if (!strncasecmp(name, "job", 3) && (name[3] == 0 || isspace((unsigned char)name[3]))) {
                char *jn = trim(name + 3);
                if (!*jn) {
                    rc = bb_seterr(err, BB_EDATA, "%s: [job] needs a name: [job NAME]", where);
                    goto fail;
                }
                for (int j = 0; j < s->njobs; j++)
                    if (!strcmp(s->jobs[j].name, jn)) {
                        rc = bb_seterr(err, BB_EDATA, "%s: job '%s' already defined at line %d",
                                       where, jn, s->jobs[j].line);
                        goto fail;
                    }
                if (bbs_wl_grow((void **)&s->jobs, sizeof *s->jobs, &jcap, s->njobs + 1)) {
                    rc = bb_seterr(err, BB_ENOMEM, "out of memory");
                    goto fail;
                }
                bbs_scn_job *jb = &s->jobs[s->njobs++];
                memset(jb, 0, sizeof *jb);
                jb->model.kind = (bbs_model_kind)-1;
                jb->allreduce_algo = -1;
                jb->line = lineno;
                if (copy_str(jb->name, sizeof jb->name, jn)) {
                    rc = bb_seterr(err, BB_EDATA, "%s: job name '%s' longer than 63 bytes",
                                   where, jn);
                    goto fail;
                }
                sec = S_JOB;
                continue;
            }
            sec = S_NONE;
            for (int k = S_TOPO; k <= S_FAIL; k++)
                if (k != S_JOB && !strcasecmp(name, sec_names[k]))
                    sec = k;
            if (sec == S_FAIL)
                s->fail_line = lineno;
            if (sec == S_NONE) {
                rc = bb_seterr(err, BB_EDATA, "%s: unknown section '[%s]' (known: topology, "
                               "storage, placement, run, failures, job NAME)", where, name);
                goto fail;
            }
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq) {
            rc = bb_seterr(err, BB_EDATA, "%s: '%s' is not 'key = value'", where, l);
            goto fail;
        }
        *eq = 0;
        char *key = trim(l), *val = trim(eq + 1);
        if (!*key || !*val) {
            rc = bb_seterr(err, BB_EDATA, "%s: empty %s in '%s = %s'", where,
                           *key ? "value" : "key", key, val);
            goto fail;
        }
        rc = set_key(s, sec, sec == S_JOB ? &s->jobs[s->njobs - 1] : NULL, key, val, where,
                     err);
        if (rc != BB_OK)
            goto fail;
    }
    if (s->njobs == 0) {
        rc = bb_seterr(err, BB_EDATA, "%s: no [job NAME] section", source);
        goto fail;
    }
    for (int j = 0; j < s->njobs; j++) {
        bbs_scn_job *jb = &s->jobs[j];
        char sub[BB_ERRLEN];
        if ((int)jb->model.kind < 0) {
            rc = bb_seterr(err, BB_EDATA, "%s:%d: [job %s] has no 'model' (known: milc, nekbone, "
                           "checkpoint, cosmoflow, graph500, fileload, vef)", source, jb->line,
                           jb->name);
            goto fail;
        }
        if (jb->ranks <= 0) {
            rc = bb_seterr(err, BB_EDATA, "%s:%d: [job %s] has no 'ranks'", source, jb->line,
                           jb->name);
            goto fail;
        }
        if (jb->trace && jb->tj.kind == BBS_TJ_VEF && !jb->tj.trace[0]) {
            rc = bb_seterr(err, BB_EDATA, "%s:%d: [job %s] model vef needs 'trace = FILE'",
                           source, jb->line, jb->name);
            goto fail;
        }
        if (!jb->trace && bbs_model_check(&jb->model, jb->ranks, sub)) {
            rc = bb_seterr(err, BB_EINVAL, "%s:%d: [job %s] %s", source, jb->line, jb->name,
                           sub);
            goto fail;
        }
    }
    if ((s->fail.node_mttf_s > 0 || s->fail.drive_scale_s > 0) && !(s->fail.mttr_s > 0)) {
        rc = bb_seterr(err, BB_EDATA, "%s:%d: [failures] needs 'mttr' (a repair time > 0) "
                       "with mttf or drive_scale", source, s->fail_line);
        goto fail;
    }
    if (s->fail.drive_scale_s > 0 && !(s->fail.drive_shape > 0)) {
        rc = bb_seterr(err, BB_EDATA, "%s:%d: [failures] drive_shape must be > 0", source,
                       s->fail_line);
        goto fail;
    }
    if (s->placement == -1 && !s->alloc[0]) {
        rc = bb_seterr(err, BB_EDATA, "%s: [placement] policy = file needs 'file = PATH'",
                       source);
        goto fail;
    }
    return BB_OK;
fail:
    bbs_scenario_free(s);
    return rc;
}
