/* net_int.h: helpers shared by the files of sim/network (not for src/).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SIM_NETWORK_NET_INT_H
#define BBSIZE_SIM_NETWORK_NET_INT_H

#include <stdlib.h>

/* bbs_net_grow: make *p (elements of elem bytes, capacity *cap) hold at
 * least need elements, growing by half again; 0, or -1 when out of memory
 * (then *p and *cap are unchanged). */
static inline int
bbs_net_grow(void **p, int *cap, int need, size_t elem)
{
    int n;
    void *q;

    if (need <= *cap)
        return 0;
    n = need + need / 2 + 16;
    q = realloc(*p, (size_t)n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

#endif
