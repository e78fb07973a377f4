/* exec_stats.c: the executor's result statistics (exec_int.h): per-job
 * times, write bursts, the fate of written bytes, latency percentiles
 * (linear interpolation between order statistics), link loads.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "engine.h"
#include "network/fabric.h"
#include "rng.h"
#include "storage/bbnode.h"
#include "storage/device.h"
#include "workload/exec.h"
#include "workload/exec_int.h"
#include "workload/wl_int.h"
#include "grow.h"

int
exec_dvec_push(dvec *d, double v)
{
    if (d->n == INT32_MAX || bbs_grow((void **)&d->v, sizeof *d->v, &d->cap, (size_t)d->n + 1))
        return BB_ENOMEM;
    d->v[d->n++] = v;
    return BB_OK;
}

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double
pct(const double *v, int n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static void
add_in_buffer(void *ctx, int job, double bytes)
{
    bbs_exec_result *res = ctx;
    res->jobs[job].bytes_in_buffer += bytes;
}

void
bbs_exec_result_free(bbs_exec_result *r)
{
    if (r) {
        if (r->jobs)
            for (int j = 0; j < r->njobs; j++)
                free(r->jobs[j].bursts_s);
        free(r->jobs);
        r->jobs = NULL;
    }
}

/* exec_collect: the results of a finished run (now: the clock at its
 * end): link loads, storage totals, per-job times, bursts and latency
 * percentiles (sorting each job's sample). */
int
exec_collect(bbs_exec_state *x, bbs_exec_result *res, double now, char *err)
{
    const bbs_wl *w = x->w;
    const bbs_exec_config *c = x->c;
    int nj = w->njobs, rc = BB_OK;
    bbs_net_fabric_flush(x->fab, now);
    const bbs_net_topo *t = c->topo;
    for (int l = 0; l < t->nlinks; l++) {
        bbs_net_link_stat st;
        bbs_net_fabric_link_stat(x->fab, l, &st);
        bbs_exec_link_result *L = &res->links[t->link_kind[l]];
        L->nlinks++;
        L->small_bytes = x->small_link_bytes[t->link_kind[l]];
        L->bytes += st.bytes;
        L->saturated_s += st.saturated_s;
        if (st.saturated_s > L->saturated_max_s)
            L->saturated_max_s = st.saturated_s;
    }
    bbs_net_fabric_cost cost;
    bbs_net_fabric_cost_get(x->fab, &cost);
    res->flows = cost.flows_started;
    res->njobs = nj;
    res->end_s = now;
    res->events = bbs_engine_events(x->e);
    if (x->sys) {
        bbs_bbsys_totals tot;
        bbs_bbsys_get_totals(x->sys, &tot);
        res->stall_s = tot.stall_s;
        res->bytes_on_pfs = tot.bytes_on_pfs;
        /* a stall still open at the end counts up to it */
        res->stall_busy_s = tot.stall_busy_s;
    }
    for (int b = 0; b < x->nbb; b++)
        if (x->bb[b].bn) {
            bbs_bbnode_state st;
            bbs_bbnode_get_state(x->bb[b].bn, &st);
            res->nbb_used++;
            res->capacity_total_bytes += st.capacity;
            bbs_bbnode_each_stored(x->bb[b].bn, add_in_buffer, res);
        }
    res->node_failures = x->nfail[0];
    res->drive_failures = x->nfail[1];
    for (int j = 0; j < nj; j++) {
        bbs_exec_job_result *J = &res->jobs[j];
        int n = w->jobs[j].nranks, fin = 1, nsent = 0;
        job_st *S = &x->jb[j];
        J->start_s = S->start_s;
        J->end_s = S->end_s;
        J->elapsed_s = J->end_s - J->start_s;
        for (int r = 0; r < n; r++) {
            rank_st *R = &x->rk[S->off + r];
            J->comm_mean_s += R->comm_s / n;
            J->io_mean_s += R->io_s / n;
            J->compute_mean_s += R->compute_s / n;
            for (int k = 0; k < BBS_EXEC_NKINDS; k++)
                J->kind_mean_s[k] += R->kind_s[k] / n;
            if (R->comm_s > J->comm_max_s)
                J->comm_max_s = R->comm_s;
            if (R->io_s > J->io_max_s)
                J->io_max_s = R->io_s;
            if (R->ndone < R->n)
                fin = 0;
            if (R->lat_n > 0) {
                double a = R->lat_sum_s / R->lat_n;
                J->lat_rank_mean_s += a;
                nsent++;
                if (a > J->lat_rank_max_s)
                    J->lat_rank_max_s = a;
            }
        }
        J->finished = fin;
        if (nsent > 0)
            J->lat_rank_mean_s /= nsent;
        J->bytes_sent = S->bytes_sent;
        J->bytes_written = S->bytes_written;
        J->write_s = S->write_s;
        J->bytes_on_pfs = S->pfs;
        J->bytes_lost = S->lost;
        J->writes_lost = S->files_lost;
        if (S->wact > 0) {
            double d = now - S->wt0;
            J->write_s += d;
            if (exec_dvec_push(&S->bursts, d)) {
                rc = bb_seterr(err, BB_ENOMEM, "out of memory (write bursts)");
                return rc;
            }
        }
        J->nbursts = S->bursts.n;
        J->bursts_s = S->bursts.v;   /* ownership moves to the result */
        S->bursts.v = NULL;
        S->bursts.n = S->bursts.cap = 0;
        J->bytes_read = S->bytes_read;
        J->messages = S->msgs;
        J->hops_mean = S->hopn ? S->hops / (double)S->hopn : 0;
        dvec *d = &S->lat;
        if (d->n > 0) {
            double s = 0;
            for (int i = 0; i < d->n; i++)
                s += d->v[i];
            qsort(d->v, (size_t)d->n, sizeof *d->v, cmp_d);
            J->lat_mean_s = s / d->n;
            J->lat_p50_s = pct(d->v, d->n, 0.5);
            J->lat_p90_s = pct(d->v, d->n, 0.9);
            J->lat_p99_s = pct(d->v, d->n, 0.99);
            J->lat_max_s = d->v[d->n - 1];
        }
    }
    return rc;
}
