/* devload.c: device parameter files by preset name or path (devload.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "devload.h"
#include "device_file.h"
#include "readfile.h"

/* The preset directories, in search order. */
static const char *preset_dirs[] = { BBSIZE_SRCDATADIR "/devices", BBSIZE_DATADIR "/devices" };
#define NDIRS (sizeof preset_dirs / sizeof preset_dirs[0])
#define MAX_PRESETS 256

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *
bb_device_presets(void)
{
    char *names[MAX_PRESETS], *out;
    size_t n = 0, len = 1;

    for (size_t k = 0; k < NDIRS && n == 0; k++) {
        DIR *dp = opendir(preset_dirs[k]);
        struct dirent *de;

        if (!dp)
            continue;
        while ((de = readdir(dp)) && n < MAX_PRESETS) {
            size_t l = strlen(de->d_name);

            if (l > 4 && strcmp(de->d_name + l - 4, ".dev") == 0) {
                names[n] = strndup(de->d_name, l - 4);
                if (!names[n])
                    bb_die(BB_EXIT_SOFTWARE, "out of memory");
                len += l + 2;
                n++;
            }
        }
        closedir(dp);
    }
    qsort(names, n, sizeof *names, cmp_str);
    out = malloc(len);
    if (!out)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(out, ", ");
        strcat(out, names[i]);
        free(names[i]);
    }
    return out;
}

void
bb_device_load(const char *preset, const char *path, bbs_dev_params *p)
{
    char buf[4096], err[BB_ERRLEN], *text = NULL;
    const char *src;
    size_t len;
    int rc;

    if (preset && (strchr(preset, '/') || strstr(preset, ".dev"))) {
        path = preset;   /* a file, as in every command that names a device */
        preset = NULL;
    }
    if (preset) {
        for (size_t k = 0; k < NDIRS && !text; k++) {
                snprintf(buf, sizeof buf, "%s/%s.dev", preset_dirs[k], preset);
                rc = bb_read_file(buf, BB_READ_TEXT, &text, &len, err, sizeof err);
                if (rc != 0 && rc != BB_EXIT_NOINPUT)
                    bb_die(rc, "%s", err);
            }
        if (!text) {
            char *list = bb_device_presets();

            bb_warn("unknown device preset '%s'; the presets are: %s", preset,
                    *list ? list : "(none found)");
            free(list);
            exit(BB_EXIT_USAGE);
        }
        src = buf;
    } else {
        src = path;
        rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, sizeof err);
        if (rc != 0)
            bb_die(rc, "cannot read the device file: %s", err);
    }
    rc = bbs_dev_params_parse(p, text, src, err);
    free(text);
    if (rc != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s", err);
}
