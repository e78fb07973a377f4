/* bigalloc.h: allocation of the large arrays of the chains and solvers
 * (tens to hundreds of MB), backed by transparent huge pages where the
 * kernel offers them: with 4 KiB pages, faulting in the 120 MB of a
 * 3000-quanta chain costs more system time (0.2 s) than the solve.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_BIGALLOC_H
#define BBSIZE_ANALYTIC_BIGALLOC_H

#include <stddef.h>

/* bba_big_alloc: bytes of memory (zeroed when zero != 0) aligned for huge
 * pages when large; NULL when out of memory.  Free with free(). */
void *bba_big_alloc(size_t bytes, int zero);

#endif
