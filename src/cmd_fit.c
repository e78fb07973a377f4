/* cmd_fit.c: `bbsize fit darshan PATH...`: a workload (name, p, bw, burst)
 * from many Darshan text logs (darshan-parser counters and heatmaps,
 * darshan-dxt-parser traces), one application per job, jobs pooled into
 * classes (by executable and process count, or --group-by), with the
 * provenance of every figure in comments.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fitjob.h"
#include "fitlogs.h"
#include "progress.h"
#include "workload_csv.h"

/* A phase-length coefficient of variation outside [1/2, 2] is a factor 2
 * or more from the exponential's 1 that the ON/OFF model assumes; below
 * 10 phases the estimate is too rough to warn about. */
#define CV_LOW 0.5
#define CV_HIGH 2.0
#define CV_MIN_PHASES 10

enum { KEY_EXE = 1, KEY_NPROCS = 2, KEY_UID = 4, KEY_JOBID = 8, KEY_LOG = 16 };

enum { OPT_GAP = 0x300, OPT_GROUP_BY, OPT_MIN_ACF, OPT_SKIP_BAD, OPT_MAX_MEMORY };

struct args {
    bb_outopts out;
    char **paths;
    int npaths;
    bb_tl_opts tl;
    unsigned group;
    const char *group_arg;
    int skip_bad;
};

static const struct {
    const char *name;
    unsigned bit;
} group_keys[] = {
    { "exe", KEY_EXE }, { "nprocs", KEY_NPROCS }, { "uid", KEY_UID }, { "jobid", KEY_JOBID },
    { "log", KEY_LOG },
};

static unsigned
parse_group(const char *arg)
{
    char *copy = strdup(arg), *save = NULL, *tok;
    unsigned mask = 0;

    if (copy == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t k;

        for (k = 0; k < sizeof group_keys / sizeof group_keys[0]; k++)
            if (strcmp(bb_trim(tok), group_keys[k].name) == 0)
                break;
        if (k == sizeof group_keys / sizeof group_keys[0])
            bb_usage_value("group-by", bb_trim(tok), "a key (exe, nprocs, uid, jobid, log)");
        mask |= group_keys[k].bit;
    }
    free(copy);
    if (mask == 0)
        bb_usage_value("group-by", arg, "a list of keys (exe, nprocs, uid, jobid, log)");
    return mask;
}

static error_t
parse(int key, char *arg, struct argp_state *state)
{
    struct args *a = state->input;
    char msg[256];
    bb_qty q;

    switch (key) {
    case ARGP_KEY_INIT:
        state->child_inputs[0] = &a->out;
        break;
    case OPT_GAP:
        if (strcmp(arg, "auto") == 0)
            a->tl.gap_s = -1;
        else if (bb_parse_duration(arg, &q, msg, sizeof msg) != BB_OK)
            bb_usage_error("gap", "%s", msg);
        else if (!(q.v >= 0) || !isfinite(q.v))
            bb_usage_value("gap", arg, "a duration >= 0 (or auto)");
        else
            a->tl.gap_s = q.v;   /* a plain number is in seconds */
        break;
    case OPT_GROUP_BY:
        a->group = parse_group(arg);
        a->group_arg = arg;
        break;
    case OPT_MIN_ACF:
        if (bb_parse_number(arg, &a->tl.min_acf, msg, sizeof msg) != BB_OK)
            bb_usage_error("min-acf", "%s", msg);
        if (!(a->tl.min_acf > 0 && a->tl.min_acf <= 1))
            bb_usage_value("min-acf", arg, "in (0, 1]");
        break;
    case OPT_SKIP_BAD:
        a->skip_bad = 1;
        break;
    case OPT_MAX_MEMORY:
        bb_limits_set_memory(arg);
        break;
    case ARGP_KEY_ARGS:
        if (strcmp(state->argv[state->next], "darshan") != 0)
            bb_usage_unexpected(state->argv[state->next], "the one source is darshan");
        a->paths = state->argv + state->next + 1;
        a->npaths = state->argc - state->next - 1;
        for (int i = 0; i < a->npaths; i++)
            bb_in_claim(a->paths[i]);
        if (a->npaths == 0)
            bb_usage_missing("PATH", "a Darshan text log or a directory of them");
        break;
    case ARGP_KEY_NO_ARGS:
        bb_usage_missing("SOURCE", "bbsize fit darshan PATH...");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const struct argp_option options[] = {
    { "gap", OPT_GAP, "DURATION", 0,
      "merge I/O separated by at most this into one phase (default auto: derived per job "
      "from its gaps; a plain number is in seconds)", 0 },
    { "group-by", OPT_GROUP_BY, "KEYS", 0,
      "pool jobs into one row per value of these comma-separated keys: exe, nprocs, uid, "
      "jobid, log (one row per log); default exe,nprocs", 0 },
    { "min-acf", OPT_MIN_ACF, "R", 0,
      "call a job periodic when its bandwidth's autocorrelation at the period is at least R, "
      "in (0, 1] (default 0.5)", 0 },
    { "skip-bad", OPT_SKIP_BAD, NULL, 0,
      "leave out (and list) logs that cannot be read or parsed instead of stopping at the "
      "first", 0 },
    { "max-memory", OPT_MAX_MEMORY, "SIZE", 0,
      "refuse to start when reading the largest log could need more memory than this "
      "(default 75% of RAM)", 0 },
    { 0 }
};

static const struct argp_child children[] = {
    { BB_OUTPUT_ARGP(BB_OUT_JSON | BB_OUT_FILE | BB_OUT_QUIET | BB_OUT_PROGRESS), 0, NULL, 0 }, { 0 }
};

static const struct argp argp = {
    options, parse, "darshan PATH...",
    "A workload (name, p, bw, burst) from Darshan text logs: darshan-parser output "
    "(counters, and HEATMAP records from Darshan 3.4 on) or darshan-dxt-parser output "
    "(every transfer timed), one job per file; a directory stands for the files below it.\v"
    "Jobs are pooled into one row per class (executable and process count by default).  "
    "p = time in I/O phases / run time, bw = bytes / time in I/O phases, burst = mean I/O "
    "phase length: from the DXT timeline, or the heatmap's phase count at its bin width "
    "with the counters' I/O time; counters alone give no burst.  Comments give each "
    "class's jobs, spreads, phase-length spread and period.  See bbsize-fit(1).",
    children, NULL, NULL
};

/* One line of text in a comment: control characters (a line break would
 * end the comment) written as \xNN. */
static void
put_text(FILE *fp, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f || *p == '\\')
            fprintf(fp, "\\x%02x", *p);
        else
            fputc(*p, fp);
}

static const char *const source_names[BB_FIT_NSOURCES] = { "counters", "heatmap", "DXT" };

static void
fmt_rate(char *buf, size_t len, double Bps)
{
    bb_fmt_rate(buf, len, Bps, 1, 0);
}

/* ---- classes ------------------------------------------------------------ */

typedef struct {
    char key[200];
    size_t log;
} keyed;

static int
cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);

    return c ? c : (x->log > y->log) - (x->log < y->log);
}

static void
class_key(const bb_fit_log *lg, size_t idx, unsigned mask, char *buf, size_t len)
{
    size_t k = 0;

#define ADD(...) do { if (k < len) k += (size_t)snprintf(buf + k, len - k, __VA_ARGS__); } while (0)
    buf[0] = '\0';
    if (mask & KEY_EXE)
        ADD("%s", lg->exe[0] ? lg->exe : "unknown");
    if (mask & KEY_NPROCS) {
        if (lg->nprocs > 0)
            ADD("%s%ldp", k ? "-" : "", lg->nprocs);
        else
            ADD("%s?p", k ? "-" : "");
    }
    if (mask & KEY_UID)
        ADD("%suid%s", k ? "-" : "", lg->uid[0] ? lg->uid : "?");
    if (mask & KEY_JOBID)
        ADD("%sjob%s", k ? "-" : "", lg->jobid[0] ? lg->jobid : "?");
    if (mask & KEY_LOG) {
        if (lg->jobid[0])
            ADD("%s%s", k ? "-" : "", lg->jobid);
        else
            ADD("%slog%zu", k ? "-" : "", idx + 1);
    }
#undef ADD
}

/* The same job twice (the parser and the DXT text of one run, or a file
 * given twice): same job id, start time and executable.  The log with the
 * finer timeline is kept (DXT, then heatmap, then counters; then the
 * first given). */
static int
cmp_same_job(const void *a, const void *b)
{
    const bb_fit_log *x = *(bb_fit_log *const *)a, *y = *(bb_fit_log *const *)b;
    int c = strcmp(x->jobid, y->jobid);

    if (c == 0)
        c = (x->start_epoch > y->start_epoch) - (x->start_epoch < y->start_epoch);
    if (c == 0)
        c = strcmp(x->exe, y->exe);
    if (c == 0)
        c = y->est.source - x->est.source;
    return c ? c : (x > y) - (x < y);
}

static size_t
mark_duplicates(bb_fit_log *logs, size_t n)
{
    bb_fit_log **v = malloc((n ? n : 1) * sizeof *v);
    size_t dups = 0;

    if (v == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = &logs[i];
    qsort(v, n, sizeof *v, cmp_same_job);
    for (size_t i = 1; i < n; i++) {
        bb_fit_log *x = v[i - 1], *y = v[i];

        if (y->jobid[0] && y->start_epoch >= 0 && strcmp(x->jobid, y->jobid) == 0
            && x->start_epoch == y->start_epoch && strcmp(x->exe, y->exe) == 0) {
            y->dup_of = x->path;
            dups++;
            bb_warn("fit darshan: %s is the same job as %s (job %s, same start): counted once, "
                    "from the %s", y->path, x->path, y->jobid, source_names[x->est.source]);
            v[i] = x;   /* later copies compare against the kept one */
        }
    }
    free(v);
    return dups;
}

/* ---- output ------------------------------------------------------------- */

static void
put_spread(FILE *fp, const char *what, const bb_spread *s, int rate, const char *unit)
{
    char a[64], b[64], c[64];

    if (s->n < 2)
        return;   /* one job: the class's figure is its own */
    if (rate) {
        fmt_rate(a, sizeof a, bb_spread_mean(s));
        fmt_rate(b, sizeof b, s->min);
        fmt_rate(c, sizeof c, s->max);
    } else {
        snprintf(a, sizeof a, "%.4g%s", bb_spread_mean(s), unit);
        snprintf(b, sizeof b, "%.4g%s", s->min, unit);
        snprintf(c, sizeof c, "%.4g%s", s->max, unit);
    }
    {
        double sd = bb_spread_sd(s), m = bb_spread_mean(s);

        fprintf(fp, "#     %s per job (%zu): mean %s, sd %.3g of the mean, range %s to %s\n",
                what, s->n, a, m != 0 ? sd / m : 0, b, c);
    }
}

static void
put_log(FILE *fp, const bb_fit_log *lg)
{
    const bb_fit_est *e = &lg->est;
    char bw[64];

    fmt_rate(bw, sizeof bw, e->bw_Bps);
    fputs("#   log ", fp);
    put_text(fp, lg->path);
    fputs(": job ", fp);
    put_text(fp, lg->jobid[0] ? lg->jobid : "?");
    fprintf(fp, ", %s, run %.6g s, p %.4g", source_names[e->source], e->run_s, e->p);
    if (e->on_s > 0)
        fprintf(fp, ", bw %s", bw);
    if (e->source != BB_FIT_COUNTERS && e->busy_s > 0)
        fprintf(fp, ", busy %.4g s", e->busy_s);
    if (e->phases > 0) {
        fprintf(fp, ", %zu phase%s of %.4g s", e->phases, e->phases == 1 ? "" : "s", e->burst_s);
        if (!isnan(e->burst_cv))
            fprintf(fp, " (CV %.2f)", e->burst_cv);
        fprintf(fp, ", gap %s %.3g s", e->gap_derived ? "derived" : "given", e->gap_s);
    }
    if (e->periodic)
        fprintf(fp, ", period %.4g s (autocorrelation %.2f)", e->period_s, e->period_acf);
    if (e->on_s == 0)
        fputs(", no I/O", fp);
    fputc('\n', fp);
    if (lg->warn & BB_FITW_NOWRITE)
        fputs("#     warning: nothing written: read traffic only (a burst buffer absorbs "
              "writes)\n", fp);
    if (lg->warn & BB_FITW_BOTH_APIS)
        fputs("#     warning: MPI-IO and POSIX counters both present: MPI-IO runs on POSIX, "
              "so only POSIX (+ STDIO) is used\n", fp);
    if (lg->warn & BB_FITW_UNMONITORED) {
        fputs("#     warning: counters not monitored (-1), left out: ", fp);
        put_text(fp, lg->unmonitored);
        fputc('\n', fp);
    }
    if (lg->warn & BB_FITW_CLAMPED)
        fputs("#     warning: I/O time above the run time: p clamped to 1\n", fp);
    if (lg->warn & BB_FITW_MPIIO_ROWS)
        fputs("#     note: DXT has MPI-IO rows only (no POSIX tracing): their times are "
              "used\n", fp);
    if (lg->warn & BB_FITW_HEAT_ONLY)
        fprintf(fp, "#     warning: no counted I/O time: p from the heatmap's busy bins "
                "of %.3g s, an upper bound\n", e->resolution_s);
}

typedef struct {
    bb_fit_class c;
    bb_fit_row r;
    char name[BBA_NAME_LEN];
    size_t first, count;     /* its logs: keys[first .. first + count) */
    double res_max;          /* the coarsest heatmap bin among its logs */
    int carries;             /* p > 0 and bw > 0: written as a row */
} fit_class;

static void
put_class(FILE *fp, const fit_class *k, const keyed *keys, const bb_fit_log *logs)
{
    const bb_fit_class *c = &k->c;
    const bb_fit_row *r = &k->r;
    char bw[64];

    fputs("#\n# class ", fp);
    put_text(fp, k->name);
    fprintf(fp, ": %zu job%s (", c->jobs, c->jobs == 1 ? "" : "s");
    for (int s = BB_FIT_NSOURCES - 1, first = 1; s >= 0; s--)
        if (c->by_source[s]) {
            fprintf(fp, "%s%zu %s", first ? "" : ", ", c->by_source[s],
                    s == BB_FIT_COUNTERS ? "counters only" : source_names[s]);
            first = 0;
        }
    fprintf(fp, "), %zu without I/O\n", c->jobs - c->jobs_io);
    fmt_rate(bw, sizeof bw, r->bw_Bps);
    fprintf(fp, "#   p %.6g = %.6g s in I/O / %.6g s of run time\n", r->p, c->on_s, c->run_s);
    put_spread(fp, "p", &c->p, 0, "");
    fprintf(fp, "#   bw %s = %.6g bytes / %.6g s in I/O\n", bw, c->bytes, c->on_s);
    put_spread(fp, "bw", &c->bw, 1, "");
    if (r->has_burst) {
        fprintf(fp, "#   burst %.6g s = %.6g s in I/O / %.0f phases (%zu job%s)", r->burst_s,
                c->phase_on_s, c->phases, c->jobs_burst, c->jobs_burst == 1 ? "" : "s");
        if (!isnan(r->burst_cv))
            fprintf(fp, "; phase-length CV %.2f", r->burst_cv);
        fputc('\n', fp);
        put_spread(fp, "burst", &c->burst, 0, " s");
        if (!isnan(r->burst_cv) && c->phases >= CV_MIN_PHASES
            && (r->burst_cv < CV_LOW || r->burst_cv > CV_HIGH))
            fprintf(fp, "#   warning: phase-length CV %.2f is far from the exponential's 1 that "
                    "the ON/OFF model assumes (%s phases)\n", r->burst_cv,
                    r->burst_cv < CV_LOW ? "regular" : "very uneven");
        if (k->res_max > 0)
            fprintf(fp, "#   note: heatmap bins of up to %.3g s: phases closer than a bin count "
                    "as one, so the burst is an upper bound\n", k->res_max);
    } else if (c->jobs_io > 0)
        fputs("#   burst: none: no log of this class has a timeline (DXT or heatmap)\n", fp);
    if (c->jobs_periodic > 0) {
        fprintf(fp, "#   period: %zu of %zu job%s periodic, mean period %.4g s\n",
                c->jobs_periodic, c->jobs_burst, c->jobs_burst == 1 ? "" : "s",
                bb_spread_mean(&c->period));
        put_spread(fp, "period", &c->period, 0, " s");
    }
    if (!isnan(r->concurrency)) {
        char ml[64];

        fmt_rate(ml, sizeof ml, r->p * r->bw_Bps * r->concurrency);
        fprintf(fp, "#   concurrency: %.3g jobs of this class ran at once on average (run "
                "times / span of %.6g s from the first start to the last end)\n",
                r->concurrency, c->last_end - c->first_start);
        fprintf(fp, "#   row: count %ld (the concurrency rounded), p %.6g = %.6g x %.3g / %ld, "
                "so that count x p x bw = %s, the class's mean load over its span\n",
                r->count, r->p_row, r->p, r->concurrency, r->count, ml);
    }
    if (!k->carries)
        fputs("#   no row: this class carries no I/O (p = 0 or bw = 0)\n", fp);
    for (size_t i = 0; i < k->count; i++)
        put_log(fp, &logs[keys[k->first + i].log]);
}

/* The workload text: header, classes, rows. */
static void
write_workload(FILE *fp, const struct args *a, const bb_fit_log *logs, size_t nlogs,
               size_t dups, const fit_class *cls, size_t ncls, const keyed *keys,
               char **bad, size_t nbad, int with_burst)
{
    size_t by[BB_FIT_NSOURCES] = { 0 };
    double shortest = 0;
    bb_workload_style st = { BB_WL_COUNT | (with_burst ? BB_WL_BURST : 0), 6, 1e6, "MB/s", "s" };

    for (size_t i = 0; i < nlogs; i++)
        if (!logs[i].dup_of)
            by[logs[i].est.source]++;
    fprintf(fp, "# bbsize workload fitted by `bbsize fit darshan` from %zu log%s (%zu DXT, "
                "%zu heatmap, %zu counters only", nlogs, nlogs == 1 ? "" : "s",
            by[BB_FIT_DXT], by[BB_FIT_HEATMAP], by[BB_FIT_COUNTERS]);
    if (dups)
        fprintf(fp, "; %zu the same job as another, left out", dups);
    fprintf(fp, ") in %zu class%s by %s.\n", ncls, ncls == 1 ? "" : "es",
            a->group_arg ? a->group_arg : "exe,nprocs");
    fputs("# A row is one class: p = time in I/O phases / run time, bw = bytes read and\n"
          "# written / time in I/O phases, burst = mean length of an I/O phase, pooled over\n"
          "# the class's jobs (bbsize-fit(1)).  Add a platform: --pfs-bw or --system.\n", fp);
    if (a->tl.gap_s < 0)
        fputs("# Phases: transfers closer than a gap derived per job from its own gaps merge "
              "(--gap).\n", fp);
    else
        fprintf(fp, "# Phases: transfers closer than %.6g s merge (--gap).\n", a->tl.gap_s);
    for (size_t i = 0; i < nbad; i++) {
        fputs("# left out (--skip-bad): ", fp);
        put_text(fp, bad[i]);
        fputc('\n', fp);
    }
    for (size_t i = 0; i < nlogs; i++)
        if (logs[i].dup_of) {
            fputs("# left out, the same job as ", fp);
            put_text(fp, logs[i].dup_of);
            fputs(": ", fp);
            put_text(fp, logs[i].path);
            fputc('\n', fp);
        }
    for (size_t k = 0; k < ncls; k++)
        put_class(fp, &cls[k], keys, logs);
    for (size_t k = 0; k < ncls; k++)
        if (cls[k].carries && cls[k].r.has_burst && (shortest == 0 || cls[k].r.burst_s < shortest))
            shortest = cls[k].r.burst_s;
    fputs("#\n", fp);
    if (!with_burst)
        fputs("# burst: not estimated: counters alone do not say how the I/O time splits into\n"
              "# phases (one 100 s write and ten of 10 s look the same).  Give DXT or heatmap\n"
              "# logs, or add a 'burst' column where you know it; without it bbsize uses the\n"
              "# memoryless model, whose answer depends on the time unit.\n", fp);
    else if (shortest > 0)
        fprintf(fp, "# burst: a duration.  The shortest is %.6g s: the discrete-time models need "
                    "a time unit\n# no longer than a burst (--time-unit).\n", shortest);
    bb_workload_write_header(fp, &st);
    for (size_t k = 0; k < ncls; k++) {
        bb_workload_row r = { cls[k].name, cls[k].r.p_row, cls[k].r.bw_Bps, 0,
                              cls[k].r.has_burst ? cls[k].r.burst_s : NAN, cls[k].r.count };

        if (cls[k].carries)
            bb_workload_write_row(fp, &st, &r);
    }
}

/* --json: the logs read and every class's pooled values (null where a
 * class has none), one object (docs/json/fit.schema.json), into fp. */
static void
write_json(FILE *fp, const struct args *a, const bb_fit_log *logs, size_t nlogs, size_t dups,
           const fit_class *cls, size_t ncls, char **bad, size_t nbad)
{
    size_t by[BB_FIT_NSOURCES] = { 0 };
    json_t *classes = json_array(), *left = json_array(), *o;

    for (size_t i = 0; i < nlogs; i++)
        if (!logs[i].dup_of)
            by[logs[i].est.source]++;
    for (size_t i = 0; i < nbad; i++)
        json_array_append_new(left, json_string(bad[i]));
    for (size_t k = 0; k < ncls; k++) {
        const bb_fit_class *c = &cls[k].c;
        const bb_fit_row *r = &cls[k].r;
        json_t *x = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}",
                              "name", cls[k].name, "jobs", (json_int_t)c->jobs,
                              "jobs_without_io", (json_int_t)(c->jobs - c->jobs_io),
                              "jobs_dxt", (json_int_t)c->by_source[BB_FIT_DXT],
                              "jobs_heatmap", (json_int_t)c->by_source[BB_FIT_HEATMAP],
                              "jobs_counters_only", (json_int_t)c->by_source[BB_FIT_COUNTERS],
                              "run_s", c->run_s, "io_s", c->on_s, "bytes", c->bytes,
                              "p", r->p, "bw_bytes_per_s", r->bw_Bps);

        json_object_set_new(x, "burst_s", r->has_burst ? json_real(r->burst_s) : json_null());
        json_object_set_new(x, "burst_cv", r->has_burst ? bb_json_real_or_null(r->burst_cv)
                                                         : json_null());
        json_object_set_new(x, "phases", r->has_burst ? json_real(c->phases) : json_null());
        json_object_set_new(x, "jobs_periodic", json_integer((json_int_t)c->jobs_periodic));
        json_object_set_new(x, "period_s", c->jobs_periodic > 0
                            ? bb_json_real_or_null(bb_spread_mean(&c->period)) : json_null());
        json_object_set_new(x, "concurrency", bb_json_real_or_null(r->concurrency));
        json_object_set_new(x, "count", json_integer((json_int_t)r->count));
        json_object_set_new(x, "p_row", json_real(r->p_row));
        json_object_set_new(x, "row", json_boolean(cls[k].carries));
        json_array_append_new(classes, x);
    }
    o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:o, s:o}", "logs", (json_int_t)nlogs,
                  "logs_dxt", (json_int_t)by[BB_FIT_DXT], "logs_heatmap",
                  (json_int_t)by[BB_FIT_HEATMAP], "logs_counters_only",
                  (json_int_t)by[BB_FIT_COUNTERS], "duplicates", (json_int_t)dups, "group_by",
                  a->group_arg ? a->group_arg : "exe,nprocs", "gap_s",
                  a->tl.gap_s < 0 ? json_null() : json_real(a->tl.gap_s), "left_out", left,
                  "classes", classes);
    if (o == NULL || json_dumpf(o, fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        bb_die(BB_EXIT_SOFTWARE, "out of memory writing JSON");
    fputc('\n', fp);
    json_decref(o);
}

/* A row name from the class key: at most BBA_NAME_LEN - 1 bytes, a
 * shortened one made unique by the class number. */
static void
class_name(const char *key, size_t k, char *name, size_t len)
{
    if (strlen(key) < len)
        snprintf(name, len, "%s", key);
    else {
        char tail[32];
        int tl = snprintf(tail, sizeof tail, "~%zu", k + 1);

        snprintf(name, len, "%.*s%s", (int)(len - 1 - (size_t)tl), key, tail);
    }
}

int
bb_cmd_fit(int argc, char **argv)
{
    struct args a;
    bb_fit_files fl;
    bb_fit_log *logs;
    keyed *keys;
    fit_class *cls = NULL;
    size_t nlogs = 0, nk = 0, ncls = 0, dups, nbad = 0, rows, noio = 0;
    char **bad = NULL, err[BB_ERRLEN], *text = NULL;
    double largest = 0;
    int with_burst = 0;
    FILE *mem;
    size_t tlen = 0;
    bb_meter meter;

    memset(&a, 0, sizeof a);
    bb_tl_opts_default(&a.tl);
    a.group = KEY_EXE | KEY_NPROCS;
    argp_parse(&argp, argc, argv, 0, NULL, &a);
    bb_fit_collect(a.paths, a.npaths, &fl);

    /* Bound before reading: the logs' summaries, and the largest log read
     * whole with its transfers (fitlogs.h). */
    for (size_t i = 0; i < fl.n; i++)
        if (fl.f[i].size_bytes > largest)
            largest = fl.f[i].size_bytes;
    {
        char detail[200], sz[64];
        double need = (double)fl.n * (sizeof(bb_fit_log) + sizeof(keyed) + sizeof(fit_class))
                      + BB_FIT_BYTES_PER_TEXT_BYTE * largest + BB_FIT_FIXED_BYTES;

        bb_fmt_size(sz, sizeof sz, largest, 0);
        snprintf(detail, sizeof detail, "%zu log%s, the largest %s", fl.n, fl.n == 1 ? "" : "s", sz);
        bb_limits_check("fit darshan", 0, need, detail, "fewer or smaller logs");
    }
    logs = calloc(fl.n, sizeof *logs);
    keys = calloc(fl.n, sizeof *keys);
    if (logs == NULL || keys == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory for %zu logs", fl.n);
    bb_meter_start(&meter, &a.out, "fit darshan", "logs", fl.n);
    for (size_t i = 0; i < fl.n; i++) {
        int rc = bb_fit_read_log(fl.f[i].path, &a.tl, &logs[nlogs], err, sizeof err);

        bb_meter_update(&meter, i + 1);
        if (rc == BB_OK) {
            nlogs++;
            continue;
        }
        free(logs[nlogs].unmonitored);
        if (!a.skip_bad || rc == BB_ENOMEM)
            bb_die_lib(rc, err);
        bb_warn("fit darshan: left out: %s", err);
        {
            char **nb = realloc(bad, (nbad + 1) * sizeof *nb);

            if (nb == NULL || (nb[nbad] = strdup(err)) == NULL)
                bb_die(BB_EXIT_SOFTWARE, "out of memory");
            bad = nb;
            nbad++;
        }
    }
    bb_meter_end(&meter);
    if (nlogs == 0)
        bb_die(BB_EXIT_DATAERR, "no log could be read (%zu left out)", nbad);
    dups = mark_duplicates(logs, nlogs);

    /* Classes: the logs sorted by key; equal keys form a class. */
    for (size_t i = 0; i < nlogs; i++) {
        if (logs[i].dup_of)
            continue;
        class_key(&logs[i], i, a.group, keys[nk].key, sizeof keys[nk].key);
        keys[nk++].log = i;
    }
    qsort(keys, nk, sizeof *keys, cmp_keyed);
    cls = calloc(nk ? nk : 1, sizeof *cls);
    if (cls == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    for (size_t i = 0; i < nk; i++) {
        const bb_fit_log *lg = &logs[keys[i].log];
        fit_class *k;

        if (i == 0 || strcmp(keys[i].key, keys[i - 1].key) != 0) {
            k = &cls[ncls];
            bb_fit_class_init(&k->c);
            class_name(keys[i].key, ncls, k->name, sizeof k->name);
            k->first = i;
            ncls++;
        }
        k = &cls[ncls - 1];
        k->count++;
        bb_fit_class_add(&k->c, &lg->est, lg->start_epoch);
        if (lg->est.source == BB_FIT_HEATMAP && lg->est.resolution_s > k->res_max)
            k->res_max = lg->est.resolution_s;
        noio += lg->est.on_s == 0;
    }
    rows = 0;
    for (size_t k = 0; k < ncls; k++) {
        bb_fit_class_row(&cls[k].c, &cls[k].r);
        /* p or bw of 0 carries nothing: no row; nor does a value that
         * would be written below the smallest normal double (p, or bw in
         * MB/s), which the reader refuses as an underflow. */
        cls[k].carries = cls[k].r.p >= DBL_MIN && cls[k].r.bw_Bps / 1e6 >= DBL_MIN;
        if (!cls[k].carries) {
            bb_warn("fit darshan: class %s (%zu job%s) carries no I/O (p = 0 or bw = 0): no row",
                    cls[k].name, cls[k].c.jobs, cls[k].c.jobs == 1 ? "" : "s");
            continue;
        }
        rows++;
        with_burst |= cls[k].r.has_burst;
    }
    if (rows == 0)
        bb_die(BB_EXIT_DATAERR, "no class carries I/O (%zu job%s, none with p > 0 and bw > 0): "
               "nothing to size, no workload written", nk, nk == 1 ? "" : "s");

    /* The text in memory, read back by the workload reader before it is
     * written: fit never writes a file bbsize refuses. */
    if ((mem = open_memstream(&text, &tlen)) == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory");
    if (a.out.json)
        write_json(mem, &a, logs, nlogs, dups, cls, ncls, bad, nbad);
    else
        write_workload(mem, &a, logs, nlogs, dups, cls, ncls, keys, bad, nbad, with_burst);
    if (fclose(mem) != 0 || text == NULL)
        bb_die(BB_EXIT_SOFTWARE, "out of memory writing the workload");
    if (!a.out.json
        && bb_workload_verify(text, a.out.output ? a.out.output : "(standard output)", err,
                              sizeof err) != BB_OK)
        bb_die(BB_EXIT_DATAERR, "the workload fitted would not read back: %s (a value "
               "out of the workload format's range: see the log named in the comments)", err);
    bb_out_text(a.out.output, text, tlen);
    if (!a.out.quiet)
        fprintf(stderr, "bbsize: fit darshan: %zu log%s, %zu class%s, %zu row%s%s; %zu job%s "
                "without I/O\n", nlogs, nlogs == 1 ? "" : "s", ncls, ncls == 1 ? "" : "es",
                rows, rows == 1 ? "" : "s", with_burst ? " with a burst" : "", noio,
                noio == 1 ? "" : "s");
    if (!with_burst)
        bb_warn("fit darshan: no burst length estimated (counters alone give I/O time totals, "
                "not phases); give DXT or heatmap logs, or add a 'burst' column");
    free(text);
    for (size_t i = 0; i < nlogs; i++)
        free(logs[i].unmonitored);
    for (size_t i = 0; i < nbad; i++)
        free(bad[i]);
    free(bad);
    free(cls);
    free(keys);
    free(logs);
    bb_fit_files_free(&fl);
    return BB_EXIT_OK;
}
