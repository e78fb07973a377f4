/* vef_file.c: the VEF trace reader (plain MPI traces and extended models),
 * text -> bbs_vef (vef_file.h).
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
#include "vef_file.h"

#define MAXTOK 4096

typedef struct {
    const char *name;
    const char *p, *end;
    long lineno;
    char *buf;        /* current line (modified by tokenising) */
    size_t bufcap;
    char *tok[MAXTOK];
    int ntok;
    char *err;
    bbs_vef *v;
} pstate;

static int
perr(pstate *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int
perr(pstate *s, const char *fmt, ...)
{
    char msg[BB_ERRLEN];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return bb_seterr(s->err, BB_EDATA, "%s:%ld: %s", s->name, s->lineno, msg);
}

/* Read the next non-blank, non-comment line and split it into tokens.
 * Returns 1, 0 at the end, or -1 (error set) when out of memory or a line
 * has too many tokens. */
static int
next_record(pstate *s)
{
    for (;;) {
        size_t k = 0;
        char *q;

        if (s->p >= s->end)
            return 0;
        s->lineno++;
        while (s->p < s->end && *s->p != '\n') {
            if (k + 2 > s->bufcap) {
                size_t nc = s->bufcap ? 2 * s->bufcap : 256;
                char *b = realloc(s->buf, nc);
                if (!b)
                    return -1 - 0 * bb_seterr(s->err, BB_ENOMEM, "out of memory");
                s->buf = b;
                s->bufcap = nc;
            }
            s->buf[k++] = *s->p++;
        }
        if (s->p < s->end)
            s->p++;
        if (!s->buf) {
            s->buf = malloc(2);
            if (!s->buf)
                return -1 - 0 * bb_seterr(s->err, BB_ENOMEM, "out of memory");
            s->bufcap = 2;
        }
        s->buf[k] = '\0';
        s->ntok = 0;
        q = s->buf;
        for (;;) {
            while (*q && isspace((unsigned char)*q))
                q++;
            if (!*q || *q == '#')
                break;
            if (s->ntok == MAXTOK)
                return -1 - 0 * perr(s, "more than %d tokens on a line", MAXTOK);
            s->tok[s->ntok++] = q;
            while (*q && !isspace((unsigned char)*q))
                q++;
            if (*q)
                *q++ = '\0';
        }
        if (s->ntok > 0)
            return 1;
    }
}

static int
tok_long(pstate *s, int i, const char *what, long lo, long hi, long *out)
{
    long v;

    if (i >= s->ntok)
        return perr(s, "missing %s", what);
    if (bb_num_full_long(s->tok[i], &v) != BB_NUM_OK)
        return perr(s, "%s: expected an integer, got '%s'", what, s->tok[i]);
    if (v < lo || v > hi)
        return perr(s, "%s '%s' outside [%ld, %ld]", what, s->tok[i], lo, hi);
    *out = v;
    return BB_OK;
}

static int
tok_u64(pstate *s, int i, const char *what, uint64_t *out)
{
    char *e;
    unsigned long long v;

    if (i >= s->ntok)
        return perr(s, "missing %s", what);
    errno = 0;
    if (s->tok[i][0] == '-')
        return perr(s, "%s must be >= 0, got '%s'", what, s->tok[i]);
    v = strtoull(s->tok[i], &e, 10);
    if (e == s->tok[i] || *e || errno)
        return perr(s, "%s: expected a byte count, got '%s'", what, s->tok[i]);
    *out = (uint64_t)v;
    return BB_OK;
}

static int
tok_double(pstate *s, int i, const char *what, double lo, double hi, double *out)
{
    double v;

    if (i >= s->ntok)
        return perr(s, "missing %s", what);
    int rc = bb_num_full(s->tok[i], &v);

    if (rc != BB_NUM_OK)
        return perr(s, "%s: expected a number, got '%s', which %s", what, s->tok[i],
                    bb_num_why(rc));
    if (v < lo || v > hi)
        return perr(s, "%s '%s' outside [%g, %g]", what, s->tok[i], lo, hi);
    *out = v;
    return BB_OK;
}

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
    return perr(s, "unknown dependency kind '%s' (known: INDEPENDENT or 0, COLLECTIVE or 1, "
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
        return perr(s, "dependency id: expected an integer or G<k>, got '%s'", t);
    if (dep == BBS_VEF_DEP_INDEPENDENT) {
        *out = -1;
        return BB_OK;
    }
    if (g && dep != BBS_VEF_DEP_COLLECTIVE)
        return perr(s, "dependency id '%s' names a collective but the kind is %s", t,
                    bbs_vef_dep_name(dep));
    if (v < 0)
        return perr(s, "dependency id '%s' must be >= 0", t);
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
    return perr(s, "unknown collective operation '%s' (known: BROADCAST 0, REDUCE 1, ALLREDUCE 2, "
                "GATHER 3, SCATTER 4, ALLGATHER 5, BARRIER 6, ALLTOALL 7)", t);
}

static int
parse_header(pstate *s)
{
    bbs_vef *v = s->v;
    long x;
    const char *t;
    int rc;

    if (next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : perr(s, "empty trace: expected the header 'VEF3 #Tasks "
                                                 "#Msgs #COMM gGComm lGComm oSFlag [clock_ps]'");
    t = s->tok[0];
    if (strncasecmp(t, "VEF", 3) || !isdigit((unsigned char)t[3]))
        return perr(s, "expected the header to start with 'VEF3', got '%s'", t);
    v->version = atoi(t + 3);
    if (s->ntok != 7 && s->ntok != 8)
        return perr(s, "the header has %d tokens: expected 'VEF3 #Tasks #Msgs #COMM gGComm "
                    "lGComm oSFlag [clock_ps]' (7 or 8)", s->ntok);
    if ((rc = tok_long(s, 1, "#Tasks", 1, 1L << 24, &x)))
        return rc;
    v->ntasks = (int)x;
    if ((rc = tok_long(s, 2, "#Msgs", 0, 1L << 40, &v->nmsgs)))
        return rc;
    if ((rc = tok_long(s, 3, "#COMM", 0, 1L << 20, &x)))
        return rc;
    v->ncomm = (int)x;
    if ((rc = tok_long(s, 4, "gGComm", 0, 1L << 40, &v->gcoll)))
        return rc;
    if ((rc = tok_long(s, 5, "lGComm", 0, 1L << 40, &v->lcoll)))
        return rc;
    if (!strcasecmp(s->tok[6], "TRUE"))
        v->osflag = 1;
    else if (!strcasecmp(s->tok[6], "FALSE"))
        v->osflag = 0;
    else
        return perr(s, "oSFlag: expected TRUE or FALSE, got '%s'", s->tok[6]);
    v->clock_ps = 1000;
    if (s->ntok == 8 && (rc = tok_double(s, 7, "clock_ps", 1e-6, 1e15, &v->clock_ps)))
        return rc;
    return BB_OK;
}

/* Optional destination law at token i: KEYWORD [params].  Returns the
 * index after it in *next, or leaves it when token i is no law. */
static int
parse_dest(pstate *s, int i, bbs_dest *d, int *found, int *next)
{
    int k;
    int rc;

    *found = 0;
    *next = i;
    if (i >= s->ntok || (k = bbs_dest_parse_name(s->tok[i])) < 0)
        return BB_OK;
    *found = 1;
    d->kind = k;
    d->a = d->b = -1;
    i++;
    if (k == BBS_DEST_POISSON && i < s->ntok && (isdigit((unsigned char)s->tok[i][0]) || s->tok[i][0] == '.')) {
        if ((rc = tok_double(s, i, "POISSON lambda", 1e-12, 1e12, &d->a)))
            return rc;
        i++;
    } else if (k == BBS_DEST_GAUSS && i < s->ntok
               && (isdigit((unsigned char)s->tok[i][0]) || s->tok[i][0] == '.')) {
        if ((rc = tok_double(s, i, "GAUSS mu", 0, 1e12, &d->a)))
            return rc;
        if ((rc = tok_double(s, i + 1, "GAUSS sigma", 1e-12, 1e12, &d->b)))
            return rc;
        i += 2;
    }
    *next = i;
    return BB_OK;
}

static int
check_dest(pstate *s, bbs_dest *d)
{
    char e2[BB_ERRLEN];

    if (bbs_dest_check(d, s->v->ntasks, e2))
        return perr(s, "%s", e2);
    return BB_OK;
}

static int
parse_dcnw(pstate *s, int custom)
{
    bbs_vef *v = s->v;
    int i = 1, found, rc, seen_dest = 0, seen_load = 0;

    if (next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM
                           : perr(s, "missing line 3: '%s [UNIFORM|POISSON [l]|GAUSS [mu sigma]] "
                                  "[LOAD gbps]'", custom ? "FILE" : "MODEL");
    if (!custom && !bbs_sizemodel_find(s->tok[0]))
        return perr(s, "unknown DCNW model '%s' (known: %s)", s->tok[0], bbs_sizemodel_names());
    if (strlen(s->tok[0]) >= sizeof v->model)
        return perr(s, "name too long: '%.60s...'", s->tok[0]);
    strcpy(v->model, s->tok[0]);
    v->load_gbps = 1;
    v->dest.kind = BBS_DEST_UNIFORM;
    while (i < s->ntok) {
        if (!strcasecmp(s->tok[i], "LOAD") && !seen_load) {
            if ((rc = tok_double(s, i + 1, "LOAD (Gb/s per task)", 1e-12, 1e9, &v->load_gbps)))
                return rc;
            if (!(v->load_gbps > 0))
                return perr(s, "LOAD must be > 0 Gb/s, got '%s'", s->tok[i + 1]);
            seen_load = 1;
            i += 2;
            continue;
        }
        if (!seen_dest) {
            if ((rc = parse_dest(s, i, &v->dest, &found, &i)))
                return rc;
            if (found) {
                seen_dest = 1;
                continue;
            }
        }
        return perr(s, "unexpected token '%s' (expected a destination law among %s, or LOAD)",
                    s->tok[i], bbs_dest_names());
    }
    return check_dest(s, &v->dest);
}

static int
parse_flows(pstate *s)
{
    bbs_vef *v = s->v;
    int i = 0, rc, found, have_c = 0, have_t = 0;
    double psum = 0;

    if (next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : perr(s, "missing line 3: 'CLASSES c TIME t [law]'");
    v->dest.kind = BBS_DEST_UNIFORM;
    while (i < s->ntok) {
        long c;
        if (!strcasecmp(s->tok[i], "CLASSES")) {
            if ((rc = tok_long(s, i + 1, "CLASSES", 1, 100000, &c)))
                return rc;
            v->nclasses = (int)c;
            have_c = 1;
            i += 2;
        } else if (!strcasecmp(s->tok[i], "TIME")) {
            if ((rc = tok_double(s, i + 1, "TIME (cycles)", 1e-300, 1e300, &v->flow_time)))
                return rc;
            have_t = 1;
            i += 2;
        } else {
            if ((rc = parse_dest(s, i, &v->dest, &found, &i)))
                return rc;
            if (!found)
                return perr(s, "unexpected token '%s' (expected CLASSES, TIME or a destination "
                            "law among %s)", s->tok[i], bbs_dest_names());
        }
    }
    if (!have_c || !have_t)
        return perr(s, "line 3 needs both CLASSES c and TIME t");
    if ((rc = check_dest(s, &v->dest)))
        return rc;
    v->classes = calloc((size_t)v->nclasses, sizeof *v->classes);
    if (!v->classes)
        return bb_seterr(s->err, BB_ENOMEM, "out of memory");
    for (int k = 0; k < v->nclasses; k++) {
        bbs_vef_class *c = &v->classes[k];
        long id;
        int hmax = 0, hmin = 0, hperc = 0;

        if (next_record(s) != 1)
            return s->ntok < 0 ? BB_ENOMEM : perr(s, "missing class line %d of %d: "
                                                  "'id MAX kb MIN kb PERC p [law]'", k, v->nclasses);
        if ((rc = tok_long(s, 0, "class id", 0, v->nclasses - 1, &id)))
            return rc;
        if (id != k)
            return perr(s, "class id '%s' out of order: expected %d", s->tok[0], k);
        for (i = 1; i < s->ntok;) {
            if (!strcasecmp(s->tok[i], "MAX") && !hmax) {
                if ((rc = tok_double(s, i + 1, "MAX (KB)", 1e-300, 1e15, &c->max_kb)))
                    return rc;
                hmax = 1;
                i += 2;
            } else if (!strcasecmp(s->tok[i], "MIN") && !hmin) {
                if ((rc = tok_double(s, i + 1, "MIN (KB)", 1e-300, 1e15, &c->min_kb)))
                    return rc;
                hmin = 1;
                i += 2;
            } else if (!strcasecmp(s->tok[i], "PERC") && !hperc) {
                if ((rc = tok_double(s, i + 1, "PERC", 0, 100, &c->perc)))
                    return rc;
                hperc = 1;
                i += 2;
            } else if (!c->has_dest) {
                if ((rc = parse_dest(s, i, &c->dest, &found, &i)))
                    return rc;
                if (!found)
                    return perr(s, "unexpected token '%s' (expected MAX, MIN, PERC or a "
                                "destination law among %s)", s->tok[i], bbs_dest_names());
                c->has_dest = 1;
                if ((rc = check_dest(s, &c->dest)))
                    return rc;
            } else {
                return perr(s, "unexpected token '%s' (MAX, MIN, PERC and the law appear once)",
                            s->tok[i]);
            }
        }
        if (!hmax || !hmin || !hperc)
            return perr(s, "class %d needs MAX, MIN and PERC", k);
        if (c->min_kb > c->max_kb)
            return perr(s, "class %d: MIN %g KB exceeds MAX %g KB", k, c->min_kb, c->max_kb);
        psum += c->perc;
    }
    if (fabs(psum - 100) > 1e-6)
        return perr(s, "the classes' PERC add up to %g, not 100", psum);
    return BB_OK;
}

static const char *hvd_fields[] = { "COMPUTE_MS", "NEGOTIATION_LOOP_MS", "GATV_BYTES",
                                    "GATV_TOTAL_BYTES", "GATV_PROB", "BCAST_BYTES", "ARED_KBYTES" };

static int
parse_hvd_fields(pstate *s, bbs_hvd_layer *L, int need_all)
{
    int seen[7] = { 0 };
    int rc;

    for (int i = 1; i < s->ntok; i += 2) {
        int f = -1;
        for (int k = 0; k < 7; k++)
            if (!strcasecmp(s->tok[i], hvd_fields[k]))
                f = k;
        if (f < 0)
            return perr(s, "unknown HOROVOD field '%s' (known: COMPUTE_MS, NEGOTIATION_LOOP_MS, "
                        "GATV_BYTES, GATV_TOTAL_BYTES, GATV_PROB, BCAST_BYTES, ARED_KBYTES)",
                        s->tok[i]);
        if (seen[f])
            return perr(s, "field '%s' given twice", s->tok[i]);
        seen[f] = 1;
        switch (f) {
        case 0: rc = tok_double(s, i + 1, "COMPUTE_MS", 1e-300, 1e12, &L->compute_ms); break;
        case 1: rc = tok_double(s, i + 1, "NEGOTIATION_LOOP_MS", 1e-300, 1e12, &L->negotiation_ms); break;
        case 2: rc = tok_u64(s, i + 1, "GATV_BYTES", &L->gatv_bytes); break;
        case 3: rc = tok_u64(s, i + 1, "GATV_TOTAL_BYTES", &L->gatv_total_bytes); break;
        case 4: rc = tok_double(s, i + 1, "GATV_PROB", 0, 1, &L->gatv_prob); break;
        case 5: rc = tok_u64(s, i + 1, "BCAST_BYTES", &L->bcast_bytes); break;
        default: rc = tok_u64(s, i + 1, "ARED_KBYTES", &L->ared_kbytes); break;
        }
        if (rc)
            return rc;
        if ((f == 2 || f == 3 || f == 5 || f == 6) && strtoull(s->tok[i + 1], NULL, 10) == 0)
            return perr(s, "%s must be > 0, got '%s'", hvd_fields[f], s->tok[i + 1]);
    }
    if (need_all)
        for (int k = 0; k < 7; k++)
            if (!seen[k])
                return perr(s, "DEFAULT lacks the field %s (all seven are required)", hvd_fields[k]);
    return BB_OK;
}

static int
parse_horovod(pstate *s)
{
    bbs_vef *v = s->v;
    long b = -1, l = -1;
    int rc;
    bbs_hvd_layer def;
    char *seen;

    if (next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : perr(s, "missing line 3: 'BATCHES b LAYERS l'");
    if (s->ntok == 2 && isdigit((unsigned char)s->tok[0][0])) {
        if ((rc = tok_long(s, 0, "batches", 1, 1L << 40, &b)) || (rc = tok_long(s, 1, "layers", 1, 1L << 20, &l)))
            return rc;
    } else {
        for (int i = 0; i < s->ntok; i += 2) {
            if (!strcasecmp(s->tok[i], "BATCHES") && b < 0) {
                if ((rc = tok_long(s, i + 1, "BATCHES", 1, 1L << 40, &b)))
                    return rc;
            } else if (!strcasecmp(s->tok[i], "LAYERS") && l < 0) {
                if ((rc = tok_long(s, i + 1, "LAYERS", 1, 1L << 20, &l)))
                    return rc;
            } else {
                return perr(s, "unexpected token '%s' (expected 'BATCHES b LAYERS l')", s->tok[i]);
            }
        }
        if (b < 0 || l < 0)
            return perr(s, "line 3 needs BATCHES b and LAYERS l");
    }
    v->batches = b;
    v->layers = (int)l;
    if (next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : perr(s, "missing line 4: 'DEFAULT COMPUTE_MS c ...'");
    if (strcasecmp(s->tok[0], "DEFAULT"))
        return perr(s, "expected 'DEFAULT' to start line 4, got '%s'", s->tok[0]);
    memset(&def, 0, sizeof def);
    if ((rc = parse_hvd_fields(s, &def, 1)))
        return rc;
    v->layer = malloc((size_t)l * sizeof *v->layer);
    seen = calloc((size_t)l, 1);
    if (!v->layer || !seen) {
        free(seen);
        return bb_seterr(s->err, BB_ENOMEM, "out of memory");
    }
    for (long k = 0; k < l; k++)
        v->layer[k] = def;
    while ((rc = next_record(s)) == 1) {
        long id;
        if ((rc = tok_long(s, 0, "layer id", 0, l - 1, &id)))
            break;
        if (seen[id]) {
            rc = perr(s, "layer %ld configured twice", id);
            break;
        }
        seen[id] = 1;
        if ((rc = parse_hvd_fields(s, &v->layer[id], 0)))
            break;
    }
    free(seen);
    return rc < 0 ? BB_ENOMEM : rc;
}

/* ---- plain MPI traces ---- */

static int
parse_comms(pstate *s, char *mark)
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

        if ((rc = next_record(s)) != 1)
            return rc < 0 ? BB_ENOMEM : perr(s, "expected communicator line C%d (#COMM = %d)", k, v->ncomm);
        t = s->tok[0];
        if (t[0] != 'C' && t[0] != 'c')
            return perr(s, "expected communicator line 'C%d rank...', got '%s'", k, t);
        errno = 0;
        id = strtol(t + 1, &e, 10);
        if (e == t + 1 || *e || errno || id != k)
            return perr(s, "communicator '%s' out of order: expected C%d", t, k);
        if (s->ntok < 2)
            return perr(s, "communicator C%d lists no ranks", k);
        v->comm[k] = malloc((size_t)(s->ntok - 1) * sizeof **v->comm);
        if (!v->comm[k])
            return bb_seterr(s->err, BB_ENOMEM, "out of memory");
        memset(mark, 0, (size_t)v->ntasks);
        for (int i = 1; i < s->ntok; i++) {
            long r;
            if ((rc = tok_long(s, i, "rank", 0, v->ntasks - 1, &r)))
                return rc;
            if (mark[r])
                return perr(s, "rank '%s' appears twice in C%d", s->tok[i], k);
            mark[r] = 1;
            v->comm[k][i - 1] = (int)r;
        }
        v->comm_size[k] = s->ntok - 1;
        if (k == 0 && v->comm_size[0] != v->ntasks)
            return perr(s, "C0 must list all %d tasks (it lists %d)", v->ntasks, v->comm_size[0]);
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
add_coll_line(pstate *s, size_t *collcap, char ***member)
{
    bbs_vef *v = s->v;
    char *e;
    long id, comm;
    int op = 0, rc, dep = 0;
    bbs_vef_coll *c;
    bbs_vef_part pt;
    long task;

    if (s->ntok != 9)
        return perr(s, "a collective record has 9 fields 'G<id> comm op task send recv dep time "
                    "depID', this line has %d", s->ntok);
    errno = 0;
    id = strtol(s->tok[0] + 1, &e, 10);
    if (e == s->tok[0] + 1 || *e || errno || id < 0)
        return perr(s, "collective id: expected G<k>, got '%s'", s->tok[0]);
    if ((size_t)id > v->ncoll)
        return perr(s, "collective id '%s' skips ids: expected G%zu or an earlier one (ids are "
                    "dense)", s->tok[0], v->ncoll);
    if ((rc = tok_long(s, 1, "communicator", 0, v->ncomm - 1, &comm)))
        return rc;
    if ((rc = parse_op(s, 2, &op)))
        return rc;
    if ((rc = tok_long(s, 3, "task", 0, v->ntasks - 1, &task)))
        return rc;
    pt.task = (int)task;
    if ((rc = tok_u64(s, 4, "send size", &pt.send)) || (rc = tok_u64(s, 5, "recv size", &pt.recv)))
        return rc;
    if ((rc = parse_dep(s, 6, &dep)))
        return rc;
    pt.dep = dep;
    if ((rc = tok_double(s, 7, "time", 0, 1e300, &pt.time)))
        return rc;
    if ((rc = parse_depid(s, 8, dep, &pt.dep_id)))
        return rc;
    pt.line = s->lineno;
    if ((size_t)id == v->ncoll) {
        if (v->ncoll == *collcap) {
            size_t nc = *collcap ? 2 * *collcap : 16;
            bbs_vef_coll *a = realloc(v->colls, nc * sizeof *a);
            char **m = realloc(*member, nc * sizeof *m);
            if (a)
                v->colls = a;
            if (m)
                *member = m;
            if (!a || !m)
                return bb_seterr(s->err, BB_ENOMEM, "out of memory");
            *collcap = nc;
        }
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
        return perr(s, "collective G%ld: communicator %ld disagrees with C%d on line %ld "
                    "(participants disagree)", id, comm, c->comm, c->line);
    if (c->op != op)
        return perr(s, "collective G%ld: operation '%s' disagrees with %s on line %ld "
                    "(participants disagree)", id, s->tok[2], bbs_vef_op_name(c->op), c->line);
    {
        char *mem = (*member)[id];
        int in = 0;
        for (int i = 0; i < v->comm_size[comm]; i++)
            in |= v->comm[comm][i] == pt.task;
        if (!in)
            return perr(s, "collective G%ld: task %d is not a member of C%ld", id, pt.task, comm);
        if (mem[pt.task])
            return perr(s, "collective G%ld: task %d has two lines (participants disagree)",
                        id, pt.task);
        mem[pt.task] = 1;
    }
    if (op == BBS_VEF_OP_ALLREDUCE && pt.send != pt.recv)
        return perr(s, "ALLREDUCE G%ld: send size '%s' differs from recv size '%s'", id,
                    s->tok[4], s->tok[5]);
    c->parts[c->nparts++] = pt;
    return BB_OK;
}

static int
parse_records(pstate *s)
{
    bbs_vef *v = s->v;
    size_t mcap = 0, collcap = 0;
    long count = 0;
    char **member = NULL; /* per collective, a mark per task */
    int rc = BB_OK;

    while ((rc = next_record(s)) == 1) {
        const char *t = s->tok[0];
        if (t[0] == 'G' || t[0] == 'g') {
            if ((rc = add_coll_line(s, &collcap, &member)))
                break;
        } else {
            long id, src, dst;
            int dep;
            bbs_vef_msg *m;

            if (s->ntok != 7) {
                rc = perr(s, "a point-to-point record has 7 fields 'ID src dst size dep time "
                          "depID', this line has %d", s->ntok);
                break;
            }
            if ((rc = tok_long(s, 0, "message id", 0, 1L << 40, &id)))
                break;
            if (id != count) {
                rc = perr(s, "message id '%s' out of order: expected %ld (ids are dense, "
                          "0, 1, 2... in file order)", t, count);
                break;
            }
            if (count >= v->nmsgs) {
                rc = perr(s, "message '%s' beyond #Msgs = %ld of the header", t, v->nmsgs);
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
            if ((rc = tok_long(s, 1, "src", 0, v->ntasks - 1, &src))
                || (rc = tok_long(s, 2, "dst", 0, v->ntasks - 1, &dst))
                || (rc = tok_u64(s, 3, "size", &m->bytes)) || (rc = parse_dep(s, 4, &dep))
                || (rc = tok_double(s, 5, "time", 0, 1e300, &m->time))
                || (rc = parse_depid(s, 6, dep, &m->dep_id)))
                break;
            if (src == dst) {
                rc = perr(s, "message %ld: src = dst = '%s'", id, s->tok[1]);
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
        return perr(s, "the trace has %ld messages but the header's #Msgs says %ld", count, v->nmsgs);
    return BB_OK;
}

/* Checks that need the whole trace (forward references). */
static int
check_mpi(pstate *s)
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
                    return perr(s, "collective G%zu (%s on C%d): task %d of the communicator has "
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
                return perr(s, "%s G%zu: %d participants have a non-zero %s size: the root is "
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
                    return perr(s, "task %d's line for G%zu (line %ld) comes before its line "
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
        return perr(s, "the trace has %ld collectives on C0 and %ld on other communicators, the "
                    "header says gGComm = %ld and lGComm = %ld", ng, nl, v->gcoll, v->lcoll);
    /* dependencies */
    for (long i = 0; i < v->nmsgs; i++) {
        bbs_vef_msg *m = &v->msgs[i];
        AT(m->line);
        if (m->dep == BBS_VEF_DEP_SEND || m->dep == BBS_VEF_DEP_RECEIVE) {
            if (m->dep_id >= v->nmsgs)
                return perr(s, "message %ld depends on message %lld, which does not exist", i,
                            (long long)m->dep_id);
            if (m->dep == BBS_VEF_DEP_SEND && v->msgs[m->dep_id].src != m->src)
                return perr(s, "message %ld (from task %d) has a SEND dependency on message %lld, "
                            "sent by task %d", i, m->src, (long long)m->dep_id, v->msgs[m->dep_id].src);
            if (m->dep == BBS_VEF_DEP_RECEIVE && v->msgs[m->dep_id].dst != m->src)
                return perr(s, "message %ld (from task %d) has a RECEIVE dependency on message "
                            "%lld, received by task %d", i, m->src, (long long)m->dep_id,
                            v->msgs[m->dep_id].dst);
            if (v->msgs[m->dep_id].line >= m->line)
                return perr(s, "message %ld depends on message %lld, which comes later (line %ld)",
                            i, (long long)m->dep_id, v->msgs[m->dep_id].line);
        } else if (m->dep == BBS_VEF_DEP_COLLECTIVE) {
            int in = 0;
            if ((size_t)m->dep_id >= v->ncoll)
                return perr(s, "message %ld depends on collective G%lld, which does not exist", i,
                            (long long)m->dep_id);
            for (size_t p = 0; p < v->colls[m->dep_id].nparts; p++)
                in |= v->colls[m->dep_id].parts[p].task == m->src;
            if (!in)
                return perr(s, "message %ld depends on collective G%lld, in which task %d takes "
                            "no part", i, (long long)m->dep_id, m->src);
            for (size_t p = 0; p < v->colls[m->dep_id].nparts; p++)
                if (v->colls[m->dep_id].parts[p].task == m->src
                    && v->colls[m->dep_id].parts[p].line >= m->line)
                    return perr(s, "message %ld depends on collective G%lld, whose line for task "
                                "%d comes later", i, (long long)m->dep_id, m->src);
        }
    }
    for (size_t c = 0; c < v->ncoll; c++)
        for (size_t p = 0; p < v->colls[c].nparts; p++) {
            bbs_vef_part *P = &v->colls[c].parts[p];
            AT(P->line);
            if (P->dep == BBS_VEF_DEP_SEND || P->dep == BBS_VEF_DEP_RECEIVE) {
                if (P->dep_id >= v->nmsgs)
                    return perr(s, "G%zu task %d depends on message %lld, which does not exist", c,
                                P->task, (long long)P->dep_id);
                if (v->msgs[P->dep_id].line >= P->line)
                    return perr(s, "G%zu task %d depends on message %lld, which comes later (line "
                                "%ld)", c, P->task, (long long)P->dep_id, v->msgs[P->dep_id].line);
                if ((P->dep == BBS_VEF_DEP_SEND ? v->msgs[P->dep_id].src : v->msgs[P->dep_id].dst)
                    != P->task)
                    return perr(s, "G%zu task %d has a %s dependency on message %lld of another "
                                "task", c, P->task, bbs_vef_dep_name(P->dep), (long long)P->dep_id);
            } else if (P->dep == BBS_VEF_DEP_COLLECTIVE) {
                int in = 0;
                if ((size_t)P->dep_id >= c)
                    return perr(s, "G%zu task %d depends on collective G%lld, which is not an "
                                "earlier one", c, P->task, (long long)P->dep_id);
                for (size_t q = 0; q < v->colls[P->dep_id].nparts; q++)
                    in |= v->colls[P->dep_id].parts[q].task == P->task;
                if (!in)
                    return perr(s, "G%zu task %d depends on collective G%lld, in which it takes "
                                "no part", c, P->task, (long long)P->dep_id);
            }
        }
#undef AT
    return BB_OK;
}

int
bbs_vef_parse(bbs_vef **out, const char *name, const char *text, size_t len, char *err)
{
    pstate s;
    bbs_vef *v;
    int rc, r;
    char *mark;

    *out = NULL;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.p = text;
    s.end = text + len;
    s.err = err;
    v = calloc(1, sizeof *v);
    if (!v)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    s.v = v;
    if ((rc = parse_header(&s)))
        goto fail;
    /* line 2: EXT type, or the start of a plain trace */
    {
        const char *save_p = s.p;
        long save_line = s.lineno;
        r = next_record(&s);
        if (r < 0) {
            rc = BB_ENOMEM;
            goto fail;
        }
        if (r == 1 && !strcasecmp(s.tok[0], "EXT")) {
            int k = -1;
            if (s.ntok != 2) {
                rc = perr(&s, "expected 'EXT type' with one type among DCNW, CDCNW, FLOWS, HOROVOD");
                goto fail;
            }
            for (int i = 1; i <= 4; i++)
                if (!strcasecmp(s.tok[1], bbs_vef_kind_name(i)))
                    k = i;
            if (k < 0) {
                rc = perr(&s, "unknown extended model '%s' (known: DCNW, CDCNW, FLOWS, HOROVOD)",
                          s.tok[1]);
                goto fail;
            }
            v->kind = k;
            if (k == BBS_VEF_DCNW || k == BBS_VEF_CDCNW)
                rc = parse_dcnw(&s, k == BBS_VEF_CDCNW);
            else if (k == BBS_VEF_FLOWS)
                rc = parse_flows(&s);
            else
                rc = parse_horovod(&s);
            if (rc)
                goto fail;
            if (k == BBS_VEF_HOROVOD)
                goto done; /* parse_horovod consumed the rest */
            r = next_record(&s);
            if (r == 1) {
                rc = perr(&s, "unexpected line starting with '%s' after the %s configuration",
                          s.tok[0], bbs_vef_kind_name(k));
                goto fail;
            }
            if (v->nmsgs == 0 && k != BBS_VEF_HOROVOD) {
                s.lineno = 1;
                rc = perr(&s, "#Msgs is 0: an EXT %s trace generates at most #Msgs messages",
                          bbs_vef_kind_name(k));
                goto fail;
            }
            goto done;
        }
        s.p = save_p;
        s.lineno = save_line;
    }
    v->kind = BBS_VEF_MPI;
    mark = malloc((size_t)v->ntasks);
    if (!mark) {
        rc = bb_seterr(err, BB_ENOMEM, "out of memory");
        goto fail;
    }
    rc = parse_comms(&s, mark);
    free(mark);
    if (rc || (rc = parse_records(&s)) || (rc = check_mpi(&s)))
        goto fail;
done:
    free(s.buf);
    *out = v;
    return BB_OK;
fail:
    free(s.buf);
    bbs_vef_free(v);
    return rc;
}
