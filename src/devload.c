/* devload.c: device parameter files by preset name or path (devload.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "datadir.h"
#include "devload.h"
#include "device_file.h"
#include "readfile.h"

#define MAX_PRESETS 256

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *
bb_device_presets(void)
{
    const char *dirs[BB_DATADIR_MAX];
    char *names[MAX_PRESETS], *out, path[4096];
    size_t n = 0, len = 1, ndirs = bb_datadirs(dirs);

    for (size_t k = 0; k < ndirs && n == 0; k++) {
        DIR *dp;
        struct dirent *de;

        snprintf(path, sizeof path, "%s/devices", dirs[k]);
        if (!(dp = opendir(path)))
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
bb_device_load(const char *opt, const char *preset, const char *path, bbs_dev_params *p)
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
        const char *dirs[BB_DATADIR_MAX];
        size_t ndirs = bb_datadirs(dirs);

        for (size_t k = 0; k < ndirs && !text; k++) {
            snprintf(buf, sizeof buf, "%s/devices/%s.dev", dirs[k], preset);
            rc = bb_read_file(buf, BB_READ_TEXT, &text, &len, err, sizeof err);
            if (rc != BB_OK && rc != BB_ENOINPUT)
                bb_die_lib(rc, err);
        }
        if (!text) {
            char *list = bb_device_presets();

            if (opt)
                bb_usage_value(opt, preset, "a device preset (%s)", *list ? list : "(none found)");
            bb_die(BB_EXIT_NOINPUT, "device '%s': no such preset (the presets are %s)", preset,
                   *list ? list : "(none found)");
        }
        src = bb_datadir_shown(buf);
    } else {
        src = path;
        rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, sizeof err);
        if (rc != BB_OK)
            bb_die(bb_exit_status(rc), "cannot read the device file: %s", err);
    }
    rc = bbs_dev_params_parse(p, text, src, err);
    free(text);
    if (rc != BB_OK)
        bb_die(BB_EXIT_DATAERR, "%s", err);
}
