/* place.h: job placement on the compute terminals of a dragonfly.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Policies of MFNetSim (paper 001 Sec. 7.3) and CODES: contiguous (jobs take
 * compute nodes in order), random node (a random permutation of all compute
 * nodes), random router (routers in random order, each router's compute
 * nodes in order), random group (groups in random order), and an explicit
 * allocation (MFNetSim's file: one line per job, the compute-client indices
 * of its ranks, 0-based over compute nodes only: burst-buffer nodes are
 * skipped).  Jobs never share a node.  O(compute nodes). */
#ifndef BBSIZE_SIM_NETWORK_PLACE_H
#define BBSIZE_SIM_NETWORK_PLACE_H

#include <gsl/gsl_rng.h>

#include "topo.h"

enum bbs_net_place_kind {
    BBS_NET_PLACE_CONT = 0,
    BBS_NET_PLACE_RAND_NODE = 1,
    BBS_NET_PLACE_RAND_ROUTER = 2,
    BBS_NET_PLACE_RAND_GROUP = 3
};

/* "cont"/"contiguous", "rand"/"random-node", "random-router", "random-group". */
int bbs_net_place_parse(const char *name, int *kind, char *err);
const char *bbs_net_place_name(int kind);

/* A placement: node[job_off[j] + i] is the node of rank i of job j. */
typedef struct {
    int njobs;
    int *job_off;          /* njobs + 1 */
    int *node;
} bbs_net_placement;

void bbs_net_placement_free(bbs_net_placement *pl);

/* bbs_net_place: place njobs jobs of ranks[j] ranks with policy kind; r is
 * used by the random policies (shuffles: one gsl_rng_uniform_int per element
 * of the shuffled list).  More ranks than compute nodes: BB_EINVAL saying
 * how many were asked and exist.  BB_ENOMEM. */
int bbs_net_place(const bbs_net_topo *t, int kind, const int *ranks, int njobs, gsl_rng *r,
                  bbs_net_placement *pl, char *err);

/* An allocation file is read into a placement by bbs_net_alloc_parse
 * (src/formats/alloc_file.h). */

#endif
