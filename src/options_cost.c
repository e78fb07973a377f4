/* options_cost.c: the argp children for what a design costs and endures
 * (options.h): the drives' rating and service life, and the prices; and
 * money as a committee reads it.
 * SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"

enum {
    OPT_DWPD = 0x7300, OPT_LIFETIME, OPT_RATED_YEARS, OPT_WAF,
    OPT_COST_TB = 0x7400, OPT_COST_GBS, OPT_COST_PFS_GBS, OPT_CURRENCY
};
enum { GROUP_ENDURANCE = 22, GROUP_PRICES = 24 };

/* A number in [lo, hi] (hi may be INFINITY), or exit 64 naming the option. */
static double
number(const char *opt, const char *arg, double lo, double hi, int open_lo)
{
    double v;
    char msg[128];

    if (bb_parse_number(arg, &v, msg, sizeof msg) != BB_OK || !isfinite(v))
        bb_usage_value(opt, arg, "a finite number");
    if (v < lo || (open_lo && v == lo) || v > hi)
        bb_usage_value(opt, arg, "in %s%g, %g]", open_lo ? "(" : "[", lo, hi);
    return v;
}

/* ---- endurance ------------------------------------------------------------- */

static const struct argp_option end_options[] = {
    { NULL, 0, NULL, 0, "Endurance (the size is at least what the drives' rating needs):",
      GROUP_ENDURANCE },
    { "dwpd", OPT_DWPD, "D", 0,
      "the drives' rating in drive writes per day; size for endurance too", GROUP_ENDURANCE },
    { "lifetime", OPT_LIFETIME, "YEARS", 0,
      "years the burst buffer must last (default 5)", GROUP_ENDURANCE },
    { "rated-years", OPT_RATED_YEARS, "YEARS", 0,
      "years the --dwpd rating holds for, the warranty (default 5)", GROUP_ENDURANCE },
    { "waf", OPT_WAF, "W", 0,
      "write amplification of the workload relative to the rating (default 1)",
      GROUP_ENDURANCE },
    { 0 }
};

void
bb_endopts_init(bb_endopts *o)
{
    memset(o, 0, sizeof *o);
    o->lifetime_years = 5;
    o->rated_years = 5;
    o->waf = 1;
}

static error_t
end_parse(int key, char *arg, struct argp_state *state)
{
    bb_endopts *o = state->input;

    switch (key) {
    case OPT_DWPD:
        o->dwpd = number("dwpd", arg, 0, 1e6, 1);
        o->set = 1;
        break;
    case OPT_LIFETIME:
        o->lifetime_years = number("lifetime", arg, 0, 1000, 1);
        if (!o->needs_dwpd)
            o->needs_dwpd = "lifetime";
        break;
    case OPT_RATED_YEARS:
        o->rated_years = number("rated-years", arg, 0, 1000, 1);
        if (!o->needs_dwpd)
            o->needs_dwpd = "rated-years";
        break;
    case OPT_WAF:
        o->waf = number("waf", arg, 1, 1e3, 0);
        if (!o->needs_dwpd)
            o->needs_dwpd = "waf";
        break;
    case ARGP_KEY_END:
        /* the service life and amplification size nothing without the
         * rating: said, not ignored */
        if (o->needs_dwpd && !o->set)
            bb_usage_needs(o->needs_dwpd, "dwpd", "the endurance sizing uses it only with "
                           "the drives' rating");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_endurance_argp = { end_options, end_parse, NULL, NULL, NULL, NULL, NULL };

/* ---- prices ------------------------------------------------------------------ */

static const struct argp_option price_options[] = {
    { NULL, 0, NULL, 0, "Prices (any currency, numbers >= 0):", GROUP_PRICES },
    { "cost-tb", OPT_COST_TB, "PRICE", 0, "price of one TB of burst-buffer capacity",
      GROUP_PRICES },
    { "cost-gbs", OPT_COST_GBS, "PRICE", 0, "price of one GB/s of burst-buffer bandwidth",
      GROUP_PRICES },
    { "cost-pfs-gbs", OPT_COST_PFS_GBS, "PRICE", 0, "price of one GB/s of PFS bandwidth",
      GROUP_PRICES },
    { "currency", OPT_CURRENCY, "SYMBOL", 0,
      "printed before every price, e.g. '$' or 'EUR ' (default none)", GROUP_PRICES },
    { 0 }
};

/* The characters of a currency symbol, UTF-8 aware: -1 not UTF-8, -2 a
 * control character (C0, DEL or C1), -3 a markup character. */
static long
utf8_symbol_length(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    long n = 0;

    while (*p) {
        unsigned c = *p, cp;
        int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                 : (c & 0xF8) == 0xF0 ? 3 : -1;

        if (more < 0)
            return -1;
        cp = more == 0 ? c : c & (0x3F >> more);
        for (int k = 1; k <= more; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return -1;
            cp = cp << 6 | (p[k] & 0x3F);
        }
        /* overlong forms, surrogates and beyond U+10FFFF are not UTF-8 */
        if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000)
            || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return -1;
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
            return -2;
        if (cp == '<' || cp == '>' || cp == '&' || cp == '"')
            return -3;
        p += more + 1;
        n++;
    }
    return n;
}

static error_t
price_parse(int key, char *arg, struct argp_state *state)
{
    bb_prices *p = state->input;

    switch (key) {
    case OPT_COST_TB:
        p->tb = number("cost-tb", arg, 0, INFINITY, 0);
        p->has_tb = 1;
        break;
    case OPT_COST_GBS:
        p->gbs = number("cost-gbs", arg, 0, INFINITY, 0);
        p->has_gbs = 1;
        break;
    case OPT_COST_PFS_GBS:
        p->pfs_gbs = number("cost-pfs-gbs", arg, 0, INFINITY, 0);
        p->has_pfs_gbs = 1;
        break;
    case OPT_CURRENCY: {
        long n = utf8_symbol_length(arg);

        if (n < 0 || n > BB_CURRENCY_MAX)
            bb_usage_error("currency", "%s", n == -1 ? "not UTF-8 text"
                           : n == -2 ? "a control character (the terminal would obey it)"
                           : n == -3 ? "a markup character (<, >, & or \")"
                           : "longer than 16 characters");
        p->currency = arg;
        break;
    }
    case ARGP_KEY_END:
        if (p->currency && !p->has_tb && !p->has_gbs && !p->has_pfs_gbs)
            bb_usage_error("currency", "it is printed before prices, and no price is given "
                           "(--cost-tb, --cost-gbs or --cost-pfs-gbs)");
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp bb_prices_argp = { price_options, price_parse, NULL, NULL, NULL, NULL, NULL };

void
bb_fmt_thousands(char *buf, size_t len, double v)
{
    char digits[64];
    size_t n, k = 0, lead;
    int neg = v < 0;

    if (!isfinite(v)) {
        snprintf(buf, len, "%g", v);
        return;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    n = strlen(digits);
    lead = n % 3 == 0 ? 3 : n % 3;
    if (len == 0)
        return;
    if (neg && k + 1 < len)
        buf[k++] = '-';
    for (size_t i = 0; i < n && k + 1 < len; i++) {
        if (i > 0 && (i - lead) % 3 == 0 && i >= lead && k + 1 < len)
            buf[k++] = ',';
        if (k + 1 < len)
            buf[k++] = digits[i];
    }
    buf[k] = '\0';
}

void
bb_fmt_money(char *buf, size_t len, const bb_prices *p, double v)
{
    char whole[64];
    double r = round(fabs(v) * 100.0);
    long cents;

    if (!isfinite(r)) {   /* no cents: a NaN or infinity cast to long is undefined */
        snprintf(buf, len, "%s%s%g", v < 0 ? "-" : "", p && p->currency ? p->currency : "",
                 fabs(v));
        return;
    }
    cents = (long)fmod(r, 100.0);

    bb_fmt_thousands(whole, sizeof whole, floor(r / 100.0));
    snprintf(buf, len, "%s%s%s.%02ld", v < 0 ? "-" : "", p && p->currency ? p->currency : "",
             whole, cents);
}
