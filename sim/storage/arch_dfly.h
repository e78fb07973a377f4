/* arch_dfly.h: the flow-level dragonfly (sim/network/fabric.h) behind the
 * architectures' network interface (arch_net.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Placement: client i is the i-th compute terminal of the topology
 * (t->compute_nodes[i], in node order: group 0 first), buffer node k the
 * k-th burst-buffer terminal (the first bb_per_group terminals of each
 * group, in node order); when the two share a terminal (compute_per_group,
 * CODES' LP mapping) the transfer is delivered at once.  A transfer is one
 * flow routed with the given
 * options (routing draws from stream (seed, unit, NETWORK entity 0)); it
 * shares link bandwidth max-min fairly with the other flows; it is
 * delivered when its last byte has left the fabric plus its path's router
 * and link delays.  Idle, a transfer of b bytes takes
 * b / min(capacities on its path) + delays.
 *
 * Link failures of the architecture stay outside (arch.h holds the
 * transfers); the fabric's links never fail.  Linking: needs
 * sim/network/libbbsnet.a before sim/libbbsim.a. */
#ifndef BBSIZE_SIM_STORAGE_ARCH_DFLY_H
#define BBSIZE_SIM_STORAGE_ARCH_DFLY_H

#include "arch_net.h"
#include "network/route.h"
#include "network/topo.h"

typedef struct {
    const bbs_net_topo *topo;     /* borrowed */
    bbs_net_route_opts route;
} bbs_arch_dfly_params;

/* open fails with BB_EINVAL when the topology has fewer compute terminals
 * than clients or fewer burst-buffer terminals than buffer nodes. */
extern const bbs_arch_net_class bbs_arch_net_dragonfly;

#endif
