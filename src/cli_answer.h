/* cli_answer.h: an analytic answer in words: the one line `size` prints,
 * its model and accuracy, the warnings it carries (cli_answer.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_ANSWER_H
#define BBSIZE_SRC_CLI_ANSWER_H

#include <stddef.h>

#include "bbanalytic.h"

/* the context of an analytic command (cli.h) */
typedef struct bb_ctx bb_ctx;

/* bb_ctx_model_desc: what every one-line answer ends with: the model and
 * its accuracy ("model Bernoulli, time unit 1 min"). */
void bb_ctx_model_desc(const bb_ctx *ctx, char *buf, size_t len);
/* bb_size_answer_line: the one line `size` prints for answer a of the size
 * question at target (rc BB_OK or BB_EINFEASIBLE), without the newline:
 * the report prints the same one. */
void bb_size_answer_line(const bb_ctx *ctx, const bba_answer *a, int rc, double target,
                         char *buf, size_t len);
/* bb_size_dwpd_note: what `size` adds to that line, the drive writes a
 * day at the answer ("; 26 drive writes a day"; "" when there is no
 * buffer, no volume, or no time: data units). */
void bb_size_dwpd_note(const bb_ctx *ctx, const bba_answer *a, int rc, char *buf, size_t len);
/* bb_ctx_answer_notes: the warnings an answer line carries (applications
 * that vanished, a time unit nobody chose), "" when none. */
void bb_ctx_answer_notes(const bb_ctx *ctx, const bba_answer *a, char *buf, size_t len);

#endif
