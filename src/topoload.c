/* topoload.c: reading a dragonfly from a preset or CODES files
 * (topoload.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codesconf.h"
#include "wiring.h"
#include "network/route.h"
#include "readfile.h"
#include "topoload.h"

enum { OPT_TOPOLOGY = 0x7300, OPT_INTRA, OPT_INTER, OPT_GENERATE, OPT_BBPG, OPT_CPG };

static const struct argp_option topo_options[] = {
    { NULL, 0, NULL, 0, "Network:", 10 },
    { "topology", OPT_TOPOLOGY, "PRESET|FILE", 0,
      "a dragonfly preset (graph500-72, mfnetsim-1056, balanced-16k) or a CODES "
      "dragonfly_dally .conf file (bandwidths in GiB/s, router_delay in ns)", 10 },
    { "intra", OPT_INTRA, "FILE", 0, "CODES binary intra-group wiring (overrides the .conf)",
      10 },
    { "inter", OPT_INTER, "FILE", 0, "CODES binary inter-group wiring (overrides the .conf)",
      10 },
    { "generate-wiring", OPT_GENERATE, NULL, 0,
      "ignore the .conf's wiring files and use CODES' generator rule", 10 },
    { "bb-per-group", OPT_BBPG, "K", 0, "the first K terminals of every group are "
      "burst-buffer / I/O nodes (default: the preset's or the .conf's codes-store count)", 10 },
    { "compute-per-group", OPT_CPG, "K", 0, "the first K terminals of every group are compute "
      "nodes, the first --bb-per-group of them shared with a buffer node (CODES' LP "
      "mapping); 0: every terminal that is not a buffer node (default: the preset's, or the "
      ".conf's test-checkpoint-client count)", 10 },
    { 0 }
};

static error_t
topo_parse(int key, char *arg, struct argp_state *state)
{
    bb_topo_opts *o = state->input;

    switch (key) {
    case OPT_TOPOLOGY: o->topology = arg; break;
    case OPT_INTRA: o->intra = arg; break;
    case OPT_INTER: o->inter = arg; break;
    case OPT_GENERATE: o->generate = 1; break;
    case OPT_BBPG: o->bb_per_group = (int)bb_opt_long("bb-per-group", arg, 0, INT_MAX); break;
    case OPT_CPG:
        o->compute_per_group = (int)bb_opt_long("compute-per-group", arg, 0, INT_MAX);
        break;
    case ARGP_KEY_END:
        if (!o->intra != !o->inter)
            bb_usage_together("intra", "inter", NULL);
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_topo_argp = { topo_options, topo_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_topo_opts_init(bb_topo_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bb_per_group = -1;
    o->compute_per_group = -1;
}

static void
read_wiring(bbs_net_wiring *w, const char *intra, const char *inter)
{
    char err[BB_ERRLEN];
    size_t len;
    unsigned char *b;
    int rc;

    b = (unsigned char *)bb_read_or_die(intra, &len, BB_READ_BINARY);
    rc = bbs_net_wiring_parse_intra(w, b, len, intra, err);
    free(b);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    b = (unsigned char *)bb_read_or_die(inter, &len, BB_READ_BINARY);
    rc = bbs_net_wiring_parse_inter(w, b, len, inter, err);
    free(b);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
}

/* The .conf at path: parameters, routing, and its wiring files unless
 * --intra/--inter or --generate-wiring say otherwise. */
static void
read_conf(const bb_topo_opts *o, const char *path, bb_topo *t)
{
    char err[BB_ERRLEN];
    size_t len;
    char *text = bb_read_or_die(path, &len, BB_READ_TEXT);
    bbs_net_conf *c = NULL;
    bbs_net_conf_dally d;
    int rc = bbs_net_conf_parse(text, len, path, &c, err);

    free(text);
    if (rc == BB_OK)
        rc = bbs_net_conf_dally_params(c, &d, err);
    bbs_net_conf_free(c);
    if (rc != BB_OK)
        bb_die_lib(rc, err);
    t->par = d.par;
    bb_limits_check_topology(&t->par, path);
    snprintf(t->conf_routing, sizeof t->conf_routing, "%s", d.routing);
    if (!o->generate && !o->intra && d.intra_path[0] && d.inter_path[0]) {
        char *pi = bb_path_beside(path, d.intra_path, 1), *pe = bb_path_beside(path, d.inter_path, 1);

        if (!pi || !pe) {
            free(pi);
            free(pe);
            bb_die(BB_EXIT_NOINPUT, "%s: wiring file '%s' not found (as written, beside "
                   "the .conf, or by base name there); use --intra/--inter or "
                   "--generate-wiring", path, !pi ? d.intra_path : d.inter_path);
        }
        read_wiring(&t->w, pi, pe);
        t->have_wiring = 1;
        snprintf(t->wiring_src, sizeof t->wiring_src, "%s, %s", pi, pe);
        free(pi);
        free(pe);
    }
}

void
bb_topo_read(const bb_topo_opts *o, const char *dflt, bb_topo *t)
{
    char err[BB_ERRLEN];
    const char *name = o->topology ? o->topology : dflt;

    memset(t, 0, sizeof *t);
    snprintf(t->source, sizeof t->source, "%s", name);
    snprintf(t->wiring_src, sizeof t->wiring_src, "generated (CODES rule)");
    if (bbs_net_preset(name, &t->par, err) != BB_OK) {
        char *path;

        if (!strchr(name, '/') && !strstr(name, ".conf") && !bb_path_exists(name)
            && !(o->base && (path = bb_path_beside(o->base, name, 0)) != NULL && (free(path), 1)))
            bb_usage_error("topology", "%s", err);
        path = bb_path_beside(o->base, name, 0);
        if (path == NULL)   /* as written: bb_read_file names the error */
            path = strdup(name);
        if (path == NULL)
            bb_die(BB_EXIT_SOFTWARE, "out of memory");
        snprintf(t->source, sizeof t->source, "%s", path);
        read_conf(o, path, t);
        free(path);
    }
    if (o->intra) {
        bbs_net_wiring_free(&t->w);
        read_wiring(&t->w, o->intra, o->inter);
        t->have_wiring = 1;
        snprintf(t->wiring_src, sizeof t->wiring_src, "%s, %s", o->intra, o->inter);
    }
    if (o->bb_per_group >= 0)
        t->par.bb_per_group = o->bb_per_group;
    if (o->compute_per_group >= 0)
        t->par.compute_per_group = o->compute_per_group;
}

void
bb_topo_build(bb_topo *t)
{
    char err[BB_ERRLEN];
    int rc;

    bb_limits_check_topology(&t->par, t->source);
    rc = bbs_net_topo_build(&t->par, t->have_wiring ? &t->w : NULL, &t->topo, err);
    if (rc != BB_OK)
        bb_die(bb_exit_status(rc), "%s: %s", t->source, err);
}

int
bb_topo_routing(const bb_topo *t, const char *opt)
{
    char err[BB_ERRLEN];
    int k;

    if (opt && bbs_net_route_parse(opt, &k, err) == BB_OK)
        return k;
    if (t->conf_routing[0] && bbs_net_route_parse(t->conf_routing, &k, err) == BB_OK)
        return k;
    return BBS_NET_ROUTE_MIN;
}

void
bb_topo_free(bb_topo *t)
{
    bbs_net_topo_free(t->topo);
    bbs_net_wiring_free(&t->w);
    memset(t, 0, sizeof *t);
}
