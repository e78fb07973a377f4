/* lapackf.h: the Fortran BLAS and LAPACK routines libbbanalytic calls
 * (OpenBLAS or the reference libraries, whichever configure found).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Column-major storage, 32-bit integers (LP64), every argument by
 * reference; a CHARACTER argument takes its length as a hidden trailing
 * size_t (gfortran's convention, which OpenBLAS follows). */
#ifndef BBSIZE_ANALYTIC_LAPACKF_H
#define BBSIZE_ANALYTIC_LAPACKF_H

#include <stddef.h>

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b,
            const int *ldb, const double *beta, double *c, const int *ldc,
            size_t lta, size_t ltb);
void dgemv_(const char *ta, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy, size_t lta);
void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, double *b, const int *ldb, size_t ls, size_t lu, size_t lta,
            size_t ld);
void daxpy_(const int *n, const double *alpha, const double *x, const int *incx, double *y,
            const int *incy);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork,
            int *info, size_t ltrans);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
             const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
             size_t lt);
void dgbtrf_(const int *m, const int *n, const int *kl, const int *ku, double *ab,
             const int *ldab, int *ipiv, int *info);
void dgbtrs_(const char *trans, const int *n, const int *kl, const int *ku, const int *nrhs,
             const double *ab, const int *ldab, const int *ipiv, double *b, const int *ldb,
             int *info, size_t lt);
void dgerfs_(const char *trans, const int *n, const int *nrhs, const double *a,
             const int *lda, const double *af, const int *ldaf, const int *ipiv,
             const double *b, const int *ldb, double *x, const int *ldx, double *ferr,
             double *berr, double *work, int *iwork, int *info, size_t lt);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
             double *w, double *work, const int *lwork, int *iwork, const int *liwork,
             int *info, size_t lj, size_t lu);
void dstein_(const int *n, const double *d, const double *e, const int *m, const double *w,
             const int *iblock, const int *isplit, double *z, const int *ldz, double *work,
             int *iwork, int *ifail, int *info);

void dgeqp3_(const int *m, const int *n, double *a, const int *lda, int *jpvt, double *tau,
             double *work, const int *lwork, int *info);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info, size_t ls, size_t lt);
void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n,
            const double *a, const int *lda, double *x, const int *incx, size_t lu,
            size_t lt, size_t ld);

void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *wr, double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr,
            double *work, const int *lwork, int *info, size_t ljl, size_t ljr);

/* complex Schur form (the matrix-analytic route's Sylvester solves) */
void zgees_(const char *jobvs, const char *sort, int (*sel)(const double _Complex *),
            const int *n, double _Complex *a, const int *lda, int *sdim, double _Complex *w,
            double _Complex *vs, const int *ldvs, double _Complex *work, const int *lwork,
            double *rwork, int *bwork, int *info, size_t ljv, size_t ls);

#endif
