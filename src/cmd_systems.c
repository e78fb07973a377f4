/* cmd_systems.c: `bbsize systems`, the platform presets of real machines
 * that --system NAME loads (bbsize-system(5)).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "datadir.h"


struct args {
    bb_outopts out;   /* --json */
};

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        break;
    case ARGP_KEY_ARG:
        bb_usage_unexpected(arg, NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON), 0, NULL, 0 }, { 0 }
};

static const struct argp argp = {
    NULL, parse, "",
    "List the platform presets of real machines (for --system NAME).\v"
    "Presets are read from the systems folder of $BBSIZE_DATADIR when it is set, "
    "then of the data directory shipped with bbsize (../data or ../share/bbsize "
    "beside the executable, else the installed one; the JSON output names it); "
    "see bbsize-system(5).",
    children, NULL, NULL
};

static json_t *
qty_json(const bb_qty *q)
{
    return q->set ? json_real(q->v) : json_null();
}

int
bb_cmd_systems(int argc, char **argv)
{
    struct args a;
    const char *dirs[BB_DATADIR_MAX];
    char **names, err[BB_ERRLEN];
    size_t n, ndirs = bb_datadirs(dirs);
    json_t *arr = NULL;
    int status = BB_EXIT_OK;

    memset(&a, 0, sizeof a);
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    n = bb_system_names(dirs, ndirs, &names);
    if (n == 0)
        bb_die(BB_EXIT_NOINPUT, "no platform presets found (no systems folder in $BBSIZE_DATADIR, "
               "beside the executable or in %s)", BBSIZE_DATADIR);
    if (a.out.json)
        arr = json_array();
    else
        printf("%-15s %-11s %-11s %-11s %-9s %-8s %-12s %s\n", "NAME", "PFS_BW", "BB_SIZE",
               "BB_BW", "NODES", "BB_NODES", "BB_KIND", "TITLE");
    for (size_t i = 0; i < n; i++) {
        bb_system s;
        char pfs[32] = "-", bbs[32] = "-", bbw[32] = "-";
        int rc = bb_system_lookup(names[i], &s, err, sizeof err);

        if (rc != 0) {
            /* One broken preset (unreadable, a dangling link, bad data)
             * does not hide the others; it is named and sets the status. */
            bb_warn("%s", err);
            if (status == BB_EXIT_OK)
                status = bb_exit_status(rc);
            continue;
        }
        if (a.out.json) {
            json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:I, s:I, s:s}",
                                  "name", s.name, "title", s.title, "bb_kind", s.kind,
                                  "pfs_bw_bytes_per_s", qty_json(&s.pfs_bw),
                                  "bb_size_bytes", qty_json(&s.bb_size),
                                  "bb_bw_bytes_per_s", qty_json(&s.bb_bw),
                                  "time_unit_s", qty_json(&s.time_unit),
                                  "compute_nodes", (json_int_t)s.compute_nodes,
                                  "bb_nodes", (json_int_t)s.bb_nodes,
                                  "file", s.path);
            json_array_append_new(arr, o);
            continue;
        }
        bb_fmt_rate(pfs, sizeof pfs, s.pfs_bw.v, 1, 0);
        if (s.bb_size.set)
            bb_fmt_size(bbs, sizeof bbs, s.bb_size.v, 0);
        if (s.bb_bw.set)
            bb_fmt_rate(bbw, sizeof bbw, s.bb_bw.v, 1, 0);
        printf("%-15s %-11s %-11s %-11s %-9ld %-8ld %-12s %s\n", s.name, pfs, bbs, bbw,
               s.compute_nodes, s.bb_nodes, s.kind, s.title);
    }
    bb_system_names_free(names, n);
    if (a.out.json) {
        const char *shipped = bb_datadir_shipped();

        bb_json_print(json_pack("{s:o, s:o}", "systems", arr, "data_directory",
                                shipped ? json_string(shipped) : json_null()));
    }
    return status;
}
