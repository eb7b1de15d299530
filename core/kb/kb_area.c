/* kb_area.c — the areas of the KB's providers table, each described once with what it covers,
 * and the one table of rules that reads a region (a cloud's region or zone, an ISO 3166 country
 * code, a marketplace's "City, CC") as one of them.  A region no rule reads has no area. */
#include "kb_area.h"

#include <string.h>
#include <strings.h>

static const kb_area areas[] = {
    {"US", "the United States"},
    {"CA", "Canada"},
    {"SA", "South America"},
    /* For data residency: the GDPR applies in the EU and the rest of the EEA, and the EU's
     * adequacy decisions let personal data go to Switzerland and the United Kingdom without
     * further safeguards, as clouds' "Europe" regions (AWS eu-west-2 London, eu-central-2
     * Zurich) count them.  A rule stricter than that reads the region itself. */
    {"EU", "the European Union, the rest of the EEA (Iceland, Liechtenstein, Norway), "
           "Switzerland and the United Kingdom"},
    {"ME", "the Middle East (Israel, Jordan and the Gulf states)"},
    {"AF", "Africa"},
    {"APAC", "Asia and the Pacific, Hong Kong and Taiwan among them"},
    {"CN", "mainland China"},
};
#define N_AREAS (sizeof areas / sizeof areas[0])

const kb_area *kb_area_at(size_t i)
{
    return i < N_AREAS ? &areas[i] : NULL;
}

/* How a rule's text meets a region, without regard to case: the whole region; its start; or an
 * ISO 3166 country code, the whole region or the part after its last ", " ("Sweden, SE"). */
enum area_match { WHOLE, PREFIX, COUNTRY };

typedef struct area_rule {
    const char *text;
    enum area_match match;
    const char *area;   /* NULL: the region has no area, and no later rule reads it */
} area_rule;

/* The first rule that meets a region gives its area. */
static const area_rule rules[] = {
    /* a country's code and an area's too (Saudi Arabia or South America, Afghanistan or Africa,
     * Montenegro or the Middle East): never guessed */
    {"SA", WHOLE, NULL}, {"AF", WHOLE, NULL}, {"ME", WHOLE, NULL},
    {"APAC", WHOLE, "APAC"},
    {"UK", WHOLE, "EU"},   /* ISO 3166 reserves UK for the United Kingdom (GB) */

    /* AWS, GCP, Oracle, Lambda, Nebius and RunPod's zones (EU-CZ-1, EUR-IS-1, US-TX-1,
     * CA-MTL-1, OC-AU-1): a prefix before the first '-' */
    {"us-", PREFIX, "US"}, {"ca-", PREFIX, "CA"}, {"sa-", PREFIX, "SA"},
    {"eu-", PREFIX, "EU"}, {"eur-", PREFIX, "EU"}, {"uk-", PREFIX, "EU"},
    {"me-", PREFIX, "ME"}, {"il-", PREFIX, "ME"}, {"af-", PREFIX, "AF"},
    {"ap-", PREFIX, "APAC"}, {"oc-", PREFIX, "APAC"}, {"cn-", PREFIX, "CN"},
    /* GCP's and Lambda's words (northamerica-south1 is Mexico: no area) */
    {"europe-", PREFIX, "EU"}, {"asia-", PREFIX, "APAC"}, {"australia-", PREFIX, "APAC"},
    {"southamerica-", PREFIX, "SA"}, {"africa-", PREFIX, "AF"},
    {"northamerica-northeast", PREFIX, "CA"},

    /* Azure's region names (mexicocentral: no area) */
    {"eastus", WHOLE, "US"}, {"eastus2", WHOLE, "US"}, {"centralus", WHOLE, "US"},
    {"northcentralus", WHOLE, "US"}, {"southcentralus", WHOLE, "US"},
    {"westcentralus", WHOLE, "US"}, {"westus", WHOLE, "US"}, {"westus2", WHOLE, "US"},
    {"westus3", WHOLE, "US"},
    {"canadacentral", WHOLE, "CA"}, {"canadaeast", WHOLE, "CA"},
    {"brazilsouth", WHOLE, "SA"}, {"brazilsoutheast", WHOLE, "SA"}, {"chilecentral", WHOLE, "SA"},
    {"westeurope", WHOLE, "EU"}, {"northeurope", WHOLE, "EU"}, {"francecentral", WHOLE, "EU"},
    {"francesouth", WHOLE, "EU"}, {"germanywestcentral", WHOLE, "EU"},
    {"germanynorth", WHOLE, "EU"}, {"italynorth", WHOLE, "EU"}, {"polandcentral", WHOLE, "EU"},
    {"spaincentral", WHOLE, "EU"}, {"swedencentral", WHOLE, "EU"}, {"swedensouth", WHOLE, "EU"},
    {"norwayeast", WHOLE, "EU"}, {"norwaywest", WHOLE, "EU"}, {"switzerlandnorth", WHOLE, "EU"},
    {"switzerlandwest", WHOLE, "EU"}, {"uksouth", WHOLE, "EU"}, {"ukwest", WHOLE, "EU"},
    {"uaenorth", WHOLE, "ME"}, {"uaecentral", WHOLE, "ME"}, {"qatarcentral", WHOLE, "ME"},
    {"israelcentral", WHOLE, "ME"},
    {"southafricanorth", WHOLE, "AF"}, {"southafricawest", WHOLE, "AF"},
    {"eastasia", WHOLE, "APAC"}, {"southeastasia", WHOLE, "APAC"}, {"japaneast", WHOLE, "APAC"},
    {"japanwest", WHOLE, "APAC"}, {"koreacentral", WHOLE, "APAC"}, {"koreasouth", WHOLE, "APAC"},
    {"centralindia", WHOLE, "APAC"}, {"southindia", WHOLE, "APAC"}, {"westindia", WHOLE, "APAC"},
    {"jioindiawest", WHOLE, "APAC"}, {"jioindiacentral", WHOLE, "APAC"},
    {"australiaeast", WHOLE, "APAC"}, {"australiasoutheast", WHOLE, "APAC"},
    {"australiacentral", WHOLE, "APAC"}, {"australiacentral2", WHOLE, "APAC"},
    {"newzealandnorth", WHOLE, "APAC"}, {"indonesiacentral", WHOLE, "APAC"},
    {"malaysiawest", WHOLE, "APAC"},
    {"chinaeast", WHOLE, "CN"}, {"chinaeast2", WHOLE, "CN"}, {"chinaeast3", WHOLE, "CN"},
    {"chinanorth", WHOLE, "CN"}, {"chinanorth2", WHOLE, "CN"}, {"chinanorth3", WHOLE, "CN"},

    /* ISO 3166 country codes (RunPod's and Vast's regions, the KB's own prices).  The EU's 27,
     * then the rest of the EEA, Switzerland and the United Kingdom; EU is ISO's reserved code
     * for the Union itself.  Countries in none of the areas (Mexico, Turkey, Russia, ...) are
     * left out. */
    {"AT", COUNTRY, "EU"}, {"BE", COUNTRY, "EU"}, {"BG", COUNTRY, "EU"}, {"HR", COUNTRY, "EU"},
    {"CY", COUNTRY, "EU"}, {"CZ", COUNTRY, "EU"}, {"DK", COUNTRY, "EU"}, {"EE", COUNTRY, "EU"},
    {"FI", COUNTRY, "EU"}, {"FR", COUNTRY, "EU"}, {"DE", COUNTRY, "EU"}, {"GR", COUNTRY, "EU"},
    {"HU", COUNTRY, "EU"}, {"IE", COUNTRY, "EU"}, {"IT", COUNTRY, "EU"}, {"LV", COUNTRY, "EU"},
    {"LT", COUNTRY, "EU"}, {"LU", COUNTRY, "EU"}, {"MT", COUNTRY, "EU"}, {"NL", COUNTRY, "EU"},
    {"PL", COUNTRY, "EU"}, {"PT", COUNTRY, "EU"}, {"RO", COUNTRY, "EU"}, {"SK", COUNTRY, "EU"},
    {"SI", COUNTRY, "EU"}, {"ES", COUNTRY, "EU"}, {"SE", COUNTRY, "EU"},
    {"IS", COUNTRY, "EU"}, {"LI", COUNTRY, "EU"}, {"NO", COUNTRY, "EU"},
    {"CH", COUNTRY, "EU"}, {"GB", COUNTRY, "EU"}, {"EU", COUNTRY, "EU"},
    {"US", COUNTRY, "US"}, {"CA", COUNTRY, "CA"}, {"CN", COUNTRY, "CN"},
    {"AR", COUNTRY, "SA"}, {"BO", COUNTRY, "SA"}, {"BR", COUNTRY, "SA"}, {"CL", COUNTRY, "SA"},
    {"CO", COUNTRY, "SA"}, {"EC", COUNTRY, "SA"}, {"GY", COUNTRY, "SA"}, {"PE", COUNTRY, "SA"},
    {"PY", COUNTRY, "SA"}, {"SR", COUNTRY, "SA"}, {"UY", COUNTRY, "SA"}, {"VE", COUNTRY, "SA"},
    {"AE", COUNTRY, "ME"}, {"BH", COUNTRY, "ME"}, {"IL", COUNTRY, "ME"}, {"JO", COUNTRY, "ME"},
    {"KW", COUNTRY, "ME"}, {"OM", COUNTRY, "ME"}, {"QA", COUNTRY, "ME"}, {"SA", COUNTRY, "ME"},
    {"EG", COUNTRY, "AF"}, {"GH", COUNTRY, "AF"}, {"KE", COUNTRY, "AF"}, {"MA", COUNTRY, "AF"},
    {"NG", COUNTRY, "AF"}, {"ZA", COUNTRY, "AF"},
    {"AU", COUNTRY, "APAC"}, {"NZ", COUNTRY, "APAC"}, {"JP", COUNTRY, "APAC"},
    {"KR", COUNTRY, "APAC"}, {"SG", COUNTRY, "APAC"}, {"IN", COUNTRY, "APAC"},
    {"ID", COUNTRY, "APAC"}, {"MY", COUNTRY, "APAC"}, {"TH", COUNTRY, "APAC"},
    {"PH", COUNTRY, "APAC"}, {"VN", COUNTRY, "APAC"}, {"HK", COUNTRY, "APAC"},
    {"TW", COUNTRY, "APAC"},
};
#define N_RULES (sizeof rules / sizeof rules[0])

static int rule_meets(const area_rule *r, const char *region, const char *country)
{
    switch (r->match) {
    case WHOLE: return !strcasecmp(region, r->text);
    case PREFIX: return !strncasecmp(region, r->text, strlen(r->text));
    case COUNTRY: return !strcasecmp(country, r->text);
    }
    return 0;
}

const char *kb_area_of(const char *region)
{
    if (!region || !*region)
        return NULL;
    const char *comma = strrchr(region, ',');
    const char *country = comma ? comma + 1 + strspn(comma + 1, " ") : region;
    for (size_t i = 0; i < N_RULES; i++)
        if (rule_meets(&rules[i], region, country))
            return rules[i].area;
    return NULL;
}

const char *kb_area_wanted(const char *place)
{
    for (size_t i = 0; place && i < N_AREAS; i++)
        if (!strcasecmp(place, areas[i].code))
            return areas[i].code;
    return kb_area_of(place);
}
