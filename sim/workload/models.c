/* models.c: the MFNetSim application generators (models.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "workload/models.h"
#include "workload/wl_int.h"

static const char *const model_names[BBS_MODEL_N] = { "milc", "nekbone", "checkpoint",
                                                      "cosmoflow" };

int
bbs_model_parse_kind(const char *name, int *kind, char *err)
{
    for (int k = 0; k < BBS_MODEL_N; k++)
        if (strcasecmp(name, model_names[k]) == 0) {
            *kind = k;
            return BB_OK;
        }
    return bb_seterr(err, BB_EINVAL,
                     "unknown model '%s' (known: milc, nekbone, checkpoint, cosmoflow)", name);
}

const char *
bbs_model_name(bbs_model_kind k)
{
    return (unsigned)k < BBS_MODEL_N ? model_names[k] : "?";
}

void
bbs_model_defaults(bbs_model *m, bbs_model_kind kind)
{
    memset(m, 0, sizeof *m);
    m->kind = kind;
    switch (kind) {
    case BBS_MODEL_MILC:
        m->iterations = 100;
        m->compute_s = 100 / 4e9;
        m->ndims = 4;
        m->dims[0] = 3, m->dims[1] = 4, m->dims[2] = 5, m->dims[3] = 5;
        m->msg_bytes = 497664;
        m->allreduces = 2;
        m->allreduce_bytes = 8;
        break;
    case BBS_MODEL_NEKBONE:
        m->grid[0] = 5, m->grid[1] = 6, m->grid[2] = 10;
        /* the skeleton reads Ez from "Rx" (5), not from "Ez" (13) */
        m->elem[0] = 13, m->elem[1] = 13, m->elem[2] = 5;
        m->p_begin = 8, m->p_end = 18, m->p_step = 3;
        m->cg_iterations = 100;
        m->dof_bytes = 8;
        m->allreduces = 3;
        m->allreduce_bytes = 8;
        m->iterations = 1;
        break;
    case BBS_MODEL_CHECKPOINT:
        m->iterations = 1;
        m->compute_s = 0.1;
        m->total_bytes = 50e9;
        break;
    case BBS_MODEL_COSMOFLOW:
        m->iterations = 5;
        m->compute_s = 0.129;
        m->allreduce_bytes = 7379200.0 * 4;
        m->read_bytes = 8.0 * 1048576;
        m->batch_write = 1;     /* the artifact's skeleton (models.h) */
        break;
    default:
        break;
    }
}

int
bbs_model_check(const bbs_model *m, int ranks, char *err)
{
    long prod = 1;
    switch (m->kind) {
    case BBS_MODEL_MILC:
        for (int i = 0; i < m->ndims; i++)
            prod *= m->dims[i];
        if (prod != ranks)
            return bb_seterr(err, BB_EINVAL, "milc: the grid has %ld ranks, the job %d", prod,
                             ranks);
        break;
    case BBS_MODEL_NEKBONE:
        prod = (long)m->grid[0] * m->grid[1] * m->grid[2];
        if (prod != ranks)
            return bb_seterr(err, BB_EINVAL, "nekbone: the grid %dx%dx%d has %ld ranks, the job %d",
                             m->grid[0], m->grid[1], m->grid[2], prod, ranks);
        break;
    default:
        break;
    }
    return BB_OK;
}

double
bbs_young_daly_s(double delta_s, double mtti_s)
{
    double t = sqrt(2 * delta_s * mtti_s) - delta_s;
    return t > 0 ? t : 0;
}

/* ---- generators ---------------------------------------------------------- */

/* Rank of coordinates c on a periodic grid d, dimension 0 fastest: r =
 * c0 + d0 (c1 + d1 (c2 + ...)), as the artifact's skeletons lay ranks out
 * (MILC xlat_coords_to_pid, Nekbone CUBICLAT::tripletZ2id), so ranks that
 * differ in dimension 0 are adjacent in rank order and, under contiguous
 * placement, on nearby nodes. */
static int
grid_rank(const int *d, int n, const int *c)
{
    int r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * d[i] + ((c[i] % d[i]) + d[i]) % d[i];
    return r;
}

static void
grid_coords(const int *d, int n, int r, int *c)
{
    for (int i = 0; i < n; i++) {
        c[i] = r % d[i];
        r /= d[i];
    }
}

static int
nb_op(bbs_wl *w, int job, int rank, int send, int peer, double bytes, int64_t tag, char *err)
{
    return send ? bbs_wl_send(w, job, rank, peer, bytes, tag, 1, NULL, err)
                : bbs_wl_recv(w, job, rank, peer, tag, 1, NULL, err);
}

static int
gen_milc(const bbs_model *m, bbs_wl *w, int job, int ranks, char *err)
{
    int c[BBS_MODEL_MAXDIMS], rc;
    for (int r = 0; r < ranks; r++) {
        grid_coords(m->dims, m->ndims, r, c);
        int nbr[2 * BBS_MODEL_MAXDIMS], dirn[2 * BBS_MODEL_MAXDIMS];
        for (int i = 0; i < m->ndims; i++)
            for (int s = 0; s < 2; s++) {
                int cc[BBS_MODEL_MAXDIMS];
                memcpy(cc, c, sizeof cc);
                cc[i] += s ? 1 : -1;
                nbr[2 * i + s] = grid_rank(m->dims, m->ndims, cc);
                dirn[2 * i + s] = 2 * i + s;
            }
        int nn = 2 * m->ndims;
        for (int it = 0; it < m->iterations; it++) {
            /* the skeleton's two Dslash phases (even, odd sites): post
             * the receives, send, compute, wait */
            for (int ph = 0; ph < 2; ph++) {
                /* tag: (iteration, phase, direction of travel); the
                 * receiver expects from its neighbour in direction d the
                 * message that neighbour sent in the opposite direction */
                int64_t base = ((int64_t)it * 2 + ph) * 64;
                for (int k = 0; k < nn; k++)
                    if ((rc = nb_op(w, job, r, 0, nbr[k], 0, base + (dirn[k] ^ 1), err)))
                        return rc;
                for (int k = 0; k < nn; k++)
                    if ((rc = nb_op(w, job, r, 1, nbr[k], m->msg_bytes, base + dirn[k], err)))
                        return rc;
                if (m->compute_s > 0 && (rc = bbs_wl_compute(w, job, r, m->compute_s, err)))
                    return rc;
                if ((rc = bbs_wl_waitall(w, job, r, err)))
                    return rc;
            }
            for (int a = 0; a < m->allreduces; a++)
                if ((rc = bbs_wl_coll(w, job, r, BBS_COLL_ALLREDUCE, 0, 0, m->allreduce_bytes,
                                      err)))
                    return rc;
        }
    }
    return BB_OK;
}

/* Nekbone's 26 neighbour offsets in the skeleton's order
 * (make_neighbors_loads): the 6 faces, the 8 corners, the 12 edges. */
static const signed char nek_off[26][3] = {
    { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 },
    { 1, 1, -1 }, { 1, -1, -1 }, { -1, -1, -1 }, { -1, 1, -1 },
    { 1, 1, 1 }, { 1, -1, 1 }, { -1, -1, 1 }, { -1, 1, 1 },
    { 0, -1, -1 }, { 0, 1, -1 }, { 0, -1, 1 }, { 0, 1, 1 },
    { 1, 0, -1 }, { 1, 0, 1 }, { -1, 0, 1 }, { -1, 0, -1 },
    { -1, -1, 0 }, { -1, 1, 0 }, { 1, -1, 0 }, { 1, 1, 0 }
};

/* Bytes shared with the neighbour at offset o at order P: the degrees of
 * freedom on the common face, edge or corner of the two blocks of E_x x
 * E_y x E_z elements, E_i P + 1 along each axis i where o_i = 0. */
static double
nek_bytes(const bbs_model *m, int P, const signed char *o)
{
    double b = m->dof_bytes;
    for (int i = 0; i < 3; i++)
        if (o[i] == 0)
            b *= (double)m->elem[i] * P + 1;
    return b;
}

/* One gather-scatter (nek_gsop): Irecv from every neighbour, Isend to
 * every neighbour, wait for the receives (the skeleton never waits for
 * its sends: "I'm not going to bother with tracking send requests").  On
 * a non-periodic lattice two ranks are neighbours at most once, so the
 * gather-scatter's number is the tag. */
static int
nek_exchange(const bbs_model *m, bbs_wl *w, int job, int r, const int *nbr, const int *ki,
             int nn, int P, int64_t tag, char *err)
{
    int rc, recv[26];
    bbs_op op;

    for (int k = 0; k < nn; k++)
        if ((rc = bbs_wl_recv(w, job, r, nbr[k], tag, 1, &recv[k], err)))
            return rc;
    for (int k = 0; k < nn; k++)
        if ((rc = nb_op(w, job, r, 1, nbr[k], nek_bytes(m, P, nek_off[ki[k]]), tag, err)))
            return rc;
    bbs_op_init(&op, BBS_OP_WAIT);
    for (int k = 0; k < nn; k++) {
        op.ref = recv[k];
        if ((rc = bbs_wl_append(w, job, r, &op, NULL, err)))
            return rc;
    }
    return BB_OK;
}

static int
nek_allreduces(const bbs_model *m, bbs_wl *w, int job, int r, int n, char *err)
{
    int rc;
    for (int a = 0; a < n; a++)
        if ((rc = bbs_wl_coll(w, job, r, BBS_COLL_ALLREDUCE, 0, 0, m->allreduce_bytes, err)))
            return rc;
    return BB_OK;
}

/* The skeleton's run(): per order, two gather-scatters ("on c", "on f"),
 * a CG solve, a barrier, a second CG solve.  A solve: one allreduce, then
 * per iteration an allreduce, a gather-scatter and allreduces - 1 more. */
static int
gen_nekbone(const bbs_model *m, bbs_wl *w, int job, int ranks, char *err)
{
    int c[3], rc;
    for (int r = 0; r < ranks; r++) {
        grid_coords(m->grid, 3, r, c);
        int nbr[26], ki[26], nn = 0;
        for (int k = 0; k < 26; k++) {
            int cc[3], in = 1;
            for (int i = 0; i < 3; i++) {
                cc[i] = c[i] + nek_off[k][i];
                in = in && cc[i] >= 0 && cc[i] < m->grid[i];
            }
            if (!in)
                continue;   /* not periodic: no neighbour beyond the boundary */
            nbr[nn] = grid_rank(m->grid, 3, cc);
            ki[nn++] = k;
        }
        int64_t ex = 0;     /* gather-scatter number: its tag */
        for (int P = m->p_begin; P < m->p_end; P += m->p_step) {
            for (int g = 0; g < 2; g++, ex++)
                if ((rc = nek_exchange(m, w, job, r, nbr, ki, nn, P, ex, err)))
                    return rc;
            for (int solve = 0; solve < 2; solve++) {
                if (solve == 1 && (rc = bbs_wl_coll(w, job, r, BBS_COLL_BARRIER, 0, 0, 0, err)))
                    return rc;
                if ((rc = nek_allreduces(m, w, job, r, m->allreduces > 0, err)))
                    return rc;
                for (int cg = 0; cg < m->cg_iterations; cg++, ex++) {
                    if (m->compute_s > 0 && (rc = bbs_wl_compute(w, job, r, m->compute_s, err)))
                        return rc;
                    if ((rc = nek_allreduces(m, w, job, r, m->allreduces > 0, err))
                        || (rc = nek_exchange(m, w, job, r, nbr, ki, nn, P, ex, err))
                        || (rc = nek_allreduces(m, w, job, r,
                                                m->allreduces > 1 ? m->allreduces - 1 : 0, err)))
                        return rc;
                }
            }
        }
    }
    return BB_OK;
}

static int
gen_checkpoint(const bbs_model *m, bbs_wl *w, int job, int ranks, char *err)
{
    double per = m->total_bytes / ranks;
    double interval = m->mtti_s > 0 ? bbs_young_daly_s(m->delta_s, m->mtti_s) : m->compute_s;
    int rc;
    for (int r = 0; r < ranks; r++)
        for (int it = 0; it < m->iterations; it++) {
            if ((rc = bbs_wl_compute(w, job, r, interval, err))
                || (rc = bbs_wl_coll(w, job, r, BBS_COLL_BARRIER, 0, 0, 0, err))
                || (rc = bbs_wl_io(w, job, r, 1, per, (uint64_t)job << 32 | (uint64_t)r,
                                   (uint64_t)(per * it), err)))
                return rc;
        }
    return BB_OK;
}

/* Figure 6 of the paper (its coNCePTuaL program) and the artifact's
 * skeleton: per iteration every task does its batch's I/O, then COMPUTES,
 * then the Allreduce, each blocking; the batch is a file of its own (the
 * skeleton's fid = rank * 1000 + iteration, at offset 0), written
 * (batch_write, the skeleton) or read (the paper). */
static int
gen_cosmoflow(const bbs_model *m, bbs_wl *w, int job, int ranks, char *err)
{
    int rc;
    for (int r = 0; r < ranks; r++)
        for (int it = 0; it < m->iterations; it++)
            if ((rc = bbs_wl_io(w, job, r, m->batch_write, m->read_bytes,
                                (uint64_t)job << 32
                                    | (uint64_t)((int64_t)r * m->iterations + it),
                                0, err))
                || (rc = bbs_wl_compute(w, job, r, m->compute_s, err))
                || (rc = bbs_wl_coll(w, job, r, BBS_COLL_ALLREDUCE, 0, 0, m->allreduce_bytes,
                                     err)))
                return rc;
    return BB_OK;
}

int
bbs_model_generate(const bbs_model *m, bbs_wl *w, int job, char *err)
{
    int ranks = bbs_wl_nranks(w, job), rc;
    if (ranks <= 0)
        return bb_seterr(err, BB_EINVAL, "no job %d", job);
    if ((rc = bbs_model_check(m, ranks, err)))
        return rc;
    switch (m->kind) {
    case BBS_MODEL_MILC:
        return gen_milc(m, w, job, ranks, err);
    case BBS_MODEL_NEKBONE:
        return gen_nekbone(m, w, job, ranks, err);
    case BBS_MODEL_CHECKPOINT:
        return gen_checkpoint(m, w, job, ranks, err);
    case BBS_MODEL_COSMOFLOW:
        return gen_cosmoflow(m, w, job, ranks, err);
    default:
        return bb_seterr(err, BB_EINVAL, "unknown model %d", m->kind);
    }
}

double
bbs_model_p2p_bytes(const bbs_model *m, int ranks)
{
    switch (m->kind) {
    case BBS_MODEL_MILC:
        return (double)ranks * m->iterations * 2 * (2 * m->ndims) * m->msg_bytes;
    case BBS_MODEL_NEKBONE: {
        /* every ordered pair of lattice neighbours at offset o: there are
         * prod_i (R_i - |o_i|) of them; 2 + 2 cg_iterations
         * gather-scatters per order */
        double tot = 0;
        (void)ranks;
        for (int P = m->p_begin; P < m->p_end; P += m->p_step)
            for (int k = 0; k < 26; k++) {
                double pairs = 1;
                for (int i = 0; i < 3; i++)
                    pairs *= m->grid[i] - abs(nek_off[k][i]);
                tot += (2.0 + 2.0 * m->cg_iterations) * pairs * nek_bytes(m, P, nek_off[k]);
            }
        return tot;
    }
    default:
        return 0;
    }
}
