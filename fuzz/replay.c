/* replay.c: a main() for the harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput on every file named, and on every regular file of
 * every directory named, and prints TAP (one result per input; a crash or a
 * sanitizer report fails the whole program).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int ntests;

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (!fp) {
        printf("not ok %d - %s: cannot open: %s\n", ++ntests, path, strerror(errno));
        return 1;
    }
    do {
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (!nb) {
                free(buf);
                fclose(fp);
                printf("not ok %d - %s: out of memory\n", ++ntests, path);
                return 1;
            }
            buf = nb;
        }
        n = fread(buf + len, 1, cap - len, fp);
        len += n;
    } while (n > 0);
    fclose(fp);
    fflush(stdout);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("ok %d - %s (%zu bytes)\n", ++ntests, path, len);
    return 0;
}

static int
run_path(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int bad = 0;

    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return run_file(path);
    if (!(d = opendir(path))) {
        printf("not ok %d - %s: cannot open: %s\n", ++ntests, path, strerror(errno));
        return 1;
    }
    while ((e = readdir(d))) {
        char full[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        if (!(names[n] = strdup(full)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        bad |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int
main(int argc, char **argv)
{
    int bad = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 64;
    }
    for (int i = 1; i < argc; i++)
        bad |= run_path(argv[i]);
    printf("1..%d\n", ntests);
    return bad;
}
