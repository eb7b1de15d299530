/* inspect.c — the checks behind `gpuwise inspect` (see inspect.h): what each nvidia-smi field
 * says about a used or rented card, and how sure we can be.  Reads nvsmi structs, asks the KB
 * through the caller's lookup (the command hands it one: inspect/ never opens the KB);
 * prints nothing.  The view of a result is inspect_view.c's. */
#include "inspect.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"

/* Memory totals: drivers hold back a little ("24 GB" shows as 24576 MiB, or a few MiB less),
 * and GDDR cards with ECC on lose a further 1/16 to the check bits (a 16 GB T4 shows 15360
 * MiB, a 24 GB A10G 23028 MiB). */
#define MEMORY_TOLERANCE 0.05
#define ECC_RESERVE (1.0 / 16.0)
/* Utilisation at which a link or clock reading counts as "under load". */
#define LOAD_UTIL_PCT 50.0
/* Utilisation below which a card counts as idle, and the fan speed that is odd at idle. */
#define IDLE_UTIL_PCT 10.0
#define IDLE_FAN_PCT 60.0
/* Degrees below the slowdown threshold that already deserve a look. */
#define TEMP_MARGIN_C 10.0
/* A default power limit this far from the KB's TDP means a different board or VBIOS. */
#define TDP_TOLERANCE 0.15

const char *inspect_status_name(inspect_status s)
{
    static const char *const names[] = {"PASS", "WARN", "FAIL", "UNKNOWN"};
    return (unsigned)s < INSPECT_N_STATUS ? names[s] : "UNKNOWN";
}

/* ---- building one check ---- */

static inspect_check *check_new(inspect_gpu *g, const char *group, const char *id)
{
    inspect_check *c = &g->checks[g->n_checks++];
    memset(c, 0, sizeof *c);
    c->group = group;
    c->id = id;
    c->status = INSPECT_UNKNOWN;
    return c;
}

static void check_set(inspect_check *c, inspect_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void check_set(inspect_check *c, inspect_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = gw_xmalloc(n > 0 ? (size_t)n + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
    va_end(ap);
    free(c->message);
    c->message = s;
    c->status = status;
}

/* Quotes a value of the dump as evidence (nothing when the element is absent). */
static void cite(inspect_check *c, const nvsmi_value *v)
{
    if (!v || !v->text)
        return;
    c->evidence = gw_xrealloc(c->evidence, (c->n_evidence + 1) * sizeof *c->evidence);
    inspect_evidence *e = &c->evidence[c->n_evidence++];
    e->path = gw_xstrdup(v->path);
    e->text = gw_xstrdup(v->text);
    e->line = v->line;
}

static void evidence_clear(inspect_check *c)
{
    for (size_t i = 0; i < c->n_evidence; i++) {
        free(c->evidence[i].path);
        free(c->evidence[i].text);
    }
    free(c->evidence);
    c->evidence = NULL;
    c->n_evidence = 0;
}

/* ---- plausibility ----
 * What a real card can report.  A reading outside its range, or one written as a number that is
 * not a finite one ("1e309 MiB"), is implausible: the dump is damaged or was edited.  The check
 * that reads it then fails saying so, quoting it, instead of judging it (a fan at -1e308 % is
 * not "quiet at idle", and 1e309 MiB is not "no total memory"). */
typedef struct plausible_range {
    size_t at;            /* offsetof(nvsmi_gpu, the value) */
    double lo, hi;        /* in unit */
    const char *unit;     /* for messages; "GiB": the value is converted from its own unit */
} plausible_range;

#define RANGE(field, lo, hi, unit) {offsetof(nvsmi_gpu, field), lo, hi, unit}
static const plausible_range plausible[] = {
    /* 64 MiB (the smallest cards nvidia-smi reports) to 4 TiB (eight times today's largest) */
    RANGE(fb_total, 1.0 / 16, 4096, "GiB"),
    RANGE(fan_speed, 0, 100, "%"),
    RANGE(gpu_util, 0, 100, "%"),
    RANGE(pcie_gen_max, 1, 8, ""),
    RANGE(pcie_gen_current, 1, 8, ""),
    RANGE(pcie_width_max, 1, 32, "lanes"),
    RANGE(pcie_width_current, 1, 32, "lanes"),
    RANGE(retired_single_bit, 0, 1e6, "pages"),
    RANGE(retired_double_bit, 0, 1e6, "pages"),
    RANGE(remapped_correctable, 0, 1e6, "rows"),
    RANGE(remapped_uncorrectable, 0, 1e6, "rows"),
    RANGE(temp_gpu, -50, 150, "C"),
    RANGE(temp_memory, -50, 150, "C"),
    RANGE(temp_slowdown, 20, 150, "C"),
    RANGE(temp_shutdown, 20, 150, "C"),
    RANGE(temp_memory_max, 20, 150, "C"),
    RANGE(power_limit, 0, 5000, "W"),
    RANGE(power_default_limit, 0, 5000, "W"),
};
#undef RANGE
/* An ECC error counter (they live in a list, not in the struct). */
static const plausible_range ecc_count_range = {0, 0, 1e15, "errors"};

static const plausible_range *range_of(const nvsmi_gpu *g, const nvsmi_value *v)
{
    size_t at = (size_t)((const char *)v - (const char *)g);
    for (size_t i = 0; i < sizeof plausible / sizeof plausible[0]; i++)
        if (plausible[i].at == at)
            return &plausible[i];
    return NULL;
}

/* Text that begins as a number does ("-1e308 %", "1e309 MiB", ".5"). */
static int looks_numeric(const char *t)
{
    while (isspace((unsigned char)*t))
        t++;
    if (*t == '+' || *t == '-')
        t++;
    return isdigit((unsigned char)*t) || (*t == '.' && isdigit((unsigned char)t[1]));
}

/* v against range r: 1 with *x (in r's unit) when plausible, 0 when absent or a word ("N/A"),
 * -1 when implausible. */
static int reading(const plausible_range *r, const nvsmi_value *v, double *x)
{
    double n;
    if (!nvsmi_known(v))
        return 0;
    if (!nvsmi_number(v, &n))
        return looks_numeric(v->text) ? -1 : 0;
    if (strcmp(r->unit, "GiB") == 0)
        n = units_to_gib(n, v->q.unit);   /* NaN for a unit that is not a size */
    if (!(n >= r->lo && n <= r->hi))
        return -1;
    *x = n;
    return 1;
}

/* Adds v to *what (and c's evidence) when it is implausible for range r. */
static void note_implausible(inspect_check *c, const plausible_range *r, const nvsmi_value *v,
                             gw_buf *what)
{
    double x;
    if (!r || reading(r, v, &x) >= 0)
        return;
    buf_printf(what, "%s%s is \"%s\" (a real card reports %g to %g%s%s)", what->len ? "; " : "",
               v->path, v->text, r->lo, r->hi, *r->unit ? " " : "", r->unit);
    cite(c, v);
}

/* Fails c when any of the n values of g is implausible, with those values as its evidence, and
 * returns 1: the check then judges nothing else.  0 when all are plausible or absent. */
static int fail_implausible(inspect_check *c, const nvsmi_gpu *g, const nvsmi_value *const *values,
                            size_t n)
{
    gw_buf what = GW_BUF_INIT;
    size_t kept = c->n_evidence;
    for (size_t i = 0; i < n; i++)
        note_implausible(c, range_of(g, values[i]), values[i], &what);
    if (!what.len)
        return 0;
    /* the evidence is the implausible values alone */
    for (size_t i = 0; i < kept; i++) {
        free(c->evidence[i].path);
        free(c->evidence[i].text);
    }
    memmove(c->evidence, c->evidence + kept, (c->n_evidence - kept) * sizeof *c->evidence);
    c->n_evidence -= kept;
    check_set(c, INSPECT_FAIL, "implausible value: %s: the dump is damaged or was edited; take "
              "it again", buf_cstr(&what));
    buf_free(&what);
    return 1;
}

#define IMPLAUSIBLE(c, g, ...) \
    fail_implausible(c, g, (const nvsmi_value *const[]){__VA_ARGS__}, \
                     sizeof (const nvsmi_value *const[]){__VA_ARGS__} / sizeof(const nvsmi_value *))

static int is_yes(const nvsmi_value *v) { return nvsmi_is(v, "Yes"); }
static int is_enabled(const nvsmi_value *v) { return nvsmi_is(v, "Enabled"); }

static const char *text_or(const nvsmi_value *v, const char *fallback)
{
    return v && v->text ? v->text : fallback;
}

/* Utilisation in percent, or NaN. */
static double util_pct(const nvsmi_gpu *g)
{
    double u;
    return nvsmi_number(&g->gpu_util, &u) ? u : NAN;
}

/* Idle: low utilisation, or (no utilisation reading) a low-power performance state. */
static int is_idle(const nvsmi_gpu *g)
{
    double u = util_pct(g);
    if (!isnan(u))
        return u < IDLE_UTIL_PCT;
    return nvsmi_is(&g->performance_state, "P8") || nvsmi_is(&g->performance_state, "P12");
}

static int contains_word(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = haystack; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return 1;
    return 0;
}

/* ---- identity ---- */

/* Looks the card up by the name the driver gives it; when the KB knows it, out->card holds
 * the KB's entry, which the memory and power checks compare with. */
static int check_name(inspect_gpu *out, const nvsmi_gpu *g, inspect_lookup_fn lookup, void *user,
                      gw_error *err)
{
    inspect_check *c = check_new(out, "identity", "identity.name");
    const char *name = g->product_name.text;
    cite(c, &g->product_name);
    if (!nvsmi_known(&g->product_name)) {
        check_set(c, INSPECT_UNKNOWN, "the dump names no product");
    } else if (strcasecmp(name, "Graphics Device") == 0) {
        check_set(c, INSPECT_UNKNOWN,
                  "the driver calls this card \"Graphics Device\": it is older than the card "
                  "and has no name for it; the card is not guessed (update the driver and "
                  "dump again)");
    } else if (!lookup) {
        check_set(c, INSPECT_UNKNOWN, "\"%s\": no knowledge base to look it up in", name);
    } else {
        gw_error why = {0};
        inspect_card card = {NULL, NULL, NAN, NAN};
        int rc = lookup(user, name, &card, &why);
        if (rc == GW_OK && contains_word(name, "Laptop") &&
            !contains_word(card.name ? card.name : "", "Laptop") &&
            !contains_word(card.id ? card.id : "", "laptop")) {
            /* a laptop part shares the desktop name but not its memory, clocks or power */
            check_set(c, INSPECT_UNKNOWN,
                      "\"%s\" is a laptop GPU; the knowledge base only knows the desktop "
                      "card %s, which differs in memory and power",
                      name, card.id ? card.id : "");
            free(card.id);
            free(card.name);
        } else if (rc == GW_OK) {
            out->card = card;
            check_set(c, INSPECT_PASS, "\"%s\" is %s in the knowledge base", name, card.id);
        } else if (rc == GW_ENOTFOUND) {
            free(card.id);
            free(card.name);
            check_set(c, INSPECT_UNKNOWN, "\"%s\" is not a card the knowledge base knows (%s)",
                      name, why.msg);
        } else {
            free(card.id);
            free(card.name);
            gw_error_set(err, rc, "%s", why.msg);
            return rc;
        }
    }
    return GW_OK;
}

static void check_memory_total(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "identity", "identity.memory_total");
    cite(c, &g->fb_total);
    double total;
    if (IMPLAUSIBLE(c, g, &g->fb_total))
        return;
    if (!nvsmi_number(&g->fb_total, &total) || isnan(units_to_gib(total, g->fb_total.q.unit))) {
        check_set(c, INSPECT_UNKNOWN, "the dump gives no total memory");
    } else if (!out->card.id) {
        check_set(c, INSPECT_UNKNOWN, "%s total; no known card to compare it with",
                  g->fb_total.text);
    } else if (isnan(out->card.memory_gb) || out->card.memory_gb <= 0) {
        check_set(c, INSPECT_UNKNOWN, "%s total; the knowledge base has no memory size for %s",
                  g->fb_total.text, out->card.id);
    } else {
        double gib = units_to_gib(total, g->fb_total.q.unit);
        double spec = out->card.memory_gb;
        int ecc = is_enabled(&g->ecc_current);
        double low = spec * (1.0 - MEMORY_TOLERANCE) * (ecc ? 1.0 - ECC_RESERVE : 1.0);
        double high = spec * (1.0 + MEMORY_TOLERANCE);
        if (ecc)
            cite(c, &g->ecc_current);
        if (gib < low)
            check_set(c, INSPECT_FAIL,
                      "reports %.1f GiB but %s has %g GB: a different card under this name, "
                      "a modified VBIOS, or failed memory",
                      gib, out->card.id, spec);
        else if (gib > high)
            check_set(c, INSPECT_FAIL,
                      "reports %.1f GiB but %s has %g GB: more memory than the card was sold "
                      "with means a different card or a memory mod",
                      gib, out->card.id, spec);
        else
            check_set(c, INSPECT_PASS, "%.1f GiB matches the %g GB of %s%s", gib, spec,
                      out->card.id, ecc && gib < spec * (1.0 - MEMORY_TOLERANCE)
                                        ? " (less the 1/16 that ECC keeps for check bits)"
                                        : "");
    }
}

static void check_virtualization(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "identity", "identity.virtualization");
    cite(c, &g->virtualization_mode);
    const nvsmi_value *virt = &g->virtualization_mode;
    if (!virt->text || nvsmi_is(virt, "N/A"))
        check_set(c, INSPECT_UNKNOWN, "the dump does not say whether this is a virtual GPU");
    else if (nvsmi_is(virt, "None"))
        check_set(c, INSPECT_PASS, "a physical GPU, not a virtual one");
    else if (nvsmi_is(virt, "Pass-Through"))
        check_set(c, INSPECT_PASS, "a whole physical GPU passed through to a virtual machine");
    else if (nvsmi_is(virt, "VGPU"))
        check_set(c, INSPECT_WARN,
                  "a virtual GPU (vGPU guest): a share of a physical card; its memory, power "
                  "and health readings are the share's or hidden, so most checks cannot be "
                  "made here");
    else
        check_set(c, INSPECT_WARN,
                  "virtualization mode \"%s\": this GPU is shared out to virtual machines",
                  virt->text);
}

/* Which card this is, whether its memory is that card's, and whether it is a whole physical
 * GPU. */
static int check_identity(inspect_gpu *out, const nvsmi_gpu *g, inspect_lookup_fn lookup,
                          void *user, gw_error *err)
{
    int rc = check_name(out, g, lookup, user, err);
    if (rc != GW_OK)
        return rc;
    check_memory_total(out, g);
    check_virtualization(out, g);
    return GW_OK;
}

/* ---- memory health ---- */

static void check_ecc_mode(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "memory", "memory.ecc_mode");
    cite(c, &g->ecc_current);
    cite(c, &g->ecc_pending);
    if (!g->ecc_current.text)
        check_set(c, INSPECT_UNKNOWN, "the dump gives no ECC mode");
    else if (!nvsmi_known(&g->ecc_current))
        check_set(c, INSPECT_UNKNOWN, "ECC mode %s: this card does not report ECC (GeForce "
                  "cards have none)", g->ecc_current.text);
    else if (nvsmi_known(&g->ecc_pending) &&
             strcasecmp(g->ecc_current.text, g->ecc_pending.text) != 0)
        check_set(c, INSPECT_WARN, "ECC is %s now and becomes %s at the next reboot: someone "
                  "changed it; ask why", g->ecc_current.text, g->ecc_pending.text);
    else if (is_enabled(&g->ecc_current))
        check_set(c, INSPECT_PASS, "ECC is on");
    else
        check_set(c, INSPECT_PASS, "ECC is supported but %s (ECC errors cannot be counted "
                  "while it is off)", g->ecc_current.text);
}

static void check_ecc_errors(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "memory", "memory.ecc_errors");
    double sums[2][2] = {{0, 0}, {0, 0}};   /* [aggregate][uncorrectable] */
    int counted = 0;
    gw_buf what = GW_BUF_INIT;
    for (size_t i = 0; i < g->n_ecc; i++)
        note_implausible(c, &ecc_count_range, &g->ecc[i].value, &what);
    if (what.len) {
        check_set(c, INSPECT_FAIL, "implausible value: %s: the dump is damaged or was edited; "
                  "take it again", buf_cstr(&what));
        buf_free(&what);
        return;
    }
    for (size_t i = 0; i < g->n_ecc; i++) {
        double n;
        if (!nvsmi_number(&g->ecc[i].value, &n))
            continue;
        counted++;
        sums[g->ecc[i].aggregate][g->ecc[i].uncorrectable] += n;
        if (n > 0)
            cite(c, &g->ecc[i].value);
    }
    double corrected = fmax(sums[0][0], sums[1][0]);
    double uncorrected = fmax(sums[0][1], sums[1][1]);
    if (!counted) {
        check_set(c, INSPECT_UNKNOWN, "no ECC error counts in the dump%s",
                  is_enabled(&g->ecc_current) ? "" : " (ECC is off or not supported)");
    } else if (uncorrected > 0) {
        check_set(c, INSPECT_FAIL,
                  "%.0f uncorrectable ECC error(s) (volatile %.0f, lifetime %.0f): the memory "
                  "has lost data",
                  uncorrected, sums[0][1], sums[1][1]);
    } else if (corrected > 0) {
        check_set(c, INSPECT_WARN,
                  "%.0f corrected ECC error(s) (volatile %.0f, lifetime %.0f) and none "
                  "uncorrectable: ECC did its job, but a card with a history of memory errors "
                  "deserves a long memory test",
                  corrected, sums[0][0], sums[1][0]);
    } else {
        for (size_t i = 0; i < g->n_ecc && c->n_evidence < 2; i++)
            if (g->ecc[i].aggregate && g->ecc[i].value.has_number)
                cite(c, &g->ecc[i].value);
        check_set(c, INSPECT_PASS, "no ECC errors, volatile or lifetime (%d counters)", counted);
    }
}

static void check_retired_pages(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "memory", "memory.retired_pages");
    double sbe = 0, dbe = 0;
    int have_sbe = nvsmi_number(&g->retired_single_bit, &sbe);
    int have_dbe = nvsmi_number(&g->retired_double_bit, &dbe);
    cite(c, &g->retired_single_bit);
    cite(c, &g->retired_double_bit);
    cite(c, &g->retired_pending);
    if (IMPLAUSIBLE(c, g, &g->retired_single_bit, &g->retired_double_bit))
        return;
    if (is_yes(&g->retired_pending))
        check_set(c, INSPECT_FAIL,
                  "a page retirement is pending: the memory keeps failing and the card needs a "
                  "reboot to stop using the bad page");
    else if (!have_sbe && !have_dbe && !nvsmi_known(&g->retired_pending))
        check_set(c, INSPECT_UNKNOWN,
                  "page retirement not reported (Ampere and later use row remapping instead; "
                  "GeForce cards report neither)");
    else if (sbe + dbe > 0)
        check_set(c, INSPECT_WARN,
                  "%.0f page(s) retired (%.0f for repeated single-bit errors, %.0f for double-bit "
                  "errors): the memory has failed before",
                  sbe + dbe, sbe, dbe);
    else
        check_set(c, INSPECT_PASS, "no retired pages, none pending");
}

static void check_remapped_rows(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "memory", "memory.remapped_rows");
    cite(c, &g->remapped_rows);
    if (!g->remapped_nested) {
        check_set(c, INSPECT_UNKNOWN, "row remapping not reported (only some Ampere-and-later "
                  "cards remap rows)");
        return;
    }
    double corr = 0, unc = 0;
    nvsmi_number(&g->remapped_correctable, &corr);
    nvsmi_number(&g->remapped_uncorrectable, &unc);
    evidence_clear(c);   /* "(nested)" says nothing; quote the counters */
    cite(c, &g->remapped_correctable);
    cite(c, &g->remapped_uncorrectable);
    cite(c, &g->remapped_pending);
    cite(c, &g->remapped_failure);
    if (IMPLAUSIBLE(c, g, &g->remapped_correctable, &g->remapped_uncorrectable))
        return;
    if (is_yes(&g->remapped_failure))
        check_set(c, INSPECT_FAIL, "row remapping has failed: the card has run out of spare "
                  "rows and cannot repair its memory any more");
    else if (unc > 0)
        check_set(c, INSPECT_FAIL, "%.0f row(s) remapped after uncorrectable errors: the "
                  "memory has lost data%s", unc,
                  is_yes(&g->remapped_pending) ? ", and a remap waits for a GPU reset" : "");
    else if (is_yes(&g->remapped_pending))
        check_set(c, INSPECT_WARN, "a row remap waits for a GPU reset");
    else if (corr > 0)
        check_set(c, INSPECT_WARN, "%.0f row(s) remapped after correctable errors", corr);
    else
        check_set(c, INSPECT_PASS, "no remapped rows, none pending, no failure");
}

/* Whether the memory has failed before: ECC, its error counts, retired pages and remapped
 * rows (older cards retire pages, Ampere and later remap rows). */
static void check_memory(inspect_gpu *out, const nvsmi_gpu *g)
{
    check_ecc_mode(out, g);
    check_ecc_errors(out, g);
    check_retired_pages(out, g);
    check_remapped_rows(out, g);
}

/* ---- thermal and power ---- */

/* How bad an active clock-event reason is.  sw_power_cap is the card holding its power limit:
 * normal under load, and reported at idle by some drivers too. */
static inspect_status reason_weight(const char *name)
{
    static const struct { const char *name; inspect_status status; } table[] = {
        {"gpu_idle", INSPECT_PASS},
        {"applications_clocks_setting", INSPECT_PASS},
        {"display_clocks_setting", INSPECT_PASS},
        {"sync_boost", INSPECT_PASS},
        {"sw_power_cap", INSPECT_PASS},
        {"hw_slowdown", INSPECT_FAIL},
        {"hw_thermal_slowdown", INSPECT_FAIL},
        {"hw_power_brake_slowdown", INSPECT_WARN},
        {"sw_thermal_slowdown", INSPECT_WARN},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(name, table[i].name) == 0)
            return table[i].status;
    return INSPECT_WARN;   /* "unknown" and reasons newer than this table */
}

static int worse(inspect_status a, inspect_status b)
{
    static const int rank[] = {0, 2, 3, 1};   /* PASS < UNKNOWN < WARN < FAIL */
    return rank[a] > rank[b];
}

static void check_temperature(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "thermal", "thermal.temperature");
    double temp, slow, shut, mem, mem_max;
    int have_slow = nvsmi_number(&g->temp_slowdown, &slow);
    int have_shut = nvsmi_number(&g->temp_shutdown, &shut);
    cite(c, &g->temp_gpu);
    cite(c, &g->temp_slowdown);
    cite(c, &g->temp_shutdown);
    if (IMPLAUSIBLE(c, g, &g->temp_gpu, &g->temp_slowdown, &g->temp_shutdown, &g->temp_memory,
                    &g->temp_memory_max))
        return;
    if (!nvsmi_number(&g->temp_gpu, &temp)) {
        check_set(c, INSPECT_UNKNOWN, "no GPU temperature in the dump");
        return;
    }
    if (temp <= 0 && !have_slow && !have_shut) {
        check_set(c, INSPECT_UNKNOWN, "reads %s with no thresholds: no real sensor behind it "
                  "(virtual GPUs report 0)", g->temp_gpu.text);
        return;
    }
    if (have_shut && temp >= shut)
        check_set(c, INSPECT_FAIL, "%.0f C is at the shutdown threshold (%.0f C)", temp, shut);
    else if (have_slow && temp >= slow)
        check_set(c, INSPECT_FAIL, "%.0f C is at or above the slowdown threshold (%.0f C): the "
                  "card is cutting its clocks to survive", temp, slow);
    else if (have_slow && temp >= slow - TEMP_MARGIN_C)
        check_set(c, INSPECT_WARN, "%.0f C is within %.0f C of the slowdown threshold "
                  "(%.0f C): check the cooling", temp, TEMP_MARGIN_C, slow);
    else if (!have_slow && !have_shut && temp >= 85)
        check_set(c, INSPECT_WARN, "%.0f C is hot (the dump gives no thresholds)", temp);
    else if (have_slow)
        check_set(c, INSPECT_PASS, "%.0f C, %.0f C below the slowdown threshold%s", temp,
                  slow - temp, is_idle(g) ? " (at idle: run a load test to see it warm)" : "");
    else
        check_set(c, INSPECT_PASS, "%.0f C (the dump gives no thresholds)", temp);

    if (nvsmi_number(&g->temp_memory, &mem) && nvsmi_number(&g->temp_memory_max, &mem_max)) {
        cite(c, &g->temp_memory);
        cite(c, &g->temp_memory_max);
        if (mem >= mem_max && worse(INSPECT_FAIL, c->status))
            check_set(c, INSPECT_FAIL, "memory at %.0f C has reached its limit (%.0f C)", mem,
                      mem_max);
        else if (mem >= mem_max - TEMP_MARGIN_C && worse(INSPECT_WARN, c->status))
            check_set(c, INSPECT_WARN, "memory at %.0f C is within %.0f C of its limit "
                      "(%.0f C): thermal pads may be worn", mem, TEMP_MARGIN_C, mem_max);
    }
}

static void check_reasons(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "thermal", "thermal.clock_reasons");
    if (!g->n_reasons) {
        check_set(c, INSPECT_UNKNOWN, "no clock-event (throttle) reasons in the dump");
        return;
    }
    inspect_status status = INSPECT_PASS;
    gw_buf bad = GW_BUF_INIT, harmless = GW_BUF_INIT;
    for (size_t i = 0; i < g->n_reasons; i++) {
        const nvsmi_reason *r = &g->reasons[i];
        if (!nvsmi_is(&r->value, "Active"))
            continue;
        inspect_status w = reason_weight(r->name);
        cite(c, &r->value);
        gw_buf *list = w == INSPECT_PASS ? &harmless : &bad;
        buf_printf(list, "%s%s", list->len ? ", " : "", r->name);
        if (worse(w, status))
            status = w;
    }
    if (status == INSPECT_FAIL)
        check_set(c, INSPECT_FAIL, "active: %s: the hardware is slowing the clocks (overheating, "
                  "or a power supply signalling trouble)", buf_cstr(&bad));
    else if (status == INSPECT_WARN)
        check_set(c, INSPECT_WARN, "active: %s: the clocks are held back by heat or by an "
                  "external power signal; watch it under load", buf_cstr(&bad));
    else if (harmless.len)
        check_set(c, INSPECT_PASS, "active: %s (harmless: idle, a clock setting or the card "
                  "holding its power limit)", buf_cstr(&harmless));
    else
        check_set(c, INSPECT_PASS, "no reason is active: the clocks run free");
    buf_free(&bad);
    buf_free(&harmless);
}

static void check_power(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "thermal", "thermal.power_limit");
    double limit = NAN, def = NAN, tdp = out->card.tdp_w;
    int have_limit = nvsmi_number(&g->power_limit, &limit);
    int have_def = nvsmi_number(&g->power_default_limit, &def);
    cite(c, &g->power_limit);
    cite(c, &g->power_default_limit);
    if (IMPLAUSIBLE(c, g, &g->power_limit, &g->power_default_limit))
        return;
    if (!have_limit && !have_def) {
        check_set(c, INSPECT_UNKNOWN, "no power limit in the dump");
        return;
    }
    if (have_limit && have_def && fabs(limit - def) > fmax(1.0, 0.01 * def)) {
        check_set(c, INSPECT_WARN, "the power limit was %s from its default %.0f W to %.0f W: "
                  "worth a question (mining cards are often run at a lowered limit, "
                  "overclocked ones at a raised one)", limit > def ? "raised" : "lowered", def,
                  limit);
        return;
    }
    double board = have_def ? def : limit;
    if (!isnan(tdp) && tdp > 0 && fabs(board - tdp) > TDP_TOLERANCE * tdp) {
        check_set(c, INSPECT_WARN, "the board's %s power limit is %.0f W, %.0f%% %s the %.0f W "
                  "of %s: a factory-overclocked or custom board, or a modified VBIOS; worth a "
                  "question",
                  have_def ? "default" : "current", board, 100.0 * fabs(board - tdp) / tdp,
                  board > tdp ? "above" : "below", tdp, out->card.id);
        return;
    }
    if (!isnan(tdp) && tdp > 0)
        check_set(c, INSPECT_PASS, "limit %.0f W, at its default, and in line with the %.0f W "
                  "of %s", board, tdp, out->card.id);
    else
        check_set(c, INSPECT_PASS, "limit %.0f W%s", board,
                  have_limit && have_def ? ", at its default" : "");
}

static void check_fan(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "thermal", "thermal.fan");
    double fan;
    cite(c, &g->fan_speed);
    if (IMPLAUSIBLE(c, g, &g->fan_speed, &g->gpu_util))
        return;
    if (!nvsmi_number(&g->fan_speed, &fan)) {
        check_set(c, INSPECT_UNKNOWN, "no fan reading (passively cooled data-centre cards, "
                  "laptops and virtual GPUs report none)");
        return;
    }
    cite(c, &g->gpu_util);
    if (!nvsmi_known(&g->gpu_util))
        cite(c, &g->performance_state);
    if (is_idle(g) && fan >= IDLE_FAN_PCT)
        check_set(c, INSPECT_WARN, "fan at %.0f%% while the card is idle: worn bearings, dried "
                  "thermal paste, or a fan curve set by hand; listen to it and ask", fan);
    else if (is_idle(g))
        check_set(c, INSPECT_PASS, "fan at %.0f%% at idle", fan);
    else
        check_set(c, INSPECT_PASS, "fan at %.0f%% under load", fan);
}

/* ---- bus ---- */

static void check_bus(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "bus", "bus.pcie_link");
    double gen_max, gen_now, width_max, width_now;
    int have_gen_max = nvsmi_number(&g->pcie_gen_max, &gen_max);
    int have_gen_now = nvsmi_number(&g->pcie_gen_current, &gen_now);
    int have_w_max = nvsmi_number(&g->pcie_width_max, &width_max);
    int have_w_now = nvsmi_number(&g->pcie_width_current, &width_now);
    double util = util_pct(g);
    int loaded = !isnan(util) && util >= LOAD_UTIL_PCT;
    cite(c, &g->pcie_gen_current);
    cite(c, &g->pcie_gen_max);
    cite(c, &g->pcie_width_current);
    cite(c, &g->pcie_width_max);
    if (IMPLAUSIBLE(c, g, &g->pcie_gen_current, &g->pcie_gen_max, &g->pcie_width_current,
                    &g->pcie_width_max, &g->gpu_util))
        return;
    if (!have_w_now) {
        check_set(c, INSPECT_UNKNOWN, "no PCIe link width in the dump");
        return;
    }
    if (!have_w_max) {
        if (width_now >= 16)
            check_set(c, INSPECT_PASS, "x%.0f now (the dump gives no maximum; x16 is the most a "
                      "GPU slot has)", width_now);
        else
            check_set(c, INSPECT_UNKNOWN, "x%.0f now; the dump gives no maximum to compare",
                      width_now);
        return;
    }
    cite(c, &g->gpu_util);
    int gen_at_max = have_gen_now && have_gen_max && gen_now >= gen_max;
    if (width_now < width_max && (loaded || gen_at_max)) {
        check_set(c, INSPECT_WARN, "the link runs x%.0f of x%.0f %s: a riser, a slot wired for "
                  "fewer lanes, or dirty contacts; worth a look", width_now, width_max,
                  loaded ? "under load" : "at its full generation (so not an idle downshift)");
    } else if (width_now < width_max) {
        check_set(c, INSPECT_PASS, "x%.0f of x%.0f, gen %.0f of %.0f at idle: links slow down "
                  "when idle; look again under load", width_now, width_max, gen_now, gen_max);
    } else if (loaded && have_gen_now && have_gen_max && gen_now < gen_max) {
        check_set(c, INSPECT_WARN, "gen %.0f of %.0f under load: the slot, a riser or the "
                  "BIOS holds the link back", gen_now, gen_max);
    } else if (have_gen_now && have_gen_max && gen_now < gen_max) {
        check_set(c, INSPECT_PASS, "x%.0f of x%.0f; gen %.0f of %.0f because the card is not "
                  "busy (links slow down when idle)", width_now, width_max, gen_now, gen_max);
    } else if (have_gen_now) {
        check_set(c, INSPECT_PASS, "gen %.0f x%.0f, the most the card does", gen_now, width_now);
    } else {
        check_set(c, INSPECT_PASS, "x%.0f of x%.0f", width_now, width_max);
    }
}

/* ---- software ---- */

static void check_driver(inspect_gpu *out, const nvsmi_gpu *g, const nvsmi_log *log)
{
    inspect_check *c = check_new(out, "software", "software.driver");
    cite(c, &log->driver_version);
    cite(c, &log->cuda_version);
    if (nvsmi_known(&g->driver_model))
        cite(c, &g->driver_model);
    if (!nvsmi_known(&log->driver_version))
        check_set(c, INSPECT_UNKNOWN, "the dump gives no driver version");
    else
        check_set(c, INSPECT_PASS, "driver %s, CUDA %s%s", log->driver_version.text,
                  nvsmi_known(&log->cuda_version) ? log->cuda_version.text : "not reported",
                  nvsmi_is(&g->driver_model, "WDDM") ? " (Windows, WDDM)" : "");
}

static void check_vbios(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "software", "software.vbios");
    cite(c, &g->vbios_version);
    const char *vbios = g->vbios_version.text;
    if (!vbios)
        check_set(c, INSPECT_UNKNOWN, "the dump gives no VBIOS version");
    else if (!nvsmi_known(&g->vbios_version) || strspn(vbios, "0.") == strlen(vbios))
        check_set(c, INSPECT_UNKNOWN, "VBIOS version %s: hidden (virtual GPUs hide it)", vbios);
    else
        check_set(c, INSPECT_PASS, "VBIOS %s (compare it with the board maker's list: a "
                  "flashed mining VBIOS is worth a question)", vbios);
}

static void check_persistence(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "software", "software.persistence");
    cite(c, &g->persistence_mode);
    if (!g->persistence_mode.text)
        check_set(c, INSPECT_UNKNOWN, "the dump gives no persistence mode");
    else if (!nvsmi_known(&g->persistence_mode))
        check_set(c, INSPECT_UNKNOWN, "persistence mode %s (Windows has none)",
                  g->persistence_mode.text);
    else if (is_enabled(&g->persistence_mode))
        check_set(c, INSPECT_PASS, "persistence mode on");
    else
        check_set(c, INSPECT_PASS, "persistence mode %s: each program start re-initialises "
                  "the GPU; servers usually run nvidia-persistenced", g->persistence_mode.text);
}

static void check_mig(inspect_gpu *out, const nvsmi_gpu *g)
{
    inspect_check *c = check_new(out, "software", "software.mig");
    cite(c, &g->mig_current);
    cite(c, &g->mig_pending);
    if (!g->mig_current.text) {
        check_set(c, INSPECT_UNKNOWN, "the dump does not report MIG mode");
    } else if (is_enabled(&g->mig_current)) {
        for (size_t i = 0; i < g->n_mig_devices && i < 8; i++)
            cite(c, &g->mig_devices[i].memory_total);
        check_set(c, INSPECT_WARN, "MIG is on with %zu instance(s)%s%s: each program sees a "
                  "slice, not the whole card; a rented A100 sold as a full card but running "
                  "MIG slices is not what was paid for",
                  g->n_mig_devices, g->n_mig_devices ? " of " : "",
                  g->n_mig_devices ? text_or(&g->mig_devices[0].memory_total, "?") : "");
    } else if (nvsmi_known(&g->mig_pending) && !nvsmi_is(&g->mig_pending, g->mig_current.text)) {
        check_set(c, INSPECT_WARN, "MIG is %s now and becomes %s at the next GPU reset",
                  g->mig_current.text, g->mig_pending.text);
    } else if (nvsmi_known(&g->mig_current)) {
        check_set(c, INSPECT_PASS, "MIG is %s: programs get the whole card", g->mig_current.text);
    } else {
        check_set(c, INSPECT_PASS, "this card has no MIG (%s)", g->mig_current.text);
    }
}

static void check_software(inspect_gpu *out, const nvsmi_gpu *g, const nvsmi_log *log)
{
    check_driver(out, g, log);
    check_vbios(out, g);
    check_persistence(out, g);
    check_mig(out, g);
}

/* ---- the whole run ---- */

static void card_free(inspect_card *card)
{
    free(card->id);
    free(card->name);
    card->id = card->name = NULL;
}

static void gpu_free(inspect_gpu *g)
{
    for (size_t i = 0; i < g->n_checks; i++) {
        evidence_clear(&g->checks[i]);
        free(g->checks[i].message);
    }
    card_free(&g->card);
    free(g->name);
    free(g->bus_id);
}

void inspect_result_free(inspect_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_gpus; i++)
        gpu_free(&r->gpus[i]);
    free(r->gpus);
    free(r->source);
    free(r->driver_version);
    free(r->cuda_version);
    free(r->timestamp);
    free(r);
}

static char *dup_known(const nvsmi_value *v)
{
    return nvsmi_known(v) ? gw_xstrdup(v->text) : NULL;
}

int inspect_run(const nvsmi_log *log, inspect_lookup_fn lookup, void *user, inspect_result **out,
                gw_error *err)
{
    inspect_result *r = gw_xcalloc(1, sizeof *r);
    *out = NULL;
    r->source = gw_xstrdup(log->name ? log->name : "");
    r->driver_version = dup_known(&log->driver_version);
    r->cuda_version = dup_known(&log->cuda_version);
    r->timestamp = dup_known(&log->timestamp);
    r->gpus = gw_xcalloc(log->n_gpus ? log->n_gpus : 1, sizeof *r->gpus);
    for (size_t i = 0; i < log->n_gpus; i++) {
        const nvsmi_gpu *g = &log->gpus[i];
        inspect_gpu *ig = &r->gpus[r->n_gpus++];
        ig->name = g->product_name.text ? gw_xstrdup(g->product_name.text) : NULL;
        ig->bus_id = g->bus_id ? gw_xstrdup(g->bus_id) : NULL;
        ig->card.memory_gb = ig->card.tdp_w = NAN;
        double gib;
        ig->memory_total_mib = reading(range_of(g, &g->fb_total), &g->fb_total, &gib) > 0
                                   ? gib * 1024.0
                                   : NAN;   /* absent, or no real card's */
        int rc = check_identity(ig, g, lookup, user, err);
        if (rc != GW_OK) {
            inspect_result_free(r);
            return rc;
        }
        check_memory(ig, g);
        check_temperature(ig, g);
        check_reasons(ig, g);
        check_power(ig, g);
        check_fan(ig, g);
        check_bus(ig, g);
        check_software(ig, g, log);
        for (size_t k = 0; k < ig->n_checks; k++)
            r->counts[ig->checks[k].status]++;
    }
    *out = r;
    return GW_OK;
}

inspect_status inspect_verdict(const inspect_result *r)
{
    if (r->counts[INSPECT_FAIL])
        return INSPECT_FAIL;
    if (r->counts[INSPECT_WARN])
        return INSPECT_WARN;
    if (r->counts[INSPECT_UNKNOWN])
        return INSPECT_UNKNOWN;
    return INSPECT_PASS;
}

const inspect_check *inspect_find(const inspect_gpu *g, const char *id)
{
    for (size_t i = 0; i < g->n_checks; i++)
        if (strcmp(g->checks[i].id, id) == 0)
            return &g->checks[i];
    return NULL;
}
