/* models.h: MFNetSim's four applications (MILC, Nekbone, Checkpoint,
 * Cosmoflow) as operation-stream generators, with the parameters of the
 * published runs as defaults, and the Young/Daly checkpoint interval.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: paper 001 Section 7.2 and Table 3, and the job definitions of
 * its runs (the published artifact's milc_skeleton.json,
 * nekbone_workload.json, union_conceptual.json).  Every rank of a model
 * runs in program order (BBS_DEP_PREV); tags are per iteration.
 *
 * MILC (milc_skeleton.json and the SWM skeleton it names,
 * milc_swm_user_code.cpp): ranks on a periodic 4-D grid (default 3x4x5x5 =
 * 300) laid out with dimension 0 fastest (rank = c0 + d0 (c1 + d1 (c2 +
 * d2 c3))), 8 neighbours in the order -d0, +d0, -d1, ..., +d3.  Per
 * iteration two halo phases (Dslash on even, then odd sites), each 8 Irecv
 * + 8 Isend of msg_bytes (497,664 B), compute_s (default 100 cycles at
 * 4 GHz = 25 ns) and a Waitall; then 2 Allreduce of 8 B.  Per rank and
 * iteration: 16 messages, 16 x 497,664 B.  The paper gives 486 KB =
 * 497,664 B messages.
 *
 * Nekbone (nekbone_workload.json and its SWM skeleton,
 * nekbone_swm_user_code.cpp): ranks on a non-periodic 3-D lattice Rx x Ry
 * x Rz (5 x 6 x 10), x fastest (CUBICLAT::tripletZ2id), up to 26
 * neighbours (fewer at the boundary), in the skeleton's order: 6 faces, 8
 * corners, 12 edges.  A rank's block holds Ex x Ey x Ez elements; the
 * skeleton reads Ez from the key "Rx", so the published runs had 13 x 13 x
 * 5, not the file's 13 x 13 x 13 (elem defaults to what ran).  A message
 * carries the DOFs the two blocks share, dof_bytes (8) each: E_i P + 1
 * along every axis i where the two ranks' coordinates agree (face: two
 * axes, edge: one, corner: 1 DOF).  For each polynomial order P from Pbegin
 * to Pend step Pstep (8, 11, 14, 17): two gather-scatters ("on c", "on
 * f"), a CG solve, a barrier, a second CG solve.  A solve is one Allreduce
 * of allreduce_bytes (8), then CGcount (100) iterations of an Allreduce, a
 * gather-scatter and allreduces - 1 (2) more Allreduces (nek_glsc3 x 3 and
 * nek_gsop "on w").  A gather-scatter: an Irecv from every neighbour, an
 * Isend to every neighbour, Waitall.  [departure] the skeleton waits for
 * its receives only; the Waitall here waits for the sends too (they end
 * when injected).  Compute per CG iteration: compute_s (default 0: the
 * skeleton's cpu_sim_speedup of 1e6 makes it negligible).
 *
 * Checkpoint (union_conceptual.json "checkpoint 1 50000000000 100000000"):
 * count checkpoints (1), each: compute interval_s (100 ms), a barrier,
 * then every rank writes total_bytes / ranks (50e9 / 300 B).  With mtti_s
 * > 0 the interval is Young/Daly's sqrt(2 delta MTTI) - delta for the
 * checkpoint duration delta_s.
 *
 * Cosmoflow (union_conceptual.json "cosmo 5 7379200 129000000"; the
 * artifact's skeleton, SPEAR-UIC/Union branch mfnetsim,
 * src/benchmarks/cosmo.c, cosmo_main; paper Figure 6): iterations (5),
 * each: a blocking write of read_bytes (8 MiB) to the burst buffer, a new
 * file per iteration (fid = rank * 1000 + i, offset 0: UNION_IO_OPEN_FILE,
 * UNION_IO_WRITE, UNION_IO_CLOSE_FILE), then compute_s (129 ms:
 * UNION_Compute(interval_nsec)), then an Allreduce of allreduce_bytes
 * (7,379,200 ints x 4 B = 29,516,800 B), each waiting for the one before.
 * The paper's text and Figure 6's coNCePTuaL program READ the sample
 * instead (batch_write = 0, key batch_op = read: the bytes travel from
 * the buffer to the compute node); the text says the reads are pipelined
 * with the computation, the figure and the skeleton do not overlap them.
 * The artifact's allreduce is Rabenseifner's (UNION_MPI_Allreduce in
 * codes' kronos-union, codes-conc-online-comm-wrkld.C, above 81,920 B;
 * the MFNetSim scenario files say allreduce = rabenseifner; coll.h). */
#ifndef BBSIZE_SIM_WORKLOAD_MODELS_H
#define BBSIZE_SIM_WORKLOAD_MODELS_H

#include "workload/ops.h"

typedef enum {
    BBS_MODEL_MILC = 0, BBS_MODEL_NEKBONE, BBS_MODEL_CHECKPOINT, BBS_MODEL_COSMOFLOW,
    BBS_MODEL_N
} bbs_model_kind;

#define BBS_MODEL_MAXDIMS 6

typedef struct {
    bbs_model_kind kind;
    int iterations;              /* MILC 100, Cosmoflow 5, Checkpoint: count 1 */
    double compute_s;            /* per iteration (MILC: per phase; Checkpoint: interval) */
    /* MILC */
    int ndims;
    int dims[BBS_MODEL_MAXDIMS];
    double msg_bytes;
    int allreduces;              /* per iteration (MILC 2, Nekbone 3) */
    double allreduce_bytes;      /* MILC/Nekbone 8, Cosmoflow 29,516,800 */
    /* Nekbone */
    int grid[3];                 /* Rx Ry Rz */
    int elem[3];                 /* elements per rank: Ex Ey Ez */
    int p_begin, p_end, p_step;
    int cg_iterations;
    double dof_bytes;
    /* Checkpoint */
    double total_bytes;
    double mtti_s, delta_s;
    /* Cosmoflow */
    double read_bytes;
    int batch_write;             /* 1: write the batch (artifact, default), 0: read it (paper) */
} bbs_model;

/* bbs_model_parse_kind: "milc", "nekbone", "checkpoint", "cosmoflow"
 * (case-insensitive).  BB_EINVAL listing the known names. */
int bbs_model_parse_kind(const char *name, int *kind, char *err);
const char *bbs_model_name(bbs_model_kind k);

/* bbs_model_defaults: the published parameters of kind. */
void bbs_model_defaults(bbs_model *m, bbs_model_kind kind);

/* The parameters are set from text by bbs_model_set (src/formats/
 * job_keys.h), with the key names of bbsize-scenario(5). */

/* bbs_model_check: the grid matches ranks, everything in range.
 * BB_EINVAL. */
int bbs_model_check(const bbs_model *m, int ranks, char *err);

/* bbs_young_daly_s: sqrt(2 delta mtti) - delta (Young 1974 to first
 * order, Daly 2006); 0 if that is negative.  Seconds. */
double bbs_young_daly_s(double delta_s, double mtti_s);

/* bbs_model_generate: append the streams of job (of ranks ranks) to w. */
int bbs_model_generate(const bbs_model *m, bbs_wl *w, int job, char *err);

/* bbs_model_p2p_bytes: closed-form point-to-point bytes of the whole job
 * (MILC: ranks x iterations x 16 x msg_bytes; Nekbone: per order, 2 + 2
 * cg_iterations gather-scatters of every pair of lattice neighbours). */
double bbs_model_p2p_bytes(const bbs_model *m, int ranks);

#endif
