/* bigalloc.c: huge-page backed allocation (bigalloc.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bigalloc.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *
bba_big_alloc(size_t bytes, int zero)
{
    void *p;

    if (bytes < HUGE_PAGE)
        return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    p = aligned_alloc(HUGE_PAGE, bytes);
    if (p == NULL)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    if (zero)
        memset(p, 0, bytes);
    return p;
}
