/* bbanalytic.h: the public header of libbbanalytic, the analytic front end
 * (Aupy, Beaumont, Eyraud-Dubois, "What size should your Burst-Buffers
 * be?", 2017).  src/ includes this one header.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_BBANALYTIC_H
#define BBSIZE_ANALYTIC_BBANALYTIC_H

#include "bb_error.h"
#include "bb_num.h"
#include "drain.h"
#include "workload.h"
#include "dist.h"
#include "chain.h"
#include "stationary.h"
#include "fftwh.h"
#include "measures.h"
#include "bbbw.h"
#include "sizing.h"
#include "cost.h"
#include "quanta.h"
#include "generate.h"
#include "onoff.h"
#include "effbw.h"
#include "endurance.h"
#include "fluid.h"
#include "fluid_approx.h"
#include "fluid_span.h"
#include "answer.h"
#include "design.h"
#include "partition.h"

#endif
