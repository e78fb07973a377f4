/* fitlogs.c: the logs of `bbsize fit darshan`: walking the paths, reading
 * one log into its estimate (fitlogs.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bb_error.h"
#include "cli.h"
#include "darshan.h"
#include "dxt.h"
#include "fitlogs.h"
#include "grow.h"
#include "readfile.h"

static void
add_file(bb_fit_files *fl, const char *path, double size)
{
    char *p = strdup(path);

    bb_in_claim(path);   /* an output naming a log is refused before any is read */
    if (p == NULL || bbs_grow((void **)&fl->f, sizeof *fl->f, &fl->cap, fl->n + 1))
        bb_die(BB_EXIT_SOFTWARE, "out of memory listing the logs (%zu so far)", fl->n);
    fl->f[fl->n].path = p;
    fl->f[fl->n].size_bytes = size;
    fl->n++;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
walk(const char *dir, int depth, bb_fit_files *fl)
{
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;

    if (depth > BB_FIT_MAX_DEPTH)
        bb_die(BB_EXIT_NOINPUT, "%s: more than %d directory levels below the path given (a "
               "loop?): name a deeper directory", dir, BB_FIT_MAX_DEPTH);
    if ((d = opendir(dir)) == NULL)
        bb_die(BB_EXIT_NOINPUT, "%s: cannot read the directory: %s", dir, strerror(errno));
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (bbs_grow((void **)&names, sizeof *names, &cap, n + 1)
            || (names[n] = strdup(e->d_name)) == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory reading %s", dir);
        n++;
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        struct stat ls, st;

        if (path == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory reading %s", dir);
        snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        if (lstat(path, &ls) != 0)
            bb_die(BB_EXIT_NOINPUT, "%s: %s", path, strerror(errno));
        if (S_ISDIR(ls.st_mode))
            walk(path, depth + 1, fl);
        else if (S_ISREG(ls.st_mode))
            add_file(fl, path, (double)ls.st_size);
        else if (S_ISLNK(ls.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            add_file(fl, path, (double)st.st_size);
        else {
            /* a link that leads nowhere (a loop, a missing target) is a
             * log the user may have meant: said, by name */
            if (S_ISLNK(ls.st_mode) && stat(path, &st) != 0)
                bb_warn("%s: skipped: a symbolic link that cannot be followed (%s)", path,
                        strerror(errno));
            fl->skipped++;
        }
        free(path);
        free(names[i]);
    }
    free(names);
}

void
bb_fit_collect(char **paths, int n, bb_fit_files *fl)
{
    memset(fl, 0, sizeof *fl);
    for (int i = 0; i < n; i++) {
        struct stat st;

        if (stat(paths[i], &st) != 0)
            bb_die(BB_EXIT_NOINPUT, "%s: cannot open: %s", paths[i], strerror(errno));
        if (S_ISDIR(st.st_mode)) {
            size_t before = fl->n;

            walk(paths[i], 1, fl);
            if (fl->n == before)
                bb_die(BB_EXIT_NOINPUT, "%s: no file in this directory (names starting with "
                       "'.' are skipped)", paths[i]);
        } else
            add_file(fl, paths[i], S_ISREG(st.st_mode) ? (double)st.st_size : 0);
    }
}

void
bb_fit_files_free(bb_fit_files *fl)
{
    for (size_t i = 0; i < fl->n; i++)
        free(fl->f[i].path);
    free(fl->f);
    memset(fl, 0, sizeof *fl);
}

static void
take_header(bb_fit_log *lg, const bb_darshan_hdr *h)
{
    char exe[256];

    snprintf(exe, sizeof exe, "%s", h->exe);
    snprintf(lg->exe, sizeof lg->exe, "%s", h->exe[0] ? basename(exe) : "");
    snprintf(lg->jobid, sizeof lg->jobid, "%s", h->jobid);
    snprintf(lg->uid, sizeof lg->uid, "%s", h->uid);
    lg->nprocs = h->nprocs;
    lg->start_epoch = h->start_epoch;
}

/* A status of the timeline, its message after the file's name. */
static int
tl_failed(int rc, const char *path, const char *msg, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", path, msg);
    return rc;
}

static int
read_dxt(const char *path, const char *text, size_t len, const bb_tl_opts *o, bb_fit_log *lg,
         char *err, size_t errlen)
{
    bb_dxt_log log;
    bb_tl_stats tl;
    bb_tl_opts od = *o;
    char msg[BB_ERRLEN];
    int rc;

    lg->dxt = 1;
    if ((rc = bb_dxt_parse(text, len, path, &log, err, errlen)) != 0)
        goto out;
    take_header(lg, &log.hdr);
    od.resolution_s = BB_DXT_RESOLUTION_S;
    if ((rc = bb_tl_analyze(log.iv, log.n, log.hdr.run_time_s, &od, &tl, msg)) != BB_OK) {
        rc = tl_failed(rc, path, msg, err, errlen);
        goto out;
    }
    bb_fit_from_timeline(&tl, BB_FIT_DXT, BB_DXT_RESOLUTION_S, &lg->est);
    if (log.bytes_written == 0)
        lg->warn |= BB_FITW_NOWRITE;
    if (log.use_mpiio)
        lg->warn |= BB_FITW_MPIIO_ROWS;
out:
    bb_dxt_free(&log);
    return rc;
}

static int
read_parser(const char *path, const char *text, size_t len, const bb_tl_opts *o,
            bb_fit_log *lg, char *err, size_t errlen)
{
    bb_darshan_job j;
    bb_tl_stats tl;
    char msg[BB_ERRLEN];
    bb_fit_counters k;
    int rc, um;

    if ((rc = bb_darshan_parse(text, len, path, &j, err, errlen)) != 0)
        goto out;
    take_header(lg, &j.hdr);
    k = bb_darshan_counters(&j);
    if (j.heat_bins > 0) {
        if ((rc = bb_tl_analyze_bins(j.heat, j.heat_bins, j.heat_width_s, j.hdr.run_time_s, o,
                                     &tl, msg)) != BB_OK) {
            rc = tl_failed(rc, path, msg, err, errlen);
            goto out;
        }
        bb_fit_from_counters(&k, &tl, &lg->est);
        if (!lg->est.p_from_counters)
            lg->warn |= BB_FITW_HEAT_ONLY;
    } else
        bb_fit_from_counters(&k, NULL, &lg->est);
    um = j.use_mpiio ? BB_DX_MPIIO : BB_DX_POSIX;
    if (lg->est.p_from_counters && j.bytes_written[um] + j.bytes_written[BB_DX_STDIO] == 0)
        lg->warn |= BB_FITW_NOWRITE;
    if (j.present[BB_DX_POSIX] && j.present[BB_DX_MPIIO])
        lg->warn |= BB_FITW_BOTH_APIS;
    if (lg->est.p_clamped)
        lg->warn |= BB_FITW_CLAMPED;
    if (j.unmonitored[0]) {
        lg->warn |= BB_FITW_UNMONITORED;
        if ((lg->unmonitored = strdup(j.unmonitored)) == NULL) {
            snprintf(err, errlen, "%s: out of memory", path);
            rc = BB_ENOMEM;
        }
    }
out:
    bb_darshan_job_free(&j);
    return rc;
}

/* A hint for a file that is not text: Darshan's own logs are binary. */
static void
binary_hint(const char *path, char *err, size_t errlen)
{
    size_t l = strlen(path), e = strlen(err);

    if (l >= 8 && strcmp(path + l - 8, ".darshan") == 0 && e + 1 < errlen)
        snprintf(err + e, errlen - e, " (a binary Darshan log: give the text of "
                 "`darshan-parser --base LOG` or `darshan-dxt-parser LOG`)");
}

int
bb_fit_read_log(const char *path, const bb_tl_opts *o, bb_fit_log *lg, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len;
    int rc;

    memset(lg, 0, sizeof *lg);
    lg->path = path;
    lg->start_epoch = -1;
    if ((rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, errlen)) != 0) {
        binary_hint(path, err, errlen);
        return rc;
    }
    if (bb_dxt_looks_like(text, len))
        rc = read_dxt(path, text, len, o, lg, err, errlen);
    else
        rc = read_parser(path, text, len, o, lg, err, errlen);
    free(text);
    return rc;
}
