/* fluid_int.h: what the fluid model's files share (fluid.c: the model;
 * fluid_meas.c: its measures; fluid_spec.c: spectra; fluid_solve.c and
 * fluid_fast.c: boundary systems; fluid_size.c: the searches).  Not part
 * of the library's interface.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_ANALYTIC_FLUID_INT_H
#define BBSIZE_ANALYTIC_FLUID_INT_H

#include <math.h>
#include <pthread.h>

#include "fluid.h"

enum { FL_DOWN = -1, FL_ZERO = 0, FL_UP = 1 };

/* Classes with a phase: each at least doubles P, and P <= 46340 (LAPACK's
 * 32-bit indices address P^2 entries), so at most 15. */
#define FL_CLASSES_MAX 16

/* The modes of one region (constant drifts d): phi_k Q = z_k phi_k D,
 * k = 0..m-1, z ascending, the first mneg of them the ones scaled at the
 * region's left end (z < 0 up to rounding), the rest at its right end.
 * m = P_n - 1 (P_n phases with non-zero drift): the z = 0 mode pi carries
 * a net flux pi D 1 != 0 and is absent unless the mean drift is 0, when it
 * is the constant mode among the m. */
typedef struct fl_spec {
    double eps;        /* down-drift factor of the region (1: greedy) */
    double *d;         /* P drifts, bytes/s */
    double drift;      /* mean drift sum_f pi_f d_f */
    long m, mneg;
    double *z;         /* m, 1/bytes */
    double *phi;       /* m x P, row k = mode k over all phases, scaled so
                          that max_f |phi_kf d_f| = 1 */
    double *mass;      /* m: sum_f phi_kf */
    double *zi;        /* m: imaginary parts (0 for a real mode) */
    signed char *kind; /* m: 0 a real mode; 1 and 2 the rows p, q of a
                          complex pair z = z_k +- i zi_k, phi = p + i q
                          (row 1 first): real modes Re and Im of
                          phi e^{z t}, e^{a t} (p cos bt - q sin bt) and
                          e^{a t} (p sin bt + q cos bt) */
    long *home;        /* m: the phase a separable mode's root is counted
                          for (fluid_spec.c): its multi-index when z < 0
                          (an up phase), the complement of it when z > 0
                          (a down phase); NULL for a dense spectrum */
    int cplx;          /* some mode is complex */
    int separable;
    double resid;      /* largest relative mode residual */
} fl_spec;

struct fl_fast;
struct fl_ma;

struct bba_fluid {
    long P;            /* phases */
    int C;             /* classes with a phase */
    int *N;            /* C: the class's highest digit (a phase's digit m_c
                          in 0..N_c): its sources, unless truncated */
    int *lo, *src;     /* C: the ON count of digit 0 and the sources: 0
                          and N_c, unless truncated (a class's digit j is
                          lo_c + j sources ON; fl_birth, fl_death) */
    double *b, *lam, *mu; /* C: rate ON, OFF->ON and ON->OFF rates (1/s) */
    double *p;         /* C: Pr(ON) per source */
    long *stride;      /* C: phase index = sum_c m_c stride_c */
    double r0;         /* constant rate of the p = 1 sources */
    double B, Bbb;     /* PFS and buffer bandwidth (Bbb = INFINITY: none) */
    double E;          /* mean rate */
    double *rate;      /* P: r_f */
    double *pi;        /* P: stationary phase law of Q (product of binomials) */
    double *share_top; /* P: c_f, the share of its offer a phase writes at a
                          full buffer: B / r_f above B, else 1 */
    double *lost;      /* P: 1 - c_f = (r_f - B) / r_f above B, else 0: the
                          idle fraction per unit of mass at S in phase f */
    double *pi_top;    /* P: stationary law of Q^S: built with the model when
                          fl_law_narrow or no phase drains, else on first
                          use (fl_top_law); NULL until then and without up
                          phases */
    int binds;         /* B_BB binds in some phase: r_f > B + B_BB */
    double *share_in;  /* P: c'_f below a full buffer: (B + B_BB) / r_f where
                          B_BB binds, else 1 */
    double *lost_in;   /* P: 1 - c'_f = (r_f - B - B_BB) / r_f where B_BB binds: the
                          idle fraction per unit of mass below S */
    double *pi_in;     /* P: stationary law of Q' (pi when nothing binds) */
    signed char *cls;  /* P: FL_UP, FL_DOWN, FL_ZERO */
    long n_up, n_down, n_zero;
    double mem_limit;
    double idle_limit;
    fl_spec *greedy;   /* NULL when there are no up or no down phases */
    pthread_mutex_t lock; /* guards what follows */
    struct fl_fast *fast; /* greedy factorisations, built on first use */
    struct fl_ma *ma;  /* one class: first-passage matrices (fluid_ma.c) */
    fl_spec *lazy[8];  /* lazy spectra by eps, oldest evicted */
    int n_lazy;
    long rare;         /* phases with log pi below FL_LPI_MIN */
    int truncated;     /* this model is another's, truncated (fluid.c) */
    struct bba_fluid *trunc; /* lazy draining with rare phases: the model on
                          the phases a double weighs (fluid.c), built on
                          first use */
};

/* The rates of a class's birth-death chain at digit j: j -> j + 1 at
 * (src - lo - j) lam (none at the top digit), j -> j - 1 at (lo + j) mu
 * (none at digit 0).  A truncated model (fluid.c) is used only by the
 * dense spectra, the whole boundary system, the laws and the measures,
 * which go through these; the separable spectrum, the greedy fast path
 * and the one-class routes assume lo = 0 and src = N. */
static inline double
fl_birth(const bba_fluid *m, int c, long j)
{
    return j < m->N[c] ? (double)(m->src[c] - m->lo[c] - j) * m->lam[c] : 0.0;
}

static inline double
fl_death(const bba_fluid *m, int c, long j)
{
    return j > 0 ? (double)(m->lo[c] + j) * m->mu[c] : 0.0;
}

/* log Pr(k of N sources ON), p the probability of each: the phase law's
 * factor per class (fluid.c, fluid_fact.c) and the class vectors'
 * weights (fluid_spec.c) */
static inline double
fl_log_binom(int N, long k, double p)
{
    return lgamma(N + 1.0) - lgamma(k + 1.0) - lgamma(N - k + 1.0) + (double)k * log(p) +
           (double)(N - k) * log1p(-p);
}

/* fluid_spec.c */
int fl_spec_build(const bba_fluid *m, double eps, int allow_separable, fl_spec **out,
                  char *err);
void fl_spec_free(fl_spec *s);
/* row f of the interior generator Q' (top = 0: Q with the ON -> OFF rates
 * of phase f scaled by share_in[f]; Q itself where B_BB binds nowhere) or
 * of the full-buffer generator Q^S (top = 1: scaled by share_top[f]),
 * dense (P doubles) */
void fl_q_row(const bba_fluid *m, long f, double *row, int top);
/* -Q_ff, the rate of leaving phase f (Q's: an upper bound of Q' and Q^S) */
double fl_q_out(const bba_fluid *m, long f);
/* y = x Q' (top = 0) or x Q^S (top = 1) for a row vector x (P doubles) */
void fl_q_left(const bba_fluid *m, const double *x, double *y, int top);
/* A bound on the componentwise residual of a separable mode v (P
 * doubles) of the greedy region (drifts d, root z), max_g |(v (Q - z
 * D))_g| / ((|v| |Q|)_g + |z v_g d_g|) over the phases whose denominator
 * is above 2^-900 of the rates' scale sum_c N_c max(lam_c, mu_c) (below
 * it no measure sees them, and they may be subnormal), from v's
 * Kronecker structure (fluid_spec.c): O(P), about 14 P flops, where v Q
 * alone costs 6 P C.  Equal to it up to rounding when v is the product
 * of its class vectors, as every separable mode is.  INFINITY for a zero
 * or non-finite v.  wk: 3 P + 3 sum_c (N_c + 1) doubles.  In
 * fluid_resid.c. */
double fl_sep_resid(const bba_fluid *m, const double *v, const double *d, double z, double *wk);
/* The check of a separable spectrum s (its vectors in s->phi): each mode
 * scaled to max_f |phi_f d_f| = 1, its mass into s->mass, the largest
 * fl_sep_resid into s->resid; the modes split over the processors
 * (analytic/num/parfor.h), the result the same on any number.
 * BB_ENOCONV for a mode without a finite flux, BB_ENOMEM.  In
 * fluid_resid.c. */
int fl_sep_check(const bba_fluid *m, fl_spec *s, char *err);
/* fluid_gen.c: the modes of a region where B_BB binds (Q' not
 * reversible): LAPACK dgeev on D^-1 Q~'^T, complex pairs as real rows.
 * The zero-drift phases censored by the caller: in[Pn] the phases with
 * d != 0, i0[P0] the others, Qt (Pn x Pn, row-major) = Q'_nn - Q'_n0
 * Q'_00^-1 Q'_0n, X0 (Pn x P0) = -Q'_n0 Q'_00^-1 (phi_0 = phi_n X0). */
int fl_spec_general(const bba_fluid *m, fl_spec *s, const long *in, long Pn, const long *i0,
                    long P0, const double *Qt, const double *X0, char *err);
/* out (P) = mode k at offset t from the end it is scaled at, over e^{z_k t}:
 * phi_k for a real mode, p cos(bt) - q sin(bt) or p sin(bt) + q cos(bt)
 * for the rows of a pair */
void fl_mode_at(const fl_spec *sp, long P, long k, double t, double *out);
/* I0 = int_0^L e^{w t} dt, I1 = int_0^L t e^{w t} dt, w = wr + i wi */
void fl_cexpint(double wr, double wi, double L, double _Complex *I0, double _Complex *I1);

/* fluid_top.c: the stationary law of the generator with the ON -> OFF
 * rates of each phase f scaled by share[f] (share_top: Q^S, the phase law
 * of a buffer of size 0 and of one with no phase below B; share_in: Q'),
 * by state reduction (Grassmann, Taksar and Heyman) in the band
 * |f - g| <= the largest stride w, blocked so that its bulk is matrix
 * products: subtraction-free, so every probability keeps its relative
 * accuracy.  P w^2 flops.  *work: fl_law_bytes(m) bytes of scratch,
 * allocated on the first call when NULL and reused by later ones (the
 * caller frees it with free()); BB_ENOMEM without it, BB_EDATA for a
 * phase that leads to no lower one. */
int fl_law(const bba_fluid *m, const double *share, double *law, double **work, char *err);
double fl_law_bytes(const bba_fluid *m);
/* The same law into a new array (*law, P doubles; the caller frees it),
 * its scratch freed: BB_ENOMEM, or fl_law's error (*law NULL) */
int fl_law_new(const bba_fluid *m, const double *share, double **law, char *err);
/* 1 when the reduction costs no more than the sweeps' bound (w^2 <= 8 C
 * 256): the model builds its law of Q^S at once (fluid.c), else on
 * first use (fl_top_law) */
int fl_law_narrow(const bba_fluid *m);
/* An estimate of log of the law of share (P doubles out, -INFINITY where
 * it underflows): Gauss-Seidel sweeps on the balance equations, every
 * term non-negative, until no log probability moves by 1e-3 in a sweep
 * (the estimate is then within a few percent of the law: 1.6% on 3
 * classes of 15, 0.1% on 11 distinct sources); at most 256 sweeps of 8 C
 * P flops, BB_ENOCONV when they do not settle. */
int fl_law_sweep(const bba_fluid *m, const double *share, double *lx);
/* log of the law of Q^S at a full buffer, for the phase scales of the
 * greedy factors (fluid_fast.c): the law itself (m->pi_top, or computed
 * here when not yet built) where the band is narrow or the sweeps do not
 * settle, else fl_law_sweep's estimate (a scale needs its magnitude, not
 * its digits): which one depends on the model alone. */
int fl_top_lpi(const bba_fluid *m, double *ls, char *err);
/* fluid.c: builds m->pi_top on first use (under m's lock; BB_OK at once
 * when built or when no phase goes up) */
int fl_top_law(const bba_fluid *m, char *err);

/* The solution of a boundary system in a common layout: groups of
 * unknowns at the boundaries x_0 = 0 < ... < x_R = S, each with a log
 * scale g (true value = e^g times the stored one).  Group 0: atoms at 0,
 * then the left-scaled modes of region 0; group b (0 < b < R): the
 * right-scaled modes of region b-1, then the left-scaled ones of region b;
 * group R: the right-scaled modes of region R-1, then atoms at S. */
typedef struct {
    int R;                     /* regions, 1 or 2 */
    const fl_spec *sp[2];
    double x[3];               /* boundaries */
    double g[3];               /* log scales */
    double *y[3];              /* unknowns per group */
    long ny[3];
} fl_sol;

/* fluid_class.c: for one class of N identical sources (C = 1, P = N + 1)
 * in one greedy region of drifts d: the interior mass mi and first
 * moment xi (sum_f xi_f = int x p(x) dx 1) per phase from the atoms l at
 * 0 and u at S by flux balance, on the atoms' scale, never summing modes
 * (which cancel for large classes); *rel_err a bound on the relative
 * rounding error of the total mass and of the mean occupancy (P eps
 * times their terms' moduli over their sums; +inf for a total mass that
 * is not positive).  O(P).  0, or -1 when the model is not one class,
 * the mean drift cancels (the coefficient of m D 1 below 1e-8 of its
 * terms) or memory runs out.  With the atoms of fl_ma_atoms (the modal
 * ones are not accurate where this is needed: fluid_class.c). */
int fl_class_moments(const bba_fluid *m, const double *d, double S, const double *l,
                     const double *u, double *mi, double *xi, double *rel_err);

/* fluid_ma.c: the atoms l at 0 and u at S (P each, zero where a phase
 * has none) of one class in a greedy buffer of size S > 0 without
 * zero-drift phases (B_BB may bind: Q' stays birth-death), with at least
 * as many phases above B (n+) as below (n-), by first-passage matrices
 * instead of modes, scaled so that they sum to 1; *res bounds its
 * relative error: the Riccati and boundary residuals and the
 * exponentials' rounding.  Right to about P eps of the largest atom.
 * The first-passage matrices are built once per model (on first use,
 * under its lock) by Newton's method, O(n+ n-^2) a step; each size then
 * costs O(n+ n- c S) (uniformisation, c the fastest rate per byte of
 * K = T++ + Psi T-+, or a dense exponential's O(n+^3 log(c S)) where
 * that is cheaper) plus O(n-^3).  BB_EINVAL (not such a model),
 * BB_ENOCONV (no convergence), BB_ESINGULAR, BB_ETOOBIG (exponentials
 * beyond 1e12 flops), BB_ENOMEM.  fl_ma_free: the model's part of it. */
int fl_ma_atoms(const bba_fluid *m, double S, double *l, double *u, double *res, char *err);
void fl_ma_free(struct fl_ma *a);
/* the atoms with the masses and first moments of fl_class_moments, into
 * group 0 of a greedy solution's per-group arrays (group 1 zeroed, both
 * on the log scale 0); *res the larger of the two residuals; 0, or -1
 * (arrays untouched) when either declines */
int fl_ma_groups(const bba_fluid *m, double S, double *const *l, double *const *u,
                 double *const *mi, double *const *xi, double *res);

/* fluid_meas.c */
/* one class, greedy, by fluid_ma.c with the measures: *out and 1 when
 * its residual (its error bound P eps / idle included) is within max_res;
 * else 0, *out untouched */
int fl_class_eval(const bba_fluid *m, double S, bba_fluid_result *out, double max_res);
int fl_measures(const bba_fluid *m, const fl_sol *s, double eps, bba_fluid_result *out,
                char *err);
/* m->pi_top built (fl_top_law) when S = 0 */
void fl_trivial(const bba_fluid *m, double S, bba_fluid_result *out);

/* fluid_fact.c: a boundary system y A = r (A n x n, column-major, rows
 * the unknowns, columns the equations), its equation e scaled by sc[e]
 * (fl_phase_scale of its phase's log pi; 1 for the normalisation), its
 * unknowns equilibrated, factored by LU or, when LU is singular or
 * ill-conditioned, by QR with column pivoting (rank-revealing). */
typedef struct {
    int n, qr, rank;
    double *A;         /* the factors (owned once built) */
    int *piv;
    double *su, *sc;   /* unknown and equation scales (powers of two) */
    double *tau;       /* QR's reflectors */
    char *rdrop, *cdrop; /* unknowns and equations left out (set to 0) */
    int dropped;
} fl_fact;

/* Phases with log pi below this (2^-900) are left out of a boundary
 * system (fluid_fact.c): no measure sees them. */
#define FL_LPI_MIN (-623.83246250395077) /* 900 ln 2 */

/* log pi_f per phase (P doubles), never underflowing */
void fl_phase_lpi(const bba_fluid *m, double *lpi);
/* pi^-0.9 (fluid_fact.c) rounded to a power of two, within 2^900 */
double fl_phase_scale(double lpi);
/* takes A (freed by fl_fact_free; on failure, freed already); rdrop and
 * cdrop (n each, may be NULL) the unknowns and equations to leave out,
 * honoured when there are as many of each */
int fl_fact_build(fl_fact *F, double *A, int n, const double *sc, const char *rdrop,
                  const char *cdrop, char *err);
/* columns j < nrhs of B (leading dimension ldb): r -> y with y A = r */
void fl_fact_solve_T(const fl_fact *F, int nrhs, double *B, int ldb);
/* columns of B: b -> z with A z = b */
void fl_fact_solve_N(const fl_fact *F, int nrhs, double *B, int ldb);
void fl_fact_free(fl_fact *F);

/* fluid_far.c: the far block of the greedy fast path, y L = r with L's
 * rows nf far modes (phi D) then na atoms (sg times the generator's row:
 * Q^S when top, else Q), its columns the equations of the phases but jf
 * (not an atom phase), reduced through the atoms to an nf x nf Schur
 * complement; lf (P) the log law at that end (the equations' frame).
 * Time O(na kb^2 + nf na kb + nf^2 na), kb the atoms' bandwidth, against
 * 2/3 P^3 for the dense block; where the band is wide (many classes of
 * few phases: binary sources' strides reach P / 2) G is factored sparse
 * (UMFPACK), its fill that of the phases' hypercube-like graph. */
typedef struct {
    long P, nf, na;
    long *eq;          /* P - 1: per equation, its atom rank (>= 0) or -1 -
                          its rank among the others */
    int band, kb;      /* G band-stored (bandwidth kb), sparse or dense */
    int sparse;        /* G by UMFPACK (a wide band: many classes) */
    double *G;         /* LU of the scaled G = Dr G Dc (band or dense) */
    int *gpiv;
    int *Ap, *Ai;      /* sparse: the scaled G by columns, and its LU */
    double *Ax;
    void *num;
    double ctl[20];    /* UMFPACK's control (UMFPACK_CONTROL entries) */
    double *gr, *gc;   /* Dr (atoms), Dc (their equations) */
    double *X;         /* na x nf, row-major: G^-1 H */
    double *MA;        /* nf x na: the modes' flux at the atom phases */
    fl_fact S;         /* M_O - M_A X */
} fl_far;

/* whether the far block (at S when top, else at 0) of nf modes and na
 * atoms is worth reducing (its modes at most a quarter of the phases),
 * and *jf its dropped equation: jd, or the likeliest non-atom phase when
 * jd is an atom's (none: 0 returned, *jf = jd) */
int fl_far_choose(const bba_fluid *m, int top, long nf, long na, long jd, long *jf);
int fl_far_build(const bba_fluid *m, const fl_spec *sp, int top, double sg, long nf,
                 const long *fmode, long na, const long *fatom, long jf, const double *lf,
                 fl_far *F, char *err);
/* x (P - 1, by equation) -> y (by unknown: modes then atoms), y L = x;
 * wk P - 1 doubles (F is only read: callers may solve at once) */
void fl_far_solve_T(const fl_far *F, double *x, double *wk);
/* columns of B (by unknown) -> z (by equation), L z = b; wk P - 1 */
void fl_far_solve_N(const fl_far *F, int nrhs, double *B, int ldb, double *wk);
void fl_far_free(fl_far *F);
/* a power of two s with s x in [1/2, 1), within 2^+-900; 1 for x = 0 or
 * not finite: an exact scale */
double fl_pow2_inv(double x);

/* fluid_near.c: the near block of the greedy fast path, y [L | c] = g
 * with L's rows nn near modes (phi D) then na atoms (sg times the
 * generator's row: Q^S when top, else Q), its columns the equations of
 * the phases but jd and the atoms' sum, solved through the modes'
 * biorthogonality (psi = phi / pi, Q reversible): the atoms from an
 * na x na system, each mode's coefficient a projection.  Needs na = nf +
 * 1 + (zero-drift phases), a non-zero mean drift, every pi_f > 0 with a
 * finite reciprocal.  The arrays named are the caller's (kept, not
 * copied). */
typedef struct {
    const bba_fluid *m;
    const fl_spec *sp;
    int top;
    double sg;
    long P, nn, na, nf, jd;
    const long *nmode, *natom, *fmode; /* spectrum rows; atom phases */
    long *atom;        /* P: an atom's rank at its phase, else -1 */
    double *den;       /* nn: phi_i D psi_i */
    double *T;         /* na x nn, column i: (Q~ psi_i) at the atoms */
    double *ipi;       /* P: 1 / pi */
    fl_fact A;         /* the atoms' system */
} fl_near;

/* BB_EINVAL where the route does not apply, BB_ESINGULAR (a neutral mode
 * or a singular atoms' system), BB_ENOCONV where it is not backward
 * stable componentwise on the block's own problem (the atoms' sum 1:
 * some equation's residual above P eps of its terms' moduli), BB_ENOMEM.
 * O(na P C + na^3 + P nn). */
int fl_near_build(const bba_fluid *m, const fl_spec *sp, int top, double sg, long nn,
                  const long *nmode, long na, const long *natom, long nf, const long *fmode,
                  long jd, fl_near *F, char *err);
/* columns of B (by equation, P each) -> y (by unknown: modes, atoms),
 * y [L | c] = g; wk 3 P doubles, used for one column (more are solved in
 * blocks of scratch allocated here: BB_ENOMEM without it).  2 P (nn + nf)
 * + 2 nn na flops a column, as matrix products over the blocks. */
int fl_near_solve_T(const fl_near *F, int nrhs, double *B, int ldb, double *wk);
/* the solves of the far modes' own fluxes, columns k < cnt of B:
 * y [L | c] = [phi_j D | 0], j = fmode[j0 + k], without a pass over the
 * modes: by biorthogonality g^ psi_i = 0 for every near mode and g^ psi_j'
 * = delta_jj' phi_j D psi_j for the far ones, so only the atoms' system
 * and T are used.  O(P + na^2 + nn na) a column; BB_ENOMEM. */
int fl_near_far_flux(const fl_near *F, long j0, long cnt, double *B, int ldb);
void fl_near_free(fl_near *F);
/* y = |x| |Q~| (Q~ = Q^S when top, else Q; P doubles): the moduli of the
 * terms of x Q~, for componentwise residuals */
void fl_q_left_abs(const bba_fluid *m, const double *x, double *y, int top);

/* fluid_solve.c */
int fl_solve_dense(const bba_fluid *m, int R, const fl_spec *const *sp, const double *x,
                   fl_sol *s, char *err);
void fl_sol_free(fl_sol *s);
/* s->y[b] and s->ny[b] for the groups of s (R and sp set), zeroed */
int fl_sol_alloc(const bba_fluid *m, fl_sol *s, char *err);
/* atoms at 0 (phases with d <= 0) and at S (d >= 0) */
long fl_atoms(const bba_fluid *m, int at_top, long *ph);
/* the phase whose equation is dropped at a boundary: the most likely one
 * with a non-zero drift */
long fl_drop_col(const bba_fluid *m);

/* fluid_fast.c */
int fl_solve_fast(const bba_fluid *m, double S, fl_sol *s, char *err);
void fl_fast_free(struct fl_fast *f);

#endif
