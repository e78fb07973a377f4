/* scenario_keys.c: the sections and keys of bbsize-scenario(5)
 * (scenario_keys.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "bb_num.h"
#include "job_keys.h"
#include "network/place.h"
#include "network/route.h"
#include "scenario_keys.h"
#include "units.h"
#include "workload/exec.h"
#include "grow.h"

enum { S_NONE = 0, S_TOPO, S_STORAGE, S_PLACEMENT, S_RUN, S_JOB, S_FAIL };

static int
copy_str(char *dst, size_t n, const char *v)
{
    if (strlen(v) >= n)
        return BB_EINVAL;
    strcpy(dst, v);
    return BB_OK;
}

/* 0 when val is a, 1 when it is b (case-insensitive), else -1. */
static int
choice(const char *val, const char *a, const char *b)
{
    return !strcasecmp(val, a) ? 0 : !strcasecmp(val, b) ? 1 : -1;
}

#define NOT_SIZE "not a size >= 0 (" BB_SIZE_UNITS ")"
#define NOT_TIME "not a time in " BB_SIM_TIME_RANGE " (" BB_TIME_UNITS ")"

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
            return bb_parse_long_in(val, 0, 1000000, &l) ? BAD("not an integer >= 0")
                                                         : (s->bb_per_group = (int)l, BB_OK);
        if (!strcmp(key, "compute_per_group"))
            return bb_parse_long_in(val, 0, 1000000, &l) ? BAD("not an integer >= 0")
                                                         : (s->compute_per_group = (int)l, BB_OK);
        if (!strcmp(key, "routing")) {
            if (bbs_net_route_parse(val, &k, sub))
                return BAD(sub);
            s->routing = k;
            return BB_OK;
        }
        if (!strcmp(key, "bias"))
            return bb_num_full(val, &s->bias) != BB_NUM_OK || s->bias < 0 ? BAD("not a number >= 0")
                                                                     : BB_OK;
        if (!strcmp(key, "candidates"))
            return bb_parse_long_in(val, 1, 64, &l) ? BAD("not an integer in 1..64")
                                                    : (s->candidates = (int)l, BB_OK);
        if (!strcmp(key, "small_message"))
            return bb_unit_bytes(val, &s->small_bytes) ? BAD(NOT_SIZE) : BB_OK;
        if (!strcmp(key, "exact_limit"))
            return bb_parse_long_in(val, -1, 100000000, &l) ? BAD("not an integer >= -1")
                                                            : (s->exact_limit = (int)l, BB_OK);
        if (!strcmp(key, "injection"))
            return (k = choice(val, "concurrent", "fcfs")) < 0 ? BAD("not fcfs or concurrent")
                                                               : (s->inject_fcfs = k, BB_OK);
        if (!strcmp(key, "packet"))
            return bb_unit_bytes(val, &s->packet_bytes) ? BAD(NOT_SIZE) : BB_OK;
        if (!strcmp(key, "backpressure"))
            return (k = choice(val, "off", "on")) < 0 ? BAD("not on or off")
                                                      : (s->backpressure = k, BB_OK);
        if (!strcmp(key, "store_forward"))
            return (k = choice(val, "off", "on")) < 0 ? BAD("not on or off")
                                                      : (s->store_forward = k, BB_OK);
        if (!strcmp(key, "vc_priority"))
            return (k = choice(val, "off", "on")) < 0 ? BAD("not on or off")
                                                      : (s->vc_priority = k, BB_OK);
        if (!strcmp(key, "queue"))
            return (k = choice(val, "channel", "flow")) < 0 ? BAD("not channel or flow")
                                                            : (s->queue_per_flow = k, BB_OK);
        if (!strcmp(key, "router_delay_per_packet"))
            return (k = choice(val, "off", "on")) < 0 ? BAD("not on or off")
                                                      : (s->router_per_packet = k, BB_OK);
        if (!strcmp(key, "vc_scheme"))
            return bbs_net_vc_scheme_parse(val, &k, sub) ? BAD(sub) : (s->vc_scheme = k, BB_OK);
        for (int d = 0; d < 3; d++)
            if (!strcmp(key, (const char *[]){ "cn_delay", "local_delay", "global_delay" }[d]))
                return bb_unit_seconds(val, &s->link_delay_s[d]) || !(s->link_delay_s[d] < 1)
                           ? BAD("not a duration >= 0 (e.g. 727ns)") : BB_OK;
        if (!strcmp(key, "send_overhead"))
            return bb_unit_seconds(val, &s->send_overhead_s) || !(s->send_overhead_s < 1e6)
                       ? BAD("not a duration >= 0 (e.g. 3.51us)") : BB_OK;
        if (!strcmp(key, "copy_per_byte"))
            return bb_unit_seconds(val, &s->copy_s_per_byte) || !(s->copy_s_per_byte < 1)
                       ? BAD("not a duration per byte >= 0 (e.g. 0.55ns)") : BB_OK;
        if (!strcmp(key, "jitter"))
            return bb_unit_seconds(val, &s->jitter_s) || !(s->jitter_s < 1)
                       ? BAD("not a duration >= 0 and < 1 s (e.g. 0.001ns)") : BB_OK;
        if (!strcmp(key, "route_piece"))
            return bb_unit_bytes(val, &s->route_piece_bytes) ? BAD(NOT_SIZE) : BB_OK;
        return bb_seterr(err, BB_EDATA, "%s: [topology] unknown key '%s' (known: preset, codes, "
                         "bb_per_group, compute_per_group, routing, bias, candidates, "
                         "exact_limit, small_message, injection, packet, queue, route_piece, "
                         "backpressure, store_forward, vc_priority, vc_scheme, "
                         "router_delay_per_packet, cn_delay, local_delay, global_delay, "
                         "send_overhead, copy_per_byte, jitter)", where, key);
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
            return bb_unit_bytes(val, &s->capacity_bytes) || !(s->capacity_bytes > 0)
                       ? BAD("not a size > 0 (" BB_SIZE_UNITS "; leave the key out for the "
                             "device's own capacity)") : BB_OK;
        if (!strcmp(key, "ssd_threshold"))
            return bb_unit_bytes(val, &s->ssd_threshold_bytes) ? BAD(NOT_SIZE) : BB_OK;
        if (!strcmp(key, "pfs_bandwidth"))
            return bb_unit_Bps(val, &s->pfs_bw_Bps)
                       ? BAD("not a bandwidth >= 0 (a size unit per time unit, e.g. 10GB/s)")
                       : BB_OK;
        if (!strcmp(key, "drain"))
            return bb_drain_kind_parse(val, &s->drain.kind) != 0
                       ? BAD("unknown drain policy (known: greedy, lazy)") : BB_OK;
        if (!strcmp(key, "lazy_threshold"))
            return bb_unit_bytes(val, &s->drain.threshold) ? BAD(NOT_SIZE) : BB_OK;
        if (!strcmp(key, "chunk"))
            return bb_unit_bytes(val, &s->chunk_bytes) || !(s->chunk_bytes > 0)
                       ? BAD("not a size > 0 (" BB_SIZE_UNITS ")") : BB_OK;
        if (!strcmp(key, "piece"))
            return bb_unit_bytes(val, &s->piece_bytes) ? BAD(NOT_SIZE) : BB_OK;
        if (!strcmp(key, "pieces_in_flight"))
            return bb_parse_long_in(val, 1, 64, &l) ? BAD("not an integer in 1..64")
                                                    : (s->pieces_in_flight = (int)l, BB_OK);
        if (!strcmp(key, "piece_threads"))
            return bb_parse_long_in(val, 0, 64, &l) ? BAD("not an integer in 0..64")
                                                    : (s->piece_threads = (int)l, BB_OK);
        return bb_seterr(err, BB_EDATA, "%s: [storage] unknown key '%s' (known: architecture, "
                         "device, hdd, capacity, ssd_threshold, pfs_bandwidth, drain, "
                         "lazy_threshold, chunk, piece, pieces_in_flight, piece_threads)", where, key);
    case S_PLACEMENT:
        if (!strcmp(key, "policy")) {
            if (!strcasecmp(val, "file")) {
                s->placement = s->policy_kind = -1;
                return BB_OK;
            }
            if (bbs_net_place_parse(val, &k, sub))
                return BAD(sub);
            s->placement = s->policy_kind = k;
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
            return bb_unit_sim_seconds(val, &s->horizon_s) || !(s->horizon_s > 0)
                       ? BAD("not a time in (0, 1e9 s] (" BB_TIME_UNITS ")") : BB_OK;
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
            return bb_parse_long_in(val, 1, 100000000, &l) ? BAD("not an integer >= 1")
                                                           : (jb->ranks = (int)l, BB_OK);
        if (!strcmp(key, "alloc_line"))
            return bb_parse_long_in(val, 1, 100000000, &l) ? BAD("not an integer >= 1")
                                                           : (jb->alloc_line = (int)l, BB_OK);
        if (!strcmp(key, "start"))
            return bb_unit_sim_seconds(val, &jb->start_s) ? BAD(NOT_TIME) : BB_OK;
        if (!strcmp(key, "allreduce"))
            return bbs_coll_algo_parse(val, &k, sub) ? BAD(sub)
                                                     : (jb->allreduce_algo = k, BB_OK);
        if (jb->trace && jb->tj.kind == BBS_TJ_VEF && !strcmp(key, "messages"))
            return bb_parse_long_in(val, 1, 1000000000000L, &l) ? BAD("not an integer >= 1")
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
        if (!strcmp(key, "repair"))
            return (k = choice(val, "fixed", "exponential")) < 0
                       ? BAD("unknown repair law (known: fixed, exponential)")
                       : (f->repair_exponential = k, BB_OK);
        for (size_t i = 0; i < sizeof fk / sizeof fk[0]; i++)
            if (!strcmp(key, fk[i].key)) {
                double v, *dst = (double *)((char *)f + fk[i].off);
                if (fk[i].time) {
                    if (bb_unit_seconds(val, &v))
                        return BAD("not a time >= 0 (" BB_TIME_UNITS ")");
                } else {
                    if (bb_num_full(val, &v) != BB_NUM_OK
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

enum bb_status
bbs_scenario_section(bbs_scenario *s, const char *name_in, int lineno, const char *where,
                     char *err)
{
    char name[BBS_SCN_PATH];
    if (strlen(name_in) >= sizeof name)
        return bb_seterr(err, BB_EDATA, "%s: section name longer than %zu bytes", where,
                         sizeof name - 1);
    strcpy(name, name_in);
    char *nm = bb_trim(name);
    if (!strncasecmp(nm, "job", 3) && (nm[3] == 0 || isspace((unsigned char)nm[3]))) {
        char *jn = bb_trim(nm + 3);
        if (!*jn)
            return bb_seterr(err, BB_EDATA, "%s: [job] needs a name: [job NAME]", where);
        for (int j = 0; j < s->njobs; j++)
            if (!strcmp(s->jobs[j].name, jn))
                return bb_seterr(err, BB_EDATA, "%s: job '%s' already defined at line %d",
                                 where, jn, s->jobs[j].line);
        if (strlen(jn) >= sizeof s->jobs[0].name)
            return bb_seterr(err, BB_EDATA, "%s: job name '%s' longer than %zu bytes", where,
                             jn, sizeof s->jobs[0].name - 1);
        if (bbs_grow((void **)&s->jobs, sizeof *s->jobs, &s->jobs_cap, (size_t)s->njobs + 1))
            return bb_seterr(err, BB_ENOMEM, "out of memory");
        bbs_scn_job *jb = &s->jobs[s->njobs++];
        memset(jb, 0, sizeof *jb);
        jb->model.kind = (bbs_model_kind)-1;
        jb->allreduce_algo = -1;
        jb->line = lineno;
        strcpy(jb->name, jn);
        s->cur_sec = S_JOB;
        s->cur_job = s->njobs - 1;
        return BB_OK;
    }
    int sec = S_NONE;
    for (int k = S_TOPO; k <= S_FAIL; k++)
        if (k != S_JOB && !strcasecmp(nm, sec_names[k]))
            sec = k;
    if (sec == S_NONE)
        return bb_seterr(err, BB_EDATA, "%s: unknown section '[%s]' (known: topology, "
                         "storage, placement, run, failures, job NAME)", where, nm);
    if (sec == S_FAIL && !s->fail_line)
        s->fail_line = lineno;
    s->cur_sec = sec;
    s->cur_job = -1;
    return BB_OK;
}

/* The line of key in the current section (or in section sec, job -1), 0 if
 * it was not given. */
static int
seen_line(const bbs_scenario *s, int sec, int job, const char *key)
{
    for (int i = 0; i < s->nseen; i++)
        if (s->seen[i].sec == sec && s->seen[i].job == job && !strcmp(s->seen[i].key, key))
            return s->seen[i].line;
    return 0;
}

enum bb_status
bbs_scenario_set(bbs_scenario *s, const char *key, const char *val, int lineno,
                 const char *where, char *err)
{
    int sec = s->cur_sec, job = sec == S_JOB ? s->cur_job : -1, first;
    if (!*key || !*val)
        return bb_seterr(err, BB_EDATA, "%s: empty %s in '%s = %s'", where,
                         *key ? "value" : "key", key, val);
    if (sec != S_NONE && strlen(key) < sizeof s->seen[0].key
        && (first = seen_line(s, sec, job, key)) > 0) {
        if (sec == S_JOB)
            return bb_seterr(err, BB_EDATA, "%s: [job %s] key '%s' given twice (first at line "
                             "%d)", where, s->jobs[job].name, key, first);
        return bb_seterr(err, BB_EDATA, "%s: [%s] key '%s' given twice (first at line %d)",
                         where, sec_names[sec], key, first);
    }
    int rc = set_key(s, sec, sec == S_JOB ? &s->jobs[job] : NULL, key, val, where, err);
    if (rc != BB_OK)
        return rc;
    if (strlen(key) < sizeof s->seen[0].key) {
        if (bbs_grow((void **)&s->seen, sizeof *s->seen, &s->seen_cap, (size_t)s->nseen + 1))
            return bb_seterr(err, BB_ENOMEM, "out of memory");
        s->seen[s->nseen].sec = sec;
        s->seen[s->nseen].job = job;
        s->seen[s->nseen].line = lineno;
        strcpy(s->seen[s->nseen].key, key);
        s->nseen++;
    }
    return BB_OK;
}

enum bb_status
bbs_scenario_finish(bbs_scenario *s, char *err)
{
    const char *source = s->source;
    int lp = seen_line(s, S_TOPO, -1, "preset"), lc = seen_line(s, S_TOPO, -1, "codes");
    if (lp && lc)
        return bb_seterr(err, BB_EDATA, "%s:%d: [topology] 'preset' (line %d) and 'codes' (line "
                         "%d): give one of them", source, lp > lc ? lp : lc, lp, lc);
    {
        int lf = seen_line(s, S_PLACEMENT, -1, "file"), lpol = seen_line(s, S_PLACEMENT, -1,
                                                                         "policy");
        if (lf && lpol && s->policy_kind != -1)
            return bb_seterr(err, BB_EDATA, "%s:%d: [placement] 'file' (line %d) with a policy "
                             "other than 'file' (line %d): give policy = file, or no file",
                             source, lf > lpol ? lf : lpol, lf, lpol);
    }
    if (s->njobs == 0) {
        return bb_seterr(err, BB_EDATA, "%s: no [job NAME] section", source);
    }
    for (int j = 0; j < s->njobs; j++) {
        bbs_scn_job *jb = &s->jobs[j];
        char sub[BB_ERRLEN];
        if ((int)jb->model.kind < 0) {
            return bb_seterr(err, BB_EDATA, "%s:%d: [job %s] has no 'model' (known: milc, nekbone, "
                           "checkpoint, cosmoflow, graph500, fileload, vef)", source, jb->line,
                           jb->name);
        }
        if (jb->ranks <= 0) {
            return bb_seterr(err, BB_EDATA, "%s:%d: [job %s] has no 'ranks'", source, jb->line,
                           jb->name);
        }
        if (jb->trace && jb->tj.kind == BBS_TJ_VEF && !jb->tj.trace[0]) {
            return bb_seterr(err, BB_EDATA, "%s:%d: [job %s] model vef needs 'trace = FILE'",
                           source, jb->line, jb->name);
        }
        if (!jb->trace && bbs_model_check(&jb->model, jb->ranks, sub)) {
            return bb_seterr(err, BB_EINVAL, "%s:%d: [job %s] %s", source, jb->line, jb->name,
                           sub);
        }
    }
    if ((s->fail.node_mttf_s > 0 || s->fail.drive_scale_s > 0) && !(s->fail.mttr_s > 0)) {
        return bb_seterr(err, BB_EDATA, "%s:%d: [failures] needs 'mttr' (a repair time > 0) "
                       "with mttf or drive_scale", source, s->fail_line);
    }
    if (s->fail.drive_scale_s > 0 && !(s->fail.drive_shape > 0)) {
        return bb_seterr(err, BB_EDATA, "%s:%d: [failures] drive_shape must be > 0", source,
                       s->fail_line);
    }
    if (s->placement == -1 && !s->alloc[0]) {
        return bb_seterr(err, BB_EDATA, "%s: [placement] policy = file needs 'file = PATH'",
                       source);
    }
    return BB_OK;
}
