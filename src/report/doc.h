/* doc.h: the document writer of `bbsize report`: one self-contained XHTML
 * page or Markdown, written through the same calls (headings, paragraphs,
 * lists, tables, figures), with every piece of text escaped for the
 * format.  Writes to d->fp; no state beyond it (nothing is buffered).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Escaping: XHTML & < > " become entities; Markdown | * _ ` get a
 * backslash.  Formatted text is cut at 4096 bytes (a table row at 2048),
 * far above what the report writes. */
#ifndef BBSIZE_SRC_REPORT_DOC_H
#define BBSIZE_SRC_REPORT_DOC_H

#include <stdio.h>

#include "cli.h"

typedef struct {
    FILE *fp;
    int md;                 /* 1: Markdown, 0: XHTML */
} bb_doc;

/* A figure: an SVG drawn before the document is written.  XHTML embeds
 * svg in a <figure id=id>; Markdown links to file (written beside the
 * document by the caller through out, with the plot's data in dfile). */
typedef struct {
    const char *id, *caption;
    char *svg;              /* owned (malloc'd) */
    char *data;             /* owned: the plot's data file (plot.h) */
    bb_out out;             /* Markdown: the SVG file */
    char file[4200];        /* its path */
    bb_out dout;            /* Markdown: the data file beside it */
    char dfile[4200];       /* its path: the SVG's with .dat */
} bb_figure;

/* bb_doc_begin / bb_doc_end: the page around the sections (XHTML head,
 * style and <h1>title</h1>; Markdown "# title"). */
void bb_doc_begin(bb_doc *d, const char *title);
void bb_doc_end(bb_doc *d);

/* bb_doc_text: s, escaped. */
void bb_doc_text(bb_doc *d, const char *s);

/* A paragraph; bb_doc_para_id gives it an id (and a class if cls is not
 * NULL) in XHTML, where tests and style find it. */
void bb_doc_para(bb_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bb_doc_para_id(bb_doc *d, const char *id, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A bulleted list of items. */
void bb_doc_list_begin(bb_doc *d);
void bb_doc_item(bb_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bb_doc_list_end(bb_doc *d);

/* A numbered section: <section id=id><h2>title</h2> ... </section>. */
void bb_doc_section(bb_doc *d, const char *id, const char *title);
void bb_doc_section_end(bb_doc *d);

/* A block folded away in XHTML (<details> with summary); nothing in
 * Markdown. */
void bb_doc_details_begin(bb_doc *d, const char *summary);
void bb_doc_details_end(bb_doc *d);

/* Tables: cells separated by '\t' in one string per row (empty cells
 * kept); header is the first row. */
void bb_doc_table_begin(bb_doc *d, const char *id, const char *header);
void bb_doc_table_row(bb_doc *d, const char *cells, int header);
void bb_doc_row(bb_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bb_doc_table_end(bb_doc *d);

/* bb_doc_figure: f inline (XHTML) or as a link to basename(f->file)
 * (Markdown), with its caption. */
void bb_doc_figure(bb_doc *d, const bb_figure *f);

#endif
