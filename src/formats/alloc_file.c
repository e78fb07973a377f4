/* alloc_file.c: allocation files -> bbs_net_placement (alloc_file.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_file.h"
#include "bb_error.h"
#include "bb_num.h"
#include "grow.h"

enum bb_status
bbs_net_alloc_parse(const bbs_net_topo *t, const char *text, size_t len, const char *name,
                    bbs_net_placement *pl, char *err)
{
    int *line_of = NULL, n = 0, line = 1, rc = BB_OK;
    size_t capn = 0, capj = 0;
    size_t i = 0;

    memset(pl, 0, sizeof *pl);
    line_of = calloc((size_t)t->ncompute + 1, sizeof(int));
    if (!line_of)
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    while (i < len) {
        int field = 0, start_n = n;
        while (i < len && text[i] != '\n') {
            char buf[32];
            size_t b = 0;
            long v;
            if (isspace((unsigned char)text[i])) {
                i++;
                continue;
            }
            field++;
            while (i < len && !isspace((unsigned char)text[i]) && b < sizeof buf - 1)
                buf[b++] = text[i++];
            buf[b] = '\0';
            if (bb_num_full_long(buf, &v) != BB_NUM_OK || v < 0
                || (i < len && !isspace((unsigned char)text[i]))) {
                rc = bb_seterr(err, BB_EDATA, "%s:%d: field %d: '%s' is not a node index "
                               "(a non-negative integer)", name, line, field, buf);
                goto fail;
            }
            if (v >= t->ncompute) {
                rc = bb_seterr(err, BB_EDATA, "%s:%d: field %d: node index %ld is out of range "
                               "0..%d (compute nodes)", name, line, field, v, t->ncompute - 1);
                goto fail;
            }
            if (line_of[v]) {
                rc = bb_seterr(err, BB_EDATA, "%s:%d: field %d: node index %ld repeats (already "
                               "used on line %d)", name, line, field, v, line_of[v]);
                goto fail;
            }
            line_of[v] = line;
            if (bbs_grow((void **)&pl->node, sizeof *pl->node, &capn, (size_t)n + 1))
                goto nomem;
            pl->node[n++] = t->compute_nodes[v];
        }
        if (n > start_n) {
            if (bbs_grow((void **)&pl->job_off, sizeof *pl->job_off, &capj,
                         (size_t)pl->njobs + 2))
                goto nomem;
            if (pl->njobs == 0)
                pl->job_off[0] = 0;
            pl->job_off[++pl->njobs] = n;
        }
        i++;
        line++;
    }
    free(line_of);
    if (pl->njobs == 0) {
        bbs_net_placement_free(pl);
        return bb_seterr(err, BB_EDATA, "%s: no job (an allocation file has one line of node "
                         "indices per job)", name);
    }
    return BB_OK;
nomem:
    rc = bb_seterr(err, BB_ENOMEM, "out of memory reading %s", name);
fail:
    free(line_of);
    bbs_net_placement_free(pl);
    return rc;
}
