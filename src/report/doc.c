/* doc.c: XHTML and Markdown writer of `bbsize report` (doc.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <libgen.h>
#include <stdarg.h>
#include <string.h>

#include "report/doc.h"

void
bb_doc_text(bb_doc *d, const char *s)
{
    for (; *s; s++) {
        if (d->md) {
            if (*s == '|' || *s == '*' || *s == '_' || *s == '`')
                fputc('\\', d->fp);
            fputc(*s, d->fp);
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", d->fp); break;
        case '<': fputs("&lt;", d->fp); break;
        case '>': fputs("&gt;", d->fp); break;
        case '"': fputs("&quot;", d->fp); break;
        default: fputc(*s, d->fp);
        }
    }
}

static void
vtext(bb_doc *d, const char *fmt, va_list ap)
{
    char buf[4096];

    vsnprintf(buf, sizeof buf, fmt, ap);
    bb_doc_text(d, buf);
}

void
bb_doc_begin(bb_doc *d, const char *title)
{
    if (d->md) {
        fprintf(d->fp, "# %s\n\n", title);
        return;
    }
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n"
          "<head>\n<meta charset=\"utf-8\"/>\n<title>bbsize what-if report</title>\n<style>\n"
          "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}\n"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .6em;"
          "text-align:right}th{background:#eee}figure{margin:1em 0}svg{max-width:100%;height:auto}\n"
          ".answer{font-size:1.2em;background:#eef6ee;padding:.6em;border-left:4px solid #3a3}\n"
          "</style>\n</head>\n<body>\n<h1>", d->fp);
    bb_doc_text(d, title);
    fputs("</h1>\n", d->fp);
}

void
bb_doc_end(bb_doc *d)
{
    if (!d->md)
        fputs("</body>\n</html>\n", d->fp);
}

void
bb_doc_para(bb_doc *d, const char *fmt, ...)
{
    va_list ap;

    fputs(d->md ? "" : "<p>", d->fp);
    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
    fputs(d->md ? "\n\n" : "</p>\n", d->fp);
}

void
bb_doc_para_id(bb_doc *d, const char *id, const char *cls, const char *fmt, ...)
{
    va_list ap;

    if (!d->md) {
        fputs("<p", d->fp);
        if (cls)
            fprintf(d->fp, " class=\"%s\"", cls);
        fprintf(d->fp, " id=\"%s\">", id);
    }
    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
    fputs(d->md ? "\n\n" : "</p>\n", d->fp);
}

void
bb_doc_list_begin(bb_doc *d)
{
    if (!d->md)
        fputs("<ul>\n", d->fp);
}

void
bb_doc_item(bb_doc *d, const char *fmt, ...)
{
    va_list ap;

    fputs(d->md ? "- " : "<li>", d->fp);
    va_start(ap, fmt);
    vtext(d, fmt, ap);
    va_end(ap);
    fputs(d->md ? "\n" : "</li>\n", d->fp);
}

void
bb_doc_list_end(bb_doc *d)
{
    fputs(d->md ? "\n" : "</ul>\n", d->fp);
}

void
bb_doc_section(bb_doc *d, const char *id, const char *title)
{
    if (d->md) {
        fprintf(d->fp, "## %s\n\n", title);
    } else {
        fprintf(d->fp, "<section id=\"%s\">\n<h2>", id);
        bb_doc_text(d, title);
        fputs("</h2>\n", d->fp);
    }
}

void
bb_doc_section_end(bb_doc *d)
{
    if (!d->md)
        fputs("</section>\n", d->fp);
}

void
bb_doc_details_begin(bb_doc *d, const char *summary)
{
    if (!d->md) {
        fputs("<details><summary>", d->fp);
        bb_doc_text(d, summary);
        fputs("</summary>\n", d->fp);
    }
}

void
bb_doc_details_end(bb_doc *d)
{
    if (!d->md)
        fputs("</details>\n", d->fp);
}

void
bb_doc_table_row(bb_doc *d, const char *cells, int header)
{
    char buf[2048], *c, *next;
    int n = 0;

    snprintf(buf, sizeof buf, "%s", cells);
    fputs(d->md ? "|" : "<tr>", d->fp);
    for (c = buf; c; c = next, n++) {
        /* Split at each tab by hand: empty cells are kept. */
        if ((next = strchr(c, '\t')) != NULL)
            *next++ = '\0';
        if (d->md) {
            fputc(' ', d->fp);
            bb_doc_text(d, c);
            fputs(" |", d->fp);
        } else {
            fputs(header ? "<th>" : "<td>", d->fp);
            bb_doc_text(d, c);
            fputs(header ? "</th>" : "</td>", d->fp);
        }
    }
    fputs(d->md ? "\n" : "</tr>\n", d->fp);
    if (d->md && header) {
        fputc('|', d->fp);
        for (int i = 0; i < n; i++)
            fputs(" --- |", d->fp);
        fputc('\n', d->fp);
    }
}

void
bb_doc_table_begin(bb_doc *d, const char *id, const char *header)
{
    if (!d->md)
        fprintf(d->fp, "<table id=\"%s\">\n", id);
    bb_doc_table_row(d, header, 1);
}

void
bb_doc_row(bb_doc *d, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    bb_doc_table_row(d, buf, 0);
}

void
bb_doc_table_end(bb_doc *d)
{
    fputs(d->md ? "\n" : "</table>\n", d->fp);
}

void
bb_doc_figure(bb_doc *d, const bb_figure *f)
{
    if (d->md) {
        char tmp[4200], *base;

        snprintf(tmp, sizeof tmp, "%s", f->file);
        base = basename(tmp);
        fprintf(d->fp, "![%s](%s)\n\n*", f->caption, base);
        bb_doc_text(d, f->caption);
        fputs("*\n\n", d->fp);
    } else {
        fprintf(d->fp, "<figure id=\"%s\">\n%s\n<figcaption>", f->id, f->svg);
        bb_doc_text(d, f->caption);
        fputs("</figcaption>\n</figure>\n", d->fp);
    }
}
