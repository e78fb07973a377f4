/* execmeter.c: progress of executor runs (execmeter.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "cli.h"
#include "execmeter.h"

void
bb_exec_meter_start(bb_exec_meter *em, const bb_outopts *out, const char *what, size_t total)
{
    pthread_mutex_init(&em->mu, NULL);
    em->done = em->per_unit = 0;
    bb_meter_start(&em->m, out, what, "ops", total);
}

/* The executor's callback: this run's share of the slot's expect. */
static void
on_ops(void *ctx, int64_t done, int64_t total)
{
    bb_exec_slot *s = ctx;
    bb_exec_meter *em = s->em;
    size_t now = total > 0 ? (size_t)((double)s->expect * (double)done / (double)total) : s->expect;

    pthread_mutex_lock(&em->mu);
    if (now > s->shown) {
        em->done += now - s->shown;
        s->shown = now;
        bb_meter_update(&em->m, em->done);
    }
    pthread_mutex_unlock(&em->mu);
}

void
bb_exec_meter_units(void *pctx, size_t done, size_t total)
{
    bb_exec_meter *em = pctx;

    (void)total;
    pthread_mutex_lock(&em->mu);
    if (done * em->per_unit > em->done) {
        em->done = done * em->per_unit;
        bb_meter_update(&em->m, em->done);
    }
    pthread_mutex_unlock(&em->mu);
}

void
bb_exec_meter_slot(bb_exec_meter *em, bb_exec_slot *slot, size_t expect)
{
    slot->em = em;
    slot->expect = expect;
    slot->shown = 0;
}

void
bb_exec_slot_report(bb_exec_slot *slot, bbs_exec_config *cfg)
{
    if (!slot->em->m.enabled)
        return;
    cfg->progress = on_ops;
    cfg->progress_ctx = slot;
    cfg->progress_ops = 1;      /* ops are few beside events; the meter throttles */
}

double
bb_exec_meter_end(bb_exec_meter *em)
{
    pthread_mutex_destroy(&em->mu);
    return bb_meter_end(&em->m);
}

double
bb_exec_seconds(double events, int nodes)
{
    return events * nodes * BB_EXEC_S_PER_EVENT_NODE;
}
