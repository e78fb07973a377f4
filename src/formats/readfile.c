/* readfile.c: reading an input file whole, bounded (readfile.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bb_error.h"
#include "readfile.h"

static void (*watcher)(const char *path);

void
bb_read_watch(void (*fn)(const char *path))
{
    watcher = fn;
}

enum bb_status
bb_read_file(const char *path, int mode, char **out, size_t *len, char *err, size_t errlen)
{
    FILE *fp;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = BB_OK;
    size_t max = mode == BB_READ_TEXT ? BB_READ_MAX_BYTES : BB_READ_MAX_BINARY_BYTES;

    *out = NULL;
    *len = 0;
    if (watcher != NULL)
        watcher(path);
    if ((fp = fopen(path, "rb")) == NULL) {
        int e = errno;
        char target[512];
        ssize_t tl;

        if (e == ENOENT && (tl = readlink(path, target, sizeof target - 1)) >= 0) {
            target[tl] = '\0';
            snprintf(err, errlen, "%s: cannot open: a dangling symbolic link (to '%s', which "
                     "does not exist)", path, target);
        } else {
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
        }
        return BB_ENOINPUT;
    }
    for (;;) {
        size_t got;

        if (cap - n < 65536) {
            size_t nc = cap ? 2 * cap : 65536;
            char *nb;

            if (nc > max + 65536)
                nc = max + 65536;
            if (nc <= cap || (nb = realloc(buf, nc + 1)) == NULL) {
                snprintf(err, errlen, "%s: out of memory reading it", path);
                rc = BB_ENOMEM;
                goto out;
            }
            buf = nb;
            cap = nc;
        }
        got = fread(buf + n, 1, cap - n, fp);
        if (mode == BB_READ_TEXT && n == 0 && got >= 2
            && (((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE)
                || ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF))) {
            /* what some spreadsheet programs write: name it, not "binary" */
            snprintf(err, errlen, "%s: UTF-16 text (a UTF-16 byte-order mark): save it as "
                     "UTF-8 or plain text", path);
            rc = BB_EDATA;
            goto out;
        }
        if (mode == BB_READ_TEXT && memchr(buf + n, '\0', got) != NULL) {
            size_t at = n + (size_t)((char *)memchr(buf + n, '\0', got) - (buf + n));
            long line = 1;

            for (size_t i = 0; i < at; i++)
                line += buf[i] == '\n';
            snprintf(err, errlen, "%s:%ld: a NUL byte at offset %zu: binary data, not a text "
                     "file", path, line, at);
            rc = BB_EDATA;
            goto out;
        }
        n += got;
        if (n > max) {
            snprintf(err, errlen, "%s: larger than %zu bytes: not an input bbsize reads whole",
                     path, max);
            rc = BB_EDATA;
            goto out;
        }
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = BB_ENOINPUT;
        goto out;
    }
    if (buf == NULL && (buf = malloc(1)) == NULL) {
        snprintf(err, errlen, "%s: out of memory reading it", path);
        rc = BB_ENOMEM;
        goto out;
    }
    buf[n] = '\0';
    if (mode == BB_READ_TEXT && n >= 3 && (unsigned char)buf[0] == 0xEF
        && (unsigned char)buf[1] == 0xBB && (unsigned char)buf[2] == 0xBF) {
        memmove(buf, buf + 3, n - 2);   /* a UTF-8 byte-order mark reads as absent */
        n -= 3;
    }
    *out = buf;
    *len = n;
    buf = NULL;
out:
    fclose(fp);
    free(buf);
    return rc;
}
