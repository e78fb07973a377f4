/* plot.h: line plots drawn as SVG by gnuplot, run as a child process
 * (`set terminal svg`), for `bbsize report`.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Data and scripts go to a private temporary directory (mkdtemp under
 * $TMPDIR or /tmp) that bb_plot_session_end removes.  Each series becomes
 * one <g class="series"> element whose <title> is the series title (gnuplot
 * writes "gnuplot_plot_N" there; we put the legend text instead), so tests
 * and screen readers can find it; every id gets the plot's prefix.  The SVG is returned without its XML declaration,
 * ready to be embedded in XHTML or written as a file. */
#ifndef BBSIZE_SRC_PLOT_H
#define BBSIZE_SRC_PLOT_H

#include <stddef.h>

typedef struct {
    const char *title;       /* legend entry */
    const double *x, *y;     /* n points */
    size_t n;
    const char *style;       /* gnuplot style: "lines", "linespoints", "steps" */
    int dash;                /* 0 solid, else a gnuplot dashtype number */
    const double *ylo, *yhi; /* error bars (n each; style is then yerrorbars),
                                or NULL */
} bb_plot_series;

/* A point marked on the plot with its text above it (below it when below
 * is set: at a minimum), aligned away from the nearer edge (the x range
 * of the series); or, with side set, a bare text (no point) beside a
 * mark at x: starting just right of it (side 1) or ending just left of
 * it (side -1), so that two marks close together read apart. */
typedef struct {
    double x, y;
    const char *text;
    int below;
    int side;
} bb_plot_label;

typedef struct {
    const char *title, *xlabel, *ylabel;   /* axis labels carry the units */
    int logy;
    double ymin, ymax;        /* both 0: automatic */
    const bb_plot_series *series;
    size_t nseries;
    const char *id_prefix;    /* prefix of every id in the SVG (several
                                 plots in one page must not share ids) */
    const bb_plot_label *labels;   /* nlabels marked points (may be NULL) */
    size_t nlabels;
    double xmin, xmax;        /* both 0: automatic */
} bb_plot;

typedef struct {
    char dir[512];            /* "" until the first plot */
    char gnuplot[1024];       /* path of the gnuplot binary */
    int count;
} bb_plot_session;

/* bb_plot_session_begin: find gnuplot on PATH and create the temporary
 * directory.  Returns 0, or BB_EXIT_SOFTWARE with "gnuplot not found on
 * PATH ..." / the mkdtemp error in err. */
int bb_plot_session_begin(bb_plot_session *s, char *err, size_t errlen);
/* bb_plot_session_end: remove the temporary directory and its files. */
void bb_plot_session_end(bb_plot_session *s);

/* bb_plot_svg: draw p; *svg receives malloc'd SVG text (free it), and
 * *data (unless NULL) the data file gnuplot read, malloc'd: per series a
 * "# i x y" (or "# i x y ylow yhigh") line, then a row per point, series
 * apart by two blank lines (gnuplot's index).
 * Returns 0 or BB_EXIT_SOFTWARE (gnuplot failed: its first error line is
 * in err) or BB_EXIT_IOERR (temporary files). */
int bb_plot_svg(bb_plot_session *s, const bb_plot *p, char **svg, char **data, char *err,
                size_t errlen);

/* bb_child_run: run path with argv (argv[0] its name, NULL-terminated),
 * stdin from /dev/null, stdout to the file out and stderr to errf (they may
 * be the same path), and wait; *status is waitpid's.  Returns 0, or -1 with
 * errno when the process cannot be started or waited for. */
int bb_child_run(const char *path, const char *const argv[], const char *out, const char *errf,
                 int *status);

#endif
