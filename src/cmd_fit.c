/* cmd_fit.c: `bbsize fit darshan FILE...`, workload rows (name, p, bw)
 * estimated from darshan-parser logs, one row per job, with the counters
 * used and warnings where the estimate is weak.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "darshan.h"


struct args {
    bb_outopts out;   /* -o FILE: the workload */
    char **files;
    int nfiles;
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        break;
    case ARGP_KEY_ARGS:
        if (strcmp(state->argv[state->next], "darshan") != 0)
            argp_error(state, "unknown source '%s' (only 'darshan' is supported)",
                       state->argv[state->next]);
        a->files = state->argv + state->next + 1;
        a->nfiles = state->argc - state->next - 1;
        if (a->nfiles == 0)
            argp_error(state, "give at least one darshan-parser output file");
        break;
    case ARGP_KEY_NO_ARGS:
        argp_error(state, "usage: bbsize fit darshan FILE...");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_FILE), 0, NULL, 0 }, { 0 }
};

static const struct argp argp = {
    NULL, parse, "darshan FILE...",
    "Workload rows from darshan-parser text output, one job per file.\v"
    "p = I/O time / run time and bw = bytes / I/O time, where the I/O time is the "
    "slowest rank's read + write + metadata time (POSIX and STDIO counters; MPI-IO "
    "only when POSIX is absent).  Produce the input with "
    "`darshan-parser --base LOG > FILE.txt`.  The output is a bbsize-workload(5) "
    "file without platform lines: give --pfs-bw or --system when using it.",
    children, NULL, NULL
};

/* A row name from the executable and job id, safe in CSV. */
static void
row_name(const bb_darshan_job *j, int idx, char *buf, size_t len)
{
    char exe[256], *base;
    size_t i;

    snprintf(exe, sizeof exe, "%s", j->exe[0] ? j->exe : "job");
    base = basename(exe);
    if (j->jobid[0])
        snprintf(buf, len, "%.40s-%.20s", base, j->jobid);
    else
        snprintf(buf, len, "%.40s-%d", base, idx + 1);
    for (i = 0; buf[i]; i++)
        if (buf[i] == ',' || buf[i] == '"' || buf[i] == '#' || buf[i] == ' ')
            buf[i] = '_';
}

int
bb_cmd_fit(int argc, char **argv)
{
    struct args a;
    bb_darshan_job *jobs;
    bb_out out;
    FILE *fp = stdout;
    char err[BB_ERRLEN];

    memset(&a, 0, sizeof a);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    jobs = calloc((size_t)a.nfiles, sizeof *jobs);
    if (jobs == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (int i = 0; i < a.nfiles; i++) {
        int rc = bb_darshan_read(a.files[i], &jobs[i], err, sizeof err);

        if (rc != 0) {
            free(jobs);
            bb_die(rc, "%s", err);
        }
    }
    if (a.out.output) {
        bb_out_open(&out, a.out.output);
        fp = out.fp;
    }
    fprintf(fp, "# bbsize workload fitted by `bbsize fit darshan` from %d darshan-parser log%s.\n"
                "# Recipe: p = I/O time / run time; bw = bytes (read + written) / I/O time;\n"
                "# I/O time = slowest rank's read + write + metadata time (own files) plus\n"
                "# the slowest-rank time of shared files.  Add a platform: --pfs-bw or --system.\n",
            a.nfiles, a.nfiles == 1 ? "" : "s");
    for (int i = 0; i < a.nfiles; i++) {
        const bb_darshan_job *j = &jobs[i];
        int um = j->use_mpiio ? BB_DX_MPIIO : BB_DX_POSIX;
        const char *mn = j->use_mpiio ? "MPIIO" : "POSIX";

        fprintf(fp, "#\n# %s: exe %s, job %s, %ld processes, run time %.6g s\n", j->source,
                j->exe[0] ? j->exe : "?", j->jobid[0] ? j->jobid : "?", j->nprocs, j->run_time_s);
        fprintf(fp, "#   counters: %s_BYTES_READ %.0f, %s_BYTES_WRITTEN %.0f, STDIO_BYTES_READ %.0f, "
                    "STDIO_BYTES_WRITTEN %.0f;\n#   %s/STDIO_F_{READ,WRITE,META}_TIME and "
                    "F_SLOWEST_RANK_TIME: slowest-rank I/O time %.6g s\n",
                mn, j->bytes_read[um], mn, j->bytes_written[um], j->bytes_read[BB_DX_STDIO],
                j->bytes_written[BB_DX_STDIO], mn, j->io_time_s);
        if (j->bytes_written[um] + j->bytes_written[BB_DX_STDIO] == 0)
            fprintf(fp, "#   warning: no write activity: the burst buffer absorbs writes; this "
                        "row is read traffic only\n");
        if (j->present[BB_DX_POSIX] && j->present[BB_DX_MPIIO])
            fprintf(fp, "#   warning: MPI-IO and POSIX both present: MPI-IO runs on POSIX, so only "
                        "POSIX (+ STDIO) counters are used; MPI-IO collective waiting is not counted\n");
        if (j->unmonitored[0])
            fprintf(fp, "#   warning: counters not monitored (-1), left out: %s\n", j->unmonitored);
        if (j->io_time_s == 0)
            fprintf(fp, "#   warning: no I/O time recorded: p = 0, bw = 0\n");
        if (j->io_time_s >= j->run_time_s)
            fprintf(fp, "#   warning: I/O time %.6g s >= run time: p clamped to 1\n", j->io_time_s);
    }
    /* Issue 13: a burst length needs the write phases of a job, which the
     * counters read here (byte and time totals) do not separate: one 10 GB
     * write of 100 s and ten of 10 s look the same.  Say so rather than
     * guess; the rows stay in the paper's memoryless model. */
    fprintf(fp, "#\n# burst: not estimated: darshan's totals do not say how the write time "
                "splits into phases.\n# Add a 'burst' column (mean length of one write phase, "
                "e.g. 5min) where you know it:\n# without it bbsize uses the memoryless model, "
                "whose answer depends on the time unit.\n");
    bb_warn("fit darshan: no burst length estimated (the counters give I/O time totals, not "
            "phases); add a 'burst' column where you know it");
    fprintf(fp, "name,p,bw\n");
    for (int i = 0; i < a.nfiles; i++) {
        char name[64];

        row_name(&jobs[i], i, name, sizeof name);
        /* Distinct names: a repeated one gets the file's position. */
        for (int k = 0; k < i; k++) {
            char other[64];

            row_name(&jobs[k], k, other, sizeof other);
            if (strcmp(other, name) == 0) {
                size_t l = strlen(name);

                snprintf(name + (l > 50 ? 50 : l), sizeof name - (l > 50 ? 50 : l), "-%d", i + 1);
                break;
            }
        }
        fprintf(fp, "%s,%.6g,%.6gMB/s\n", name, jobs[i].p, jobs[i].bw_Bps / 1e6);
    }
    free(jobs);
    if (a.out.output)
        bb_out_commit(&out);
    return BB_EXIT_OK;
}
