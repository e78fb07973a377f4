/* b_traces.c: sampling speed of the seven DCNW size tables (draws per
 * second, with the sample mean beside the table mean).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bb_error.h"
#include "rng.h"
#include "sizedist_file.h"

int
main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "data/vef";
    long n = argc > 2 ? atol(argv[2]) : 10000000L;
    size_t nm;
    const bbs_sizemodel *m = bbs_sizemodel_all(&nm);

    printf("%-26s %6s %14s %14s %12s\n", "model", "rows", "table_mean_B", "sample_mean_B",
           "Mdraws/s");
    for (size_t i = 0; i < nm; i++) {
        char path[1024], err[BB_ERRLEN];
        FILE *fp;
        char *text;
        long len;
        bbs_sizedist *d;
        gsl_rng *r = bbs_rng_stream_new(NULL, 1, 0, i);
        struct timespec t0, t1;
        double sum = 0, s;

        snprintf(path, sizeof path, "%s/%s", dir, m[i].file);
        if (!(fp = fopen(path, "rb"))) {
            fprintf(stderr, "b_traces: %s: cannot open\n", path);
            return 66;
        }
        fseek(fp, 0, SEEK_END);
        len = ftell(fp);
        rewind(fp);
        text = malloc((size_t)len);
        if (!text || fread(text, 1, (size_t)len, fp) != (size_t)len)
            return 74;
        fclose(fp);
        if (bbs_sizedist_parse(&d, path, text, (size_t)len, m[i].unit_bytes, m[i].tail, err)) {
            fprintf(stderr, "b_traces: %s\n", err);
            return 65;
        }
        free(text);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (long k = 0; k < n; k++)
            sum += bbs_sizedist_sample(d, r);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        printf("%-26s %6zu %14.1f %14.1f %12.1f\n", m[i].name, bbs_sizedist_rows(d),
               bbs_sizedist_mean(d), sum / n, n / s / 1e6);
        bbs_sizedist_free(d);
        gsl_rng_free(r);
    }
    return 0;
}
