/* failure.h: component failures after SANgo: health states, Arrhenius
 * failure rates under an ambient-temperature series, Weibull drive
 * lifetimes with age, sampled repairs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources: SANgo (Karpov et al., PeerJ Comput. Sci. 2020), section
 * "Anomalies": health states OK, MISSED, BAD, LOST; the Arrhenius factor
 * K = A exp(Ea / k (1 / T_ref - 1 / T)) for electronics under the ambient
 * temperature (its temp.json table is this factor with Ea = 0.38 eV and
 * T_ref = 25 C); a Weibull hazard for drives (shape beta, scale zeta, age T).
 *
 * Sampling, and the departure from SANgo: SANgo tests "a component fails
 * with probability 1 - p" once per step, which both inverts the
 * probability and ties the failure count to the step length.  Here each
 * failure time is drawn exactly by inverting the cumulative hazard:
 * with E = -ln U (U uniform in (0, 1], one uniform per draw), the failure
 * comes at the first t with H(t0, t) = E.  For Arrhenius with a
 * piecewise-constant temperature this is a non-homogeneous Poisson
 * process; for Weibull, a drive of age a0 fails at age
 * zeta (H(a0) + E)^(1/beta) (the residual life given survival to a0).
 *
 * The module keeps no clock and schedules nothing: the caller (an event
 * loop or sim/engine.h) puts events at next_fail_s and repair_done_s.
 * All times are seconds; temperatures degrees Celsius. */
#ifndef BBSIZE_SIM_STORAGE_FAILURE_H
#define BBSIZE_SIM_STORAGE_FAILURE_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

/* Health (SANgo Table 3, "each component"; SANgo names the states without
 * defining them, these are our definitions).  Ordered by severity: the
 * health of a group of components is the largest of theirs. */
typedef enum {
    BBS_HEALTH_OK = 0,   /* working */
    BBS_HEALTH_MISSED,   /* the component cannot be reached (a failed link): what
                            is behind it works and keeps its data; requests that
                            must cross it wait (or go elsewhere) until the repair */
    BBS_HEALTH_BAD,      /* failed, contents intact (a controller): the devices
                            behind it accept no request and serve no read (no
                            admission, no draining) until the repair; requests
                            already handed to a device complete; nothing is lost */
    BBS_HEALTH_LOST      /* failed with its contents (drive, buffer node): what it
                            held and had not yet drained is lost; the repair puts
                            in an empty, new unit */
} bbs_health;
const char *bbs_health_name(bbs_health h);

/* Boltzmann's constant in eV/K (CODATA 2018). */
#define BBS_BOLTZMANN_EV_PER_K 8.617333262e-5

/* bbs_arrhenius_factor: exp(Ea / k (1 / T_ref - 1 / T)), temperatures in C. */
double bbs_arrhenius_factor(double ea_eV, double tref_C, double temp_C);

/* A piecewise-constant ambient temperature: temp_C[i] holds from time_s[i]
 * to time_s[i + 1]; the first value also holds before time_s[0], the last
 * forever after.  The arrays are the caller's. */
typedef struct {
    size_t n;
    const double *time_s;   /* strictly ascending */
    const double *temp_C;   /* > -273.15 */
} bbs_temp_series;

/* bbs_temp_series_check: n >= 1, times finite and strictly ascending,
 * temperatures finite and above absolute zero.  Errors: BB_EINVAL. */
int bbs_temp_series_check(const bbs_temp_series *ts, char *err);

typedef struct {
    double rate_per_s;  /* A: failure rate at the reference temperature, >= 0 */
    double ea_eV;       /* activation energy, >= 0 (SANgo: 0.38) */
    double tref_C;      /* reference temperature (SANgo: 25) */
} bbs_arrhenius;

/* bbs_arrhenius_hazard: integral of A factor(T(t)) over [t0, t1], O(n). */
double bbs_arrhenius_hazard(const bbs_arrhenius *a, const bbs_temp_series *ts, double t0_s,
                            double t1_s);

/* bbs_arrhenius_next: the next failure time after t0 (one uniform);
 * INFINITY when the rate is 0.  O(n).  Errors: BB_EINVAL (bad series or
 * parameters). */
int bbs_arrhenius_next(const bbs_arrhenius *a, const bbs_temp_series *ts, double t0_s,
                       gsl_rng *r, double *t_fail_s, char *err);

typedef struct {
    double shape;       /* beta > 0 (1: exponential; > 1: wear-out) */
    double scale_s;     /* zeta > 0 */
} bbs_weibull;

/* Hazard rate (beta / zeta) (age / zeta)^(beta - 1) and cumulative hazard
 * (age / zeta)^beta. */
double bbs_weibull_hazard_rate(const bbs_weibull *w, double age_s);
double bbs_weibull_cum_hazard(const bbs_weibull *w, double age_s);

/* bbs_weibull_next: the age at which a unit of age age_s fails (one
 * uniform).  Errors: BB_EINVAL (shape or scale <= 0, age < 0). */
int bbs_weibull_next(const bbs_weibull *w, double age_s, gsl_rng *r, double *age_fail_s,
                     char *err);

/* Repair durations. */
typedef enum { BBS_REPAIR_FIXED = 0, BBS_REPAIR_EXPONENTIAL = 1 } bbs_repair_kind;
typedef struct {
    bbs_repair_kind kind;
    double mean_s;      /* > 0 */
} bbs_repair;

/* bbs_repair_sample: a repair duration (one uniform for EXPONENTIAL, none
 * for FIXED). */
double bbs_repair_sample(const bbs_repair *rep, gsl_rng *r);

/* ---- components ------------------------------------------------------- */

typedef enum {
    BBS_COMP_NODE = 0,      /* burst-buffer node: failure loses its data */
    BBS_COMP_DRIVE,         /* drive: failure loses its data; Weibull by default */
    BBS_COMP_CONTROLLER,    /* controller: BAD while failed, devices unreachable */
    BBS_COMP_LINK           /* link: MISSED while failed, the node unreachable */
} bbs_comp_class;

typedef enum { BBS_LAW_NONE = 0, BBS_LAW_ARRHENIUS, BBS_LAW_WEIBULL } bbs_fail_law;

typedef struct {
    bbs_comp_class cls;
    bbs_fail_law law;
    bbs_arrhenius arr;
    bbs_weibull wei;
    double age0_s;          /* Weibull: age at time 0 */
    bbs_repair repair;
    /* state (bbs_component_start / _fail / _repair) */
    bbs_health health;
    double installed_s;     /* when the current unit started (age = now - installed + age0) */
    double next_fail_s;     /* INFINITY: never (or while failed) */
    double repair_done_s;   /* INFINITY: not under repair */
    unsigned long failures;
} bbs_component;

/* bbs_component_start: health OK at time now_s, next failure drawn.
 * ts is needed for BBS_LAW_ARRHENIUS (else may be NULL).  Errors: BB_EINVAL. */
int bbs_component_start(bbs_component *c, double now_s, const bbs_temp_series *ts,
                        gsl_rng *r, char *err);

/* bbs_component_fail: the failure at now_s (= next_fail_s): health LOST
 * for nodes and drives, BAD for controllers, MISSED for links; a repair
 * duration is drawn; next_fail_s becomes INFINITY. */
void bbs_component_fail(bbs_component *c, double now_s, gsl_rng *r);

/* bbs_component_repair: the repair ends at now_s: health OK; a replaced
 * unit (LOST) starts at age 0; the next failure is drawn.  Errors as
 * bbs_component_start. */
int bbs_component_repair(bbs_component *c, double now_s, const bbs_temp_series *ts,
                         gsl_rng *r, char *err);

/* bbs_component_loses_data: 1 when the class's failure destroys contents. */
int bbs_component_loses_data(bbs_comp_class cls);

#endif
