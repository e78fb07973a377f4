/* commands.h: the subcommands of bbsize, one function each, called with
 * argv[0] = "bbsize NAME".  Each returns the exit status.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_COMMANDS_H
#define BBSIZE_SRC_COMMANDS_H

int bb_cmd_dist(int argc, char **argv);
int bb_cmd_idle(int argc, char **argv);
int bb_cmd_size(int argc, char **argv);
int bb_cmd_threshold(int argc, char **argv);
int bb_cmd_generate(int argc, char **argv);
int bb_cmd_simulate(int argc, char **argv);
int bb_cmd_validate(int argc, char **argv);
int bb_cmd_device(int argc, char **argv);
int bb_cmd_bbarch(int argc, char **argv);
int bb_cmd_netload(int argc, char **argv);
int bb_cmd_trace(int argc, char **argv);
int bb_cmd_compare(int argc, char **argv);
int bb_cmd_systems(int argc, char **argv);
int bb_cmd_sweep(int argc, char **argv);
int bb_cmd_fit(int argc, char **argv);
int bb_cmd_report(int argc, char **argv);
int bb_cmd_frontier(int argc, char **argv);
int bb_cmd_design(int argc, char **argv);
int bb_cmd_partition(int argc, char **argv);

#endif
