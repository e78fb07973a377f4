/* fuzz.h: what every parser harness shares: the libFuzzer entry point and a
 * NUL-terminated copy of the input.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each fz_*.c defines LLVMFuzzerTestOneInput for one input format.  Built
 * with clang -fsanitize=fuzzer,address,undefined it is a libFuzzer target
 * (make fuzz); linked with replay.c instead, by any compiler, it replays
 * stored inputs (tests/fuzz/NAME/) under make check. */
#ifndef BBSIZE_FUZZ_FUZZ_H
#define BBSIZE_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* FZ_CHECK: a parser's documented promise about what it accepted; a broken
 * one aborts, which libFuzzer (and the replay) reports as a crash. */
#define FZ_CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: promise broken: %s\n", __FILE__, __LINE__, #cond); \
            abort(); \
        } \
    } while (0)

/* fz_cstr: a malloc'd copy of data with a NUL after it (NULL when out of
 * memory: the harness then returns). */
static inline char *
fz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        if (size)
            memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

#endif
