/* t_net_load.c: accepted load of synthetic traffic against bounds derived
 * here from link capacities (the expected results: uniform traffic
 * with minimal routing near full injection, Valiant about half; group-shift
 * with minimal routing capped by one global link, Valiant and adaptive far
 * above it).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "bb_error.h"
#include "network/bbsnet.h"

static bbs_net_topo *
preset(const char *name)
{
    bbs_net_params par;
    bbs_net_topo *t;
    char err[BB_ERRLEN];

    assert_int_equal(bbs_net_preset(name, &par, err), BB_OK);
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    return t;
}

static void
opts(bbs_net_load_opts *o, int pattern, int routing, double load, double msg, double dur,
     int window)
{
    memset(o, 0, sizeof *o);
    o->pattern = pattern;
    o->route.kind = routing;
    o->route.candidates = 2;
    o->load = load;
    o->msg_bytes = msg;
    o->duration_s = dur;
    o->warmup_s = dur / 4;
    o->window = window;
    o->seed = 42;
    o->exact_limit = 0;
}

static double
accepted(const bbs_net_topo *t, const bbs_net_load_opts *o, bbs_net_load_result *keep)
{
    bbs_net_load_result r;
    char err[BB_ERRLEN];
    double a;

    assert_int_equal(bbs_net_load_run(t, o, &r, err), BB_OK);
    a = r.accepted;
    /* accepted never exceeds offered by more than the in-flight carry-over */
    assert_true(r.accepted <= r.offered * 1.05 + 0.01);
    if (keep)
        *keep = r;
    else
        bbs_net_load_result_free(&r);
    return a;
}

/* Bounds from capacities (bytes/s), for a 1-D dragonfly with c global
 * links between each pair of groups (c = a h / (g - 1)). */
static double
c_links(const bbs_net_topo *t)
{
    return (double)t->par.a * t->par.h / (t->par.g - 1);
}

/* group-shift, minimal: the a p nodes of a group share the c links to the
 * next group. */
static double
bound_shift_min(const bbs_net_topo *t)
{
    return c_links(t) * t->par.global_bw_Bps / (t->par.a * t->par.p * t->par.cn_bw_Bps);
}

/* group-shift, Valiant: a group's traffic spreads over g - 2 intermediate
 * groups; link x -> y carries first hops of group x (1/(g-2) of it) and
 * second hops of group y - 1 (1/(g-2)), and none on x -> x+1. */
static double
bound_shift_val(const bbs_net_topo *t)
{
    return c_links(t) * t->par.global_bw_Bps * (t->par.g - 2)
           / (2.0 * t->par.a * t->par.p * t->par.cn_bw_Bps);
}

/* uniform: a fraction (N - a p)/(N - 1) of the traffic leaves its group;
 * the global capacity per node is h/p x global bandwidth; minimal paths
 * use one global link, Valiant paths two. */
static double
bound_uniform(const bbs_net_topo *t, int globals)
{
    double N = t->nodes, inter = (N - t->par.a * t->par.p) / (N - 1);
    return (double)t->par.h / t->par.p * t->par.global_bw_Bps
           / (globals * inter * t->par.cn_bw_Bps);
}

static void
test_graph500_72_uniform(void **state)
{
    bbs_net_topo *t = preset("graph500-72");
    bbs_net_load_opts o;
    double amin, aval, bval = bound_uniform(t, 2);

    (void)state;
    /* minimal routing is not limited by global links here (bound > 1) */
    assert_true(bound_uniform(t, 1) > 1);
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 1.0, 65536, 2e-3, 16);
    amin = accepted(t, &o, NULL);
    print_message("# uniform min: accepted %.4f (close to full)\n", amin);
    assert_true(amin >= 0.80);
    /* Valiant: two global links per path: about half (bound 0.555) */
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_VAL, 1.0, 65536, 2e-3, 16);
    aval = accepted(t, &o, NULL);
    print_message("# uniform val: accepted %.4f, bound %.4f\n", aval, bval);
    assert_true(aval <= bval * 1.01);
    assert_true(aval >= 0.75 * bval);
    assert_true(fabs(aval - 0.5) < 0.12);
    /* below saturation everything offered is accepted */
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 0.3, 65536, 2e-3, 16);
    {
        bbs_net_load_result r;
        accepted(t, &o, &r);
        assert_float_equal(r.accepted, r.offered, 0.03 * r.offered);
        /* minimal paths: at most 3 router hops */
        assert_true(r.hops.max <= 3);
        assert_int_equal(r.nonminimal, 0);
        bbs_net_load_result_free(&r);
    }
    bbs_net_topo_free(t);
}

static void
test_graph500_72_group_shift(void **state)
{
    bbs_net_topo *t = preset("graph500-72");
    bbs_net_load_opts o;
    double bmin = bound_shift_min(t), bval = bound_shift_val(t), amin, aval, aad;

    (void)state;
    /* the 1/(a h) = 12.5% holds here (all links 40 Gb/s) */
    assert_float_equal(bmin, 1.0 / (t->par.a * t->par.h), 1e-12);
    opts(&o, BBS_NET_PAT_GROUP_SHIFT, BBS_NET_ROUTE_MIN, 0.5, 65536, 2e-3, 16);
    amin = accepted(t, &o, NULL);
    opts(&o, BBS_NET_PAT_GROUP_SHIFT, BBS_NET_ROUTE_VAL, 1.0, 65536, 2e-3, 16);
    aval = accepted(t, &o, NULL);
    opts(&o, BBS_NET_PAT_GROUP_SHIFT, BBS_NET_ROUTE_ADAPTIVE, 1.0, 65536, 2e-3, 16);
    aad = accepted(t, &o, NULL);
    print_message("# group-shift: min %.4f (bound %.4f), val %.4f (bound %.4f), adaptive %.4f\n",
                  amin, bmin, aval, bval, aad);
    assert_true(amin <= bmin * 1.01 && amin >= bmin * 0.95);
    assert_true(aval <= bval * 1.01 && aval >= bval * 0.75);
    assert_true(aval > 3 * bmin);
    assert_true(aad > 3 * bmin);
    assert_true(aad >= 0.35);
    bbs_net_topo_free(t);
}

static void
test_mfnetsim_1056(void **state)
{
    bbs_net_topo *t = preset("mfnetsim-1056");
    bbs_net_load_opts o;
    double bmin = bound_shift_min(t), bu = bound_uniform(t, 1), a;
    bbs_net_load_result r;

    (void)state;
    /* with 4.7 GiB/s global and 16 GiB/s terminal links the shift bound is
     * 4.7 / (32 x 16) = 0.92%, not the 1/(a h) = 3.1% of equal bandwidths */
    assert_float_equal(bmin, 4.7 / (32 * 16.0), 1e-12);
    opts(&o, BBS_NET_PAT_GROUP_SHIFT, BBS_NET_ROUTE_MIN, 0.1, 1048576, 2e-3, 4);
    a = accepted(t, &o, NULL);
    print_message("# 1056 group-shift min: %.5f (bound %.5f)\n", a, bmin);
    assert_true(a <= bmin * 1.01 && a >= bmin * 0.95);
    /* uniform, low load: all accepted */
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 0.1, 262144, 2e-3, 16);
    accepted(t, &o, &r);
    assert_float_equal(r.accepted, r.offered, 0.05 * r.offered);
    bbs_net_load_result_free(&r);
    /* uniform, 50%: above the global-link bound 4.7/16 x 1055/1024 */
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 0.5, 1048576, 3e-3, 16);
    a = accepted(t, &o, &r);
    print_message("# 1056 uniform min at 0.5: %.4f (bound %.4f); global links saturated "
                  "%.2f of the time\n", a, bu, r.class_sat_frac[BBS_NET_LINK_GLOBAL].mean);
    assert_true(a <= bu * 1.01 && a >= 0.8 * bu);
    /* the global links are the bottleneck: they are full most of the time */
    assert_true(r.class_util[BBS_NET_LINK_GLOBAL].mean > 0.8);
    bbs_net_load_result_free(&r);
    bbs_net_topo_free(t);
}

/* bb-io: the a p - k compute nodes of a group share the ejection links of
 * its k burst-buffer nodes: accepted <= k / (a p - k) of injection. */
static void
test_bb_io_ejection_bound(void **state)
{
    bbs_net_params par;
    bbs_net_topo *t;
    bbs_net_load_opts o;
    char err[BB_ERRLEN];
    double a, bound;

    (void)state;
    assert_int_equal(bbs_net_preset("graph500-72", &par, err), BB_OK);
    par.bb_per_group = 1;
    assert_int_equal(bbs_net_topo_build(&par, NULL, &t, err), BB_OK);
    bound = 1.0 / (par.a * par.p - 1);
    opts(&o, BBS_NET_PAT_BB_IO, BBS_NET_ROUTE_MIN, 0.5, 65536, 2e-3, 16);
    a = accepted(t, &o, NULL);
    print_message("# bb-io: %.4f (bound %.4f)\n", a, bound);
    assert_true(a <= bound * 1.01 && a >= bound * 0.97);
    bbs_net_topo_free(t);
}

/* Same seed, same numbers; another seed, other numbers.  Exact and local
 * recomputation agree on accepted load. */
static void
test_reproducible_and_exact_vs_local(void **state)
{
    bbs_net_topo *t = preset("graph500-72");
    bbs_net_load_opts o;
    bbs_net_load_result a, b;
    char err[BB_ERRLEN];
    double ex, lo;

    (void)state;
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_ADAPTIVE, 0.6, 65536, 1e-3, 4);
    o.keep_links = 1;
    assert_int_equal(bbs_net_load_run(t, &o, &a, err), BB_OK);
    assert_int_equal(bbs_net_load_run(t, &o, &b, err), BB_OK);
    assert_true(a.accepted == b.accepted);
    assert_true(a.delivered == b.delivered);
    assert_memory_equal(a.link_bytes, b.link_bytes, (size_t)t->nlinks * sizeof(double));
    bbs_net_load_result_free(&b);
    o.seed = 43;
    assert_int_equal(bbs_net_load_run(t, &o, &b, err), BB_OK);
    assert_true(a.accepted != b.accepted);
    bbs_net_load_result_free(&a);
    bbs_net_load_result_free(&b);

    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 1.0, 65536, 1e-3, 4);
    o.exact_limit = -1;
    ex = accepted(t, &o, NULL);
    o.exact_limit = 0;
    lo = accepted(t, &o, NULL);
    print_message("# exact %.4f local %.4f\n", ex, lo);
    assert_float_equal(lo, ex, 0.02 * ex);
    bbs_net_topo_free(t);
}

static void
test_bad_options(void **state)
{
    bbs_net_topo *t = preset("graph500-72");
    bbs_net_load_opts o;
    bbs_net_load_result r;
    char err[BB_ERRLEN];
    int k;

    (void)state;
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 0, 65536, 1e-3, 4);
    assert_int_equal(bbs_net_load_run(t, &o, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "load 0 is outside (0, 1]"));
    o.load = 1.5;
    assert_int_equal(bbs_net_load_run(t, &o, &r, err), BB_EINVAL);
    o.load = 0.5;
    o.pattern = BBS_NET_PAT_BB_IO;
    assert_int_equal(bbs_net_load_run(t, &o, &r, err), BB_EINVAL);
    assert_non_null(strstr(err, "burst-buffer"));
    assert_int_equal(bbs_net_pattern_parse("tornado", &k, err), BB_EINVAL);
    assert_non_null(strstr(err, "unknown pattern 'tornado'"));
    assert_int_equal(bbs_net_route_parse("ecmp", &k, err), BB_EINVAL);
    assert_non_null(strstr(err, "unknown routing 'ecmp'"));
    assert_int_equal(bbs_net_route_parse("prog-adaptive", &k, err), BB_OK);
    assert_int_equal(k, BBS_NET_ROUTE_PAR);
    assert_int_equal(bbs_net_route_parse("ugal", &k, err), BB_OK);
    assert_int_equal(k, BBS_NET_ROUTE_ADAPTIVE);
    bbs_net_topo_free(t);
}

/* Summaries: type-7 quantiles and Tukey whiskers on a hand-worked sample. */
static void
test_summary(void **state)
{
    double v[] = { 9, 1, 2, 3, 4, 5, 6, 7, 8, 100 };
    bbs_net_summary s;

    (void)state;
    bbs_net_summarize(v, 10, &s);
    /* sorted 1..9, 100: q1 at h = 2.25 -> 3.25; median 5.5; q3 at 6.75 -> 7.75 */
    assert_float_equal(s.q1, 3.25, 1e-12);
    assert_float_equal(s.median, 5.5, 1e-12);
    assert_float_equal(s.q3, 7.75, 1e-12);
    assert_float_equal(s.mean, 14.5, 1e-12);
    /* IQR 4.5: whiskers within [-3.5, 14.5]: 1 and 9; 100 is an outlier */
    assert_float_equal(s.whisker_lo, 1, 0);
    assert_float_equal(s.whisker_hi, 9, 0);
    assert_float_equal(s.max, 100, 0);
}

/* Steady mode against an independent long run: 1 MiB messages at full
 * load on the 72-node system, where the fixed 1 ms default delivers
 * little.  Steady mode must settle, reach its precision, deliver messages
 * and agree with a fixed window far past the transient, [20 ms, 100 ms],
 * within three of its half-widths (the two windows overlap in time but
 * not in how they end). */
static void
test_steady_state(void **state)
{
    bbs_net_topo *t = preset("graph500-72");
    bbs_net_load_opts o;
    bbs_net_load_result st, lng, shrt;
    char err[BB_ERRLEN];

    (void)state;
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 1.0, 1048576, 0.1, 16);
    o.warmup_s = 0;
    o.steady = 1;
    assert_int_equal(bbs_net_load_run(t, &o, &st, err), BB_OK);
    assert_true(st.settled && st.precise);
    assert_true(st.delivered > 0);
    assert_true(st.warmup_s > 0 && st.window_s > 0 && st.warmup_s + st.window_s <= 0.1 + 1e-12);
    assert_true(st.accepted_half <= 0.02 * st.accepted + 1e-12);
    o.steady = 0;
    o.warmup_s = 0.02;
    assert_int_equal(bbs_net_load_run(t, &o, &lng, err), BB_OK);
    assert_true(fabs(st.accepted - lng.accepted) <= 3 * st.accepted_half);
    /* the fixed 1 ms window of the old default is biased low */
    o.duration_s = 1e-3;
    o.warmup_s = 2e-4;
    assert_int_equal(bbs_net_load_run(t, &o, &shrt, err), BB_OK);
    assert_true(shrt.accepted < lng.accepted - 6 * st.accepted_half);
    /* too short to settle: flags say so, numbers still come */
    o.steady = 1;
    o.warmup_s = 0;
    o.duration_s = 2e-3;
    bbs_net_load_result_free(&st);
    assert_int_equal(bbs_net_load_run(t, &o, &st, err), BB_OK);
    assert_false(st.settled && st.precise);
    assert_true(st.window_s > 0);
    /* below saturation, what is accepted is what was offered */
    opts(&o, BBS_NET_PAT_UNIFORM, BBS_NET_ROUTE_MIN, 0.2, 65536, 0.1, 16);
    o.warmup_s = 0;
    o.steady = 1;
    bbs_net_load_result_free(&st);
    assert_int_equal(bbs_net_load_run(t, &o, &st, err), BB_OK);
    assert_true(st.settled);
    assert_true(fabs(st.accepted - st.offered) <= 3 * st.accepted_half + 0.01 * st.offered);
    bbs_net_load_result_free(&st);
    bbs_net_load_result_free(&lng);
    bbs_net_load_result_free(&shrt);
    bbs_net_topo_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph500_72_uniform),
        cmocka_unit_test(test_graph500_72_group_shift),
        cmocka_unit_test(test_mfnetsim_1056),
        cmocka_unit_test(test_bb_io_ejection_bound),
        cmocka_unit_test(test_reproducible_and_exact_vs_local),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_steady_state),
    };

    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
