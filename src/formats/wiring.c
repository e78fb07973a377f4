/* wiring.c: CODES' binary wiring files <-> bbs_net_wiring (wiring.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "bb_error.h"
#include "wiring.h"

static int32_t
get_le32(const unsigned char *b)
{
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16
                 | (uint32_t)b[3] << 24;
    return (int32_t)u;
}

static void
put_le32(unsigned char *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    b[0] = u & 0xff;
    b[1] = (u >> 8) & 0xff;
    b[2] = (u >> 16) & 0xff;
    b[3] = (u >> 24) & 0xff;
}

static int
parse_records(const unsigned char *buf, size_t len, int fields, const char *name, int **out,
              size_t *n, char *err)
{
    size_t rec = 4 * (size_t)fields;

    if (len == 0 || len % rec != 0)
        return bb_seterr(err, BB_EDATA,
                         "%s: %zu bytes is not a whole number of %zu-byte records "
                         "(%d little-endian int32 each)", name, len, rec, fields);
    *n = len / rec;
    *out = malloc(len / 4 * sizeof(int));
    if (!*out)
        return bb_seterr(err, BB_ENOMEM, "%s: out of memory", name);
    for (size_t i = 0; i < len / 4; i++)
        (*out)[i] = get_le32(buf + 4 * i);
    return BB_OK;
}

/* Decode records of `fields` ints into *dst (its old records freed) and
 * their number into *n; *dst and *n unchanged on error. */
static int
decode(const unsigned char *buf, size_t len, int fields, const char *name, void **dst,
       size_t *n, char *err)
{
    int *v = NULL;
    size_t k = 0;
    int rc = parse_records(buf, len, fields, name, &v, &k, err);

    if (rc != BB_OK)
        return rc;
    free(*dst);
    *dst = v;
    *n = k;
    return BB_OK;
}

enum bb_status
bbs_net_wiring_parse_intra(bbs_net_wiring *w, const unsigned char *buf, size_t len,
                           const char *name, char *err)
{
    void *p = w->intra;
    int rc = decode(buf, len, 3, name, &p, &w->nintra, err);

    w->intra = (int (*)[3])p;
    return rc;
}

enum bb_status
bbs_net_wiring_parse_inter(bbs_net_wiring *w, const unsigned char *buf, size_t len,
                           const char *name, char *err)
{
    void *p = w->inter;
    int rc = decode(buf, len, 2, name, &p, &w->ninter, err);

    w->inter = (int (*)[2])p;
    return rc;
}

static int
encode(const int *v, size_t nint, unsigned char **buf, size_t *len, char *err)
{
    *len = 4 * nint;
    *buf = malloc(*len ? *len : 1);
    if (!*buf)
        return bb_seterr(err, BB_ENOMEM, "out of memory encoding the wiring");
    for (size_t i = 0; i < nint; i++)
        put_le32(*buf + 4 * i, v[i]);
    return BB_OK;
}

enum bb_status
bbs_net_wiring_encode_intra(const bbs_net_wiring *w, unsigned char **buf, size_t *len,
                            char *err)
{
    return encode(&w->intra[0][0], 3 * w->nintra, buf, len, err);
}

enum bb_status
bbs_net_wiring_encode_inter(const bbs_net_wiring *w, unsigned char **buf, size_t *len,
                            char *err)
{
    return encode(&w->inter[0][0], 2 * w->ninter, buf, len, err);
}
