/* topoload.h: the one way a bbsize command reads a dragonfly topology
 * (netload, trace, bbarch; the scenario loader with its [topology]
 * section), so that every command has the same abilities: a preset name
 * (bbs_net_preset), or a CODES dragonfly_dally .conf whose wiring files
 * are read (as written, beside the .conf, or by base name there) unless
 * overridden by --intra/--inter or --generate-wiring (CODES' rule), and
 * --bb-per-group (bbsize-topology(5)).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * src/ code: reads files, dies with the documented status: an unknown
 * preset 64 (listing the names), an unreadable file 66, a bad .conf or
 * wiring 65 naming the file and field, a topology beyond --max-memory 2. */
#ifndef BBSIZE_SRC_TOPOLOAD_H
#define BBSIZE_SRC_TOPOLOAD_H

#include <argp.h>

#include "network/topo.h"

typedef struct {
    const char *topology;     /* --topology PRESET|FILE, or NULL */
    const char *intra, *inter;/* --intra, --inter: CODES binary wiring files */
    int generate;             /* --generate-wiring: ignore the .conf's files */
    int bb_per_group;         /* --bb-per-group K, -1 when not given */
    int compute_per_group;    /* --compute-per-group K, -1 when not given */
    const char *base;         /* relative .conf paths are taken beside this
                                 file (a scenario), NULL: the working dir */
} bb_topo_opts;

/* The argp child with --topology, --intra, --inter, --generate-wiring,
 * --bb-per-group and --compute-per-group (input: a bb_topo_opts initialised by bb_topo_opts_init). */
extern const struct argp bb_topo_argp;
void bb_topo_opts_init(bb_topo_opts *o);

typedef struct {
    bbs_net_params par;
    bbs_net_wiring w;
    int have_wiring;          /* w was read from files; else CODES' rule */
    char source[1200];        /* the preset name or the .conf's path */
    char wiring_src[2400];    /* "generated (CODES rule)" or the two files */
    char conf_routing[64];    /* the .conf's routing, "" if none */
    bbs_net_topo *topo;       /* after bb_topo_build */
} bb_topo;

/* bb_topo_read: the parameters and wiring of o->topology (dflt when it is
 * NULL), with --bb-per-group applied; nothing built yet, so a command can
 * adjust t->par (e.g. a default number of burst-buffer terminals). */
void bb_topo_read(const bb_topo_opts *o, const char *dflt, bb_topo *t);
/* bb_topo_build: check the bounds and build t->topo. */
void bb_topo_build(bb_topo *t);
void bb_topo_free(bb_topo *t);

/* bb_topo_routing: the routing kind (network/route.h) of a run on t: the
 * option's (opt, already checked by the command), else the .conf's when
 * it names one the simulator knows, else minimal.  The same rule in every
 * command that takes --routing. */
int bb_topo_routing(const bb_topo *t, const char *opt);

#endif
