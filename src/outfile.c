/* outfile.c: output files written atomically or in place (outfile.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"

/* resolve_target: follow symbolic links from path (at most 40, as the
 * kernel does) to the name that is really written; a relative link is
 * taken relative to the directory of the link.  st gets the lstat of the
 * result, or st_mode 0 when it does not exist.  Returns a malloc'd path,
 * or NULL with errno set. */
static char *
resolve_target(const char *path, struct stat *st)
{
    char *cur = strdup(path);
    int hops;

    for (hops = 0; cur != NULL; hops++) {
        char buf[PATH_MAX];
        ssize_t n;
        char *next;

        if (lstat(cur, st) != 0) {
            if (errno != ENOENT) {
                free(cur);
                return NULL;
            }
            memset(st, 0, sizeof *st);
            return cur;
        }
        if (!S_ISLNK(st->st_mode))
            return cur;
        if (hops == 40) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        buf[n] = '\0';
        if (buf[0] == '/' || strchr(cur, '/') == NULL) {
            next = strdup(buf);
        } else {
            size_t dl = (size_t)(strrchr(cur, '/') - cur) + 1;

            next = malloc(dl + (size_t)n + 1);
            if (next != NULL) {
                memcpy(next, cur, dl);
                memcpy(next + dl, buf, (size_t)n + 1);
            }
        }
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* The temporaries not yet committed or aborted: removed at exit, so that a
 * run dying between open and commit (another output refused, a failed
 * write, an error in the computation) leaves nothing behind. */
#define PENDING_MAX 32
static bb_out *pending[PENDING_MAX];
static size_t n_pending;

static void
pending_cleanup(void)
{
    for (size_t i = 0; i < n_pending; i++)
        if (pending[i]->tmp != NULL)
            unlink(pending[i]->tmp);
    n_pending = 0;
}

static void
pending_add(bb_out *o)
{
    static int registered;

    if (!registered) {
        atexit(pending_cleanup);
        registered = 1;
    }
    if (n_pending == PENDING_MAX) {
        unlink(o->tmp);
        bb_die(BB_EXIT_SOFTWARE, "more than %d output files open at once", PENDING_MAX);
    }
    pending[n_pending++] = o;
}

static void
pending_remove(const bb_out *o)
{
    for (size_t i = 0; i < n_pending; i++)
        if (pending[i] == o) {
            pending[i] = pending[--n_pending];
            return;
        }
}

void
bb_out_open(bb_out *o, const char *path)
{
    struct stat st;
    int fd;

    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        o->kind = BB_OUT_STDOUT;
        return;
    }
    o->path = resolve_target(path, &st);
    if (o->path == NULL)
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: is a directory", path);
    }
    if (S_ISBLK(st.st_mode)) {
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: refusing to write to a block device", path);
    }
    if (st.st_mode != 0 && !S_ISREG(st.st_mode)) {
        /* A character device, FIFO or socket: write to it in place; never
         * rename over it. */
        fd = open(o->path, O_WRONLY | O_NOCTTY);
        if (fd < 0 || (o->fp = fdopen(fd, "w")) == NULL) {
            int e = errno;

            if (fd >= 0)
                close(fd);
            free(o->path);
            bb_die(BB_EXIT_CANTCREAT, "%s: cannot open: %s", path, strerror(e));
        }
        o->kind = BB_OUT_DIRECT;
        return;
    }
    /* A regular file or a new one: a temporary beside the real name,
     * renamed over it on commit (a symbolic link stays a link). */
    o->tmp = malloc(strlen(o->path) + 32);
    if (o->tmp == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    sprintf(o->tmp, "%s.tmp.XXXXXX", o->path);
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;

        free(o->tmp);
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(e));
    }
    if (st.st_mode != 0) {
        /* Keep the mode of the file being replaced. */
        (void)fchmod(fd, st.st_mode & 07777);
    } else {
        /* mkstemp makes 0600; give the file the mode open(2) would. */
        mode_t um = umask(0);

        umask(um);
        (void)fchmod(fd, 0666 & ~um);
    }
    o->fp = fdopen(fd, "w");
    if (o->fp == NULL) {
        int e = errno;

        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        free(o->path);
        bb_die(BB_EXIT_CANTCREAT, "%s: cannot create: %s", path, strerror(e));
    }
    o->kind = BB_OUT_RENAME;
    pending_add(o);
}

void
bb_out_abort(bb_out *o)
{
    pending_remove(o);
    if (o->kind == BB_OUT_STDOUT) {
        memset(o, 0, sizeof *o);
        return;
    }
    if (o->fp)
        fclose(o->fp);
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

/* Flush, fsync and close o; the failing step's name, or NULL. */
static const char *
out_finish(bb_out *o, int *e)
{
    const char *step = NULL;

    if (fflush(o->fp) != 0 || ferror(o->fp)) {
        step = "write";
        *e = errno;
    } else if (o->kind == BB_OUT_RENAME && fsync(fileno(o->fp)) != 0) {
        step = "fsync";
        *e = errno;
    }
    if (fclose(o->fp) != 0 && step == NULL) {
        step = "close";
        *e = errno;
    }
    o->fp = NULL;
    return step;
}

static _Noreturn void
out_fail(bb_out *o, const char *step, int e)
{
    char *path = strdup(o->path);

    bb_out_abort(o);
    bb_die(BB_EXIT_IOERR, "%s: %s failed: %s", path ? path : "output", step, strerror(e));
}

static void
out_done(bb_out *o)
{
    pending_remove(o);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

void
bb_out_commit(bb_out *o)
{
    const char *step;
    int e = 0;

    if (o->kind == BB_OUT_STDOUT) {
        memset(o, 0, sizeof *o);
        bb_finish_stdout();
        return;
    }
    step = out_finish(o, &e);
    if (step == NULL && o->kind == BB_OUT_RENAME && rename(o->tmp, o->path) != 0) {
        step = "rename";
        e = errno;
    }
    if (step != NULL)
        out_fail(o, step, e);
    out_done(o);
}

void
bb_out_commit_all(bb_out *const *outs, size_t n)
{
    const char *step;
    int e = 0;

    /* every file written and closed before any is renamed: a failure
     * here leaves none of them */
    for (size_t i = 0; i < n; i++) {
        if (outs[i]->kind == BB_OUT_STDOUT)
            continue;
        if ((step = out_finish(outs[i], &e)) != NULL)
            out_fail(outs[i], step, e);
    }
    for (size_t i = 0; i < n; i++) {
        if (outs[i]->kind == BB_OUT_STDOUT) {
            memset(outs[i], 0, sizeof *outs[i]);
            bb_finish_stdout();
            continue;
        }
        if (outs[i]->kind == BB_OUT_RENAME && rename(outs[i]->tmp, outs[i]->path) != 0)
            out_fail(outs[i], "rename", errno);
        out_done(outs[i]);
    }
}
