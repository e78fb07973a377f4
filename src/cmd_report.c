/* cmd_report.c: stub.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"
#include "cli.h"
#include "commands.h"
int bb_cmd_report(int argc, char **argv) { (void)argc; (void)argv; return 70; }
