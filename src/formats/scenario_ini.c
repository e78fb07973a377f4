/* scenario_ini.c: bbsize-scenario(5) files through libinih (scenario_ini.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libinih splits lines into sections, keys and values, strips comments and
 * white space and skips a UTF-8 byte-order mark.  What it does not do, this
 * file does in the line reader it is given (ini_parse_stream): count lines
 * (the handler gets no line number in Debian's build), refuse NUL bytes and
 * lines longer than its buffer (it would split them silently), and see
 * every section header, including empty sections (the build does not call
 * the handler on a new section): the header opens the section in the
 * bbs_scenario before libinih reads the keys under it. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <ini.h>

#include "bb_error.h"
#include "scenario_ini.h"
#include "scenario_keys.h"

typedef struct {
    const char *text, *source;
    size_t len, pos;
    int lineno;
    bbs_scenario *s;
    char *err;
    int rc;                    /* first error, BB_OK while none */
    char line[BB_SCN_MAX_LINE + 3];   /* the last line read, for messages */
} ini_ctx;

static void
where(const ini_ctx *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%d", c->source, c->lineno);
}

/* A section header: '[' after optional blanks.  Returns BB_OK when the line
 * is not one, or opens the section. */
static int
header(ini_ctx *c, const char *l)
{
    char w[BBS_SCN_PATH + 32], name[BB_SCN_MAX_LINE + 3];
    const char *close, *rest;

    while (isspace((unsigned char)*l))
        l++;
    if (*l != '[')
        return BB_OK;
    where(c, w, sizeof w);
    close = strchr(l, ']');
    rest = close ? close + 1 : NULL;
    while (rest && isspace((unsigned char)*rest))
        rest++;
    if (!close || (*rest && *rest != '#' && *rest != ';')) {
        size_t n = strcspn(l, "\r\n");
        return bb_seterr(c->err, BB_EDATA, "%s: section header '%.*s' is not '[name]'", w,
                         (int)n, l);
    }
    memcpy(name, l + 1, (size_t)(close - l - 1));
    name[close - l - 1] = 0;
    return bbs_scenario_section(c->s, name, c->lineno, w, c->err);
}

/* ini_reader: one line of the text into str (num bytes), or NULL at the end
 * or on an error (which stops libinih). */
static char *
reader(char *str, int num, void *stream)
{
    ini_ctx *c = stream;
    size_t e = c->pos, n;

    if (c->rc != BB_OK || c->pos >= c->len)
        return NULL;
    while (e < c->len && c->text[e] != '\n')
        e++;
    n = e - c->pos;             /* without the newline */
    c->lineno++;
    char w[BBS_SCN_PATH + 32];
    where(c, w, sizeof w);
    if (memchr(c->text + c->pos, 0, n)) {
        c->rc = bb_seterr(c->err, BB_EDATA, "%s: a NUL byte (not a text file)", w);
        return NULL;
    }
    {
        /* A comment line may be any length: libinih only needs to see that
         * it is one. */
        size_t b = 0;
        while (b < n && isspace((unsigned char)c->text[c->pos + b]))
            b++;
        if (b < n && (c->text[c->pos + b] == '#' || c->text[c->pos + b] == ';')
            && n > BB_SCN_MAX_LINE && num >= 3) {
            str[0] = '#';
            str[1] = '\n';
            str[2] = 0;
            memcpy(c->line, str, 3);
            c->pos = e + 1;
            return str;
        }
    }
    if (n > BB_SCN_MAX_LINE || num < 3 || n > (size_t)num - 2) {
        c->rc = bb_seterr(c->err, BB_EDATA, "%s: line longer than %d bytes (the limit of "
                          "libinih as Debian builds it)", w, BB_SCN_MAX_LINE);
        return NULL;
    }
    memcpy(str, c->text + c->pos, n);
    str[n] = '\n';
    str[n + 1] = 0;
    memcpy(c->line, str, n + 2);
    c->pos = e + 1;
    if ((c->rc = header(c, str)) != BB_OK)
        return NULL;
    return str;
}

/* ini_handler: one key = value; 1 to go on, 0 on an error. */
static int
handler(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    char w[BBS_SCN_PATH + 32];

    (void)section;   /* opened by the reader, which saw its header */
    where(c, w, sizeof w);
    c->rc = bbs_scenario_set(c->s, name, value, c->lineno, w, c->err);
    return c->rc == BB_OK;
}

enum bb_status
bb_scenario_parse(const char *text, size_t len, const char *source, bbs_scenario *s,
                  char *err)
{
    ini_ctx c;
    int line;

    memset(&c, 0, sizeof c);
    c.text = text;
    c.len = len;
    c.source = source;
    c.s = s;
    c.err = err;
    bbs_scenario_init(s, source);
    /* The format: '#' and ';' comments, at the start of a line or after
     * white space; no continuation lines (an indented line is a line). */
    ini_allow_multiline = 0;
    ini_allow_bom = 1;
    ini_allow_inline_comments = 1;
    ini_start_comment_prefixes = (char *)";#";
    ini_inline_comment_prefixes = (char *)";#";
    ini_allow_no_value = 0;
    ini_stop_on_first_error = 1;
    line = ini_parse_stream(reader, &c, handler, &c);
    if (c.rc == BB_OK && line == -2)
        c.rc = bb_seterr(err, BB_ENOMEM, "%s: out of memory", source);
    else if (c.rc == BB_OK && line != 0) {
        /* libinih's own refusal: a line with no '=' (or ':'), or a '[' with
         * no ']' it found before our check (cannot happen: header()). */
        size_t n = strcspn(c.line, "\r\n");
        const char *l = c.line;
        while (isspace((unsigned char)*l))
            l++, n--;
        c.rc = bb_seterr(err, BB_EDATA, "%s:%d: '%.*s' is not 'key = value'", source, line,
                         (int)n, l);
    }
    if (c.rc == BB_OK)
        c.rc = bbs_scenario_finish(s, err);
    if (c.rc != BB_OK)
        bbs_scenario_free(s);
    return c.rc;
}
