/* plot.c: SVG plots drawn by a gnuplot child process (plot.h).
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcodes.h"
#include "plot.h"
#include "readfile.h"

int
bb_child_run(const char *path, const char *const argv[], const char *out, const char *errf,
             int *status)
{
    pid_t pid;

    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = strcmp(out, errf) == 0 ? fo : open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int nul = open("/dev/null", O_RDONLY);

        if (fo >= 0)
            dup2(fo, STDOUT_FILENO);
        if (fe >= 0)
            dup2(fe, STDERR_FILENO);
        if (nul >= 0)
            dup2(nul, STDIN_FILENO);
        execv(path, (char *const *)argv);
        _exit(127);
    }
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

static int
find_on_path(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char *copy, *dir, *save = NULL;
    int found = 0;

    if (path == NULL || *path == '\0')
        return 0;
    if ((copy = strdup(path)) == NULL)
        return 0;
    for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        struct stat st;

        snprintf(out, len, "%s/%s", *dir ? dir : ".", prog);
        found = stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0;
    }
    free(copy);
    return found;
}

int
bb_plot_session_begin(bb_plot_session *s, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");

    memset(s, 0, sizeof *s);
    if (!find_on_path("gnuplot", s->gnuplot, sizeof s->gnuplot)) {
        snprintf(err, errlen, "gnuplot not found on PATH: the report's plots need it "
                 "(Debian: apt-get install gnuplot-nox)");
        return BB_EXIT_SOFTWARE;
    }
    snprintf(s->dir, sizeof s->dir, "%s/bbsize-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(s->dir) == NULL) {
        snprintf(err, errlen, "cannot create a temporary directory for the plots in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        s->dir[0] = '\0';
        return BB_EXIT_CANTCREAT;
    }
    return 0;
}

void
bb_plot_session_end(bb_plot_session *s)
{
    DIR *d;
    struct dirent *e;

    if (s->dir[0] == '\0')
        return;
    if ((d = opendir(s->dir)) != NULL) {
        while ((e = readdir(d)) != NULL) {
            char p[1024];

            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", s->dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(s->dir);
    s->dir[0] = '\0';
}

/* The canvas, pixels, with a key of at most two rows. */
#define PLOT_WIDTH 760
#define PLOT_HEIGHT 460

/* A gnuplot double-quoted string: escape backslash and quote. */
static void
put_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}


/* replace_all: every occurrence of from in *text by to (reallocating);
 * returns -1 when memory runs out. */
static int
replace_all(char **text, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), n = 0, len;
    char *p, *out, *o;
    const char *q;

    for (p = strstr(*text, from); p; p = strstr(p + fl, from))
        n++;
    if (n == 0)
        return 0;
    len = strlen(*text);
    out = malloc(len + n * tl + 1);
    if (out == NULL)
        return -1;
    for (o = out, q = *text; (p = strstr(q, from)) != NULL; q = p + fl) {
        memcpy(o, q, (size_t)(p - q));
        o += p - q;
        memcpy(o, to, tl);
        o += tl;
    }
    strcpy(o, q);
    free(*text);
    *text = out;
    return 0;
}

/* XML text escaping of s into buf. */
static void
xml_escape(char *buf, size_t len, const char *s)
{
    size_t o = 0;

    for (; s && *s && o + 7 < len; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                        : *s == '"' ? "&quot;" : NULL;

        if (e) {
            memcpy(buf + o, e, strlen(e));
            o += strlen(e);
        } else {
            buf[o++] = *s;
        }
    }
    buf[o] = '\0';
}

/* Give every id of the SVG the plot's prefix and name the series. */
static int
rename_ids(char **svg, const bb_plot *p)
{
    const char *pf = p->id_prefix ? p->id_prefix : "plot";
    char from[256], to[1024], esc[600];
    static const char *const ids[] = { "textbox", "greybox" };

    snprintf(to, sizeof to, "id='%s-gp", pf);
    if (replace_all(svg, "id='gp", to) < 0)
        return -1;
    snprintf(to, sizeof to, "'#%s-gp", pf);
    if (replace_all(svg, "'#gp", to) < 0)
        return -1;
    snprintf(to, sizeof to, "id=\"%s-canvas\"", pf);
    if (replace_all(svg, "id=\"gnuplot_canvas\"", to) < 0)
        return -1;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        snprintf(from, sizeof from, "id='%s'", ids[i]);
        snprintf(to, sizeof to, "id='%s-%s'", pf, ids[i]);
        if (replace_all(svg, from, to) < 0)
            return -1;
        snprintf(from, sizeof from, "url(#%s)", ids[i]);
        snprintf(to, sizeof to, "url(#%s-%s)", pf, ids[i]);
        if (replace_all(svg, from, to) < 0)
            return -1;
    }
    for (size_t i = 0; i < p->nseries; i++) {
        snprintf(from, sizeof from, "<g id=\"gnuplot_plot_%zu\" ><title>gnuplot_plot_%zu</title>",
                 i + 1, i + 1);
        xml_escape(esc, sizeof esc, p->series[i].title);
        snprintf(to, sizeof to, "<g id=\"%s-series-%zu\" class=\"series\"><title>%s</title>",
                 pf, i + 1, esc);
        if (replace_all(svg, from, to) < 0)
            return -1;
    }
    return 0;
}

static int
close_file(FILE **fp)
{
    int rc = fclose(*fp);

    *fp = NULL;
    return rc;
}

int
bb_plot_svg(bb_plot_session *s, const bb_plot *p, char **svg, char **data, char *err,
            size_t errlen)
{
    char dat[600], gp[600], out[600], log[600];
    FILE *fp = NULL;
    int status, k = s->count++;
    char *text, *start, rerr[512];
    size_t len, longest = 0, rows;
    double xlo = INFINITY, xhi = -INFINITY;
    int cols;

    *svg = NULL;
    if (data != NULL)
        *data = NULL;
    snprintf(dat, sizeof dat, "%s/plot%d.dat", s->dir, k);
    snprintf(gp, sizeof gp, "%s/plot%d.gp", s->dir, k);
    snprintf(out, sizeof out, "%s/plot%d.svg", s->dir, k);
    snprintf(log, sizeof log, "%s/plot%d.log", s->dir, k);
    if ((fp = fopen(dat, "w")) == NULL)
        goto ioerr;
    for (size_t i = 0; i < p->nseries; i++) {
        const bb_plot_series *se = &p->series[i];

        fprintf(fp, "# %zu %s\n", i, se->ylo ? "x y ylow yhigh" : "x y");
        for (size_t j = 0; j < se->n; j++) {
            if (isnan(se->y[j]) || (p->logy && !(se->y[j] > 0)))
                fprintf(fp, "%.17g NaN", se->x[j]);  /* no point on a log axis */
            else
                fprintf(fp, "%.17g %.17g", se->x[j], se->y[j]);
            if (se->ylo)   /* an end off a log axis: the bar is cut at the frame */
                fprintf(fp, p->logy && !(se->ylo[j] > 0) ? " NaN %.17g\n" : " %.17g %.17g\n",
                        p->logy && !(se->ylo[j] > 0) ? se->yhi[j] : se->ylo[j], se->yhi[j]);
            else
                fputc('\n', fp);
        }
        fputs(i + 1 < p->nseries ? "\n\n" : "\n", fp);
    }
    if (close_file(&fp) != 0)
        goto ioerr;
    if ((fp = fopen(gp, "w")) == NULL)
        goto ioerr;
    /* the key's rows: two columns when the longest entry fits twice in the
     * canvas as gnuplot lays it out (measured on its SVG terminal at 13 px
     * sans: entries of 33 characters fit two abreast, of 37 do not: about
     * 9 px a character and 60 for the sample line), else one; the canvas
     * grows by a row's height for each row beyond two.  Its rows are
     * as tall as a margin line (19.5 px at 13 px sans on gnuplot 5.4's
     * SVG terminal): the bottom margin (below) gives them one each. */
    for (size_t i = 0; i < p->nseries; i++)
        if (p->series[i].title && strlen(p->series[i].title) > longest)
            longest = strlen(p->series[i].title);
    cols = 2 * (9 * (double)longest + 60) <= PLOT_WIDTH ? 2 : 1;
    rows = (p->nseries + cols - 1) / cols;
    fprintf(fp, "set terminal svg size %d,%zu dynamic noenhanced font 'sans,13' "
                "background '#ffffff'\nset encoding utf8\nset output '%s'\n", PLOT_WIDTH,
            PLOT_HEIGHT + 20 * (rows > 2 ? rows - 2 : 0), out);
    fputs("set title ", fp);
    put_str(fp, p->title);
    fputs("\nset xlabel ", fp);
    put_str(fp, p->xlabel);
    fputs("\nset ylabel ", fp);
    put_str(fp, p->ylabel);
    /* The key sits at the bottom of the canvas, under the x label; the
     * bottom margin (4 lines for tick labels and x label, then the key's
     * rows and one for its box) keeps it off the plot with no empty band
     * between (5 lines and a third a row left one of about 3 lines).  Inside the border some position always
     * covers a curve for some workload (top right hid the idle-versus-size
     * curves), and gnuplot 5.4's 'outside below' put the key over the x
     * label; tests/cli_report.sh checks both from the SVG. */
    fprintf(fp, "\nset grid\nset key at screen 0.5, screen 0.015 center bottom horizontal Left "
                "reverse box maxcols %d\nset bmargin %zu\nset datafile missing NaN\n", cols,
            5 + rows);
    if (p->logy)
        fputs("set logscale y\nset format y '%.0e'\n", fp);
    if (p->ymin != 0 || p->ymax != 0)
        fprintf(fp, "set yrange [%.17g:%.17g]\n", p->ymin, p->ymax);
    if (p->xmin != 0 || p->xmax != 0)
        fprintf(fp, "set xrange [%.17g:%.17g]\n", p->xmin, p->xmax);
    for (size_t i = 0; i < p->nseries && p->nlabels > 0; i++)
        for (size_t j = 0; j < p->series[i].n; j++) {
            xlo = fmin(xlo, p->series[i].x[j]);
            xhi = fmax(xhi, p->series[i].x[j]);
        }
    for (size_t i = 0; i < p->nlabels; i++) {
        const bb_plot_label *l = &p->labels[i];
        /* where the point lies across the plot: 0 left, 1 right */
        double at = xhi > xlo ? (l->x - xlo) / (xhi - xlo) : 0.5;

        fprintf(fp, "set label %zu ", i + 1);
        put_str(fp, l->text);
        if (l->side != 0)
            fprintf(fp, " at %.17g, %.17g %s offset character %s, 0 front\n", l->x, l->y,
                    l->side > 0 ? "left" : "right", l->side > 0 ? "0.5" : "-0.5");
        else
            fprintf(fp, " at %.17g, %.17g %s point pointtype 7 pointsize 1.5 offset character "
                    "%d, %s front\n", l->x, l->y,
                    at > 0.6 ? "right" : at < 0.4 || !l->below ? "left" : "center",
                    at > 0.6 ? -1 : at < 0.4 || !l->below ? 1 : 0, l->below ? "-1.2" : "0.8");
    }
    fputs("plot ", fp);
    for (size_t i = 0; i < p->nseries; i++) {
        fprintf(fp, "%s'%s' index %zu using %s with %s lw 2", i ? ", \\\n     " : "", dat, i,
                p->series[i].ylo ? "1:2:3:4" : "1:2",
                p->series[i].ylo ? "yerrorbars" : p->series[i].style ? p->series[i].style
                                                                     : "lines");
        if (p->series[i].dash)
            fprintf(fp, " dashtype %d", p->series[i].dash);
        fputs(" title ", fp);
        put_str(fp, p->series[i].title);
    }
    fputs("\n", fp);
    if (close_file(&fp) != 0)
        goto ioerr;

    {
        const char *const av[] = { "gnuplot", gp, NULL };

        if (bb_child_run(s->gnuplot, av, log, log, &status) < 0) {
            snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
            return BB_EXIT_SOFTWARE;
        }
    }
    /* gnuplot's output, or its log naming the error, read whole (readfile.h) */
    text = NULL;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0
        || bb_read_file(out, BB_READ_TEXT, &text, &len, rerr, sizeof rerr) != 0) {
        char *msg = NULL, *nl;
        const char *first = "no output";

        /* msg stays NULL when the log cannot be read */
        (void)bb_read_file(log, BB_READ_TEXT, &msg, &len, rerr, sizeof rerr);
        if (msg != NULL) {
            /* The last non-empty line of the log names the error. */
            for (nl = msg + strlen(msg); nl > msg && (nl[-1] == '\n' || nl[-1] == ' '); )
                *--nl = '\0';
            first = strrchr(msg, '\n') ? strrchr(msg, '\n') + 1 : msg;
        }
        snprintf(err, errlen, "gnuplot (%s) failed on plot '%s': %s", s->gnuplot,
                 p->title ? p->title : "", first);
        free(msg);
        free(text);
        return BB_EXIT_SOFTWARE;
    }
    /* Drop the XML declaration: the SVG is embedded or written as is. */
    start = text;
    if (strncmp(start, "<?xml", 5) == 0 && (start = strstr(start, "?>")) != NULL)
        start += 2;
    else
        start = text;
    while (*start == '\n' || *start == '\r' || *start == ' ')
        start++;
    memmove(text, start, strlen(start) + 1);
    if (rename_ids(&text, p) < 0) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return BB_EXIT_SOFTWARE;
    }
    if (data != NULL && bb_read_file(dat, BB_READ_TEXT, data, &len, rerr, sizeof rerr) != 0) {
        free(text);
        snprintf(err, errlen, "%s: cannot read back: %s", dat, rerr);
        return BB_EXIT_IOERR;
    }
    *svg = text;
    return 0;
ioerr:
    snprintf(err, errlen, "%s: cannot write a temporary plot file: %s", s->dir, strerror(errno));
    if (fp)
        fclose(fp);
    return BB_EXIT_IOERR;
}
