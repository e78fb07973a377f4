/* cli_files.h: the files a command names: read whole or die, and found
 * beside the file that names them (cli_files.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_FILES_H
#define BBSIZE_SRC_CLI_FILES_H

#include <stddef.h>

/* bb_read_or_die: path read whole through bb_read_file (readfile.h: mode
 * BB_READ_TEXT or BB_READ_BINARY); on failure, exit with its status and
 * message (66 unreadable, 65 a NUL byte in text or too large). */
char *bb_read_or_die(const char *path, size_t *len, int mode);

/* bb_path_beside: a path named by file `from` (a .conf, a scenario; NULL:
 * none) as written (relative to the working directory), else relative to
 * from's directory, else (by_base) its base name there; malloc'd, NULL if
 * none exists (out of memory exits 70).  bb_path_exists: stat succeeds. */
char *bb_path_beside(const char *from, const char *p, int by_base);
int bb_path_exists(const char *p);

#endif
