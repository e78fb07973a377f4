/* codesconf.c: CODES legacy configuration grammar and dragonfly_dally
 * parameters.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_error.h"
#include "bb_num.h"
#include "codesconf.h"
#include "network/route.h"

#define GIB 1073741824.0

enum tok { T_EOF, T_IDENT, T_STRING, T_LBRACE, T_RBRACE, T_EQ, T_SEMI, T_LPAREN, T_RPAREN,
           T_COMMA, T_BAD };

typedef struct {
    const char *s;
    size_t len, pos;
    int line;
    const char *name;
    enum tok tok;
    char *text;      /* identifier or string value (malloc'd) */
    int tok_line;
    char *err;
} lexer;

static const char *
tok_name(enum tok t)
{
    static const char *n[] = { "end of file", "a name", "a quoted string", "'{'", "'}'", "'='",
                               "';'", "'('", "')'", "','", "an unexpected character" };
    return n[t];
}

static int
is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '@' || c == '/' || c == '['
           || c == ']';
}

/* next token; BB_OK or an error code */
static int
lex(lexer *L)
{
    free(L->text);
    L->text = NULL;
    for (;;) {
        while (L->pos < L->len && isspace((unsigned char)L->s[L->pos])) {
            if (L->s[L->pos] == '\n')
                L->line++;
            L->pos++;
        }
        if (L->pos >= L->len) {
            L->tok = T_EOF;
            L->tok_line = L->line;
            return BB_OK;
        }
        if (L->s[L->pos] == '#'
            || (L->s[L->pos] == '/' && L->pos + 1 < L->len && L->s[L->pos + 1] == '/')) {
            while (L->pos < L->len && L->s[L->pos] != '\n')
                L->pos++;
            continue;
        }
        if (L->s[L->pos] == '/' && L->pos + 1 < L->len && L->s[L->pos + 1] == '*') {
            int start = L->line;
            L->pos += 2;
            while (L->pos + 1 < L->len && !(L->s[L->pos] == '*' && L->s[L->pos + 1] == '/')) {
                if (L->s[L->pos] == '\n')
                    L->line++;
                L->pos++;
            }
            if (L->pos + 1 >= L->len)
                return bb_seterr(L->err, BB_EDATA, "%s:%d: unterminated /* comment", L->name,
                                 start);
            L->pos += 2;
            continue;
        }
        break;
    }
    L->tok_line = L->line;
    {
        char c = L->s[L->pos];
        switch (c) {
        case '{': L->tok = T_LBRACE; L->pos++; return BB_OK;
        case '}': L->tok = T_RBRACE; L->pos++; return BB_OK;
        case '=': L->tok = T_EQ; L->pos++; return BB_OK;
        case ';': L->tok = T_SEMI; L->pos++; return BB_OK;
        case '(': L->tok = T_LPAREN; L->pos++; return BB_OK;
        case ')': L->tok = T_RPAREN; L->pos++; return BB_OK;
        case ',': L->tok = T_COMMA; L->pos++; return BB_OK;
        default: break;
        }
        if (c == '"') {
            size_t st = ++L->pos;
            while (L->pos < L->len && L->s[L->pos] != '"' && L->s[L->pos] != '\n')
                L->pos++;
            if (L->pos >= L->len || L->s[L->pos] != '"')
                return bb_seterr(L->err, BB_EDATA, "%s:%d: unterminated string", L->name,
                                 L->line);
            L->text = strndup(L->s + st, L->pos - st);
            L->pos++;
            L->tok = T_STRING;
            return L->text ? BB_OK : bb_seterr(L->err, BB_ENOMEM, "out of memory");
        }
        if (is_ident((unsigned char)c)) {
            size_t st = L->pos;
            while (L->pos < L->len && is_ident((unsigned char)L->s[L->pos]))
                L->pos++;
            L->text = strndup(L->s + st, L->pos - st);
            L->tok = T_IDENT;
            return L->text ? BB_OK : bb_seterr(L->err, BB_ENOMEM, "out of memory");
        }
        if (isprint((unsigned char)c))
            return bb_seterr(L->err, BB_EDATA, "%s:%d: unexpected character '%c'", L->name,
                             L->line, c);
        return bb_seterr(L->err, BB_EDATA, "%s:%d: unexpected byte 0x%02x", L->name, L->line,
                         (unsigned char)c);
    }
}

static int
expected(lexer *L, const char *what)
{
    return bb_seterr(L->err, BB_EDATA, "%s:%d: expected %s, found %s%s%s%s", L->name,
                     L->tok_line, what, tok_name(L->tok), L->text ? " '" : "",
                     L->text ? L->text : "", L->text ? "'" : "");
}

static int
add_entry(bbs_net_conf *c, const char *section, char *key, char **vals, int nvals, int line)
{
    bbs_net_conf_entry *e;
    char *at;
    size_t klen = strcspn(key, "@");

    if (c->n >= BBS_NET_CONF_MAX_ENTRIES)
        return BB_ETOOBIG;
    /* A key appears once per section (bbsize-topology(5)): a second one
     * would be silently ignored by bbs_net_conf_get. */
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->e[i].section, section) == 0 && strlen(c->e[i].key) == klen
            && strncmp(c->e[i].key, key, klen) == 0) {
            c->dup_line = c->e[i].line;
            return BB_EDATA;
        }
    e = realloc(c->e, (c->n + 1) * sizeof *e);
    if (!e)
        return BB_ENOMEM;
    c->e = e;
    e = &c->e[c->n];
    memset(e, 0, sizeof *e);
    e->section = strdup(section);
    if (!e->section)
        return BB_ENOMEM;
    at = strchr(key, '@');
    if (at) {
        e->annotation = strdup(at + 1);
        *at = '\0';
        if (!e->annotation) {
            free(e->section);
            return BB_ENOMEM;
        }
    }
    e->key = key;
    e->vals = vals;
    e->nvals = nvals;
    e->line = line;
    c->n++;
    return BB_OK;
}

static int parse_body(lexer *L, bbs_net_conf *c, const char *section, int depth);

static int
parse_value(lexer *L, bbs_net_conf *c, const char *section, char *key, int line)
{
    char **vals = NULL;
    int n = 0, rc;

    if ((rc = lex(L)) != BB_OK)
        goto fail;
    if (L->tok == T_STRING) {
        vals = malloc(sizeof *vals);
        if (!vals)
            goto nomem;
        vals[n++] = L->text;
        L->text = NULL;
    } else if (L->tok == T_LPAREN) {
        for (;;) {
            char **nv;
            if ((rc = lex(L)) != BB_OK)
                goto fail;
            if (L->tok == T_RPAREN && n == 0)
                break;
            if (L->tok != T_STRING) {
                rc = expected(L, "a quoted string in the list");
                goto fail;
            }
            nv = realloc(vals, (size_t)(n + 1) * sizeof *vals);
            if (!nv)
                goto nomem;
            vals = nv;
            vals[n++] = L->text;
            L->text = NULL;
            if ((rc = lex(L)) != BB_OK)
                goto fail;
            if (L->tok == T_RPAREN)
                break;
            if (L->tok != T_COMMA) {
                rc = expected(L, "',' or ')'");
                goto fail;
            }
        }
    } else {
        rc = expected(L, "a quoted value or a ( list )");
        goto fail;
    }
    if ((rc = add_entry(c, section, key, vals, n, line)) != BB_OK) {
        if (rc == BB_ETOOBIG)
            rc = bb_seterr(L->err, BB_EDATA, "%s:%d: more than %d entries (CODES files have a "
                           "few dozen)", L->name, line, BBS_NET_CONF_MAX_ENTRIES);
        else if (rc == BB_EDATA)
            rc = bb_seterr(L->err, BB_EDATA, "%s:%d: key '%.*s' given twice in section '%s' "
                           "(first at line %d); a key appears once", L->name, line,
                           (int)strcspn(key, "@"), key, section, c->dup_line);
        else
            goto nomem;
        goto fail;
    }
    return BB_OK;
nomem:
    rc = bb_seterr(L->err, BB_ENOMEM, "out of memory");
fail:
    for (int i = 0; i < n; i++)
        free(vals[i]);
    free(vals);
    free(key);
    return rc;
}

static int
parse_body(lexer *L, bbs_net_conf *c, const char *section, int depth)
{
    int rc;

    /* Bounded recursion: CODES files nest two levels; 100,000 nested
     * sections overflowed the stack (and built paths of O(depth^2) bytes). */
    if (depth > BBS_NET_CONF_MAX_DEPTH)
        return bb_seterr(L->err, BB_EDATA, "%s:%d: sections nested deeper than %d",
                         L->name, L->tok_line, BBS_NET_CONF_MAX_DEPTH);

    if ((rc = lex(L)) != BB_OK)
        return rc;
    for (;;) {
        char *name;
        int line;

        if (L->tok == T_EOF) {
            if (depth > 0)
                return bb_seterr(L->err, BB_EDATA, "%s:%d: end of file inside section '%s' "
                                 "(missing '}')", L->name, L->tok_line, section);
            return BB_OK;
        }
        if (L->tok == T_RBRACE) {
            if (depth == 0)
                return bb_seterr(L->err, BB_EDATA, "%s:%d: '}' without a section", L->name,
                                 L->tok_line);
            return lex(L);
        }
        if (L->tok != T_IDENT)
            return expected(L, "a section or key name");
        name = L->text;
        L->text = NULL;
        line = L->tok_line;
        if ((rc = lex(L)) != BB_OK) {
            free(name);
            return rc;
        }
        if (L->tok == T_LBRACE) {
            size_t sl = strlen(section) + strlen(name) + 2;
            char *sub = malloc(sl);
            if (!sub) {
                free(name);
                return bb_seterr(L->err, BB_ENOMEM, "out of memory");
            }
            snprintf(sub, sl, "%s%s%s", section, *section ? "/" : "", name);
            free(name);
            rc = parse_body(L, c, sub, depth + 1);
            free(sub);
            if (rc != BB_OK)
                return rc;
            continue;
        }
        if (L->tok != T_EQ) {
            rc = expected(L, "'=' or '{'");
            free(name);
            return rc;
        }
        if (depth == 0) {
            free(name);
            return bb_seterr(L->err, BB_EDATA, "%s:%d: key outside any section", L->name, line);
        }
        if ((rc = parse_value(L, c, section, name, line)) != BB_OK)
            return rc;
        if ((rc = lex(L)) != BB_OK)
            return rc;
        if (L->tok == T_SEMI && (rc = lex(L)) != BB_OK)
            return rc;
    }
}

void
bbs_net_conf_free(bbs_net_conf *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        for (int j = 0; j < c->e[i].nvals; j++)
            free(c->e[i].vals[j]);
        free(c->e[i].vals);
        free(c->e[i].key);
        free(c->e[i].annotation);
        free(c->e[i].section);
    }
    free(c->e);
    free(c->name);
    free(c);
}

enum bb_status
bbs_net_conf_parse(const char *text, size_t len, const char *name, bbs_net_conf **out,
                   char *err)
{
    lexer L;
    bbs_net_conf *c = calloc(1, sizeof *c);
    int rc;

    *out = NULL;
    if (!c || !(c->name = strdup(name))) {
        free(c);
        return bb_seterr(err, BB_ENOMEM, "out of memory");
    }
    memset(&L, 0, sizeof L);
    L.s = text;
    L.len = len;
    L.line = 1;
    L.name = name;
    L.err = err;
    rc = parse_body(&L, c, "", 0);
    free(L.text);
    if (rc != BB_OK) {
        bbs_net_conf_free(c);
        return rc;
    }
    *out = c;
    return BB_OK;
}

const bbs_net_conf_entry *
bbs_net_conf_get(const bbs_net_conf *c, const char *section, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->e[i].section, section) == 0 && strcmp(c->e[i].key, key) == 0)
            return &c->e[i];
    return NULL;
}

static int
get_num(const bbs_net_conf *c, const char *key, int required, double dflt, double lo, double hi,
        double *v, char *err)
{
    const bbs_net_conf_entry *e = bbs_net_conf_get(c, "PARAMS", key);
    char *end = NULL;
    int nrc;

    if (!e) {
        if (required)
            return bb_seterr(err, BB_EDATA, "%s: PARAMS has no '%s'%s", c->name, key,
                             strcmp(key, "num_global_channels") == 0
                                 ? " (CODES would silently use 10; give it explicitly)" : "");
        *v = dflt;
        return BB_OK;
    }
    if (e->nvals != 1)
        return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': expected one value, found %d",
                         c->name, e->line, key, e->nvals);
    (void)end;
    if ((nrc = bb_num_full(e->vals[0], v)) != BB_NUM_OK)
        return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': '%s' %s", c->name, e->line, key,
                         e->vals[0], bb_num_why(nrc));
    if (*v < lo || *v > hi)
        return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': '%s' is not a number in [%g, %g]",
                         c->name, e->line, key, e->vals[0], lo, hi);
    return BB_OK;
}

static int
get_int(const bbs_net_conf *c, const char *key, int *v, char *err)
{
    double d;
    int rc = get_num(c, key, 1, 0, 1, 1e7, &d, err);

    if (rc != BB_OK)
        return rc;
    if (d != floor(d)) {
        const bbs_net_conf_entry *e = bbs_net_conf_get(c, "PARAMS", key);
        return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': '%s' is not an integer", c->name,
                         e->line, key, e->vals[0]);
    }
    *v = (int)d;
    return BB_OK;
}

static void
copy_str(const bbs_net_conf *c, const char *key, char *dst, size_t n)
{
    const bbs_net_conf_entry *e = bbs_net_conf_get(c, "PARAMS", key);

    dst[0] = '\0';
    if (e && e->nvals == 1)
        snprintf(dst, n, "%s", e->vals[0]);
}

/* LP counts of the repetition group that holds the dragonfly terminals:
 * codes-store servers give the burst-buffer nodes per group and, beside
 * them, MFNetSim's clients (test-checkpoint-client) the compute nodes per
 * group; CODES maps both group-modulo (the n-th LP of each type on the
 * n-th terminal of its repetition). */
static int
lp_counts(const bbs_net_conf *c, bbs_net_params *par, char *err)
{
    const char *term_key = "modelnet_dragonfly_dally", *client_key = "test-checkpoint-client";
    const bbs_net_conf_entry *term = NULL;
    double reps = 0, nterm = 0, nrouter = 0, nstore = 0, nclient = 0;
    long total;

    par->bb_per_group = par->compute_per_group = 0;
    for (size_t i = 0; i < c->n; i++)
        if (strncmp(c->e[i].section, "LPGROUPS/", 9) == 0
            && strcmp(c->e[i].key, term_key) == 0) {
            term = &c->e[i];
            break;
        }
    if (!term)
        return BB_OK; /* no LP groups: nothing to check */
    for (size_t i = 0; i < c->n; i++) {
        const bbs_net_conf_entry *e = &c->e[i];
        double v;
        int nrc;
        if (strcmp(e->section, term->section) != 0 || e->nvals != 1)
            continue;
        if (strcmp(e->key, "repetitions") != 0 && strcmp(e->key, term_key) != 0
            && strcmp(e->key, "modelnet_dragonfly_dally_router") != 0
            && strcmp(e->key, "codes-store") != 0 && strcmp(e->key, client_key) != 0)
            continue;
        if ((nrc = bb_num_full(e->vals[0], &v)) != BB_NUM_OK || v < 0 || v > 1e9 || v != floor(v))
            return bb_seterr(err, BB_EDATA, "%s:%d: field '%s': '%s' %s", c->name, e->line,
                             e->key, e->vals[0], nrc != BB_NUM_OK ? bb_num_why(nrc)
                             : "is not a whole number in [0, 1e9]");
        if (strcmp(e->key, "repetitions") == 0)
            reps = v;
        else if (strcmp(e->key, term_key) == 0)
            nterm = v;
        else if (strcmp(e->key, "modelnet_dragonfly_dally_router") == 0)
            nrouter = v;
        else if (strcmp(e->key, "codes-store") == 0)
            nstore = v;
        else
            nclient = v;
    }
    total = (long)par->g * par->a * par->p;
    if (reps * nterm != (double)total)
        return bb_seterr(err, BB_EDATA,
                         "%s:%d: LP group '%s' has %g repetitions x %g terminals = %g, but "
                         "g*a*p = %d*%d*%d = %ld", c->name, term->line, term->section, reps,
                         nterm, reps * nterm, par->g, par->a, par->p, total);
    if (nrouter > 0 && reps * nrouter != (double)par->g * par->a)
        return bb_seterr(err, BB_EDATA,
                         "%s: LP group '%s' has %g repetitions x %g routers, but g*a = %d",
                         c->name, term->section, reps, nrouter, par->g * par->a);
    if (nstore > 0) {
        double per_group = nstore * reps / par->g;
        if (per_group != floor(per_group) || per_group >= (double)par->a * par->p)
            return bb_seterr(err, BB_EDATA,
                             "%s: %g codes-store LPs per repetition do not give a whole number "
                             "of burst-buffer nodes per group below a*p", c->name, nstore);
        par->bb_per_group = (int)per_group;
        if (nclient > 0) {
            per_group = nclient * reps / par->g;
            if (per_group != floor(per_group) || per_group > (double)par->a * par->p)
                return bb_seterr(err, BB_EDATA,
                                 "%s: %g %s LPs per repetition do not give a whole number "
                                 "of compute nodes per group up to a*p", c->name, nclient,
                                 client_key);
            par->compute_per_group = (int)per_group;
        }
    }
    return BB_OK;
}

enum bb_status
bbs_net_conf_dally_params(const bbs_net_conf *c, bbs_net_conf_dally *out, char *err)
{
    bbs_net_params *par = &out->par;
    double d;
    int rc;

    memset(out, 0, sizeof *out);
    if ((rc = get_int(c, "num_groups", &par->g, err)) == BB_OK && par->g > BBS_NET_MAX_GROUPS)
        return bb_seterr(err, BB_EDATA, "%s:%d: field 'num_groups': %d groups, more than %d "
                         "(the largest dragonflies have a few hundred)", c->name,
                         bbs_net_conf_get(c, "PARAMS", "num_groups")->line, par->g,
                         BBS_NET_MAX_GROUPS);
    if (rc != BB_OK
        || (rc = get_int(c, "num_routers", &par->a, err)) != BB_OK
        || (rc = get_int(c, "num_cns_per_router", &par->p, err)) != BB_OK
        || (rc = get_int(c, "num_global_channels", &par->h, err)) != BB_OK)
        return rc;
    if ((rc = get_num(c, "cn_bandwidth", 1, 0, 1e-9, 1e9, &d, err)) != BB_OK)
        return rc;
    par->cn_bw_Bps = d * GIB;
    if ((rc = get_num(c, "local_bandwidth", 1, 0, 1e-9, 1e9, &d, err)) != BB_OK)
        return rc;
    par->local_bw_Bps = d * GIB;
    if ((rc = get_num(c, "global_bandwidth", 1, 0, 1e-9, 1e9, &d, err)) != BB_OK)
        return rc;
    par->global_bw_Bps = d * GIB;
    if ((rc = get_num(c, "cn_vc_size", 0, 0, 0, 1e12, &par->cn_vc_bytes, err)) != BB_OK
        || (rc = get_num(c, "local_vc_size", 0, 0, 0, 1e12, &par->local_vc_bytes, err)) != BB_OK
        || (rc = get_num(c, "global_vc_size", 0, 0, 0, 1e12, &par->global_vc_bytes, err)) != BB_OK)
        return rc;
    out->router_delay_given = bbs_net_conf_get(c, "PARAMS", "router_delay") != NULL;
    if ((rc = get_num(c, "router_delay", 0, 100, 0, 1e12, &d, err)) != BB_OK)
        return rc;
    par->router_delay_s = d * 1e-9;
    /* link latencies in ns; when absent, what dragonfly-dally computes
     * (dragonfly_read_config on codes' kronos-union branch, which MFNetSim
     * builds): one chunk (chunk_size, 512 B by default) at the link's
     * bandwidth, a propagation delay per hop beyond the chunk's
     * serialization */
    {
        static const char *const key[3] = { "cn_delay", "local_delay", "global_delay" };
        double *delay[3] = { &par->cn_delay_s, &par->local_delay_s, &par->global_delay_s };
        double bw[3] = { par->cn_bw_Bps, par->local_bw_Bps, par->global_bw_Bps }, chunk;
        if ((rc = get_num(c, "chunk_size", 0, 512, 1, 1e12, &chunk, err)) != BB_OK)
            return rc;
        for (int k = 0; k < 3; k++) {
            if ((rc = get_num(c, key[k], 0, chunk / bw[k] * 1e9, 0, 1e12, &d, err)) != BB_OK)
                return rc;
            *delay[k] = d * 1e-9;
        }
    }
    copy_str(c, "intra-group-connections", out->intra_path, sizeof out->intra_path);
    copy_str(c, "inter-group-connections", out->inter_path, sizeof out->inter_path);
    copy_str(c, "routing", out->routing, sizeof out->routing);
    if (out->routing[0]) {
        /* an unknown routing was silently read as minimal */
        int kind;
        char why[BB_ERRLEN];
        const bbs_net_conf_entry *e = bbs_net_conf_get(c, "PARAMS", "routing");

        if (bbs_net_route_parse(out->routing, &kind, why) != BB_OK)
            return bb_seterr(err, BB_EDATA, "%s:%d: field 'routing': %s", c->name, e->line, why);
    }
    if ((rc = lp_counts(c, par, err)) != BB_OK)
        return rc;
    {
        char why[BB_ERRLEN];
        if (bbs_net_params_check(par, why) != BB_OK)
            return bb_seterr(err, BB_EDATA, "%s: %s", c->name, why);
    }
    return BB_OK;
}
