/* t_status.c: the one error convention.  Every reader of src/formats/
 * answers a bad input with a BB_* status of bb_error.h (never an exit
 * status of bbsize), the one map of src/status.c turns each status into
 * the exit status bbsize(1) documents, and the quantities a library
 * message names get their options appended (bb_status_options).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "codesconf.h"
#include "darshan.h"
#include "device_file.h"
#include "dxt.h"
#include "job_keys.h"
#include "readfile.h"
#include "scenario_ini.h"
#include "sizedist_file.h"
#include "status.h"
#include "systems.h"
#include "units.h"
#include "vef_file.h"
#include "wiring.h"
#include "workload_csv.h"

static char dir[] = "/tmp/t_status.XXXXXX";
/* what the tests made in dir, removed by teardown (and nothing else) */
static char made[16][256];
static size_t nmade;

/* A file of the scratch directory with len bytes of text. */
static const char *
scratch(const char *name, const char *text, size_t len)
{
    char *path;
    FILE *fp;

    assert_true(nmade < sizeof made / sizeof made[0]);
    path = made[nmade++];
    snprintf(path, sizeof made[0], "%s/%s", dir, name);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
    return path;
}

static int
setup(void **state)
{
    (void)state;
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
    char sys[256];

    (void)state;
    while (nmade > 0)
        unlink(made[--nmade]);
    snprintf(sys, sizeof sys, "%s/systems", dir);
    rmdir(sys);
    return rmdir(dir);
}

/* The message names the file and is one line. */
static void
names(const char *err, const char *what)
{
    if (strstr(err, what) == NULL)
        fail_msg("'%s' does not name '%s'", err, what);
    assert_null(strchr(err, '\n'));
}

static void
test_read_file(void **state)
{
    char err[BB_ERRLEN], *text = (char *)1, missing[256];
    size_t len;
    const char *p;

    (void)state;
    snprintf(missing, sizeof missing, "%s/none.csv", dir);
    assert_int_equal(bb_read_file(missing, BB_READ_TEXT, &text, &len, err, sizeof err),
                     BB_ENOINPUT);
    assert_null(text);
    names(err, missing);
    assert_int_equal(bb_read_file(dir, BB_READ_TEXT, &text, &len, err, sizeof err),
                     BB_ENOINPUT);
    p = scratch("nul.csv", "a,b\n\0", 5);
    assert_int_equal(bb_read_file(p, BB_READ_TEXT, &text, &len, err, sizeof err), BB_EDATA);
    names(err, "NUL byte");
    p = scratch("u16.csv", "\xff\xfe" "a\0", 4);
    assert_int_equal(bb_read_file(p, BB_READ_TEXT, &text, &len, err, sizeof err), BB_EDATA);
    names(err, "UTF-16");
    /* and the good case, so that the statuses above are not the only answer */
    p = scratch("ok.csv", "\xef\xbb\xbfok", 5);
    assert_int_equal(bb_read_file(p, BB_READ_TEXT, &text, &len, err, sizeof err), BB_OK);
    assert_string_equal(text, "ok");
    free(text);
}

static void
test_workload(void **state)
{
    bb_workload_file w;
    char err[BB_ERRLEN], missing[256];

    (void)state;
    snprintf(missing, sizeof missing, "%s/none.csv", dir);
    assert_int_equal(bb_workload_read(missing, &w, err, sizeof err), BB_ENOINPUT);
    names(err, missing);
    assert_int_equal(bb_workload_parse("name,p,bw\nx,2,3\n", "t.csv", &w, err, sizeof err),
                     BB_EDATA);
    names(err, "t.csv:2");
    assert_int_equal(bb_workload_parse("#@ pfs-bw 3\nname,p,bw\nx,0.5,3\n", "t.csv", &w, err,
                                       sizeof err), BB_EDATA);
    names(err, "t.csv:1");
    assert_int_equal(bb_workload_read(scratch("bad.csv", "name,p\n", 7), &w, err, sizeof err),
                     BB_EDATA);
}

static void
test_systems(void **state)
{
    bb_system s;
    char err[BB_ERRLEN], sys[256], missing[256];
    const char *dirs[1] = { dir };

    (void)state;
    snprintf(missing, sizeof missing, "%s/none.conf", dir);
    assert_int_equal(bb_system_read(missing, "none", &s, err, sizeof err), BB_ENOINPUT);
    assert_int_equal(bb_system_parse("pfs-bw = 100\n", 13, "x.conf", "x", &s, err, sizeof err),
                     BB_EDATA);
    names(err, "x.conf:1");
    snprintf(sys, sizeof sys, "%s/systems", dir);
    assert_int_equal(mkdir(sys, 0700), 0);
    scratch("systems/alpha.conf", "pfs-bw = 1 TB/s\n", 16);
    assert_int_equal(bb_system_find("atlantis", dirs, 1, &s, err, sizeof err), BB_EUNKNOWN);
    assert_string_equal(err, "unknown system 'atlantis'; known: alpha");
    assert_int_equal(bb_system_find("ALPHA", dirs, 1, &s, err, sizeof err), BB_OK);
    assert_true(s.pfs_bw.v == 1e12);
}

static void
test_darshan(void **state)
{
    bb_darshan_hdr h;
    bb_darshan_job j;
    bb_dxt_log log;
    char err[BB_ERRLEN];
    static const char twice[] = "# run time: 10\n# run time: 20\n";
    static const char dxt[] = "# DXT, file_id: 1, file_name: /a\n"
                              "# DXT, rank: 0, hostname: h\n"
                              " X_POSIX 0 write 0 0 x 1 2\n";

    (void)state;
    bb_darshan_hdr_init(&h);
    assert_int_equal(bb_darshan_hdr_line(&h, "# run time: -5", "d.txt", 3, err, sizeof err),
                     BB_EDATA);
    names(err, "d.txt:3");
    bb_darshan_hdr_init(&h);
    assert_int_equal(bb_darshan_hdr_finish(&h, "d.txt", err, sizeof err), BB_EDATA);
    assert_int_equal(bb_darshan_parse(twice, sizeof twice - 1, "d.txt", &j, err, sizeof err),
                     BB_EDATA);
    names(err, "d.txt:2");
    bb_darshan_job_free(&j);
    assert_int_equal(bb_dxt_parse(dxt, sizeof dxt - 1, "x.txt", &log, err, sizeof err),
                     BB_EDATA);
    names(err, "x.txt:");
    bb_dxt_free(&log);
}

static void
test_units(void **state)
{
    bb_qty q;
    double v;
    long l;
    char err[BB_ERRLEN];

    (void)state;
    assert_int_equal(bb_parse_size("1 Gb", &q, err, sizeof err), BB_EINVAL);
    assert_int_equal(bb_parse_rate("1 GB", &q, err, sizeof err), BB_EINVAL);
    assert_int_equal(bb_parse_duration("-1 s", &q, err, sizeof err), BB_EINVAL);
    assert_int_equal(bb_parse_number("1x", &v, err, sizeof err), BB_EINVAL);
    assert_int_equal(bb_parse_long_in("7", 1, 5, &l), BB_EINVAL);
    assert_int_equal(bb_unit_bytes("1 hr", &v), BB_EINVAL);
    assert_int_equal(bb_unit_sim_seconds("2e9 s", &v), BB_EINVAL);
    assert_int_equal(bb_parse_long_in("5", 1, 5, &l), BB_OK);
    assert_int_equal(l, 5);
}

/* The readers that were already on BB_* stay there: a bad text is a data
 * error or a bad value, never an exit status. */
static void
test_other_readers(void **state)
{
    char err[BB_ERRLEN];
    bbs_vef *v = NULL;
    bbs_sizedist *d = NULL;
    bbs_net_conf *c = NULL;
    bbs_dev_params p;
    bbs_scenario s;
    bbs_net_wiring w;
    bbs_model m;
    static const unsigned char five[5] = { 0 };

    (void)state;
    assert_int_equal(bbs_vef_parse(&v, "v.vef", "nonsense\n", 9, err), BB_EDATA);
    assert_int_equal(bbs_sizedist_parse(&d, "h.txt", "x y\n", 4, 1, 0, err), BB_EDATA);
    assert_int_equal(bbs_net_conf_parse("[PARAMS\n", 8, "n.conf", &c, err), BB_EDATA);
    memset(&p, 0, sizeof p);
    assert_int_equal(bbs_dev_params_parse(&p, "nokey = 1\n", "d.dev", err), BB_EDATA);
    memset(&s, 0, sizeof s);
    assert_int_equal(bb_scenario_parse("[nosuch]\n", 9, "s.ini", &s, err), BB_EDATA);
    memset(&w, 0, sizeof w);
    assert_int_equal(bbs_net_wiring_parse_intra(&w, five, sizeof five, "w.bin", err), BB_EDATA);
    bbs_net_wiring_free(&w);
    memset(&m, 0, sizeof m);
    assert_int_equal(bbs_model_set(&m, "nosuch", "1", err), BB_EINVAL);
}

/* The map, as bbsize(1) EXIT STATUS documents it. */
static void
test_exit_map(void **state)
{
    static const struct {
        int st, exit;
    } doc[] = {
        { BB_OK, 0 },        { BB_EINFEASIBLE, 1 }, { BB_ETOOBIG, 2 },   { BB_EUNKNOWN, 64 },
        { BB_EINVAL, 65 },   { BB_EDATA, 65 },      { BB_ENOINPUT, 66 }, { BB_ENOMEM, 70 },
        { BB_ESINGULAR, 70 }, { BB_ENOCONV, 70 },   { BB_EIO, 74 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof doc / sizeof doc[0]; i++)
        if (bb_exit_status(doc[i].st) != doc[i].exit)
            fail_msg("%s: exit %d, bbsize(1) says %d", bb_strstatus(doc[i].st),
                     bb_exit_status(doc[i].st), doc[i].exit);
    /* a run built from options alone: a refused value is a bad command line */
    assert_int_equal(bb_exit_status_opts(BB_EINVAL), 64);
    assert_int_equal(bb_exit_status_opts(BB_EDATA), 65);
    assert_int_equal(bb_exit_status_opts(BB_ETOOBIG), 2);
}

static void
opts_is(const char *msg, const char *want)
{
    char buf[256];

    bb_status_options(msg, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("'%s': got '%s', want '%s'", msg, buf, want);
}

static void
test_options(void **state)
{
    char small[8];

    (void)state;
    opts_is("raise the operation bound", " (--max-ops)");
    /* in the order the message names them */
    opts_is("raise the memory bound, or lower the resolution", " (--max-memory, --resolution)");
    opts_is("lower the resolution, or raise the memory bound", " (--resolution, --max-memory)");
    /* a quantity merely mentioned is no advice */
    opts_is("at resolution 100 the chain has 869 states", "");
    /* two phrases of one option: the option once */
    opts_is("give a resolution of 10 or lower the resolution", " (--resolution)");
    /* an option named already is not repeated; a longer one is not it */
    opts_is("lower the resolution (--resolution 50)", "");
    opts_is("--max-memory-x: raise the memory bound", " (--max-memory)");
    opts_is("a coarser time unit, or use the fluid model", " (--time-unit, --model fluid)");
    opts_is("the fluid model has 9 phases, above the bound", "");
    /* too small a buffer: nothing rather than half an option */
    bb_status_options("raise the operation bound", small, sizeof small);
    assert_string_equal(small, "");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_workload),
        cmocka_unit_test(test_systems),
        cmocka_unit_test(test_darshan),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_other_readers),
        cmocka_unit_test(test_exit_map),
        cmocka_unit_test(test_options),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
