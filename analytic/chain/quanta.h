/* quanta.h: buffer sizes in quanta: quantizing a size given in bytes (or
 * data units), and the largest size whose solve fits a memory budget.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command that turns a user's size into the chain's S, and every
 * search that bounds S by memory, goes through these two functions, so
 * the rounding and the cap are the same everywhere.  Both are pure and
 * O(1) (bba_model_s_max evaluates three memory estimates). */
#ifndef BBSIZE_ANALYTIC_QUANTA_H
#define BBSIZE_ANALYTIC_QUANTA_H

#include "sizing.h"

/* bba_size_quanta: bytes / quantum_bytes rounded down to whole quanta,
 * where a ratio within 1e-9 (relative, absolute below 1) of a whole
 * number is that number (so 3 quanta given as 3 * q in bytes stay 3 after
 * the floating-point round trip); capped at LONG_MAX / 2 (an infinite size
 * included).  quantum_bytes must be > 0; a negative size gives a negative
 * count (the caller refuses it); NaN gives 0. */
long bba_size_quanta(double bytes, double quantum_bytes);

/* bba_drain_quanta: d at a buffer of S quanta of quantum_bytes each, its
 * threshold in quanta (BB_DRAIN_QUANTA): a threshold in bytes in whole
 * quanta (bba_size_quanta, so possibly above S: the caller refuses it), a
 * fraction of S rounded down and kept within [0, S], one in quanta as it
 * is; 0 under greedy draining; EPS as it is.  The one conversion of every
 * discrete model and of the discrete simulator.  O(1). */
void bba_drain_quanta(const bb_drain *d, long S, double quantum_bytes, bb_drain *out);

/* bba_model_s_max: the largest buffer size S (quanta) whose solve under
 * so fits so->mem_limit_bytes: the bytes grow linearly in S for every
 * method, so the cap is (budget - bytes(0)) / (bytes(1) - bytes(0)) with
 *  - the ON/OFF-modulated chain (m->onoff): half the budget (onoff.h);
 *  - the FFT solver: its whole workspace (fftwh.h), capped at INT_MAX / 4;
 *  - a chain (UMFPACK, banded GTH, Gauss-Seidel): a third of the budget,
 *    since UMFPACK's factors need about as much again as the chain
 *    (chain.h), capped at INT_MAX / 2.
 * 0 when not even S = 0 fits; mem_limit_bytes <= 0 means no budget (the
 * caps alone). */
long bba_model_s_max(const bba_model *m, const bba_solver_opts *so);

#endif
