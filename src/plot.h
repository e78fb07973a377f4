/* plot.h: SVG plots drawn by gnuplot (a child process), for the report.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_PLOT_H
#define BBSIZE_SRC_PLOT_H
#endif
