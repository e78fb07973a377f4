/* vef_mpi.c: plain MPI VEF traces: communicators, message and collective
 * records, and the checks of a whole trace (vef_int.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "bb_num.h"
#include "grow.h"
#include "vef_int.h"

/* The code of keyword t: name(k) for k < n (case-insensitive), or the
 * code itself as one digit; -1 when it is neither. */
static int
name_or_code(const char *t, const char *(*name)(int), int n)
{
    for (int k = 0; k < n; k++)
        if (!strcasecmp(t, name(k)))
            return k;
    return t[0] >= '0' && t[0] < '0' + n && t[1] == '\0' ? t[0] - '0' : -1;
}

static int
parse_dep(pstate *s, int i, int *dep)
{
    const char *t = s->tok[i];

    if ((*dep = name_or_code(t, bbs_vef_dep_name, 4)) >= 0)
        return BB_OK;
    return vef_err(s, "unknown dependency kind '%s' (known: INDEPENDENT or 0, COLLECTIVE or 1, "
                "SEND or 2, RECEIVE or 3)", t);
}

/* depID: an integer, or G<k> (collective).  INDEPENDENT keeps -1. */
static int
parse_depid(pstate *s, int i, int dep, int64_t *out)
{
    const char *t = s->tok[i];
    char *e;
    long long v;
    int g = (t[0] == 'G' || t[0] == 'g');

    errno = 0;
    v = strtoll(t + g, &e, 10);
    if (e == t + g || *e || errno)
        return vef_err(s, "dependency id: expected an integer or G<k>, got '%s'", t);
    if (dep == BBS_VEF_DEP_INDEPENDENT) {
        *out = -1;
        return BB_OK;
    }
    if (g && dep != BBS_VEF_DEP_COLLECTIVE)
        return vef_err(s, "dependency id '%s' names a collective but the kind is %s", t,
                    bbs_vef_dep_name(dep));
    if (v < 0)
        return vef_err(s, "dependency id '%s' must be >= 0", t);
    *out = v;
    return BB_OK;
}

static int
parse_op(pstate *s, int i, int *op)
{
    const char *t = s->tok[i];

    if (!strcasecmp(t, "BCAST"))
        *op = BBS_VEF_OP_BCAST;
    else
        *op = name_or_code(t, bbs_vef_op_name, BBS_VEF_OP_NOPS);
    if (*op >= 0)
        return BB_OK;
    return vef_err(s, "unknown collective operation '%s' (known: BROADCAST 0, REDUCE 1, ALLREDUCE 2, "
                "GATHER 3, SCATTER 4, ALLGATHER 5, BARRIER 6, ALLTOALL 7)", t);
}

/* ---- plain MPI traces ---- */

int
vef_parse_comms(pstate *s, char *mark)
{
    bbs_vef *v = s->v;
    int rc;

    v->comm = calloc((size_t)(v->ncomm ? v->ncomm : 1), sizeof *v->comm);
    v->comm_size = calloc((size_t)(v->ncomm ? v->ncomm : 1), sizeof *v->comm_size);
    if (!v->comm || !v->comm_size)
        return bb_seterr(s->err, BB_ENOMEM, "out of memory");
    for (int k = 0; k < v->ncomm; k++) {
        const char *t;
        char *e;
        long id;

        if ((rc = vef_next_record(s)) != 1)
            return rc < 0 ? BB_ENOMEM : vef_err(s, "expected communicator line C%d (#COMM = %d)", k, v->ncomm);
        t = s->tok[0];
        if (t[0] != 'C' && t[0] != 'c')
            return vef_err(s, "expected communicator line 'C%d rank...', got '%s'", k, t);
        errno = 0;
        id = strtol(t + 1, &e, 10);
        if (e == t + 1 || *e || errno || id != k)
            return vef_err(s, "communicator '%s' out of order: expected C%d", t, k);
        if (s->ntok < 2)
            return vef_err(s, "communicator C%d lists no ranks", k);
        v->comm[k] = malloc((size_t)(s->ntok - 1) * sizeof **v->comm);
        if (!v->comm[k])
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
        memset(mark, 0, (size_t)v->ntasks);
        for (int i = 1; i < s->ntok; i++) {
            long r;
            if ((rc = vef_tok_long(s, i, "rank", 0, v->ntasks - 1, &r)))
                return rc;
            if (mark[r])
                return vef_err(s, "rank '%s' appears twice in C%d", s->tok[i], k);
            mark[r] = 1;
            v->comm[k][i - 1] = (int)r;
        }
        v->comm_size[k] = s->ntok - 1;
        if (k == 0 && v->comm_size[0] != v->ntasks)
            return vef_err(s, "C0 must list all %d tasks (it lists %d)", v->ntasks, v->comm_size[0]);
    }
    if (v->ncomm == 0) { /* implicit world communicator */
        v->comm[0] = malloc((size_t)v->ntasks * sizeof **v->comm);
        if (!v->comm[0])
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
        for (int r = 0; r < v->ntasks; r++)
            v->comm[0][r] = r;
        v->comm_size[0] = v->ntasks;
        v->ncomm = 1;
    }
    return BB_OK;
}

static int
add_coll_line(pstate *s, size_t collcap[2], char ***member)
{
    bbs_vef *v = s->v;
    char *e;
    long id, comm;
    int op = 0, rc, dep = 0;
    bbs_vef_coll *c;
    bbs_vef_part pt;
    long task;

    if (s->ntok != 9)
        return vef_err(s, "a collective record has 9 fields 'G<id> comm op task send recv dep time "
                    "depID', this line has %d", s->ntok);
    errno = 0;
    id = strtol(s->tok[0] + 1, &e, 10);
    if (e == s->tok[0] + 1 || *e || errno || id < 0)
        return vef_err(s, "collective id: expected G<k>, got '%s'", s->tok[0]);
    if ((size_t)id > v->ncoll)
        return vef_err(s, "collective id '%s' skips ids: expected G%zu or an earlier one (ids are "
                    "dense)", s->tok[0], v->ncoll);
    if ((rc = vef_tok_long(s, 1, "communicator", 0, v->ncomm - 1, &comm)))
        return rc;
    if ((rc = parse_op(s, 2, &op)))
        return rc;
    if ((rc = vef_tok_long(s, 3, "task", 0, v->ntasks - 1, &task)))
        return rc;
    pt.task = (int)task;
    if ((rc = vef_tok_u64(s, 4, "send size", &pt.send)) || (rc = vef_tok_u64(s, 5, "recv size", &pt.recv)))
        return rc;
    if ((rc = parse_dep(s, 6, &dep)))
        return rc;
    pt.dep = dep;
    if ((rc = vef_tok_double(s, 7, "time", 0, 1e300, &pt.time)))
        return rc;
    if ((rc = parse_depid(s, 8, dep, &pt.dep_id)))
        return rc;
    pt.line = s->lineno;
    if ((size_t)id == v->ncoll) {
        if (bbs_grow((void **)&v->colls, sizeof *v->colls, &collcap[0], v->ncoll + 1)
            || bbs_grow((void **)member, sizeof **member, &collcap[1], v->ncoll + 1))
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
        c = &v->colls[v->ncoll];
        memset(c, 0, sizeof *c);
        c->comm = (int)comm;
        c->op = op;
        c->root = -1;
        c->line = s->lineno;
        c->parts = calloc((size_t)v->comm_size[comm], sizeof *c->parts);
        (*member)[v->ncoll] = calloc((size_t)v->ntasks, 1);
        v->ncoll++;
        if (!c->parts || !(*member)[v->ncoll - 1])
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
    }
    c = &v->colls[id];
    if (c->comm != comm)
        return vef_err(s, "collective G%ld: communicator %ld disagrees with C%d on line %ld "
                    "(participants disagree)", id, comm, c->comm, c->line);
    if (c->op != op)
        return vef_err(s, "collective G%ld: operation '%s' disagrees with %s on line %ld "
                    "(participants disagree)", id, s->tok[2], bbs_vef_op_name(c->op), c->line);
    {
        char *mem = (*member)[id];
        int in = 0;
        for (int i = 0; i < v->comm_size[comm]; i++)
            in |= v->comm[comm][i] == pt.task;
        if (!in)
            return vef_err(s, "collective G%ld: task %d is not a member of C%ld", id, pt.task, comm);
        if (mem[pt.task])
            return vef_err(s, "collective G%ld: task %d has two lines (participants disagree)",
                        id, pt.task);
        mem[pt.task] = 1;
    }
    if (op == BBS_VEF_OP_ALLREDUCE && pt.send != pt.recv)
        return vef_err(s, "ALLREDUCE G%ld: send size '%s' differs from recv size '%s'", id,
                    s->tok[4], s->tok[5]);
    c->parts[c->nparts++] = pt;
    return BB_OK;
}

int
vef_parse_records(pstate *s)
{
    bbs_vef *v = s->v;
    size_t mcap = 0, collcap[2] = { 0, 0 };   /* colls, member */
    long count = 0;
    char **member = NULL; /* per collective, a mark per task */
    int rc = BB_OK;

    while ((rc = vef_next_record(s)) == 1) {
        const char *t = s->tok[0];
        if (t[0] == 'G' || t[0] == 'g') {
            if ((rc = add_coll_line(s, collcap, &member)))
                break;
        } else {
            long id, src, dst;
            int dep;
            bbs_vef_msg *m;

            if (s->ntok != 7) {
                rc = vef_err(s, "a point-to-point record has 7 fields 'ID src dst size dep time "
                          "depID', this line has %d", s->ntok);
                break;
            }
            if ((rc = vef_tok_long(s, 0, "message id", 0, 1L << 40, &id)))
                break;
            if (id != count) {
                rc = vef_err(s, "message id '%s' out of order: expected %ld (ids are dense, "
                          "0, 1, 2... in file order)", t, count);
                break;
            }
            if (count >= v->nmsgs) {
                rc = vef_err(s, "message '%s' beyond #Msgs = %ld of the header", t, v->nmsgs);
                break;
            }
            if ((size_t)count == mcap) {
                size_t nc = mcap ? 2 * mcap : 1024;
                if (nc > (size_t)v->nmsgs)
                    nc = (size_t)v->nmsgs;
                bbs_vef_msg *a = realloc(v->msgs, nc * sizeof *a);
                if (!a) {
                    rc = bb_seterr(s->err, BB_ENOMEM, "out of memory");
                    break;
                }
                v->msgs = a;
                mcap = nc;
            }
            m = &v->msgs[count];
            if ((rc = vef_tok_long(s, 1, "src", 0, v->ntasks - 1, &src))
                || (rc = vef_tok_long(s, 2, "dst", 0, v->ntasks - 1, &dst))
                || (rc = vef_tok_u64(s, 3, "size", &m->bytes)) || (rc = parse_dep(s, 4, &dep))
                || (rc = vef_tok_double(s, 5, "time", 0, 1e300, &m->time))
                || (rc = parse_depid(s, 6, dep, &m->dep_id)))
                break;
            if (src == dst) {
                rc = vef_err(s, "message %ld: src = dst = '%s'", id, s->tok[1]);
                break;
            }
            m->src = (int)src;
            m->dst = (int)dst;
            m->dep = dep;
            m->line = s->lineno;
            count++;
        }
    }
    if (rc < 0)
        rc = BB_ENOMEM;
    if (member) {
        for (size_t c = 0; c < v->ncoll; c++)
            free(member[c]);
        free(member);
    }
    if (rc)
        return rc;
    if (count != v->nmsgs)
        return vef_err(s, "the trace has %ld messages but the header's #Msgs says %ld", count, v->nmsgs);
    return BB_OK;
}

/* Checks that need the whole trace (forward references). */
int
vef_check_mpi(pstate *s)
{
    bbs_vef *v = s->v;
    long ng = 0, nl = 0;

#define AT(line) (s->lineno = (line))
    for (size_t c = 0; c < v->ncoll; c++) {
        bbs_vef_coll *C = &v->colls[c];
        int nz = 0, root = -1, use_send;

        AT(C->line);
        if ((int)C->nparts != v->comm_size[C->comm]) {
            /* find a missing member for the message */
            for (int i = 0; i < v->comm_size[C->comm]; i++) {
                int r = v->comm[C->comm][i], found = 0;
                for (size_t p = 0; p < C->nparts; p++)
                    found |= C->parts[p].task == r;
                if (!found)
                    return vef_err(s, "collective G%zu (%s on C%d): task %d of the communicator has "
                                "no line (participants disagree)", c, bbs_vef_op_name(C->op), C->comm, r);
            }
        }
        if (C->comm == 0)
            ng++;
        else
            nl++;
        use_send = C->op == BBS_VEF_OP_BCAST || C->op == BBS_VEF_OP_SCATTER;
        if (C->op == BBS_VEF_OP_BCAST || C->op == BBS_VEF_OP_REDUCE || C->op == BBS_VEF_OP_GATHER
            || C->op == BBS_VEF_OP_SCATTER) {
            for (size_t p = 0; p < C->nparts; p++)
                if ((use_send ? C->parts[p].send : C->parts[p].recv) != 0) {
                    nz++;
                    root = C->parts[p].task;
                }
            if (nz == 1)
                C->root = root;
            else if (nz == 0 || nz == (int)C->nparts)
                C->root = v->comm[C->comm][0];
            else
                return vef_err(s, "%s G%zu: %d participants have a non-zero %s size: the root is "
                            "ambiguous (participants disagree)", bbs_vef_op_name(C->op), c, nz,
                            use_send ? "send" : "recv");
        }
    }
    { /* each task's collective lines come in collective-id order */
        long *last = calloc((size_t)v->ntasks, sizeof *last);
        long *lastid = calloc((size_t)v->ntasks, sizeof *lastid);
        if (!last || !lastid) {
            free(last);
            free(lastid);
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
        }
        for (size_t c = 0; c < v->ncoll; c++)
            for (size_t p = 0; p < v->colls[c].nparts; p++) {
                bbs_vef_part *P = &v->colls[c].parts[p];
                if (P->line < last[P->task]) {
                    AT(last[P->task]);
                    long prev = lastid[P->task];
                    free(last);
                    free(lastid);
                    return vef_err(s, "task %d's line for G%zu (line %ld) comes before its line "
                                "for G%ld: a task takes part in collectives in id order",
                                P->task, c, P->line, prev);
                }
                last[P->task] = P->line;
                lastid[P->task] = (long)c;
            }
        free(last);
        free(lastid);
    }
    AT(1);
    if (ng != v->gcoll || nl != v->lcoll)
        return vef_err(s, "the trace has %ld collectives on C0 and %ld on other communicators, the "
                    "header says gGComm = %ld and lGComm = %ld", ng, nl, v->gcoll, v->lcoll);
    /* dependencies */
    for (long i = 0; i < v->nmsgs; i++) {
        bbs_vef_msg *m = &v->msgs[i];
        AT(m->line);
        if (m->dep == BBS_VEF_DEP_SEND || m->dep == BBS_VEF_DEP_RECEIVE) {
            if (m->dep_id >= v->nmsgs)
                return vef_err(s, "message %ld depends on message %lld, which does not exist", i,
                            (long long)m->dep_id);
            if (m->dep == BBS_VEF_DEP_SEND && v->msgs[m->dep_id].src != m->src)
                return vef_err(s, "message %ld (from task %d) has a SEND dependency on message %lld, "
                            "sent by task %d", i, m->src, (long long)m->dep_id, v->msgs[m->dep_id].src);
            if (m->dep == BBS_VEF_DEP_RECEIVE && v->msgs[m->dep_id].dst != m->src)
                return vef_err(s, "message %ld (from task %d) has a RECEIVE dependency on message "
                            "%lld, received by task %d", i, m->src, (long long)m->dep_id,
                            v->msgs[m->dep_id].dst);
            if (v->msgs[m->dep_id].line >= m->line)
                return vef_err(s, "message %ld depends on message %lld, which comes later (line %ld)",
                            i, (long long)m->dep_id, v->msgs[m->dep_id].line);
        } else if (m->dep == BBS_VEF_DEP_COLLECTIVE) {
            int in = 0;
            if ((size_t)m->dep_id >= v->ncoll)
                return vef_err(s, "message %ld depends on collective G%lld, which does not exist", i,
                            (long long)m->dep_id);
            for (size_t p = 0; p < v->colls[m->dep_id].nparts; p++)
                in |= v->colls[m->dep_id].parts[p].task == m->src;
            if (!in)
                return vef_err(s, "message %ld depends on collective G%lld, in which task %d takes "
                            "no part", i, (long long)m->dep_id, m->src);
            for (size_t p = 0; p < v->colls[m->dep_id].nparts; p++)
                if (v->colls[m->dep_id].parts[p].task == m->src
                    && v->colls[m->dep_id].parts[p].line >= m->line)
                    return vef_err(s, "message %ld depends on collective G%lld, whose line for task "
                                "%d comes later", i, (long long)m->dep_id, m->src);
        }
    }
    for (size_t c = 0; c < v->ncoll; c++)
        for (size_t p = 0; p < v->colls[c].nparts; p++) {
            bbs_vef_part *P = &v->colls[c].parts[p];
            AT(P->line);
            if (P->dep == BBS_VEF_DEP_SEND || P->dep == BBS_VEF_DEP_RECEIVE) {
                if (P->dep_id >= v->nmsgs)
                    return vef_err(s, "G%zu task %d depends on message %lld, which does not exist", c,
                                P->task, (long long)P->dep_id);
                if (v->msgs[P->dep_id].line >= P->line)
                    return vef_err(s, "G%zu task %d depends on message %lld, which comes later (line "
                                "%ld)", c, P->task, (long long)P->dep_id, v->msgs[P->dep_id].line);
                if ((P->dep == BBS_VEF_DEP_SEND ? v->msgs[P->dep_id].src : v->msgs[P->dep_id].dst)
                    != P->task)
                    return vef_err(s, "G%zu task %d has a %s dependency on message %lld of another "
                                "task", c, P->task, bbs_vef_dep_name(P->dep), (long long)P->dep_id);
            } else if (P->dep == BBS_VEF_DEP_COLLECTIVE) {
                int in = 0;
                if ((size_t)P->dep_id >= c)
                    return vef_err(s, "G%zu task %d depends on collective G%lld, which is not an "
                                "earlier one", c, P->task, (long long)P->dep_id);
                for (size_t q = 0; q < v->colls[P->dep_id].nparts; q++)
                    in |= v->colls[P->dep_id].parts[q].task == P->task;
                if (!in)
                    return vef_err(s, "G%zu task %d depends on collective G%lld, in which it takes "
                                "no part", c, P->task, (long long)P->dep_id);
            }
        }
#undef AT
    return BB_OK;
}
