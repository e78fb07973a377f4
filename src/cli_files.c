/* cli_files.c: the files a command names (cli_files.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_files.h"
#include "readfile.h"
#include "status.h"

char *
bb_read_or_die(const char *path, size_t *len, int mode)
{
    char *b, err[BB_ERRLEN];
    size_t n;
    int rc = bb_read_file(path, mode, &b, len ? len : &n, err, sizeof err);

    if (rc != BB_OK)
        bb_die_lib(rc, err);
    return b;
}

int
bb_path_exists(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0;
}

char *
bb_path_beside(const char *from, const char *p, int by_base)
{
    const char *slash = from ? strrchr(from, '/') : NULL, *base = strrchr(p, '/');
    size_t dl = slash ? (size_t)(slash - from + 1) : 0;
    char *s;

    if (bb_path_exists(p) || from == NULL)
        return bb_path_exists(p) ? strdup(p) : NULL;
    s = malloc(dl + strlen(p) + 1);
    if (!s)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    memcpy(s, from, dl);
    strcpy(s + dl, p);
    if (p[0] != '/' && bb_path_exists(s))
        return s;
    if (by_base) {
        strcpy(s + dl, base ? base + 1 : p);
        if (bb_path_exists(s))
            return s;
    }
    free(s);
    return NULL;
}
