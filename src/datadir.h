/* datadir.h: where bbsize finds its data (platform presets, device files,
 * message-size tables), and how it names what it read there.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shipped data directory is the first of these that holds
 * workloads/default.csv:
 *   1. next to the executable: EXEDIR/../data (src/bbsize in a build tree
 *      or a copy of one), then EXEDIR/../share/bbsize (bin/bbsize of an
 *      installed tree, wherever it was copied);
 *   2. the compiled-in install directory (pkgdatadir, BBSIZE_DATADIR);
 *   3. the compiled-in source tree (BBSIZE_SRCDATADIR), for a build
 *      outside the source tree (VPATH) that is not installed.
 * $BBSIZE_DATADIR, when set and not empty, comes before it: a directory
 * of the user's own presets, searched first.  EXEDIR is the directory of
 * /proc/self/exe (argv[0] holding a '/' where /proc is absent).
 *
 * What was read is shown relative to the directory it was found in
 * ("systems/cori.conf"), so no absolute path of the tree bbsize was built
 * or installed in appears in its answers or reports.  src/ code: reads the
 * environment and the file system. */
#ifndef BBSIZE_SRC_DATADIR_H
#define BBSIZE_SRC_DATADIR_H

#include <stddef.h>

#define BB_DATADIR_MAX 2

/* bb_datadir_init: find the directories once, from main (argv0 is
 * argv[0], used only when /proc/self/exe cannot be read). */
void bb_datadir_init(const char *argv0);

/* bb_datadirs: the data directories in search order ($BBSIZE_DATADIR,
 * then the shipped one), at most BB_DATADIR_MAX; returns how many
 * (0 when none exists).  The strings live until exit. */
size_t bb_datadirs(const char *dirs[BB_DATADIR_MAX]);

/* bb_datadir_shipped: the shipped data directory found, or NULL. */
const char *bb_datadir_shipped(void);

/* bb_datadir_shown: path as bbsize prints it: relative to the data
 * directory it lies in (a pointer into path), else path itself. */
const char *bb_datadir_shown(const char *path);

#endif
