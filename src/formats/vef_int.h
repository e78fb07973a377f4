/* vef_int.h: the VEF reader's internals, shared by vef_lex.c (lines,
 * tokens, errors), vef_file.c (header, dispatch), vef_ext.c (extended
 * dialects) and vef_mpi.c (plain MPI traces).  Not for use outside these
 * four files.  Calls go one way: vef_file.c -> vef_ext.c, vef_mpi.c ->
 * vef_lex.c (tests/circles.sh).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_VEF_INT_H
#define BBSIZE_SRC_FORMATS_VEF_INT_H

#include <stdint.h>

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

/* vef_lex.c.  vef_err: BB_EDATA with "name:line: " and the message. */
int vef_err(pstate *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* vef_next_record: the next non-blank, non-comment line split into
 * tokens; 1, 0 at the end, or -1 (error set) when out of memory or a line
 * has too many tokens. */
int vef_next_record(pstate *s);
/* Token i as a number in [lo, hi], a byte count, a real in [lo, hi];
 * BB_EDATA naming what and the token when missing or not one. */
int vef_tok_long(pstate *s, int i, const char *what, long lo, long hi, long *out);
int vef_tok_u64(pstate *s, int i, const char *what, uint64_t *out);
int vef_tok_double(pstate *s, int i, const char *what, double lo, double hi, double *out);

/* vef_ext.c.  The extended dialects, after "EXT type": BB_OK or BB_EDATA/BB_ENOMEM. */
int vef_parse_dcnw(pstate *s, int custom);
int vef_parse_flows(pstate *s);
int vef_parse_horovod(pstate *s);

/* vef_mpi.c.  A plain MPI trace after the header: communicator lines (mark: one byte
 * per task, scratch), then the records, then the checks of the whole. */
int vef_parse_comms(pstate *s, char *mark);
int vef_parse_records(pstate *s);
int vef_check_mpi(pstate *s);

#endif
