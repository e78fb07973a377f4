/* t_parfor.c: bba_parfor (analytic/num/parfor.h): the chunks cover [0, n)
 * once each, in order of t, on as many threads as it says; a chunk's
 * failure is returned, the first in chunk order.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "parfor.h"

typedef struct {
    int *hits;
    long lo[BBA_PAR_MAX], hi[BBA_PAR_MAX];
    long fail_at; /* a chunk holding this index fails with 10 + t */
} job;

static int
chunk(void *ctx, long lo, long hi, int t)
{
    job *J = ctx;

    J->lo[t] = lo;
    J->hi[t] = hi;
    for (long i = lo; i < hi; i++)
        J->hits[i]++;
    return J->fail_at >= lo && J->fail_at < hi ? 10 + t : 0;
}

static void
covers_once(void **state)
{
    (void)state;
    const long ns[] = { 0, 1, 63, 64, 129, 2047, 100000 };

    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        long n = ns[k];
        job J = { test_calloc((size_t)(n + 1), sizeof(int)), { 0 }, { 0 }, -1 };
        int T = bba_par_threads(n, 64);

        assert_true(T >= 1 && T <= BBA_PAR_MAX);
        assert_true(T == 1 || n / T >= 64);
        assert_int_equal(bba_parfor(n, 64, chunk, &J), 0);
        for (long i = 0; i < n; i++)
            assert_int_equal(J.hits[i], 1);
        assert_int_equal(J.lo[0], 0);
        assert_int_equal(J.hi[T - 1], n);
        for (int t = 1; t < T; t++)
            assert_int_equal(J.lo[t], J.hi[t - 1]);
        test_free(J.hits);
    }
}

static void
first_failure(void **state)
{
    (void)state;
    long n = 4096;
    int T = bba_par_threads(n, 1);
    job J = { test_calloc((size_t)n, sizeof(int)), { 0 }, { 0 }, n - 1 };

    /* the last chunk fails: its code, every chunk still run */
    assert_int_equal(bba_parfor(n, 1, chunk, &J), 10 + T - 1);
    for (long i = 0; i < n; i++)
        assert_int_equal(J.hits[i], 1);
    memset(J.hits, 0, (size_t)n * sizeof(int));
    J.fail_at = 0;
    assert_int_equal(bba_parfor(n, 1, chunk, &J), 10);
    test_free(J.hits);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(covers_once),
        cmocka_unit_test(first_failure),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
