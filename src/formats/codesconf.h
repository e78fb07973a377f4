/* codesconf.h: CODES configuration files in the legacy grammar, and the
 * dragonfly_dally parameters they carry.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grammar (CODES' configuration lexer, as used by MFNetSim and the CODES
 * examples): sections `NAME { ... }` that nest; entries `key = "value";` or
 * `key = ("a", "b");`; values always double-quoted; comments `#`, `//` and
 * C-style block comments; a key may carry an `@annotation`.  The parser
 * works on a buffer in memory (the caller reads the file) and keeps every
 * entry with its section path ("PARAMS", "LPGROUPS/DRAGONFLY_GRP") and line.
 * Files are small (< 1,000 entries): look-ups are linear. */
#ifndef BBSIZE_SRC_FORMATS_CODESCONF_H
#define BBSIZE_SRC_FORMATS_CODESCONF_H

#include <stddef.h>

#include "bb_error.h"
#include "network/topo.h"

typedef struct {
    char *section;      /* "A/B" path of enclosing sections */
    char *key;
    char *annotation;   /* after '@', or NULL */
    int nvals;
    char **vals;
    int line;
} bbs_net_conf_entry;

typedef struct {
    size_t n;
    bbs_net_conf_entry *e;
    char *name;         /* for messages */
    int dup_line;       /* parser scratch: line of a duplicate key's first entry */
} bbs_net_conf;

/* Bounds of the parser: sections nest at most this deep, a file holds at
 * most this many entries (CODES files: two levels, a few dozen entries);
 * beyond them BB_EDATA naming the line.  A key appears once per section. */
#define BBS_NET_CONF_MAX_DEPTH 32
#define BBS_NET_CONF_MAX_ENTRIES 10000

/* bbs_net_conf_parse: parse len bytes of text (need not be NUL-terminated).
 * Syntax errors: BB_EDATA with "name:line: ..." and what was expected.
 * On success *out is owned by the caller (bbs_net_conf_free). */
enum bb_status bbs_net_conf_parse(const char *text, size_t len, const char *name, bbs_net_conf **out,
                                  char *err);
void bbs_net_conf_free(bbs_net_conf *c);

/* bbs_net_conf_get: the first entry with this section path and key (any
 * annotation), or NULL. */
const bbs_net_conf_entry *bbs_net_conf_get(const bbs_net_conf *c, const char *section,
                                           const char *key);

/* What a dragonfly_dally configuration says, in SI units. */
typedef struct {
    bbs_net_params par;
    char intra_path[1024];      /* intra-group-connections ("" if absent) */
    char inter_path[1024];      /* inter-group-connections ("" if absent) */
    char routing[64];           /* CODES' name, "" if absent */
    int router_delay_given;
} bbs_net_conf_dally;

/* bbs_net_conf_dally_params: read PARAMS num_groups (g), num_routers (a),
 * num_cns_per_router (p), num_global_channels (h), cn_bandwidth,
 * local_bandwidth, global_bandwidth (GiB/s, as CODES' dragonfly-dally reads
 * them), router_delay (ns, default 100), the two connection files and
 * routing; and from LPGROUPS the number of "codes-store" LPs, which become
 * the burst-buffer terminals (the first ones of every group).  A missing
 * or non-numeric required key is BB_EDATA naming file, line and key:
 * in particular num_global_channels, which CODES silently defaults to 10.
 * LP counts that do not add up to g*a*p terminals and g*a routers are
 * BB_EDATA too. */
enum bb_status bbs_net_conf_dally_params(const bbs_net_conf *c, bbs_net_conf_dally *out, char *err);

#endif
