/* vefdist.c: step-CDF message sizes, the memcached tail, destinations.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "bb_error.h"
#include "grow.h"
#include "workload/vefdist.h"

#define MC_K 0.348238
#define MC_SIGMA 214.476
#define MC_CAP 1073741824.0 /* 0x40000000 */

struct bbs_sizedist {
    size_t n;
    double *size; /* in bytes (unit applied) */
    double *cdf;
    double declared_mean; /* bytes */
    double unit;
    int tail;
    size_t cap, capcdf;   /* rows allocated (size, cdf) */
};

static const bbs_sizemodel models[] = {
    { "DCTCP", "WEB_SEARCH WEBSEARCH W5", "homasim_DCTCP_MsgSizeDist.txt", 1470.0, BBS_TAIL_NONE,
      "web search (Alizadeh et al., DCTCP), sizes in 1470-byte packets" },
    { "FACEBOOK_KEY_VALUE", "MEMCACHED KEY_VALUE FB_KV W1", "homasim_FacebookKeyValueMsgSizeDist.txt",
      1.0, BBS_TAIL_MEMCACHED, "Facebook memcached key-value (Atikoglu et al.), Pareto tail" },
    { "FACEBOOK_CACHE_FOLLOWER", "CACHE_FOLLOWER FB_CACHE",
      "homasim_Facebook_CacheFollowerDist_IntraCluster.txt", 1.0, BBS_TAIL_NONE,
      "Facebook cache follower, intra-cluster (Roy et al.)" },
    { "FACEBOOK_WEB_SERVER", "WEB_SERVER FB_WEB", "homasim_Facebook_WebServerDist_IntraCluster.txt",
      1.0, BBS_TAIL_NONE, "Facebook web server, intra-cluster (Roy et al.)" },
    { "FACEBOOK_HADOOP", "HADOOP FB_HADOOP W4", "homasim_Facebook_HadoopDist_All.txt", 1.0,
      BBS_TAIL_NONE, "Facebook Hadoop, all (Roy et al.)" },
    { "GOOGLE_ALL", "GOOGLE_ALL_RPC GOOGLE_AGGREGATED W3", "homasim_Google_AllRPC.txt", 1.0,
      BBS_TAIL_NONE, "Google, all RPCs aggregated (HOMA paper)" },
    { "GOOGLE_SEARCH", "GOOGLE_SEARCH_RPC W2", "homasim_Google_SearchRPC.txt", 1.0, BBS_TAIL_NONE,
      "Google search RPCs (HOMA paper)" },
};
#define NMODELS (sizeof models / sizeof models[0])

const bbs_sizemodel *
bbs_sizemodel_all(size_t *n)
{
    *n = NMODELS;
    return models;
}

const char *
bbs_sizemodel_names(void)
{
    return "DCTCP, FACEBOOK_KEY_VALUE, FACEBOOK_CACHE_FOLLOWER, FACEBOOK_WEB_SERVER, "
           "FACEBOOK_HADOOP, GOOGLE_ALL, GOOGLE_SEARCH";
}

const bbs_sizemodel *
bbs_sizemodel_find(const char *name)
{
    for (size_t i = 0; i < NMODELS; i++) {
        const char *a = models[i].aliases;
        size_t len = strlen(name);

        if (strcasecmp(name, models[i].name) == 0)
            return &models[i];
        while (*a) {
            size_t w = strcspn(a, " ");
            if (w == len && strncasecmp(a, name, len) == 0)
                return &models[i];
            a += w;
            while (*a == ' ')
                a++;
        }
    }
    return NULL;
}

void
bbs_sizedist_free(bbs_sizedist *d)
{
    if (!d)
        return;
    free(d->size);
    free(d->cdf);
    free(d);
}

int
bbs_sizedist_new(bbs_sizedist **out, double unit_bytes, int tail, double declared_mean,
                 char *err)
{
    *out = NULL;
    if (!(unit_bytes > 0))
        return bb_seterr(err, BB_EINVAL, "size unit must be > 0");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    (*out)->unit = unit_bytes;
    (*out)->tail = tail;
    (*out)->declared_mean = declared_mean * unit_bytes;
    return BB_OK;
}

int
bbs_sizedist_add(bbs_sizedist *d, double v, double c, char *err)
{
    if (!isfinite(v) || v < 0)
        return bb_seterr(err, BB_EDATA, "size %g is not a number >= 0", v);
    if (!(c >= 0 && c <= 1 + 1e-9))
        return bb_seterr(err, BB_EDATA, "cdf %g outside [0, 1]", c);
    if (d->n > 0 && !(v * d->unit > d->size[d->n - 1]))
        return bb_seterr(err, BB_EDATA, "size %g does not increase (previous %g)", v,
                         d->size[d->n - 1] / d->unit);
    if (d->n > 0 && c < d->cdf[d->n - 1])
        return bb_seterr(err, BB_EDATA, "cdf %g decreases (previous %g): the CDF must "
                         "increase to 1", c, d->cdf[d->n - 1]);
    if (bbs_grow((void **)&d->size, sizeof *d->size, &d->cap, d->n + 1)
        || bbs_grow((void **)&d->cdf, sizeof *d->cdf, &d->capcdf, d->n + 1))
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    d->size[d->n] = v * d->unit;
    d->cdf[d->n] = c > 1 ? 1 : c;
    d->n++;
    return BB_OK;
}

int
bbs_sizedist_close(bbs_sizedist *d, char *err)
{
    if (d->n == 0)
        return bb_seterr(err, BB_EDATA, "no 'size cdf' rows (line 1 is the mean, then pairs)");
    if (d->tail == BBS_TAIL_NONE && fabs(d->cdf[d->n - 1] - 1) > 1e-6)
        return bb_seterr(err, BB_EDATA, "the CDF ends at %.9g: it must increase to 1",
                         d->cdf[d->n - 1]);
    if (d->tail == BBS_TAIL_NONE)
        d->cdf[d->n - 1] = 1;
    return BB_OK;
}

static double
mc_tail(double u, double c0, double s0)
{
    double v;

    if (!(u < 1))   /* the limit at u = 1 (1 - 1e-300 is 1): the cap */
        return MC_CAP;
    v = s0 + (pow((1 - c0) / (1 - u), MC_K) - 1) * MC_SIGMA / MC_K;
    v = floor(v + 0.5);
    return v > MC_CAP ? MC_CAP : v;
}

double
bbs_sizedist_quantile(const bbs_sizedist *d, double u)
{
    size_t lo = 0, hi = d->n;

    if (d->tail == BBS_TAIL_MEMCACHED && u > d->cdf[d->n - 1])
        return mc_tail(u, d->cdf[d->n - 1], d->size[d->n - 1] / d->unit) * d->unit;
    /* first row with cdf >= u */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->cdf[mid] >= u)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo >= d->n)
        lo = d->n - 1;
    return d->size[lo];
}

double
bbs_sizedist_sample(const bbs_sizedist *d, gsl_rng *r)
{
    return bbs_sizedist_quantile(d, gsl_rng_uniform_pos(r));
}

double bbs_sizedist_declared_mean(const bbs_sizedist *d) { return d->declared_mean; }
size_t bbs_sizedist_rows(const bbs_sizedist *d) { return d->n; }

void
bbs_sizedist_row(const bbs_sizedist *d, size_t j, double *size, double *cdf)
{
    if (size)
        *size = d->size[j];
    if (cdf)
        *cdf = d->cdf[j];
}

/* Raw moment k (1 or 2) of the step distribution plus the tail. */
static double
moment(const bbs_sizedist *d, int k)
{
    double m = 0, prev = 0;

    for (size_t i = 0; i < d->n; i++) {
        double w = d->cdf[i] - prev;
        m += w * (k == 1 ? d->size[i] : d->size[i] * d->size[i]);
        prev = d->cdf[i];
    }
    if (d->tail == BBS_TAIL_MEMCACHED && prev < 1) {
        /* integrate the tail quantile over u in (c0, 1) with the substitution
         * u = 1 - (1-c0) e^{-t}, t in (0, inf): du = (1-u) dt; the cap makes
         * the integrand constant beyond t_cap. */
        double c0 = prev, s0 = d->size[d->n - 1] / d->unit;
        const int steps = 200000;
        double tmax = 80, h = tmax / steps;
        for (int j = 0; j < steps; j++) {
            double t = (j + 0.5) * h, u = 1 - (1 - c0) * exp(-t);
            double q = (u < 1 ? mc_tail(u, c0, s0) : MC_CAP) * d->unit;
            m += (k == 1 ? q : q * q) * (1 - c0) * exp(-t) * h;
        }
    }
    return m;
}

double bbs_sizedist_mean(const bbs_sizedist *d) { return moment(d, 1); }

double
bbs_sizedist_var(const bbs_sizedist *d)
{
    double m = moment(d, 1);
    return moment(d, 2) - m * m;
}

/* ---- destinations ---- */

int
bbs_dest_parse_name(const char *w)
{
    if (!strcasecmp(w, "UNIFORM") || !strcasecmp(w, "UN"))
        return BBS_DEST_UNIFORM;
    if (!strcasecmp(w, "POISSON") || !strcasecmp(w, "PO"))
        return BBS_DEST_POISSON;
    if (!strcasecmp(w, "GAUSS") || !strcasecmp(w, "GAUSSIAN") || !strcasecmp(w, "GA"))
        return BBS_DEST_GAUSS;
    return -1;
}

const char *
bbs_dest_name(int kind)
{
    return kind == BBS_DEST_POISSON ? "POISSON" : kind == BBS_DEST_GAUSS ? "GAUSS" : "UNIFORM";
}

const char *bbs_dest_names(void) { return "UNIFORM, POISSON, GAUSS"; }

/* Probability that one draw lands on task j. */
static double
p_task(const bbs_dest *d, int j)
{
    if (d->kind == BBS_DEST_POISSON)
        return gsl_ran_poisson_pdf((unsigned)j, d->a);
    /* round(X) = j  <=>  X in [j - 0.5, j + 0.5) */
    return gsl_cdf_gaussian_P(j + 0.5 - d->a, d->b) - gsl_cdf_gaussian_P(j - 0.5 - d->a, d->b);
}

int
bbs_dest_check(bbs_dest *d, int n, char *err)
{
    double inrange = 0;

    if (n < 2)
        return bb_seterr(err, BB_EINVAL, "a destination law needs at least 2 tasks (got %d)", n);
    if (d->kind == BBS_DEST_UNIFORM)
        return BB_OK;
    if (d->kind == BBS_DEST_POISSON) {
        if (d->a < 0)
            d->a = n / 2.0;
        if (!(d->a > 0) || !isfinite(d->a))
            return bb_seterr(err, BB_EINVAL, "POISSON lambda must be > 0 (got %g)", d->a);
    } else if (d->kind == BBS_DEST_GAUSS) {
        if (d->a < 0)
            d->a = n / 2.0;
        if (d->b < 0)
            d->b = n / 8.0;
        if (!(d->b > 0) || !isfinite(d->a) || !isfinite(d->b))
            return bb_seterr(err, BB_EINVAL, "GAUSS sigma must be > 0 (got %g)", d->b);
    } else {
        return bb_seterr(err, BB_EINVAL, "unknown destination law %d", d->kind);
    }
    /* In closed form, O(1) whatever n (a header may announce millions of
     * tasks: summing p_task over them took seconds, fuzz/vef found it):
     * the chance of landing on a task, and the most likely task, which
     * for these unimodal laws is next to the mode or at an end. */
    if (d->kind == BBS_DEST_POISSON)
        inrange = gsl_cdf_poisson_P((unsigned)(n - 1), d->a);
    else
        inrange = gsl_cdf_gaussian_P(n - 0.5 - d->a, d->b) - gsl_cdf_gaussian_P(-0.5 - d->a, d->b);
    {
        double m = floor(fmin(fmax(d->a, 0.0), (double)(n - 1)));
        int cand[4] = { (int)m, (int)m + 1 < n ? (int)m + 1 : n - 1, 0, n - 1 };
        int jmax = cand[0];

        for (int k = 1; k < 4; k++)
            if (p_task(d, cand[k]) > p_task(d, jmax))
                jmax = cand[k];
        if (inrange - p_task(d, jmax) < 1e-3)
            return bb_seterr(err, BB_EINVAL, "%s destinations (%g, %g) almost never reach a task "
                             "other than %d among 0..%d: choose parameters inside the tasks",
                             bbs_dest_name(d->kind), d->a, d->b, jmax, n - 1);
    }
    return BB_OK;
}

int
bbs_dest_draw(const bbs_dest *d, int n, int src, gsl_rng *r)
{
    /* bbs_dest_check guarantees success probability >= 1e-3 per draw; the
     * cap only guards against misuse without a check. */
    for (long tries = 0; tries < 100000000L; tries++) {
        long j;
        if (d->kind == BBS_DEST_UNIFORM) {
            j = (long)gsl_rng_uniform_int(r, (unsigned long)(n - 1));
            return (int)(j >= src ? j + 1 : j);
        }
        if (d->kind == BBS_DEST_POISSON)
            j = (long)gsl_ran_poisson(r, d->a);
        else
            j = lround(d->a + gsl_ran_gaussian_ziggurat(r, d->b));
        if (j >= 0 && j < n && j != src)
            return (int)j;
    }
    return src == 0 ? 1 : 0;
}

double
bbs_poisson_mean_gap_s(double mean_bytes, double load_gbps)
{
    return mean_bytes * 8.0 / (load_gbps * 1e9);
}
