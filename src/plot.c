/* plot.c: SVG plots drawn by gnuplot (plot.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"
#include "plot.h"
