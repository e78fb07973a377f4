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

#include "outfile.h"
#include "status.h"
#include "usage.h"
#include "readfile.h"

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

/* ---- outputs never name inputs ------------------------------------------ */

/* A path as a file: its device and inode when it exists, else its name
 * with symbolic links and the directory resolved. */
typedef struct {
    char *opt;     /* the option that named it (outputs), or NULL */
    char *shown;   /* as given */
    char *name;    /* resolved */
    dev_t dev;
    ino_t ino;
    int has_id;    /* exists: dev and ino */
    int file;      /* a regular file, a directory, or not there: can conflict */
} io_path;

static io_path *io_ins, *io_outs;
static size_t n_ins, n_outs, cap_ins, cap_outs;

/* name with its directory resolved (the name itself need not exist). */
static char *
abs_name(const char *t)
{
    const char *slash = strrchr(t, '/');
    char *dir = slash ? strndup(t, (size_t)(slash - t + (slash == t))) : strdup(".");
    char *rd = dir ? realpath(dir, NULL) : NULL, *r = NULL;
    const char *base = slash ? slash + 1 : t;

    free(dir);
    if (rd != NULL && asprintf(&r, "%s/%s", strcmp(rd, "/") == 0 ? "" : rd, base) < 0)
        r = NULL;
    free(rd);
    return r ? r : strdup(t);
}

static void
io_key(const char *path, io_path *k)
{
    struct stat st;

    memset(k, 0, sizeof *k);
    if (stat(path, &st) == 0) {
        k->has_id = 1;
        k->dev = st.st_dev;
        k->ino = st.st_ino;
        k->file = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
        k->name = realpath(path, NULL);
    } else {
        struct stat ls;
        char *t = resolve_target(path, &ls);

        k->file = 1;
        if (t != NULL) {
            k->name = abs_name(t);
            free(t);
        }
    }
    if (k->name == NULL)
        k->name = strdup(path);
    k->shown = strdup(path);
    if (k->name == NULL || k->shown == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
}

static void
io_free(io_path *k)
{
    free(k->opt);
    free(k->shown);
    free(k->name);
}

static int
io_same(const io_path *a, const io_path *b)
{
    if (!a->file || !b->file || a->has_id != b->has_id)
        return 0;
    if (a->has_id)
        return a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->name, b->name) == 0;
}

static void
io_cleanup(void)
{
    for (size_t i = 0; i < n_ins; i++)
        io_free(&io_ins[i]);
    for (size_t i = 0; i < n_outs; i++)
        io_free(&io_outs[i]);
    free(io_ins);
    free(io_outs);
    io_ins = io_outs = NULL;
    n_ins = n_outs = cap_ins = cap_outs = 0;
}

static void
io_add(io_path **v, size_t *n, size_t *cap, const io_path *k)
{
    static int registered;

    if (!registered) {
        atexit(io_cleanup);
        registered = 1;
    }
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        io_path *nv = realloc(*v, nc * sizeof *nv);

        if (nv == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = *k;
}

/* The refusal: the output o names the input (or output) shown as other. */
static _Noreturn void
io_refuse(io_path *o, int own, const char *opt, const char *other, int is_output)
{
    char *a = strdup(o->shown), *b = strdup(other), *op = opt ? strdup(opt) : NULL;

    if (own)        /* o is the caller's, not in the lists */
        io_free(o);
    io_cleanup();   /* the message's words are copies: nothing is left */
    if (a == NULL || b == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    if (is_output)
        bb_usage_error(op, "'%s' is the same file as the output '%s': two outputs cannot "
                       "share a file", a, b);
    if (strcmp(a, b) == 0)
        bb_usage_error(op, "'%s' is an input of this run: writing it would replace the "
                       "input (write the output elsewhere)", a);
    bb_usage_error(op, "'%s' is the same file as the input '%s': writing it would replace "
                   "the input (write the output elsewhere)", a, b);
}

void
bb_out_claim(const char *opt, const char *path)
{
    io_path k;

    if (path[0] == '\0')
        bb_usage_value(opt, path, "a file name (an empty name names no file; - is standard "
                       "output)");
    if (strcmp(path, "-") == 0)
        return;
    io_key(path, &k);
    for (size_t i = 0; i < n_ins; i++)
        if (io_same(&k, &io_ins[i]))
            io_refuse(&k, 1, opt, io_ins[i].shown, 0);
    for (size_t i = 0; i < n_outs; i++)
        if (io_same(&k, &io_outs[i])) {
            if (io_outs[i].opt != NULL && opt != NULL && strcmp(io_outs[i].opt, opt) == 0
                && strcmp(io_outs[i].shown, path) == 0) {
                io_free(&k);   /* the same option given the same name twice */
                return;
            }
            io_refuse(&k, 1, opt, io_outs[i].shown, 1);
        }
    if (opt != NULL && (k.opt = strdup(opt)) == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    io_add(&io_outs, &n_outs, &cap_outs, &k);
}

void
bb_in_claim(const char *path)
{
    io_path k;

    if (path[0] == '\0' || strcmp(path, "-") == 0)
        return;
    io_key(path, &k);
    for (size_t i = 0; i < n_outs; i++)
        if (io_same(&k, &io_outs[i])) {
            io_free(&k);
            io_refuse(&io_outs[i], 0, io_outs[i].opt, path, 0);
        }
    for (size_t i = 0; i < n_ins; i++)
        if (io_same(&k, &io_ins[i])) {   /* read again: known already */
            io_free(&k);
            return;
        }
    io_add(&io_ins, &n_ins, &cap_ins, &k);
}

void
bb_out_watch_inputs(void)
{
    bb_read_watch(bb_in_claim);
}

/* bb_out_open's part: the output path, derived or claimed, against the
 * inputs; recorded as an output until it is committed. */
static void
out_check(const char *path)
{
    io_path k;

    io_key(path, &k);
    for (size_t i = 0; i < n_outs; i++)
        if (io_same(&k, &io_outs[i])) {   /* claimed already: checked then */
            io_free(&k);
            return;
        }
    for (size_t i = 0; i < n_ins; i++)
        if (io_same(&k, &io_ins[i]))
            io_refuse(&k, 1, NULL, io_ins[i].shown, 0);
    io_add(&io_outs, &n_outs, &cap_outs, &k);
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
    if (path[0] == '\0')
        bb_die(BB_EXIT_CANTCREAT, "cannot create a file of empty name");
    out_check(path);
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

/* A committed output is whole: reading it back later replaces nothing. */
static void
out_forget(const char *path)
{
    io_path k;

    io_key(path, &k);
    for (size_t i = 0; i < n_outs; i++)
        if (io_same(&k, &io_outs[i])) {
            io_free(&io_outs[i]);
            io_outs[i--] = io_outs[--n_outs];
        }
    io_free(&k);
}

static void
out_done(bb_out *o)
{
    pending_remove(o);
    if (o->path != NULL)
        out_forget(o->path);
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

void
bb_out_text(const char *path, const char *text, size_t len)
{
    bb_out o;

    if (path == NULL) {
        if (fwrite(text, 1, len, stdout) != len)
            bb_die(BB_EXIT_IOERR, "write error on standard output");
        return;
    }
    bb_out_open(&o, path);
    if (fwrite(text, 1, len, o.fp) != len)
        bb_die(BB_EXIT_IOERR, "%s: write error", path);
    bb_out_commit(&o);
}

void
bb_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        bb_die(BB_EXIT_IOERR, "write error on standard output: %s", strerror(errno));
}
