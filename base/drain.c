/* drain.c: the draining policy's constructors and its one conversion to
 * bytes (drain.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "drain.h"

bb_drain
bb_drain_greedy(double eps)
{
    return (bb_drain){ .kind = BB_DRAIN_GREEDY, .unit = BB_DRAIN_FRACTION, .threshold = 0,
                       .eps = eps };
}

bb_drain
bb_drain_lazy(bb_drain_unit unit, double threshold, double eps)
{
    return (bb_drain){ .kind = BB_DRAIN_LAZY, .unit = unit, .threshold = threshold, .eps = eps };
}

/* Each kind's word, indexed by the kind. */
static const char *const kind_word[] = {
    [BB_DRAIN_GREEDY] = "greedy",
    [BB_DRAIN_LAZY] = "lazy",
};

const char *
bb_drain_kind_name(bb_drain_kind k)
{
    return k == BB_DRAIN_LAZY ? kind_word[BB_DRAIN_LAZY] : kind_word[BB_DRAIN_GREEDY];
}

int
bb_drain_kind_parse(const char *word, bb_drain_kind *k)
{
    for (size_t i = 0; i < sizeof kind_word / sizeof kind_word[0]; i++)
        if (strcmp(word, kind_word[i]) == 0) {
            *k = (bb_drain_kind)i;
            return 0;
        }
    return -1;
}

double
bb_drain_share(const bb_drain *d)
{
    return d->kind == BB_DRAIN_LAZY ? d->eps : 1.0;
}

bb_drain
bb_drain_bytes(const bb_drain *d, double S_bytes)
{
    bb_drain b = { .kind = d->kind, .unit = BB_DRAIN_BYTES, .threshold = 0,
                   .eps = bb_drain_share(d) };

    assert(d->unit == BB_DRAIN_FRACTION || d->unit == BB_DRAIN_BYTES);
    if (d->kind == BB_DRAIN_LAZY)
        b.threshold = d->unit == BB_DRAIN_BYTES ? d->threshold : d->threshold * S_bytes;
    return b;
}

int
bb_drain_same(const bb_drain *a, const bb_drain *b)
{
    return a->kind == b->kind
           && (a->kind != BB_DRAIN_LAZY || (a->unit == b->unit && a->threshold == b->threshold))
           && a->eps == b->eps;
}
