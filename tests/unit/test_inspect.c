/* test_inspect.c — the inspection checks: each FAIL and WARN on a crafted dump, the real dumps'
 * verdicts (P100 ECC history, A100 MIG, vGPU and trimmed dumps), tolerances, implausible readings
 * (a FAIL quoting them, never PASS or "missing"), and the view. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/buf.h"
#include "inspect/inspect.h"
#include "inspect/nvsmi.h"

#define FIX "tests/fixtures/nvsmi/"

/* A stand-in for the KB: memory and TDP as the KB's gpus.csv gives them. */
static const struct { const char *name, *id, *kb_name; double memory_gb, tdp_w; } cards[] = {
    {"NVIDIA GeForce RTX 3090", "rtx-3090", "GeForce RTX 3090", 24, 350},
    {"Tesla V100-PCIE-32GB", "v100-pcie-32gb", "Tesla V100 PCIe 32GB", 32, 250},
    {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb", "NVIDIA A100 PCIe 80GB", 80, 300},
    {"Tesla P100-PCIE-16GB", "p100-pcie-16gb", "Tesla P100 PCIe 16GB", 16, 250},
    {"NVIDIA GeForce RTX 3060 Laptop GPU", "rtx-3060-12gb", "GeForce RTX 3060 12GB", 12, 170},
    {"NVIDIA A10G", "a10g", "NVIDIA A10G", 24, 300},
    {"Tesla T4", "t4", "NVIDIA T4", 16, 70},
    {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", 80, 400},
};

static int fake_lookup(void *user, const char *name, inspect_card *card, gw_error *err)
{
    (void)user;
    if (strcmp(name, "BROKEN") == 0)
        return gw_error_set(err, GW_ESOFTWARE, "the KB is broken");
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
        if (strcmp(cards[i].name, name) == 0) {
            card->id = gw_xstrdup(cards[i].id);
            card->name = gw_xstrdup(cards[i].kb_name);
            card->memory_gb = cards[i].memory_gb;
            card->tdp_w = cards[i].tdp_w;
            return GW_OK;
        }
    return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%s'", name);
}

static inspect_result *inspect_text(const char *text, const char *name)
{
    nvsmi_log *log = NULL;
    gw_error err = {0};
    if (nvsmi_parse(text, strlen(text), name, &log, &err) != GW_OK)
        fail_msg("%s: %s", name, err.msg);
    inspect_result *r = NULL;
    if (inspect_run(log, fake_lookup, NULL, &r, &err) != GW_OK)
        fail_msg("%s: %s", name, err.msg);
    nvsmi_log_free(log);
    return r;
}

static inspect_result *inspect_file(const char *path)
{
    char *text;
    size_t len;
    if (gw_read_file(path, &text, &len) != 0)
        return NULL;
    inspect_result *r = inspect_text(text, path);
    free(text);
    return r;
}

static inspect_result *inspect_real(const char *file)
{
    const char *shared = getenv("SHARED");
    char path[4096];
    snprintf(path, sizeof path, "%s/testdata/nvsmi/%s", shared && *shared ? shared : "../shared",
             file);
    return inspect_file(path);
}

static inspect_status status_of(const inspect_result *r, size_t gpu, const char *id)
{
    const inspect_check *c = inspect_find(&r->gpus[gpu], id);
    if (!c)
        fail_msg("no check %s", id);
    return c->status;
}

/* True when check id on gpu quotes path with text. */
static int quotes(const inspect_result *r, size_t gpu, const char *id, const char *path,
                  const char *text)
{
    const inspect_check *c = inspect_find(&r->gpus[gpu], id);
    for (size_t i = 0; c && i < c->n_evidence; i++)
        if (strcmp(c->evidence[i].path, path) == 0 && strcmp(c->evidence[i].text, text) == 0)
            return 1;
    return 0;
}

static void test_healthy(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "healthy-3090.xml");
    assert_non_null(r);
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    assert_int_equal(r->counts[INSPECT_WARN], 0);
    assert_int_equal(status_of(r, 0, "identity.name"), INSPECT_PASS);
    assert_string_equal(r->gpus[0].card.id, "rtx-3090");
    /* 24576 MiB / 1024 = 24.0 GiB against 24 GB */
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    assert_true(r->gpus[0].memory_total_mib == 24576);
    /* GeForce: no ECC, no retirement, no remapping in the dump */
    assert_int_equal(status_of(r, 0, "memory.ecc_mode"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "memory.remapped_rows"), INSPECT_UNKNOWN);
    /* gpu_idle is harmless; gen 1 of 4 at idle is a downshift, not a fault */
    assert_int_equal(status_of(r, 0, "thermal.clock_reasons"), INSPECT_PASS);
    assert_int_equal(status_of(r, 0, "bus.pcie_link"), INSPECT_PASS);
    assert_int_equal(status_of(r, 0, "thermal.power_limit"), INSPECT_PASS);
    assert_int_equal(status_of(r, 0, "thermal.fan"), INSPECT_PASS);
    assert_int_equal(r->gpus[0].n_checks, 16);
    assert_int_equal(inspect_verdict(r), INSPECT_UNKNOWN);
    inspect_result_free(r);
}

static void test_memory_mismatch(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "memory-mismatch-3090.xml");
    /* 20480 MiB = 20.0 GiB, 16.7% under the 3090's 24 GB */
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_FAIL);
    assert_true(quotes(r, 0, "identity.memory_total", "gpu/fb_memory_usage/total", "20480 MiB"));
    assert_int_equal(r->counts[INSPECT_FAIL], 1);
    assert_int_equal(inspect_verdict(r), INSPECT_FAIL);
    inspect_result_free(r);
}

static void test_memory_tolerance(void **state)
{
    (void)state;
    char *text;
    size_t len;
    assert_int_equal(gw_read_file(FIX "healthy-3090.xml", &text, &len), 0);
    char *at = strstr(text, "<total>24576 MiB</total>");
    assert_non_null(at);
    /* 23400 / 1024 = 22.85 GiB >= 24 * 0.95 = 22.80: within tolerance */
    memcpy(at, "<total>23400 MiB</total>", 24);
    inspect_result *r = inspect_text(text, "23400.xml");
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);
    /* 23300 / 1024 = 22.75 GiB < 22.80: not a 3090's memory */
    memcpy(at, "<total>23300 MiB</total>", 24);
    r = inspect_text(text, "23300.xml");
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_FAIL);
    inspect_result_free(r);
    /* 26000 / 1024 = 25.39 GiB > 24 * 1.05 = 25.2: more than the card has */
    memcpy(at, "<total>26000 MiB</total>", 24);
    r = inspect_text(text, "26000.xml");
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_FAIL);
    inspect_result_free(r);
    free(text);
}

static void test_hw_slowdown(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "hw-slowdown-3090.xml");
    assert_int_equal(status_of(r, 0, "thermal.clock_reasons"), INSPECT_FAIL);
    assert_true(quotes(r, 0, "thermal.clock_reasons",
                       "gpu/clocks_event_reasons/clocks_event_reason_hw_slowdown", "Active"));
    /* 80 C is 15 C under the 95 C slowdown threshold: the temperature alone is fine */
    assert_int_equal(status_of(r, 0, "thermal.temperature"), INSPECT_PASS);
    assert_int_equal(r->counts[INSPECT_FAIL], 1);
    inspect_result_free(r);
}

static void test_pcie_x4(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "pcie-x4-3090.xml");
    assert_int_equal(status_of(r, 0, "bus.pcie_link"), INSPECT_WARN);
    assert_true(quotes(r, 0, "bus.pcie_link", "gpu/pci/pci_gpu_link_info/link_widths/current_link_width",
                       "4x"));
    assert_true(quotes(r, 0, "bus.pcie_link", "gpu/utilization/gpu_util", "97 %"));
    assert_int_equal(r->counts[INSPECT_WARN], 1);
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    inspect_result_free(r);
}

static void test_mining_card(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "mining-3090.xml");
    /* 250 W against a 350 W default */
    assert_int_equal(status_of(r, 0, "thermal.power_limit"), INSPECT_WARN);
    assert_non_null(strstr(inspect_find(&r->gpus[0], "thermal.power_limit")->message, "lowered"));
    /* 100% fan at 0% utilisation */
    assert_int_equal(status_of(r, 0, "thermal.fan"), INSPECT_WARN);
    assert_int_equal(r->counts[INSPECT_WARN], 2);
    inspect_result_free(r);
}

static void test_retired_pending(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "retired-pending-v100.xml");
    assert_int_equal(status_of(r, 0, "memory.retired_pages"), INSPECT_FAIL);
    assert_true(quotes(r, 0, "memory.retired_pages", "gpu/retired_pages/pending_retirement", "Yes"));
    /* double_bit totals 2 (volatile) and 2 (aggregate): uncorrectable errors */
    assert_int_equal(status_of(r, 0, "memory.ecc_errors"), INSPECT_FAIL);
    /* 32510 MiB = 31.7 GiB, 0.8% under 32 GB */
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);
}

static void test_remapped_rows(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "remapped-unc-a100.xml");
    assert_int_equal(r->n_gpus, 2);
    assert_int_equal(status_of(r, 0, "memory.remapped_rows"), INSPECT_PASS);
    assert_int_equal(status_of(r, 1, "memory.remapped_rows"), INSPECT_FAIL);
    assert_true(quotes(r, 1, "memory.remapped_rows", "gpu/remapped_rows/remapped_row_unc", "2"));
    /* aggregate dram_correctable 12, nothing uncorrectable */
    assert_int_equal(status_of(r, 1, "memory.ecc_errors"), INSPECT_WARN);
    assert_int_equal(status_of(r, 0, "identity.virtualization"), INSPECT_PASS);
    assert_int_equal(r->counts[INSPECT_FAIL], 1);
    inspect_result_free(r);
}

/* A fixture with the first `from` replaced by `to`, inspected. */
static inspect_result *inspect_edited(const char *file, const char *from, const char *to)
{
    char *text;
    size_t len;
    char path[256];
    snprintf(path, sizeof path, FIX "%s", file);
    assert_int_equal(gw_read_file(path, &text, &len), 0);
    char *at = strstr(text, from);
    if (!at)
        fail_msg("%s has no %s", file, from);
    gw_buf edited = GW_BUF_INIT;
    buf_append(&edited, text, (size_t)(at - text));
    buf_puts(&edited, to);
    buf_puts(&edited, at + strlen(from));
    inspect_result *r = inspect_text(buf_cstr(&edited), file);
    buf_free(&edited);
    free(text);
    return r;
}

/* Check id on gpu is FAIL as an implausible value quoting path = text. */
static void expect_implausible(const char *file, const char *from, const char *to, size_t gpu,
                               const char *id, const char *path)
{
    inspect_result *r = inspect_edited(file, from, to);
    const inspect_check *c = inspect_find(&r->gpus[gpu], id);
    assert_non_null(c);
    if (c->status != INSPECT_FAIL || strncmp(c->message, "implausible value: ", 19) != 0)
        fail_msg("%s -> %s: %s is %s: %s", from, to, id, inspect_status_name(c->status),
                 c->message);
    /* the evidence is the value itself, with its line */
    const char *text = strchr(to, '>') ? strchr(to, '>') + 1 : to;
    size_t n = strcspn(text, "<");
    int quoted = 0;
    for (size_t i = 0; i < c->n_evidence; i++)
        quoted |= strcmp(c->evidence[i].path, path) == 0 &&
                  strncmp(c->evidence[i].text, text, n) == 0 && c->evidence[i].line > 0;
    if (!quoted)
        fail_msg("%s: the evidence does not quote %s = %.*s", id, path, (int)n, text);
    inspect_result_free(r);
}

static void test_implausible_values(void **state)
{
    (void)state;
    /* the three, each a number no card reports */
    expect_implausible("healthy-3090.xml", "<fan_speed>30 %</fan_speed>",
                       "<fan_speed>-1e308 %</fan_speed>", 0, "thermal.fan", "gpu/fan_speed");
    expect_implausible("healthy-3090.xml", "<max_link_gen>4</max_link_gen>",
                       "<max_link_gen>1e20</max_link_gen>", 0, "bus.pcie_link",
                       "gpu/pci/pci_gpu_link_info/pcie_gen/max_link_gen");
    /* 1e309 overflows a double: a number written as one, not "no total memory" */
    expect_implausible("healthy-3090.xml", "<total>24576 MiB</total>",
                       "<total>1e309 MiB</total>", 0, "identity.memory_total",
                       "gpu/fb_memory_usage/total");
    /* past each range: 8 TiB of memory, a fan at 101%, 9999 C, a negative power limit, GPU
     * utilisation of 250% (both checks that read it), a PCIe link 64 lanes wide */
    expect_implausible("healthy-3090.xml", "<total>24576 MiB</total>",
                       "<total>8388608 MiB</total>", 0, "identity.memory_total",
                       "gpu/fb_memory_usage/total");
    expect_implausible("healthy-3090.xml", "<total>24576 MiB</total>",
                       "<total>24576 parsecs</total>", 0, "identity.memory_total",
                       "gpu/fb_memory_usage/total");
    expect_implausible("healthy-3090.xml", "<fan_speed>30 %</fan_speed>",
                       "<fan_speed>101 %</fan_speed>", 0, "thermal.fan", "gpu/fan_speed");
    expect_implausible("healthy-3090.xml", "<gpu_temp>34 C</gpu_temp>",
                       "<gpu_temp>9999 C</gpu_temp>", 0, "thermal.temperature",
                       "gpu/temperature/gpu_temp");
    expect_implausible("healthy-3090.xml", "<current_power_limit>350.00 W</current_power_limit>",
                       "<current_power_limit>-350.00 W</current_power_limit>", 0,
                       "thermal.power_limit", "gpu/gpu_power_readings/current_power_limit");
    expect_implausible("healthy-3090.xml", "<gpu_util>0 %</gpu_util>", "<gpu_util>250 %</gpu_util>",
                       0, "thermal.fan", "gpu/utilization/gpu_util");
    expect_implausible("healthy-3090.xml", "<gpu_util>0 %</gpu_util>", "<gpu_util>250 %</gpu_util>",
                       0, "bus.pcie_link", "gpu/utilization/gpu_util");
    expect_implausible("healthy-3090.xml", "<current_link_width>16x</current_link_width>",
                       "<current_link_width>64x</current_link_width>", 0, "bus.pcie_link",
                       "gpu/pci/pci_gpu_link_info/link_widths/current_link_width");
    /* memory health counters: negative retired pages, ECC and remapped rows past any card */
    expect_implausible("retired-pending-v100.xml", "<retired_count>1</retired_count>",
                       "<retired_count>-1</retired_count>", 0, "memory.retired_pages",
                       "gpu/retired_pages/multiple_single_bit_retirement/retired_count");
    expect_implausible("retired-pending-v100.xml", "<total>7</total>", "<total>-7</total>", 0,
                       "memory.ecc_errors", "gpu/ecc_errors/aggregate/single_bit/total");
    expect_implausible("remapped-unc-a100.xml", "<remapped_row_unc>2</remapped_row_unc>",
                       "<remapped_row_unc>1e9</remapped_row_unc>", 1, "memory.remapped_rows",
                       "gpu/remapped_rows/remapped_row_unc");

    /* the ends of the ranges are plausible: a fan at 0% and 100%, gen 1 of 8, x1 of x32 */
    inspect_result *r = inspect_edited("healthy-3090.xml", "<fan_speed>30 %</fan_speed>",
                                       "<fan_speed>0 %</fan_speed>");
    assert_int_equal(status_of(r, 0, "thermal.fan"), INSPECT_PASS);
    inspect_result_free(r);
    r = inspect_edited("healthy-3090.xml", "<fan_speed>30 %</fan_speed>",
                       "<fan_speed>100 %</fan_speed>");
    assert_int_equal(status_of(r, 0, "thermal.fan"), INSPECT_WARN);   /* loud at idle, real */
    inspect_result_free(r);
    r = inspect_edited("healthy-3090.xml", "<max_link_gen>4</max_link_gen>",
                       "<max_link_gen>8</max_link_gen>");
    assert_int_equal(status_of(r, 0, "bus.pcie_link"), INSPECT_PASS);
    inspect_result_free(r);
    /* the memory total of an implausible dump is not passed on to the view */
    r = inspect_edited("healthy-3090.xml", "<total>24576 MiB</total>", "<total>1e309 MiB</total>");
    assert_true(isnan(r->gpus[0].memory_total_mib));
    inspect_result_free(r);
}

static int have_testdata(void)
{
    const char *shared = getenv("SHARED");
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/testdata/nvsmi", shared && *shared ? shared : "../shared");
    return stat(path, &st) == 0;
}

static void test_real_dumps(void **state)
{
    (void)state;
    if (!have_testdata()) {
        printf("skip - inspect real dumps: ../shared/testdata not found\n");
        skip();
    }
    /* P100: aggregate single_bit total 3, volatile 0 */
    inspect_result *r = inspect_real("netdata-tesla-p100.xml");
    assert_int_equal(status_of(r, 0, "memory.ecc_errors"), INSPECT_WARN);
    assert_true(quotes(r, 0, "memory.ecc_errors", "gpu/ecc_errors/aggregate/single_bit/total", "3"));
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);

    /* both A100 MIG dumps */
    r = inspect_real("telegraf-a100-sxm4-v12.xml");
    assert_int_equal(status_of(r, 0, "software.mig"), INSPECT_WARN);
    assert_true(quotes(r, 0, "software.mig", "gpu/mig_mode/current_mig", "Enabled"));
    /* 81920 MiB = 80 GiB */
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);
    r = inspect_real("netdata-a100-sxm4-mig.xml");
    assert_int_equal(status_of(r, 0, "software.mig"), INSPECT_WARN);
    assert_non_null(strstr(inspect_find(&r->gpus[0], "software.mig")->message, "2 instance"));
    inspect_result_free(r);

    /* vGPU guest: unknown, not an error, and no FAIL */
    r = inspect_real("telegraf-tesla_p4.xml");
    assert_int_equal(status_of(r, 0, "identity.name"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "identity.virtualization"), INSPECT_WARN);
    assert_int_equal(status_of(r, 0, "thermal.temperature"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "thermal.power_limit"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "software.vbios"), INSPECT_UNKNOWN);
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    inspect_result_free(r);

    /* trimmed dump: what it lacks is UNKNOWN */
    r = inspect_real("telegraf-gtx-1070-ti.xml");
    assert_int_equal(status_of(r, 0, "software.driver"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "thermal.power_limit"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "memory.ecc_mode"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "thermal.fan"), INSPECT_WARN);   /* 100 % at 0 % util */
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    assert_null(r->driver_version);
    inspect_result_free(r);

    /* "Graphics Device" is not guessed */
    r = inspect_real("telegraf-gtx-1660-ti.xml");
    assert_int_equal(status_of(r, 0, "identity.name"), INSPECT_UNKNOWN);
    assert_null(r->gpus[0].card.id);
    assert_non_null(strstr(inspect_find(&r->gpus[0], "identity.name")->message, "Graphics Device"));
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_UNKNOWN);
    inspect_result_free(r);

    /* a laptop part is not judged against the desktop card */
    r = inspect_real("netdata-rtx-3060.xml");
    assert_int_equal(status_of(r, 0, "identity.name"), INSPECT_UNKNOWN);
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_UNKNOWN);
    inspect_result_free(r);

    /* GDDR with ECC on: 23028 MiB = 22.5 GiB for 24 GB (A10G), 15360 = 15 GiB for 16 (T4) */
    r = inspect_real("telegraf-a10g.xml");
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);
    r = inspect_real("telegraf-tesla-t4.xml");
    assert_int_equal(status_of(r, 0, "identity.memory_total"), INSPECT_PASS);
    inspect_result_free(r);

    /* sw_power_cap active at P8 is harmless */
    r = inspect_real("telegraf-3090-v13.xml");
    assert_int_equal(status_of(r, 0, "thermal.clock_reasons"), INSPECT_PASS);
    assert_true(quotes(r, 0, "thermal.clock_reasons",
                       "gpu/clocks_event_reasons/clocks_event_reason_sw_power_cap", "Active"));
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    inspect_result_free(r);

    /* eight GPUs under load, all checked */
    r = inspect_real("datakit-v100s-pcie-32gb-x8.xml");
    assert_int_equal(r->n_gpus, 8);
    assert_int_equal(r->counts[INSPECT_FAIL], 0);
    inspect_result_free(r);
}

static void test_lookup_failure_stops(void **state)
{
    (void)state;
    const char *text = "<nvidia_smi_log><gpu id=\"0\"><product_name>BROKEN</product_name></gpu>"
                       "</nvidia_smi_log>";
    nvsmi_log *log = NULL;
    gw_error err = {0};
    assert_int_equal(nvsmi_parse(text, strlen(text), "b.xml", &log, &err), GW_OK);
    inspect_result *r = (inspect_result *)1;
    assert_int_equal(inspect_run(log, fake_lookup, NULL, &r, &err), GW_ESOFTWARE);
    assert_null(r);
    assert_string_equal(err.msg, "the KB is broken");
    /* no lookup at all: identity unknown, the rest still checked */
    assert_int_equal(inspect_run(log, NULL, NULL, &r, &err), GW_OK);
    assert_int_equal(status_of(r, 0, "identity.name"), INSPECT_UNKNOWN);
    assert_int_equal(r->gpus[0].n_checks, 16);
    inspect_result_free(r);
    nvsmi_log_free(log);
}

static void test_view(void **state)
{
    (void)state;
    inspect_result *r = inspect_file(FIX "remapped-unc-a100.xml");
    view *v = inspect_view(r);
    assert_string_equal(view_str(view_map_get(v, "verdict")), "FAIL");
    assert_string_equal(view_str(view_map_get(v, "driver_version")), "535.129.03");
    view *gpus = view_map_get(v, "gpus");
    assert_int_equal(view_len(gpus), 2);
    view *g1 = view_list_at(gpus, 1);
    assert_string_equal(view_str(view_map_get(g1, "kb_id")), "a100-pcie-80gb");
    assert_true(view_num(view_map_get(g1, "memory_total_mib")) == 81920);
    assert_string_equal(view_str(view_map_get(g1, "cuda_version")), "12.2");
    view *checks = view_map_get(g1, "checks");
    assert_int_equal(view_len(checks), 16);
    view *found = NULL;
    for (size_t i = 0; i < view_len(checks); i++)
        if (strcmp(view_str(view_map_get(view_list_at(checks, i), "id")), "memory.remapped_rows") == 0)
            found = view_list_at(checks, i);
    assert_non_null(found);
    assert_string_equal(view_str(view_map_get(found, "group")), "memory");
    assert_string_equal(view_str(view_map_get(found, "status")), "FAIL");
    assert_true(view_bool_value(view_map_get(found, "fail")));
    view *ev = view_list_at(view_map_get(found, "evidence"), 1);
    assert_string_equal(view_str(view_map_get(ev, "path")), "gpu/remapped_rows/remapped_row_unc");
    assert_string_equal(view_str(view_map_get(ev, "quote")),
                        "gpu/remapped_rows/remapped_row_unc = 2 (line 139)");   /* grep -n: 139 */
    assert_int_equal((int)view_num(view_map_get(view_map_get(v, "summary"), "fail")), 1);
    gw_buf json = GW_BUF_INIT;
    view_to_json(v, &json, 0);
    assert_non_null(strstr(json.data, "\"id\":\"memory.remapped_rows\""));
    buf_free(&json);
    view_free(v);
    inspect_result_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_healthy),
        cmocka_unit_test(test_memory_mismatch),
        cmocka_unit_test(test_memory_tolerance),
        cmocka_unit_test(test_hw_slowdown),
        cmocka_unit_test(test_pcie_x4),
        cmocka_unit_test(test_mining_card),
        cmocka_unit_test(test_retired_pending),
        cmocka_unit_test(test_remapped_rows),
        cmocka_unit_test(test_implausible_values),
        cmocka_unit_test(test_real_dumps),
        cmocka_unit_test(test_lookup_failure_stops),
        cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
