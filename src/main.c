/* main.c: bbsize, how large and how fast a shared burst buffer must be.
 * Dispatches to the subcommands of commands.h.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <argp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "bbmpi.h"
#include "cli.h"
#include "commands.h"
#include "datadir.h"
#include "mpistart.h"

#ifdef HAVE_MPI
const char *argp_program_version = PACKAGE_STRING " (MPI)";
#else
const char *argp_program_version = PACKAGE_STRING;
#endif
const char *argp_program_bug_address = NULL;

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    /* the analytic answers */
    { "size", bb_cmd_size, "smallest buffer for a target idle fraction (the one-line answer)" },
    { "idle", bb_cmd_idle, "idle and quiet fractions for a buffer size (greedy or lazy)" },
    { "dist", bb_cmd_dist, "instantaneous load distribution and its Chernoff bounds" },
    { "threshold", bb_cmd_threshold, "best lazy-draining threshold for a buffer size" },
    /* what-if studies */
    { "sweep", bb_cmd_sweep, "idle and quiet fractions over a grid of sizes, thresholds, loads" },
    { "frontier", bb_cmd_frontier, "capacity against burst-buffer bandwidth: the size at each bandwidth" },
    { "design", bb_cmd_design, "the cheapest design over PFS bandwidths (capacity, bandwidth, cost)" },
    { "partition", bb_cmd_partition, "static partitions of the buffer per group against the shared one" },
    { "report", bb_cmd_report, "what-if report (HTML with SVG plots, or Markdown)" },
    { "systems", bb_cmd_systems, "platform presets of real machines (for --system NAME)" },
    { "fit", bb_cmd_fit, "a workload from Darshan logs, bursts included (fit darshan PATH...)" },
    { "generate", bb_cmd_generate, "a random workload as in the paper (Section 4.3)" },
    /* the validation simulator */
    { "simulate", bb_cmd_simulate, "discrete-event simulation with confidence intervals" },
    { "validate", bb_cmd_validate, "analytic idle fraction beside the simulated one, per size" },
    { "compare", bb_cmd_compare, "an application alone beside the same application in a mix (scenarios)" },
    { "device", bb_cmd_device, "fio-style microbenchmark on a storage-device model (HDD, SSD, table)" },
    { "bbarch", bb_cmd_bbarch, "burst-buffer architectures: capacity, draining, failures, iostat" },
    { "netload", bb_cmd_netload, "accepted vs offered load on a flow-level dragonfly network" },
    { "trace", bb_cmd_trace, "VEF traces, Graph500 and file loads as operation streams (and runs)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *fp)
{
    fprintf(fp, "Usage: bbsize COMMAND [OPTION...] [FILE]\n"
                "How large and how fast must a shared burst buffer be so that a mix of\n"
                "applications almost never stalls on I/O?\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\nWithout FILE, commands use the built-in default workload.\n"
                "`bbsize COMMAND --help` lists a command's options; man bbsize(1).\n");
}

#if defined HAVE_MPI && defined HAVE_ON_EXIT
/* A rank other than 0 writes its standard output to /dev/null and holds
 * its standard error in a temporary file, shown (each line prefixed with
 * the rank) only if the rank fails alone: not after a failure that every
 * rank shares (bbs_mpi_agreed_failure), nor when rank 0 says within a
 * second that it fails too (bad input fails on every rank; rank 0's
 * message is enough). */
static int held_fd = -1, orig_err = -1;

static void
show_held_stderr(int status, void *arg)
{
    FILE *in, *out;
    char line[1024];

    (void)arg;
    if (status == 0 || bbs_mpi_agreed_failure() || held_fd < 0 || bbs_mpi_rank0_failed(1.0))
        return;
    fflush(stderr);
    in = fdopen(dup(held_fd), "r");
    out = fdopen(orig_err, "w");
    if (in && out && lseek(held_fd, 0, SEEK_SET) == 0) {
        rewind(in);
        while (fgets(line, sizeof line, in))
            fprintf(out, "bbsize (rank %d): %s", bbs_mpi_rank(),
                    strncmp(line, "bbsize: ", 8) == 0 ? line + 8 : line);
        fflush(out);
    }
    if (in)
        fclose(in);
}

static void
quiet_rank(void)
{
    int null = open("/dev/null", O_WRONLY);
    FILE *held = tmpfile();

    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    if (held) {
        orig_err = dup(STDERR_FILENO);
        held_fd = dup(fileno(held));
        fclose(held);
        dup2(held_fd, STDERR_FILENO);
        on_exit(show_held_stderr, NULL);
    } else if ((null = open("/dev/null", O_WRONLY)) >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
}
#else
/* Without on_exit: a rank other than 0 sends both streams to /dev/null. */
static void
quiet_rank(void)
{
    int null = open("/dev/null", O_WRONLY);

    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
}
#endif

int
main(int argc, char **argv)
{
    char name[64];
    int status;

    /* Under an MPI launcher every rank runs this same program on the same
     * inputs (and fails the same way on bad ones); rank 0 alone speaks. */
    if (bb_mpi_start(&argc, &argv) && bbs_mpi_rank() != 0)
        quiet_rank();
    gsl_set_error_handler_off();
    bb_datadir_init(argv[0]);
    bb_limits_init();
    bb_options_init();
    bb_out_watch_inputs();   /* every input read is checked against the outputs */
    argp_err_exit_status = BB_EXIT_USAGE;
    if (argc < 2) {
        usage(stderr);
        return BB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        bb_finish_stdout();
        return BB_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("%s\n", argp_program_version);
        bb_finish_stdout();
        return BB_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            snprintf(name, sizeof name, "bbsize %s", commands[i].name);
            argv[1] = name;
            bb_usage_command(name);
            status = commands[i].run(argc - 1, argv + 1);
            bb_finish_stdout();
            return status;
        }
    fprintf(stderr, "bbsize: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return BB_EXIT_USAGE;
}
