/* wiring.h: CODES' binary wiring files (dragonfly-dally
 * intra-group-connections: records of 3 little-endian int32 (src router,
 * dst router, link type); inter-group-connections: records of 2 (src
 * global router, dst global router)) <-> bbs_net_wiring (network/topo.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef BBSIZE_SRC_FORMATS_WIRING_H
#define BBSIZE_SRC_FORMATS_WIRING_H

#include <stddef.h>

#include "bb_error.h"
#include "network/topo.h"

/* bbs_net_wiring_parse_intra / _inter: decode CODES' binary files from
 * memory (name is used in messages).  A size that is not a whole number of
 * records, or an empty file: BB_EDATA.  Range checks happen in
 * bbs_net_topo_build. */
enum bb_status bbs_net_wiring_parse_intra(bbs_net_wiring *w, const unsigned char *buf, size_t len,
                                          const char *name, char *err);
enum bb_status bbs_net_wiring_parse_inter(bbs_net_wiring *w, const unsigned char *buf, size_t len,
                                          const char *name, char *err);

/* bbs_net_wiring_encode_intra / _inter: the binary files' bytes (malloc'd,
 * caller frees).  BB_ENOMEM. */
enum bb_status bbs_net_wiring_encode_intra(const bbs_net_wiring *w, unsigned char **buf, size_t *len,
                                           char *err);
enum bb_status bbs_net_wiring_encode_inter(const bbs_net_wiring *w, unsigned char **buf, size_t *len,
                                           char *err);

#endif
