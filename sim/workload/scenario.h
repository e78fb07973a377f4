/* scenario.h: the scenario file of `bbsize simulate` (INI, documented in
 * bbsize-scenario(5)): topology, routing, burst-buffer architecture and
 * devices, PFS and draining, placement and the jobs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This module holds the scenario's fields and defaults.  The text is read
 * in src/formats/: scenario_ini.c (the INI syntax, libinih) calls
 * bbs_scenario_init, then bbs_scenario_section (scenario_keys.h) at every
 * section header and bbs_scenario_set for every key, then
 * bbs_scenario_finish.  File names in it (CODES .conf,
 * device files, allocation file) are resolved and read by the caller
 * (src/scnrun.c).  Every error is BB_EDATA (syntax, unknown or
 * repeated key) or BB_EINVAL (a value) with "file:line: [section] key
 * 'token': what". */
#ifndef BBSIZE_SIM_WORKLOAD_SCENARIO_H
#define BBSIZE_SIM_WORKLOAD_SCENARIO_H

#include <stdint.h>

#include "storage/arch.h"
#include "workload/models.h"
#include "workload/exec.h"
#include "workload/tracejob.h"

#define BBS_SCN_PATH 1024

typedef struct {
    char name[64];
    bbs_model model;        /* MFNetSim models (trace = 0) */
    int trace;              /* 1: a trace model (graph500, fileload, vef) in tj */
    bbs_tracejob tj;
    long messages;          /* vef: at most this many generated messages (0: no cap) */
    int ranks;
    double start_s;
    int alloc_line;         /* placement file: its line (1-based); 0: the job's index + 1 */
    int allreduce_algo;     /* BBS_ALGO_* (coll.h), or -1: [run] allreduce */
    int line;               /* of its [job ...] header */
} bbs_scn_job;

typedef struct {
    char source[BBS_SCN_PATH];
    /* [topology] */
    char preset[64];                  /* preset name, or "" */
    char codes[BBS_SCN_PATH];         /* CODES dragonfly-dally .conf, or "" */
    int bb_per_group;                 /* -1: the preset's / .conf's */
    int compute_per_group;            /* -1: the preset's / .conf's */
    double link_delay_s[3];           /* cn_delay, local_delay, global_delay:
                                         per link (-1: the preset's / .conf's) */
    int routing;                      /* enum bbs_net_routing */
    double bias;
    int candidates;
    int exact_limit;
    double small_bytes;               /* small_message: not flows below this */
    int inject_fcfs;                  /* injection: fcfs (1, default) or concurrent */
    int backpressure;                 /* backpressure: on (1, default) or off */
    int store_forward;                /* store_forward: on (1, default) or off */
    int vc_priority;                  /* vc_priority: on (1, default) or off */
    int vc_scheme;                    /* vc_scheme: group (default) or legacy */
    int queue_per_flow;               /* queue: channel (0, default) or flow */
    int router_per_packet;            /* router_delay_per_packet: on (1, default):
                                         the topology's port_chunk_bytes = packet */
    double send_overhead_s;           /* send_overhead: per message (3.51 us) */
    double copy_s_per_byte;           /* copy_per_byte: per byte sent (0.55 ns) */
    double jitter_s;                  /* jitter: per message sent (0: none) */
    double packet_bytes;              /* packet: queueing delay unit (4096; 0 none) */
    double route_piece_bytes;         /* route_piece: adaptive per piece (256 KiB) */
    /* [storage] */
    bbs_arch_kind arch;
    char device[BBS_SCN_PATH];        /* device name (data/devices) or file */
    char hdd[BBS_SCN_PATH];
    double capacity_bytes;            /* 0: the device's */
    double ssd_threshold_bytes;
    double pfs_bw_Bps;                /* 0: no draining */
    bb_drain drain;                   /* drain, lazy_threshold (bytes); EPS unused */
    double chunk_bytes;
    double piece_bytes;               /* piece: the server's pieces (1 MB; 0 whole) */
    int pieces_in_flight;             /* pieces_in_flight: issued to the device (4) */
    int piece_threads;                /* piece_threads: per request (4; 0: none) */
    /* [placement] */
    int placement;                    /* enum bbs_net_place_kind, or -1 for file */
    int policy_kind;                  /* what 'policy' said (-1: file) */
    char alloc[BBS_SCN_PATH];
    /* [run] */
    uint64_t seed;
    double horizon_s;
    int allreduce_algo;
    /* [failures] */
    bbs_exec_failures fail;
    int fail_line;                    /* of its header (0: none) */
    /* [job NAME] sections, in file order */
    int njobs;
    size_t jobs_cap;
    bbs_scn_job *jobs;
    /* reading state: the current section, and every key given so far with
     * its line (a key appears once per section) */
    int cur_sec, cur_job;
    int nseen;
    size_t seen_cap;
    struct bbs_scn_seen { int sec, job, line; char key[48]; } *seen;
} bbs_scenario;

/* bbs_scn_job_model_name: "milc", ..., "graph500", "fileload", "vef". */
const char *bbs_scn_job_model_name(const bbs_scn_job *j);

/* bbs_scenario_init: the defaults, before any section (the sections and
 * keys are then read by src/formats/scenario_keys.h): preset
 * mfnetsim-1056, minimal routing (bias 0, 2 candidates), exact rates,
 * compute-global architecture on device mfnetsim-bb, no PFS drain,
 * contiguous placement, seed 1, no horizon.  source names the file in
 * messages.  Free with bbs_scenario_free whatever happens next. */
void bbs_scenario_init(bbs_scenario *s, const char *source);

void bbs_scenario_free(bbs_scenario *s);

#endif
