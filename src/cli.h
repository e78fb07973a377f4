/* cli.h: what every bbsize subcommand shares, and the one context from
 * the workload to the model (cli.c): the workload read once, the platform
 * combined from the options, a preset and the file, the question and the
 * front door's answerer.  It includes the other shared pieces, one purpose
 * each: the option children and values (options.h), the run bounds
 * (cli_limits.h), the files a command names (cli_files.h), the analytic
 * progress (cli_progress.h, on progress.h's meter), an answer in words
 * (cli_answer.h), JSON and CSV on stdout (cli_out.h), output files
 * (outfile.h), the progress meter (progress.h), messages and exit
 * statuses (status.h, usage.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_H
#define BBSIZE_SRC_CLI_H

#include <argp.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bbanalytic.h"
#include "cli_answer.h"
#include "cli_files.h"
#include "cli_limits.h"
#include "cli_out.h"
#include "cli_progress.h"
#include "options.h"
#include "outfile.h"
#include "progress.h"
#include "status.h"
#include "usage.h"
#include "systems.h"
#include "units.h"
#include "workload_csv.h"

/* Everything an analytic command computes from: the workload and platform
 * as read (once), the question they make, and the front door's answerer
 * (analytic/front/answer.h) built by bb_ctx_load. */
typedef struct bb_ctx {
    bb_workload_file wl;
    bba_platform pf;         /* resolution 0 when none was given */
    int plain;               /* print in data units (no unit anywhere) */
    const bb_common *opt;
    int has_system;          /* --system NAME was given: sys is loaded */
    bb_system sys;
    bba_question qn;         /* what bb_ctx_load hands the front door */
    bba_front *front;        /* after bb_ctx_load */
    /* the front's quantised workload and chain (NULL for the fluid model) */
    const bba_quantized *q;
    const bba_model *model;
    bba_solver_opts so;      /* the solver options of the question */
    /* where each platform value came from: "--pfs-bw", a preset's path,
     * "FILE:LINE ('#@ key')" or "the default" */
    char src_pfs[640], src_bb[640], src_tu[640];
    const char *src_res;
} bb_ctx;

/* What the front door settles the resolution on (answer.h): the target
 * idle fraction and the policy of the command's question, and a size to
 * settle on when no size meets the target (0: none). */
typedef struct {
    double target;
    bb_drain drain;
    double settle_bytes;
    int check_size;          /* 1: settle_bytes is the question's buffer, and a
                                lazy threshold given as a size above it is a
                                usage error (exit 64) before any model is built */
    int bbbw_unasked;        /* answer.h bba_question.bbbw_unasked */
} bb_settle;
/* bb_ctx_load: read FILE (or the built-in workload when file is NULL),
 * once, and combine the platform from the options, --system and the
 * file's "#@" lines (PFS and burst-buffer bandwidth, resolution: option >
 * --system > file; the time unit: option > file > --system; then the
 * defaults), saying on stderr when a source overrides a different value,
 * and check the quantum's bounds (and st's threshold, when check_size);
 * then build the question and the front door's answerer (st NULL: target
 * 0.001, greedy), warn of the applications that round to nothing, and set
 * q and model.  The command's own work comes first: from the question on,
 * src/ calls analytic/ only.  Exits with a message on any error (64 for an
 * unknown system, listing the known ones). */
void bb_ctx_load(bb_ctx *ctx, const bb_common *opt, const char *file, const bb_settle *st);
/* bb_system_lookup: the preset NAME from the data directories
 * (datadir.h), with s->path shown relative to the one it lies in
 * ("systems/cori.conf").  Returns the statuses of bb_system_find (the
 * caller names the option of an unknown NAME). */
int bb_system_lookup(const char *name, bb_system *s, char *err, size_t errlen);
/* bb_ctx_read: the part of bb_ctx_load before quantising: the file read,
 * the platform combined and checked, the applications' bandwidths, periods
 * and bursts resolved to bytes/s and seconds (ctx->wl.apps, ctx->pf); no
 * model (ctx->q, ctx->model and ctx->front stay empty; ctx->qn is the
 * question bb_ctx_load hands the front door).  For the continuous-time
 * commands, which need no quanta.  Exits with a message on any error. */
void bb_ctx_read(bb_ctx *ctx, const bb_common *opt, const char *file);
/* bb_ctx_blame: the option (without dashes) whose value a library refused
 * with st and err, when the refusal (a status of exit 65) names a quantity
 * the command line gave: EPS (--empty-prob), the burst-buffer bandwidth
 * (--bb-bw), the PFS bandwidth (--pfs-bw); else NULL (the workload's
 * fault).  bb_ctx_die_answer then dies in the usage form, status 64. */
const char *bb_ctx_blame(const bb_ctx *ctx, int st, const char *err);
/* bb_workload_verify: what `bbsize size` does with text as the workload
 * file name, short of solving: the reader (bb_workload_parse), and when
 * the text names its PFS bandwidth, the platform its '#@' lines give and
 * the front door's model (bba_front_new: the quanta, the bounds), with the
 * command's defaults and 64 MB of memory at most (a model beyond it is a
 * cost the user may raise, not a refusal of the data: not reported).  The one check of a workload bbsize writes (fit,
 * generate): no file bbsize writes is refused by bbsize.  Returns BB_OK,
 * or the status with the reader's or the model's message in err.  Exits
 * only where size would (a platform whose quantum does not fit a double).
 * O(what bb_ctx_load costs the size question, no solve). */
int bb_workload_verify(const char *text, const char *name, char *err, size_t errlen);
void bb_ctx_free(bb_ctx *ctx);

/* Quantities between user units and quanta. */
double bb_ctx_quanta_to_bytes(const bb_ctx *ctx, long quanta);
void bb_ctx_fmt_size(const bb_ctx *ctx, char *buf, size_t len, double bytes);
void bb_ctx_fmt_rate(const bb_ctx *ctx, char *buf, size_t len, double Bps);

/* bb_ctx_s_max: the largest buffer size (quanta) whose chain fits the
 * memory budget. */
long bb_ctx_s_max(const bb_ctx *ctx);

/* bb_ctx_die_answer: die with the front door's status and message, naming
 * the workload file. */
_Noreturn void bb_ctx_die_answer(const bb_ctx *ctx, int st, const char *err);

#endif
