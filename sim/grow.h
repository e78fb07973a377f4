/* grow.h: the simulator's one growable array and one growable FIFO ring
 * (header only).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bbs_grow(&p, elem, &cap, need): make the array *p (of *cap elements of
 * elem bytes, NULL when *cap == 0) hold at least need elements.  The
 * capacity at least doubles (first 16), so n pushes cost O(n) copies in
 * all; the contents up to the old capacity are kept (realloc), the rest is
 * uninitialised.  Returns 0, or -1 when out of memory or when the size
 * would overflow size_t (then *p and *cap are unchanged and still owned
 * by the caller).  The caller frees *p.
 *
 * bbs_ring: a FIFO of fixed-size elements in a circular buffer that grows
 * by bbs_grow (the elements are re-laid from index 0 when it grows).
 * Initialise with BBS_RING_INIT(type) or bbs_ring_init; push O(1)
 * amortised, front and pop O(1); pop and front need n > 0.  Free with
 * bbs_ring_free. */
#ifndef BBSIZE_SIM_GROW_H
#define BBSIZE_SIM_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int
bbs_grow(void **p, size_t elem, size_t *cap, size_t need)
{
    size_t nc;
    void *np;

    if (need <= *cap)
        return 0;
    nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (elem == 0 || nc > SIZE_MAX / elem)
        return -1;
    np = realloc(*p, nc * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

typedef struct {
    char *buf;
    size_t esz, head, n, cap;
} bbs_ring;

#define BBS_RING_INIT(type) { NULL, sizeof(type), 0, 0, 0 }

static inline void
bbs_ring_init(bbs_ring *r, size_t esz)
{
    r->buf = NULL;
    r->esz = esz;
    r->head = r->n = r->cap = 0;
}

static inline int
bbs_ring_push(bbs_ring *r, const void *x)
{
    if (r->n == r->cap) {
        size_t oc = r->cap;
        if (bbs_grow((void **)&r->buf, r->esz, &r->cap, r->n + 1))
            return -1;
        /* the part that wrapped (before head) moves after the old end */
        if (r->head > 0) {
            size_t tail = oc - r->head;   /* elements from head to the old end */
            memmove(r->buf + (r->cap - tail) * r->esz, r->buf + r->head * r->esz,
                    tail * r->esz);
            r->head = r->cap - tail;
        }
    }
    memcpy(r->buf + ((r->head + r->n) % r->cap) * r->esz, x, r->esz);
    r->n++;
    return 0;
}

static inline void *
bbs_ring_front(const bbs_ring *r)
{
    return r->buf + r->head * r->esz;
}

/* The i-th element from the front (i < n). */
static inline void *
bbs_ring_at(const bbs_ring *r, size_t i)
{
    return r->buf + ((r->head + i) % r->cap) * r->esz;
}

static inline void
bbs_ring_pop(bbs_ring *r)
{
    r->head = (r->head + 1) % r->cap;
    r->n--;
}

static inline void
bbs_ring_clear(bbs_ring *r)
{
    r->head = r->n = 0;
}

static inline void
bbs_ring_free(bbs_ring *r)
{
    free(r->buf);
    r->buf = NULL;
    r->head = r->n = r->cap = 0;
}

#endif
