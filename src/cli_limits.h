/* cli_limits.h: the bounds of every run (bbsize(1), BOUNDS): the events
 * and memory a command may spend, the options that raise them, and the
 * checks a command makes before it starts (cli_limits.c).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_CLI_LIMITS_H
#define BBSIZE_SRC_CLI_LIMITS_H

#include <argp.h>

/* Bounds of every simulation (bbsize(1), BOUNDS): a command estimates the
 * events and memory of a run before it starts and refuses (status 2) one
 * beyond them; the event engine stops any run that still exceeds them.
 * --max-events and --max-memory raise them on purpose. */
#define BB_DEFAULT_MAX_EVENTS 1e9
typedef struct {
    double max_events;        /* events in all replications of one command */
    double max_memory_bytes;  /* 0: 75% of physical memory */
} bb_limits;
extern bb_limits bb_run_limits;
/* bb_limits_init: the defaults, handed to the event engine (main calls it
 * before any command). */
void bb_limits_init(void);
/* bb_limits_set_events, bb_limits_set_memory: parse an option value
 * (exit 64 on a bad one) and hand the new bounds to the engine. */
void bb_limits_set_events(const char *arg);
void bb_limits_set_memory(const char *arg);
/* The argp child with --max-events and --max-memory, for the simulation
 * commands that have no bb_common (its input is unused). */
extern const struct argp bb_limits_argp;
/* The same with --max-events only, for commands with a --max-memory of
 * their own. */
extern const struct argp bb_events_argp;
/* The --max-events option, for argp tables that have --max-memory already. */
#define BB_OPT_MAX_EVENTS 0x1f00
#define BB_OPT_MAX_MEMORY 0x1f01
#define BB_MAX_EVENTS_OPTION { "max-events", BB_OPT_MAX_EVENTS, "N", 0, \
      "refuse runs of more events than this (default 1e9, a few minutes)", 0 }
/* bb_limits_memory_default: three quarters of the machine's memory,
 * bytes (4e9 when the system does not say): the bound of a command given
 * no --max-memory. */
double bb_limits_memory_default(void);
/* bb_limits_memory: the memory bound, bytes: --max-memory, or three
 * quarters of the machine's memory. */
double bb_limits_memory(void);
/* bb_limits_check: before a run, die with status 2 when about `events`
 * events or `bytes` bytes exceed the bounds.  what names the run ("the
 * simulation"), detail says how the estimate was made, shrink names the
 * options that make it smaller. */
void bb_limits_check(const char *what, double events, double bytes, const char *detail,
                     const char *shrink);
/* bb_limits_test: the same check returning BB_OK, or BB_ETOOBIG with the
 * message in err (BB_ERRLEN bytes), for a caller that returns statuses. */
int bb_limits_test(const char *what, double events, double bytes, const char *detail,
                   const char *shrink, char *err);

/* bb_limits_check_topology: the same for building a dragonfly of shape
 * par (source names where it came from), before anything is allocated. */
void bb_limits_check_topology(const void *par, const char *source);

#endif
