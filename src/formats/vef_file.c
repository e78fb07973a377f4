/* vef_file.c: the VEF trace reader (vef_file.h): the header, and the
 * dispatch to the extended dialects (vef_ext.c) or a plain MPI trace
 * (vef_mpi.c); lines and tokens are vef_lex.c's (vef_int.h).  The calls
 * go one way: this file calls those three, they call only vef_lex.c.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bb_error.h"
#include "vef_int.h"

static int
parse_header(pstate *s)
{
    bbs_vef *v = s->v;
    long x;
    const char *t;
    int rc;

    if (vef_next_record(s) != 1)
        return s->ntok < 0 ? BB_ENOMEM : vef_err(s, "empty trace: expected the header 'VEF3 #Tasks "
                                                 "#Msgs #COMM gGComm lGComm oSFlag [clock_ps]'");
    t = s->tok[0];
    if (strncasecmp(t, "VEF", 3) || !isdigit((unsigned char)t[3]))
        return vef_err(s, "expected the header to start with 'VEF3', got '%s'", t);
    v->version = atoi(t + 3);
    if (s->ntok != 7 && s->ntok != 8)
        return vef_err(s, "the header has %d tokens: expected 'VEF3 #Tasks #Msgs #COMM gGComm "
                    "lGComm oSFlag [clock_ps]' (7 or 8)", s->ntok);
    if ((rc = vef_tok_long(s, 1, "#Tasks", 1, 1L << 24, &x)))
        return rc;
    v->ntasks = (int)x;
    if ((rc = vef_tok_long(s, 2, "#Msgs", 0, 1L << 40, &v->nmsgs)))
        return rc;
    if ((rc = vef_tok_long(s, 3, "#COMM", 0, 1L << 20, &x)))
        return rc;
    v->ncomm = (int)x;
    if ((rc = vef_tok_long(s, 4, "gGComm", 0, 1L << 40, &v->gcoll)))
        return rc;
    if ((rc = vef_tok_long(s, 5, "lGComm", 0, 1L << 40, &v->lcoll)))
        return rc;
    if (!strcasecmp(s->tok[6], "TRUE"))
        v->osflag = 1;
    else if (!strcasecmp(s->tok[6], "FALSE"))
        v->osflag = 0;
    else
        return vef_err(s, "oSFlag: expected TRUE or FALSE, got '%s'", s->tok[6]);
    v->clock_ps = 1000;
    if (s->ntok == 8 && (rc = vef_tok_double(s, 7, "clock_ps", 1e-6, 1e15, &v->clock_ps)))
        return rc;
    return BB_OK;
}

enum bb_status
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
        r = vef_next_record(&s);
        if (r < 0) {
            rc = BB_ENOMEM;
            goto fail;
        }
        if (r == 1 && !strcasecmp(s.tok[0], "EXT")) {
            int k = -1;
            if (s.ntok != 2) {
                rc = vef_err(&s, "expected 'EXT type' with one type among DCNW, CDCNW, FLOWS, HOROVOD");
                goto fail;
            }
            for (int i = 1; i <= 4; i++)
                if (!strcasecmp(s.tok[1], bbs_vef_kind_name(i)))
                    k = i;
            if (k < 0) {
                rc = vef_err(&s, "unknown extended model '%s' (known: DCNW, CDCNW, FLOWS, HOROVOD)",
                          s.tok[1]);
                goto fail;
            }
            v->kind = k;
            if (k == BBS_VEF_DCNW || k == BBS_VEF_CDCNW)
                rc = vef_parse_dcnw(&s, k == BBS_VEF_CDCNW);
            else if (k == BBS_VEF_FLOWS)
                rc = vef_parse_flows(&s);
            else
                rc = vef_parse_horovod(&s);
            if (rc)
                goto fail;
            if (k == BBS_VEF_HOROVOD)
                goto done; /* parse_horovod consumed the rest */
            r = vef_next_record(&s);
            if (r == 1) {
                rc = vef_err(&s, "unexpected line starting with '%s' after the %s configuration",
                          s.tok[0], bbs_vef_kind_name(k));
                goto fail;
            }
            if (v->nmsgs == 0 && k != BBS_VEF_HOROVOD) {
                s.lineno = 1;
                rc = vef_err(&s, "#Msgs is 0: an EXT %s trace generates at most #Msgs messages",
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
    rc = vef_parse_comms(&s, mark);
    free(mark);
    if (rc || (rc = vef_parse_records(&s)) || (rc = vef_check_mpi(&s)))
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
