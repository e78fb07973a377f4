/* bbsnet.h: the umbrella header of libbbsnet, the dragonfly network of the
 * simulator at flow level.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_NETWORK_BBSNET_H
#define BBSIZE_SIM_NETWORK_BBSNET_H

#include "fabric.h"
#include "maxmin.h"
#include "netload.h"
#include "place.h"
#include "route.h"
#include "topo.h"

#endif
