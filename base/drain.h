/* drain.h: the draining policy, one type for every model (the Bernoulli
 * and ON/OFF chains, the fluid queue), both simulators and the command.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A policy is a kind, a threshold with its unit and EPS.  Greedy draining
 * (Algorithm 2 of Aupy et al. 2017) empties the buffer at B whenever it
 * holds data; lazy draining (Algorithm 4) drains only with probability EPS
 * per time unit (the discrete models) or at EPS times the excess rate (the
 * fluid ones) while the buffer holds less than THRESHOLD.  A question
 * states the threshold as a fraction of the buffer (a search over sizes)
 * or in bytes (one size); each model resolves it to its own unit once
 * (bb_drain_bytes here, bba_drain_quanta in quanta.h) and checks it (the
 * unit it takes is in its header).
 *
 * A new policy is a kind here (and its name in drain.c's table, which both
 * bb_drain_kind_name and bb_drain_kind_parse read) plus its
 * transition in each model: every place that tests a kind names
 * BB_DRAIN_LAZY.  Everything here is O(1), pure and thread-safe. */
#ifndef BBSIZE_BASE_DRAIN_H
#define BBSIZE_BASE_DRAIN_H

/* The smallest positive EPS the chains are solved at: below the threshold
 * a state holds for 1/EPS time units, and far below this the solvers'
 * unnormalised vectors overflow; EPS moves the answer to first order only,
 * so every smaller EPS gives this one's answer to double precision. */
#define BBA_EPS_MIN 1e-15

/* EPS when none is given: the paper's. */
#define BB_DRAIN_EPS_DEFAULT 0.01

typedef enum {
    BB_DRAIN_GREEDY = 0,    /* drain whenever data is stored (Algorithm 2) */
    BB_DRAIN_LAZY = 1       /* below THRESHOLD drain with probability (or at
                               a share) EPS (Algorithm 4) */
} bb_drain_kind;

/* The threshold's unit.  FRACTION and BYTES keep the values of the former
 * front-door flag (0: a fraction, 1: bytes). */
typedef enum {
    BB_DRAIN_FRACTION = 0,  /* of the buffer size S, in [0, 1] (searches) */
    BB_DRAIN_BYTES = 1,     /* bytes (the fluid model, the simulators' nodes) */
    BB_DRAIN_QUANTA = 2     /* whole quanta (the discrete models), an integer
                               held exactly in a double */
} bb_drain_unit;

typedef struct {
    bb_drain_kind kind;
    bb_drain_unit unit;     /* the threshold's */
    double threshold;       /* lazy: THRESHOLD in unit, >= 0 (a model takes it
                               within its buffer); greedy: 0 */
    double eps;             /* EPS: 0 or in [BBA_EPS_MIN, 1] for the chains,
                               (0, 1] for the fluid models; kept under greedy
                               draining for a search of a lazy threshold */
} bb_drain;

/* BB_DRAIN_IN(d, u): d's threshold is in unit u, or d is greedy (its
 * threshold is 0 in any unit); each model asserts it of the policy it is
 * given (a wrong unit is a programmer's error, not the user's). */
#define BB_DRAIN_IN(d, u) ((d)->kind != BB_DRAIN_LAZY || (d)->unit == (u))

/* bb_drain_greedy: greedy draining, EPS eps (kept, unused). */
bb_drain bb_drain_greedy(double eps);

/* bb_drain_lazy: lazy draining below threshold (in unit) with EPS eps. */
bb_drain bb_drain_lazy(bb_drain_unit unit, double threshold, double eps);

/* bb_drain_kind_name: "greedy" or "lazy" (a constant string). */
const char *bb_drain_kind_name(bb_drain_kind k);

/* bb_drain_kind_parse: the kind named by word ("greedy" or "lazy", exact
 * and case-sensitive) into *k; 0, or -1 with *k untouched when word names
 * no kind.  The one reader of the words for every front end (options,
 * scenario keys). */
int bb_drain_kind_parse(const char *word, bb_drain_kind *k);

/* bb_drain_share: the share of what the buffer could drain that it drains
 * below the threshold: EPS when lazy, 1 when greedy (the fluid models'
 * rate, and their EPS under greedy draining). */
double bb_drain_share(const bb_drain *d);

/* bb_drain_bytes: d at a buffer of S_bytes: a fraction becomes
 * fraction * S_bytes bytes, bytes stay as they are, greedy draining keeps a
 * threshold of 0; EPS is bb_drain_share (1 when greedy).  A threshold in
 * quanta has no size in bytes here: the caller passes FRACTION or BYTES
 * (asserted). */
bb_drain bb_drain_bytes(const bb_drain *d, double S_bytes);

/* bb_drain_same: the same kind, and when lazy the same threshold in the
 * same unit; and the same EPS. */
int bb_drain_same(const bb_drain *a, const bb_drain *b);

#endif
