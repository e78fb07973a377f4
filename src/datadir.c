/* datadir.c: where bbsize finds its data (datadir.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"

static char shipped[PATH_MAX], user[PATH_MAX];
static int have_shipped, have_user;

/* A shipped data directory is one that holds the default workload; dir is
 * made canonical (realpath) into out. */
static int
try_dir(const char *dir, char out[PATH_MAX])
{
    char probe[PATH_MAX + 32];

    if (realpath(dir, out) == NULL)
        return 0;
    snprintf(probe, sizeof probe, "%s/workloads/default.csv", out);
    return access(probe, R_OK) == 0;
}

/* The directory of the running executable into dir; 0 when unknown. */
static int
exe_dir(const char *argv0, char dir[PATH_MAX])
{
    ssize_t n = readlink("/proc/self/exe", dir, PATH_MAX - 1);
    char *slash;

    if (n > 0) {
        dir[n] = '\0';
    } else if (argv0 == NULL || strchr(argv0, '/') == NULL || realpath(argv0, dir) == NULL) {
        return 0;
    }
    if ((slash = strrchr(dir, '/')) == NULL)
        return 0;
    *slash = '\0';
    return 1;
}

void
bb_datadir_init(const char *argv0)
{
    const char *env = getenv("BBSIZE_DATADIR");
    char exe[PATH_MAX], cand[PATH_MAX + 32];

    have_user = env != NULL && env[0] != '\0' && realpath(env, user) != NULL;
    have_shipped = 0;
    if (exe_dir(argv0, exe)) {
        snprintf(cand, sizeof cand, "%s/../data", exe);
        have_shipped = try_dir(cand, shipped);
        if (!have_shipped) {
            snprintf(cand, sizeof cand, "%s/../share/%s", exe, PACKAGE);
            have_shipped = try_dir(cand, shipped);
        }
    }
    if (!have_shipped)
        have_shipped = try_dir(BBSIZE_DATADIR, shipped);
    if (!have_shipped)
        have_shipped = try_dir(BBSIZE_SRCDATADIR, shipped);
    if (have_user && have_shipped && strcmp(user, shipped) == 0)
        have_user = 0;
}

size_t
bb_datadirs(const char *dirs[BB_DATADIR_MAX])
{
    size_t n = 0;

    if (have_user)
        dirs[n++] = user;
    if (have_shipped)
        dirs[n++] = shipped;
    return n;
}

const char *
bb_datadir_shipped(void)
{
    return have_shipped ? shipped : NULL;
}

const char *
bb_datadir_shown(const char *path)
{
    const char *dirs[BB_DATADIR_MAX];
    size_t n = bb_datadirs(dirs);

    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dirs[i]);

        if (strncmp(path, dirs[i], len) == 0 && path[len] == '/' && path[len + 1] != '\0')
            return path + len + 1;
    }
    return path;
}
