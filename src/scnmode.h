/* scnmode.h: the scenario modes of `bbsize simulate` and `bbsize
 * validate` (bbsize-scenario(5)), called by those commands after their
 * one argp parse has read --scenario FILE (or a SCENARIO.ini argument)
 * with the rest of the options: they never parse argv again.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_SCNMODE_H
#define BBSIZE_SRC_SCNMODE_H

#include "options.h"

/* bb_scenario_simulate (cmd_scenario.c): run the scenario in file and
 * print per application and per link type (--json, text), or with --csv
 * the table of applications; links_csv (NULL: none) names a file that
 * receives the table of link types as CSV, written atomically;
 * run->seed_set overrides the scenario's [run] seed.  Returns the exit
 * status; dies on error. */
int bb_scenario_simulate(const char *file, const bb_outopts *out, const bb_runopts *run,
                         const char *links_csv);

/* What `validate --scenario` reads (bbsize-validate(1)). */
typedef struct {
    const char *file;          /* --scenario FILE */
    long reps;                 /* --replications, default 5 */
    long resolution;           /* --resolution, default 100 */
    long threads;              /* --threads, 0: every core */
    int have_seed, csv, json, quiet, progress;
    unsigned long long seed;   /* --seed (with have_seed) */
    double level;              /* --confidence, default 0.95 */
    double pfs_Bps;            /* --pfs-bw, 0: the scenario's */
    double cap_bytes;          /* --capacity, 0: the scenario's */
    double tu_s;               /* --time-unit, 0: the median write burst */
    double maxmem;             /* --max-memory, default 4 GB */
} bb_scn_vopts;

/* bb_validate_scenario (cmd_validate_scn.c): the system-level
 * cross-check.  Returns the exit status; dies on error. */
int bb_validate_scenario(const bb_scn_vopts *o);

#endif
