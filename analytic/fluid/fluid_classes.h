/* fluid_classes.h: the fluid model's classes of sources (fluid.h), checked
 * and merged in one place for the model (fluid.c), its approximation
 * (fluid_approx.c) and the front door's conversion of applications
 * (answer.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two classes are the same source when rate, p and burst are equal
 * (exactly: they came from the same row or the same numbers); merged, the
 * counts add, in the order the classes first appear, so a row of count N
 * and the row written N times make the same model.  O(n k) for n classes
 * and k distinct ones; pure. */
#ifndef BBSIZE_ANALYTIC_FLUID_CLASSES_H
#define BBSIZE_ANALYTIC_FLUID_CLASSES_H

#include <stddef.h>

#include "fluid.h"

/* A distinct source with a phase: rate b (bytes/s), p, mean ON period L
 * (s) and its count N, summed over the classes merged. */
typedef struct {
    double b, p, L;
    long N;
} bba_fluid_src;

/* bba_fluid_class_has_phase: the class switches: count > 0, 0 < p < 1 and
 * rate > 0 (p = 1 is a constant rate; p = 0 or rate 0 writes nothing). */
int bba_fluid_class_has_phase(const bba_fluid_class *x);

/* bba_fluid_class_check: class x, the i-th (counted from 0, named i + 1),
 * within fluid.h's domain: a finite rate >= 0, p in [0, 1], count >= 0,
 * and a finite positive burst when it has a phase.  BB_EINVAL naming the
 * class and the field (err may be NULL). */
int bba_fluid_class_check(const bba_fluid_class *x, size_t i, char *err);

/* bba_fluid_class_find: the index of the first of c[0..n) with x's rate,
 * p and burst, or n when none has them. */
size_t bba_fluid_class_find(const bba_fluid_class *c, size_t n, const bba_fluid_class *x);

/* bba_fluid_srcs: the distinct sources of c[0..n) that have a phase into
 * out (room for n), counts summed; returns how many.  The classes must
 * have passed bba_fluid_class_check. */
size_t bba_fluid_srcs(const bba_fluid_class *c, size_t n, bba_fluid_src *out);

#endif
