/* systems.c: platform presets, bbsize-system(5) (systems.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bb_num.h"
#include "bb_error.h"
#include "readfile.h"
#include "systems.h"
#include "units.h"

static int
parse_count(const char *v, long *out)
{
    long x;

    if (bb_num_full_long(v, &x) != BB_NUM_OK || x < 0)
        return -1;
    *out = x;
    return 0;
}

/* The reader proper, on an open stream (a file or the caller's text); path
 * names it in messages.  The caller closes fp. */
static int
system_parse_fp(FILE *fp, const char *path, const char *name, bb_system *s, char *err,
                size_t errlen)
{
    char line[1024], msg[256];
    int lineno = 0, rc = 0, seen[9] = { 0 };

    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(s->kind, sizeof s->kind, "shared");
#define BAD(...) do { int o_ = snprintf(err, errlen, "%s:%d: ", path, lineno); \
        if (o_ >= 0 && (size_t)o_ < errlen) snprintf(err + o_, errlen - (size_t)o_, __VA_ARGS__); \
        rc = BB_EDATA; goto out; } while (0)
    while (fgets(line, sizeof line, fp)) {
        char *hash, *eq, *key, *val;
        bb_qty *q = NULL;
        enum bb_status (*parser)(const char *, bb_qty *, char *, size_t) = NULL;

        lineno++;
        if (lineno == 1 && bb_skip_bom(line) != line)    /* a UTF-8 BOM reads as absent */
            memmove(line, line + 3, strlen(line + 3) + 1);
        if (strchr(line, '\n') == NULL && !feof(fp))
            BAD("line longer than %zu bytes", sizeof line - 2);
        if ((hash = strchr(line, '#')) != NULL)
            *hash = '\0';
        key = bb_trim(line);
        if (*key == '\0')
            continue;
        eq = strchr(key, '=');
        if (eq == NULL)
            BAD("expected 'key = value', got '%s'", key);
        *eq = '\0';
        key = bb_trim(key);
        val = bb_trim(eq + 1);
        if (*val == '\0')
            BAD("key '%s': empty value", key);
        {
            /* Each key once (bbsize-system(5)); a second would silently win. */
            static const char *const keys[] = { "title", "bb-kind", "pfs-bw", "bb-bw", "bb-size",
                                                "time-unit", "compute-nodes", "bb-nodes",
                                                "resolution" };

            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                if (strcmp(key, keys[k]) == 0) {
                    if (seen[k])
                        BAD("key '%s' given twice (first at line %d); a key appears once",
                            key, seen[k]);
                    seen[k] = lineno;
                }
        }
        if (strcmp(key, "title") == 0) {
            snprintf(s->title, sizeof s->title, "%s", val);
        } else if (strcmp(key, "bb-kind") == 0) {
            if (strcmp(val, "shared") && strcmp(val, "node-local") && strcmp(val, "flash-pfs")
                && strcmp(val, "object-store") && strcmp(val, "none"))
                BAD("key 'bb-kind': '%s' is not shared, node-local, flash-pfs, object-store or none", val);
            snprintf(s->kind, sizeof s->kind, "%s", val);
        } else if (strcmp(key, "pfs-bw") == 0) {
            q = &s->pfs_bw, parser = bb_parse_rate;
        } else if (strcmp(key, "bb-bw") == 0) {
            q = &s->bb_bw, parser = bb_parse_rate;
        } else if (strcmp(key, "bb-size") == 0) {
            q = &s->bb_size, parser = bb_parse_size;
        } else if (strcmp(key, "time-unit") == 0) {
            q = &s->time_unit, parser = bb_parse_duration;
        } else if (strcmp(key, "compute-nodes") == 0 || strcmp(key, "bb-nodes") == 0) {
            long *c = key[0] == 'c' ? &s->compute_nodes : &s->bb_nodes;

            if (parse_count(val, c) < 0)
                BAD("key '%s': '%s' is not a whole number >= 0", key, val);
        } else if (strcmp(key, "resolution") == 0) {
            if (parse_count(val, &s->resolution) < 0 || s->resolution < 1)
                BAD("key 'resolution': '%s' is not a whole number >= 1", val);
        } else {
            BAD("unknown key '%s' (expected title, pfs-bw, bb-size, bb-bw, bb-kind, "
                "compute-nodes, bb-nodes, time-unit or resolution)", key);
        }
        if (q != NULL) {
            if (parser(val, q, msg, sizeof msg) != BB_OK)
                BAD("key '%s': %s", key, msg);
            if (q->plain && parser != bb_parse_duration)
                BAD("key '%s': '%s' needs a unit (e.g. TB, GB/s)", key, val);
            if (parser != bb_parse_size && !(q->v > 0))
                BAD("key '%s': must be positive", key);
        }
    }
    if (ferror(fp)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = BB_ENOINPUT;
        goto out;
    }
    if (!s->pfs_bw.set) {
        snprintf(err, errlen, "%s: no 'pfs-bw = RATE' line (the PFS bandwidth is required)", path);
        rc = BB_EDATA;
    }
#undef BAD
out:
    return rc;
}

enum bb_status
bb_system_read(const char *path, const char *name, bb_system *s, char *err, size_t errlen)
{
    char *text;
    size_t len;
    int rc = bb_read_file(path, BB_READ_TEXT, &text, &len, err, errlen);

    if (rc != 0) {
        memset(s, 0, sizeof *s);
        return rc;
    }
    rc = bb_system_parse(text, len, path, name, s, err, errlen);
    free(text);
    return rc;
}

enum bb_status
bb_system_parse(const char *text, size_t len, const char *source, const char *name,
                bb_system *s, char *err, size_t errlen)
{
    FILE *fp = fmemopen((void *)text, len, "r");
    int rc;

    if (fp == NULL) {
        memset(s, 0, sizeof *s);
        snprintf(err, errlen, "%s: %s", source, strerror(errno));
        return BB_ENOMEM;
    }
    rc = system_parse_fp(fp, source, name, s, err, errlen);
    fclose(fp);
    return rc;
}

static int
valid_name(const char *name)
{
    if (*name == '\0' || strlen(name) >= BB_SYSTEM_NAME_LEN)
        return 0;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
            return 0;
    return name[0] != '.';
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t
bb_system_names(const char *const *dirs, size_t ndirs, char ***out)
{
    char **names = NULL;
    size_t n = 0, cap = 0;

    *out = NULL;
    for (size_t d = 0; d < ndirs; d++) {
        char path[1024];
        DIR *dp;
        struct dirent *e;

        snprintf(path, sizeof path, "%s/systems", dirs[d]);
        if ((dp = opendir(path)) == NULL)
            continue;
        while ((e = readdir(dp)) != NULL) {
            size_t len = strlen(e->d_name);
            char *nm;
            int dup = 0;

            if (len <= 5 || strcmp(e->d_name + len - 5, ".conf") != 0)
                continue;
            nm = strndup(e->d_name, len - 5);
            if (nm == NULL || !valid_name(nm)) {
                free(nm);
                continue;
            }
            for (size_t i = 0; i < n && !dup; i++)
                dup = strcasecmp(names[i], nm) == 0;
            if (dup) {
                free(nm);
                continue;
            }
            if (n == cap) {
                char **nn = realloc(names, (cap ? 2 * cap : 16) * sizeof *nn);

                if (nn == NULL) {
                    free(nm);
                    break;
                }
                names = nn;
                cap = cap ? 2 * cap : 16;
            }
            names[n++] = nm;
        }
        closedir(dp);
    }
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    return n;
}

void
bb_system_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

enum bb_status
bb_system_find(const char *name, const char *const *dirs, size_t ndirs, bb_system *s,
               char *err, size_t errlen)
{
    char **names;
    size_t n, off;

    if (valid_name(name)) {
        /* Exact file name first, then a case-insensitive match. */
        for (size_t d = 0; d < ndirs; d++) {
            char path[1024];
            struct stat st;

            snprintf(path, sizeof path, "%s/systems/%s.conf", dirs[d], name);
            /* Any directory entry of that name is the preset, readable or
             * not: a dangling link or an unreadable file is reported by
             * bb_system_read, never searched for again. */
            if (lstat(path, &st) == 0)
                return bb_system_read(path, name, s, err, errlen);
        }
    }
    n = bb_system_names(dirs, ndirs, &names);
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0 && strcmp(names[i], name) != 0) {
            char found[BB_SYSTEM_NAME_LEN];

            snprintf(found, sizeof found, "%s", names[i]);
            bb_system_names_free(names, n);
            return bb_system_find(found, dirs, ndirs, s, err, errlen);
        }
    off = (size_t)snprintf(err, errlen, "unknown system '%s'; known: ", name);
    for (size_t i = 0; i < n && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[i]);
    if (n == 0 && off < errlen)
        snprintf(err + off, errlen - off, "none (no systems directory in the data directories; set BBSIZE_DATADIR)");
    bb_system_names_free(names, n);
    return BB_EUNKNOWN;
}
