/* vef_ext.c: the extended VEF dialects (EXT DCNW, CDCNW, FLOWS, HOROVOD):
 * their configuration lines after the header (vef_int.h).
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
#include "vef_int.h"

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
        if ((rc = vef_tok_double(s, i, "POISSON lambda", 1e-12, 1e12, &d->a)))
            return rc;
        i++;
    } else if (k == BBS_DEST_GAUSS && i < s->ntok
               && (isdigit((unsigned char)s->tok[i][0]) || s->tok[i][0] == '.')) {
        if ((rc = vef_tok_double(s, i, "GAUSS mu", 0, 1e12, &d->a)))
            return rc;
        if ((rc = vef_tok_double(s, i + 1, "GAUSS sigma", 1e-12, 1e12, &d->b)))
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
        return vef_err(s, "%s", e2);
    return BB_OK;
}

int
vef_parse_dcnw(pstate *s, int custom)
{
    bbs_vef *v = s->v;
    int i = 1, found, rc, seen_dest = 0, seen_load = 0;

    if (vef_next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM
                           : vef_err(s, "missing line 3: '%s [UNIFORM|POISSON [l]|GAUSS [mu sigma]] "
                                  "[LOAD gbps]'", custom ? "FILE" : "MODEL");
    if (!custom && !bbs_sizemodel_find(s->tok[0]))
        return vef_err(s, "unknown DCNW model '%s' (known: %s)", s->tok[0], bbs_sizemodel_names());
    if (strlen(s->tok[0]) >= sizeof v->model)
        return vef_err(s, "name too long: '%.60s...'", s->tok[0]);
    strcpy(v->model, s->tok[0]);
    v->load_gbps = 1;
    v->dest.kind = BBS_DEST_UNIFORM;
    while (i < s->ntok) {
        if (!strcasecmp(s->tok[i], "LOAD") && !seen_load) {
            if ((rc = vef_tok_double(s, i + 1, "LOAD (Gb/s per task)", 1e-12, 1e9, &v->load_gbps)))
                return rc;
            if (!(v->load_gbps > 0))
                return vef_err(s, "LOAD must be > 0 Gb/s, got '%s'", s->tok[i + 1]);
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
        return vef_err(s, "unexpected token '%s' (expected a destination law among %s, or LOAD)",
                    s->tok[i], bbs_dest_names());
    }
    return check_dest(s, &v->dest);
}

int
vef_parse_flows(pstate *s)
{
    bbs_vef *v = s->v;
    int i = 0, rc, found, have_c = 0, have_t = 0;
    double psum = 0;

    if (vef_next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : vef_err(s, "missing line 3: 'CLASSES c TIME t [law]'");
    v->dest.kind = BBS_DEST_UNIFORM;
    while (i < s->ntok) {
        long c;
        if (!strcasecmp(s->tok[i], "CLASSES")) {
            if ((rc = vef_tok_long(s, i + 1, "CLASSES", 1, 100000, &c)))
                return rc;
            v->nclasses = (int)c;
            have_c = 1;
            i += 2;
        } else if (!strcasecmp(s->tok[i], "TIME")) {
            if ((rc = vef_tok_double(s, i + 1, "TIME (cycles)", 1e-300, 1e300, &v->flow_time)))
                return rc;
            have_t = 1;
            i += 2;
        } else {
            if ((rc = parse_dest(s, i, &v->dest, &found, &i)))
                return rc;
            if (!found)
                return vef_err(s, "unexpected token '%s' (expected CLASSES, TIME or a destination "
                            "law among %s)", s->tok[i], bbs_dest_names());
        }
    }
    if (!have_c || !have_t)
        return vef_err(s, "line 3 needs both CLASSES c and TIME t");
    if ((rc = check_dest(s, &v->dest)))
        return rc;
    v->classes = calloc((size_t)v->nclasses, sizeof *v->classes);
    if (!v->classes)
        return bb_seterr(s->err, BB_ENOMEM, "out of memory");
    for (int k = 0; k < v->nclasses; k++) {
        bbs_vef_class *c = &v->classes[k];
        long id;
        int hmax = 0, hmin = 0, hperc = 0;

        if (vef_next_record(s) != 1)
            return s->ntok < 0 ? BB_ENOMEM : vef_err(s, "missing class line %d of %d: "
                                                  "'id MAX kb MIN kb PERC p [law]'", k, v->nclasses);
        if ((rc = vef_tok_long(s, 0, "class id", 0, v->nclasses - 1, &id)))
            return rc;
        if (id != k)
            return vef_err(s, "class id '%s' out of order: expected %d", s->tok[0], k);
        for (i = 1; i < s->ntok;) {
            if (!strcasecmp(s->tok[i], "MAX") && !hmax) {
                if ((rc = vef_tok_double(s, i + 1, "MAX (KB)", 1e-300, 1e15, &c->max_kb)))
                    return rc;
                hmax = 1;
                i += 2;
            } else if (!strcasecmp(s->tok[i], "MIN") && !hmin) {
                if ((rc = vef_tok_double(s, i + 1, "MIN (KB)", 1e-300, 1e15, &c->min_kb)))
                    return rc;
                hmin = 1;
                i += 2;
            } else if (!strcasecmp(s->tok[i], "PERC") && !hperc) {
                if ((rc = vef_tok_double(s, i + 1, "PERC", 0, 100, &c->perc)))
                    return rc;
                hperc = 1;
                i += 2;
            } else if (!c->has_dest) {
                if ((rc = parse_dest(s, i, &c->dest, &found, &i)))
                    return rc;
                if (!found)
                    return vef_err(s, "unexpected token '%s' (expected MAX, MIN, PERC or a "
                                "destination law among %s)", s->tok[i], bbs_dest_names());
                c->has_dest = 1;
                if ((rc = check_dest(s, &c->dest)))
                    return rc;
            } else {
                return vef_err(s, "unexpected token '%s' (MAX, MIN, PERC and the law appear once)",
                            s->tok[i]);
            }
        }
        if (!hmax || !hmin || !hperc)
            return vef_err(s, "class %d needs MAX, MIN and PERC", k);
        if (c->min_kb > c->max_kb)
            return vef_err(s, "class %d: MIN %g KB exceeds MAX %g KB", k, c->min_kb, c->max_kb);
        psum += c->perc;
    }
    if (fabs(psum - 100) > 1e-6)
        return vef_err(s, "the classes' PERC add up to %g, not 100", psum);
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
            return vef_err(s, "unknown HOROVOD field '%s' (known: COMPUTE_MS, NEGOTIATION_LOOP_MS, "
                        "GATV_BYTES, GATV_TOTAL_BYTES, GATV_PROB, BCAST_BYTES, ARED_KBYTES)",
                        s->tok[i]);
        if (seen[f])
            return vef_err(s, "field '%s' given twice", s->tok[i]);
        seen[f] = 1;
        switch (f) {
        case 0: rc = vef_tok_double(s, i + 1, "COMPUTE_MS", 1e-300, 1e12, &L->compute_ms); break;
        case 1: rc = vef_tok_double(s, i + 1, "NEGOTIATION_LOOP_MS", 1e-300, 1e12, &L->negotiation_ms); break;
        case 2: rc = vef_tok_u64(s, i + 1, "GATV_BYTES", &L->gatv_bytes); break;
        case 3: rc = vef_tok_u64(s, i + 1, "GATV_TOTAL_BYTES", &L->gatv_total_bytes); break;
        case 4: rc = vef_tok_double(s, i + 1, "GATV_PROB", 0, 1, &L->gatv_prob); break;
        case 5: rc = vef_tok_u64(s, i + 1, "BCAST_BYTES", &L->bcast_bytes); break;
        default: rc = vef_tok_u64(s, i + 1, "ARED_KBYTES", &L->ared_kbytes); break;
        }
        if (rc)
            return rc;
        if ((f == 2 || f == 3 || f == 5 || f == 6) && strtoull(s->tok[i + 1], NULL, 10) == 0)
            return vef_err(s, "%s must be > 0, got '%s'", hvd_fields[f], s->tok[i + 1]);
    }
    if (need_all)
        for (int k = 0; k < 7; k++)
            if (!seen[k])
                return vef_err(s, "DEFAULT lacks the field %s (all seven are required)", hvd_fields[k]);
    return BB_OK;
}

int
vef_parse_horovod(pstate *s)
{
    bbs_vef *v = s->v;
    long b = -1, l = -1;
    int rc;
    bbs_hvd_layer def;
    char *seen;

    if (vef_next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : vef_err(s, "missing line 3: 'BATCHES b LAYERS l'");
    if (s->ntok == 2 && isdigit((unsigned char)s->tok[0][0])) {
        if ((rc = vef_tok_long(s, 0, "batches", 1, 1L << 40, &b)) || (rc = vef_tok_long(s, 1, "layers", 1, 1L << 20, &l)))
            return rc;
    } else {
        for (int i = 0; i < s->ntok; i += 2) {
            if (!strcasecmp(s->tok[i], "BATCHES") && b < 0) {
                if ((rc = vef_tok_long(s, i + 1, "BATCHES", 1, 1L << 40, &b)))
                    return rc;
            } else if (!strcasecmp(s->tok[i], "LAYERS") && l < 0) {
                if ((rc = vef_tok_long(s, i + 1, "LAYERS", 1, 1L << 20, &l)))
                    return rc;
            } else {
                return vef_err(s, "unexpected token '%s' (expected 'BATCHES b LAYERS l')", s->tok[i]);
            }
        }
        if (b < 0 || l < 0)
            return vef_err(s, "line 3 needs BATCHES b and LAYERS l");
    }
    v->batches = b;
    v->layers = (int)l;
    if (vef_next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : vef_err(s, "missing line 4: 'DEFAULT COMPUTE_MS c ...'");
    if (strcasecmp(s->tok[0], "DEFAULT"))
        return vef_err(s, "expected 'DEFAULT' to start line 4, got '%s'", s->tok[0]);
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
    while ((rc = vef_next_record(s)) == 1) {
        long id;
        if ((rc = vef_tok_long(s, 0, "layer id", 0, l - 1, &id)))
            break;
        if (seen[id]) {
            rc = vef_err(s, "layer %ld configured twice", id);
            break;
        }
        seen[id] = 1;
        if ((rc = parse_hvd_fields(s, &v->layer[id], 0)))
            break;
    }
    free(seen);
    return rc < 0 ? BB_ENOMEM : rc;
}
