/* test_nvsmi.c — reading nvidia-smi dumps: every real dump in $SHARED/testdata/nvsmi against
 * values read off the files by hand, the layout variants, and hostile XML; running nvidia-smi
 * (a fake one on PATH) that hangs, never exits or prints without end. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "inspect/nvsmi.h"

#define FIX "tests/fixtures/nvsmi/"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The process's CPU time: the bounds on parsing measure the parser's work, which a machine busy
 * with other jobs must not turn into a failure (wall-clock bounds stay for nvidia-smi's timeout). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *testdata_dir(char *out, size_t n)
{
    const char *shared = getenv("SHARED");
    snprintf(out, n, "%s/testdata/nvsmi", shared && *shared ? shared : "../shared");
    struct stat st;
    return stat(out, &st) == 0 && S_ISDIR(st.st_mode) ? out : NULL;
}

/* ---- conformance: every real dump ----
 * Values read off the files with grep (product_name, the GPU's own fb_memory_usage/total, not
 * the MIG devices', driver_version, and the count of <gpu id=...> elements and <mig_device>). */
static const struct expected_dump {
    const char *file;
    size_t gpus;
    const char *name;        /* every GPU of these files has the same name and memory */
    double total_mib;
    const char *driver;      /* NULL: the file has none (trimmed) */
    const char *cuda;        /* NULL: none */
    size_t mig_devices;      /* on the first GPU */
} expected[] = {
    {"datakit-v100-pcie-32gb.xml", 1, "Tesla V100-PCIE-32GB", 32510, "460.39", "11.2", 0},
    {"datakit-v100s-pcie-32gb-x8.xml", 8, "Tesla V100S-PCIE-32GB", 32510, "460.73.01", "11.2", 0},
    {"lampaa-dual-rtx2080ti-410.73.xml", 2, "GeForce RTX 2080 Ti", 10989, "410.73", "10.0", 0},
    {"lampaa-gt730-440.59.xml", 1, "GeForce GT 730", 2001, "440.59", "10.2", 0},
    {"lampaa-quadro-p2200-450.80.02.xml", 1, "Quadro P2200", 5058, "450.80.02", "11.0", 0},
    {"netdata-a100-sxm4-mig.xml", 1, "NVIDIA A100-SXM4-40GB", 40960, "510.47.03", "11.6", 2},
    {"netdata-rtx-2080-win.xml", 1, "NVIDIA GeForce RTX 2080", 8192, "516.59", "11.7", 0},
    {"netdata-rtx-3060.xml", 1, "NVIDIA GeForce RTX 3060 Laptop GPU", 6144, "515.65.01", "11.7", 0},
    {"netdata-rtx-4090-driver-535.xml", 1, "NVIDIA GeForce RTX 4090", 24564, "535.86.05", "12.2", 0},
    {"netdata-tesla-p100.xml", 1, "Tesla P100-PCIE-16GB", 16384, "510.47.03", "11.6", 0},
    {"raiproject-grid-k520-352.99-with-inline-dtd-v7.xml", 1, "GRID K520", 4095, "352.99", NULL, 0},
    {"telegraf-3090-v13.xml", 1, "NVIDIA GeForce RTX 3090", 24576, "590.44.01", "13.1", 0},
    {"telegraf-a100-sxm4-v12.xml", 1, "NVIDIA A100-SXM4-80GB", 81920, "535.54.03", "12.2", 4},
    {"telegraf-a10g.xml", 1, "NVIDIA A10G", 23028, "515.105.01", "11.7", 0},
    {"telegraf-dual_2070-v13.xml", 2, "NVIDIA GeForce RTX 2070", 8192, "590.44.01", "13.1", 0},
    {"telegraf-dual_2080-v13.xml", 2, "NVIDIA GeForce RTX 2080", 8192, "590.44.01", "13.1", 0},
    {"telegraf-dual_a5000-v13.xml", 2, "NVIDIA RTX A5000", 24564, "590.44.01", "13.1", 0},
    {"telegraf-gt-1030.xml", 1, "NVIDIA GeForce GT 1030", 1998, "470.74", "11.4", 0},
    {"telegraf-gtx-1070-ti.xml", 1, "GeForce GTX 1070 Ti", 4096, NULL, NULL, 0},
    {"telegraf-gtx-1660-ti.xml", 1, "Graphics Device", 5912, "418.43", "10.1", 0},
    {"telegraf-pro-6000-maxq-blackwell-v13.xml", 1,
     "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 97887, "590.44.01", "13.1", 0},
    {"telegraf-quadro-p2000-v12.xml", 1, "Quadro P2000", 5120, "525.125.06", "12.0", 0},
    {"telegraf-quadro-p400.xml", 1, "Quadro P400", 1998, "418.43", "10.1", 0},
    {"telegraf-rtx-3060-v12.xml", 1, "NVIDIA GeForce RTX 3060", 12288, "570.124.04", "12.8", 0},
    {"telegraf-rtx-3080-v12.xml", 1, "NVIDIA GeForce RTX 3080", 10240, "536.40", "12.2", 0},
    {"telegraf-rtx-3080-v13.xml", 1, "NVIDIA GeForce RTX 3080", 10240, "595.58.03", "13.2", 0},
    {"telegraf-rtx-3090-v12.xml", 1, "NVIDIA GeForce RTX 3090", 24576, "525.147.05", "12.0", 0},
    {"telegraf-rtx-4000-sff-ada-v13.xml", 1, "NVIDIA RTX 4000 SFF Ada Generation", 20475, "595.84",
     "13.2", 0},
    {"telegraf-tesla-t4.xml", 1, "Tesla T4", 15360, "515.105.01", "11.7", 0},
    {"telegraf-tesla_p4.xml", 1, "GRID P4-1Q", 1024, "513.46", "11.6", 0},
};
#define N_EXPECTED (sizeof expected / sizeof expected[0])

static void test_conformance_every_real_dump(void **state)
{
    (void)state;
    char dir[4096];
    if (!testdata_dir(dir, sizeof dir)) {
        printf("skip - nvsmi conformance: ../shared/testdata not found\n");
        skip();
    }
    int seen[N_EXPECTED] = {0};
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *ent;
    size_t files = 0;
    while ((ent = readdir(d))) {
        size_t n = strlen(ent->d_name);
        if (n < 5 || strcmp(ent->d_name + n - 4, ".xml") != 0)
            continue;
        files++;
        size_t k;
        for (k = 0; k < N_EXPECTED; k++)
            if (strcmp(expected[k].file, ent->d_name) == 0)
                break;
        if (k == N_EXPECTED)
            fail_msg("%s is not in the expected table: read it by hand and add it", ent->d_name);
        seen[k] = 1;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        nvsmi_log *log = NULL;
        gw_error err = {0};
        int rc = nvsmi_read_file(path, &log, &err);
        if (rc != GW_OK)
            fail_msg("%s: %s", ent->d_name, err.msg);
        const struct expected_dump *e = &expected[k];
        if (log->n_gpus != e->gpus)
            fail_msg("%s: %zu GPUs, expected %zu", e->file, log->n_gpus, e->gpus);
        for (size_t g = 0; g < log->n_gpus; g++) {
            const nvsmi_gpu *gpu = &log->gpus[g];
            assert_non_null(gpu->product_name.text);
            if (strcmp(gpu->product_name.text, e->name) != 0)
                fail_msg("%s gpu %zu: name '%s', expected '%s'", e->file, g,
                         gpu->product_name.text, e->name);
            double total = NAN;
            assert_true(nvsmi_number(&gpu->fb_total, &total));
            assert_string_equal(gpu->fb_total.q.unit, "MiB");
            if (total != e->total_mib)
                fail_msg("%s gpu %zu: %g MiB, expected %g", e->file, g, total, e->total_mib);
            assert_string_equal(gpu->fb_total.path, "gpu/fb_memory_usage/total");
            assert_true(gpu->fb_total.line > 0);
        }
        if (e->driver) {
            assert_non_null(log->driver_version.text);
            assert_string_equal(log->driver_version.text, e->driver);
        } else {
            assert_null(log->driver_version.text);
        }
        if (e->cuda) {
            assert_non_null(log->cuda_version.text);
            assert_string_equal(log->cuda_version.text, e->cuda);
        } else {
            assert_false(nvsmi_known(&log->cuda_version));
        }
        if (log->gpus[0].n_mig_devices != e->mig_devices)
            fail_msg("%s: %zu MIG devices, expected %zu", e->file, log->gpus[0].n_mig_devices,
                     e->mig_devices);
        nvsmi_log_free(log);
    }
    closedir(d);
    for (size_t k = 0; k < N_EXPECTED; k++)
        if (!seen[k])
            fail_msg("%s is in the table but not in %s", expected[k].file, dir);
    assert_int_equal(files, N_EXPECTED);
}

static nvsmi_log *read_real(const char *file)
{
    char dir[4096], path[8192];
    if (!testdata_dir(dir, sizeof dir))
        return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    nvsmi_log *log = NULL;
    gw_error err = {0};
    if (nvsmi_read_file(path, &log, &err) != GW_OK)
        fail_msg("%s: %s", file, err.msg);
    return log;
}

/* The layout variants, on real files. */
static void test_real_layouts(void **state)
{
    (void)state;
    nvsmi_log *log = read_real("netdata-tesla-p100.xml");
    if (!log) {
        printf("skip - nvsmi layouts: ../shared/testdata not found\n");
        skip();
    }
    /* old ECC layout: aggregate/single_bit/total is 3 (the file's lines 'total>3<') */
    const nvsmi_gpu *g = &log->gpus[0];
    int found = 0;
    for (size_t i = 0; i < g->n_ecc; i++)
        if (g->ecc[i].aggregate && !g->ecc[i].uncorrectable) {
            assert_string_equal(g->ecc[i].value.path, "gpu/ecc_errors/aggregate/single_bit/total");
            assert_string_equal(g->ecc[i].value.text, "3");
            found = 1;
        }
    assert_true(found);
    assert_int_equal(g->n_ecc, 4);   /* volatile and aggregate, single and double bit totals */
    assert_string_equal(g->remapped_rows.text, "N/A");
    assert_false(g->remapped_nested);
    assert_string_equal(g->retired_pending.text, "No");
    nvsmi_log_free(log);

    /* new ECC layout with sram_uncorrectable_parity/_secded and nested remapped rows */
    log = read_real("telegraf-rtx-4000-sff-ada-v13.xml");
    g = &log->gpus[0];
    assert_true(g->remapped_nested);
    assert_string_equal(g->remapped_uncorrectable.text, "0");
    assert_string_equal(g->remapped_pending.text, "No");
    /* volatile: sram_correctable, _parity, _secded, dram_correctable, dram_uncorrectable = 5;
     * aggregate: the same 5 (sram_threshold_exceeded is not a counter) = 10 */
    assert_int_equal(g->n_ecc, 10);
    nvsmi_log_free(log);

    /* v7 with an inline DTD: old power_readings/power_limit, throttle reasons */
    log = read_real("raiproject-grid-k520-352.99-with-inline-dtd-v7.xml");
    g = &log->gpus[0];
    assert_string_equal(g->power_limit.path, "gpu/power_readings/power_limit");
    assert_string_equal(g->power_limit.text, "125.00 W");
    assert_int_equal(g->n_reasons, 5);
    assert_string_equal(g->reasons[0].name, "gpu_idle");
    assert_string_equal(g->reasons[0].value.text, "Active");
    assert_string_equal(g->reasons[4].name, "unknown");
    nvsmi_log_free(log);

    /* average/instant power draw (driver 570) and current_power_limit */
    log = read_real("telegraf-rtx-3060-v12.xml");
    g = &log->gpus[0];
    assert_string_equal(g->power_draw.path, "gpu/gpu_power_readings/average_power_draw");
    assert_string_equal(g->power_draw.text, "11.60 W");
    assert_string_equal(g->power_limit.path, "gpu/gpu_power_readings/current_power_limit");
    nvsmi_log_free(log);

    /* "Requested functionality has been deprecated" is a word, not a value */
    log = read_real("telegraf-3090-v13.xml");
    g = &log->gpus[0];
    assert_int_equal(g->n_reasons, 9);
    assert_string_equal(g->reasons[2].name, "sw_power_cap");
    assert_string_equal(g->reasons[2].value.text, "Active");
    assert_string_equal(g->persistence_mode.text, "Enabled");
    nvsmi_log_free(log);

    /* the trimmed dump: present fields read, absent ones NULL */
    log = read_real("telegraf-gtx-1070-ti.xml");
    g = &log->gpus[0];
    assert_null(g->pcie_width_max.text);
    assert_string_equal(g->pcie_width_current.text, "16x");
    assert_true(g->pcie_width_current.has_number);
    assert_true(g->pcie_width_current.q.value == 16);
    assert_string_equal(g->pcie_width_current.q.unit, "x");
    assert_null(g->ecc_current.text);
    assert_null(log->attached_gpus.text);
    nvsmi_log_free(log);

    /* vGPU guest on Windows */
    log = read_real("telegraf-tesla_p4.xml");
    g = &log->gpus[0];
    assert_string_equal(g->virtualization_mode.text, "VGPU");
    assert_string_equal(g->driver_model.text, "WDDM");
    assert_string_equal(g->power_limit.text, "N/A");
    assert_false(g->power_limit.has_number);
    nvsmi_log_free(log);

    /* MIG: the GPU's own memory total, not its first MIG device's */
    log = read_real("telegraf-a100-sxm4-v12.xml");
    g = &log->gpus[0];
    assert_string_equal(g->mig_current.text, "Enabled");
    assert_string_equal(g->fb_total.text, "81920 MiB");
    assert_string_equal(g->mig_devices[3].memory_total.text, "19968 MiB");
    assert_string_equal(g->mig_devices[3].memory_total.path,
                        "gpu/mig_devices/mig_device[4]/fb_memory_usage/total");
    nvsmi_log_free(log);
}

/* The crafted fixtures read as written. */
static void test_fixtures(void **state)
{
    (void)state;
    nvsmi_log *log = NULL;
    gw_error err = {0};
    assert_int_equal(nvsmi_read_file(FIX "retired-pending-v100.xml", &log, &err), GW_OK);
    const nvsmi_gpu *g = &log->gpus[0];
    assert_string_equal(g->retired_pending.text, "Yes");
    assert_string_equal(g->retired_double_bit.text, "2");
    assert_int_equal(g->retired_pending.line, 121);   /* grep -n pending_retirement: 121 */
    assert_int_equal(g->n_processes, 1);
    nvsmi_log_free(log);

    assert_int_equal(nvsmi_read_file(FIX "remapped-unc-a100.xml", &log, &err), GW_OK);
    assert_int_equal(log->n_gpus, 2);
    assert_string_equal(log->gpus[1].bus_id, "00000000:CA:00.0");
    assert_string_equal(log->gpus[1].remapped_uncorrectable.text, "2");
    assert_string_equal(log->gpus[1].remapped_uncorrectable.path,
                        "gpu/remapped_rows/remapped_row_unc");
    nvsmi_log_free(log);
}

/* ---- bad and hostile input ---- */

static void test_not_a_dump(void **state)
{
    (void)state;
    nvsmi_log *log = (nvsmi_log *)1;
    gw_error err = {0};
    assert_int_equal(nvsmi_read_file(FIX "not-nvsmi.xml", &log, &err), GW_EDATA);
    assert_null(log);
    assert_non_null(strstr(err.msg, "not <nvidia_smi_log>"));
    assert_int_equal(nvsmi_read_file(FIX "plain-text.txt", &log, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "plain-text.txt:1:"));
    assert_int_equal(nvsmi_read_file(FIX "no-such-file.xml", &log, &err), GW_ENOINPUT);
    assert_int_equal(nvsmi_read_file(FIX, &log, &err), GW_ENOINPUT);
    assert_int_equal(nvsmi_parse("", 0, "empty.xml", &log, &err), GW_EDATA);
}

static void test_truncated(void **state)
{
    (void)state;
    char *text;
    size_t len;
    assert_int_equal(gw_read_file(FIX "healthy-3090.xml", &text, &len), 0);
    nvsmi_log *log = NULL;
    gw_error err = {0};
    /* cut in the middle, then one byte short of the end */
    assert_int_equal(nvsmi_parse(text, len / 2, "half.xml", &log, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "half.xml:"));
    assert_int_equal(nvsmi_parse(text, len - 3, "short.xml", &log, &err), GW_EDATA);
    free(text);
}

static void expect_safe(const char *text, const char *what)
{
    nvsmi_log *log = NULL;
    gw_error err = {0};
    double t0 = cpu_seconds();
    int rc = nvsmi_parse(text, strlen(text), what, &log, &err);
    double took = cpu_seconds() - t0;
    if (took > 2.0)
        fail_msg("%s took %.1f s", what, took);
    assert_true(rc == GW_OK || rc == GW_EDATA);
    if (rc == GW_OK) {
        const char *name = log->gpus[0].product_name.text;
        if (name) {
            assert_null(strstr(name, "root:"));
            assert_null(strstr(name, "lollollol"));
            assert_true(strlen(name) <= NVSMI_MAX_TEXT + 3);
        }
        nvsmi_log_free(log);
    }
}

static void test_billion_laughs(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE nvidia_smi_log [\n"
                 "<!ENTITY lol \"lol\">\n");
    buf_puts(&b, "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
    for (int i = 2; i <= 9; i++) {
        buf_printf(&b, "<!ENTITY lol%d \"", i);
        for (int k = 0; k < 10; k++)
            buf_printf(&b, "&lol%d;", i - 1);
        buf_puts(&b, "\">\n");
    }
    buf_puts(&b, "]>\n<nvidia_smi_log><gpu id=\"0\"><product_name>&lol9;</product_name>"
                 "</gpu></nvidia_smi_log>\n");
    expect_safe(buf_cstr(&b), "laughs.xml");
    buf_free(&b);
}

static void test_external_entities(void **state)
{
    (void)state;
    expect_safe("<?xml version=\"1.0\"?>\n<!DOCTYPE nvidia_smi_log [\n"
                "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
                "<nvidia_smi_log><gpu id=\"0\"><product_name>&xxe;</product_name></gpu>"
                "</nvidia_smi_log>\n",
                "xxe-file.xml");
    expect_safe("<?xml version=\"1.0\"?>\n<!DOCTYPE nvidia_smi_log [\n"
                "<!ENTITY xxe SYSTEM \"http://127.0.0.1:9/x\">]>\n"
                "<nvidia_smi_log><gpu id=\"0\"><product_name>&xxe;</product_name></gpu>"
                "</nvidia_smi_log>\n",
                "xxe-url.xml");
    expect_safe("<?xml version=\"1.0\"?>\n<!DOCTYPE nvidia_smi_log [\n"
                "<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n"
                "<nvidia_smi_log><gpu id=\"0\"><product_name>x</product_name></gpu>"
                "</nvidia_smi_log>\n",
                "xxe-parameter.xml");
    expect_safe("<?xml version=\"1.0\"?>\n"
                "<!DOCTYPE nvidia_smi_log SYSTEM \"http://127.0.0.1:9/nvsmi_device_v12.dtd\">\n"
                "<nvidia_smi_log><gpu id=\"0\"><product_name>x</product_name></gpu>"
                "</nvidia_smi_log>\n",
                "remote-dtd.xml");
}

static void test_deep_nesting(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, "<nvidia_smi_log><gpu id=\"0\">");
    for (int i = 0; i < 100000; i++)
        buf_puts(&b, "<a>");
    for (int i = 0; i < 100000; i++)
        buf_puts(&b, "</a>");
    buf_puts(&b, "</gpu></nvidia_smi_log>");
    nvsmi_log *log = NULL;
    gw_error err = {0};
    double t0 = cpu_seconds();
    assert_int_equal(nvsmi_parse(b.data, b.len, "deep.xml", &log, &err), GW_EDATA);
    assert_true(cpu_seconds() - t0 < 2.0);
    buf_free(&b);
}

static void test_huge_text(void **state)
{
    (void)state;
    /* 50 MB in one text node: over the size limit, refused before parsing */
    size_t big = 50u * 1000u * 1000u;
    char *text = gw_xmalloc(big + 200);
    size_t n = (size_t)sprintf(text, "<nvidia_smi_log><gpu id=\"0\"><product_name>");
    memset(text + n, 'A', big);
    n += big;
    n += (size_t)sprintf(text + n, "</product_name></gpu></nvidia_smi_log>");
    nvsmi_log *log = NULL;
    gw_error err = {0};
    double t0 = cpu_seconds();
    assert_int_equal(nvsmi_parse(text, n, "big.xml", &log, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "too large"));
    /* 20 MB: under the size limit, over libxml2's 10 MB text node limit */
    size_t mid = 20u * 1000u * 1000u;
    n = (size_t)sprintf(text, "<nvidia_smi_log><gpu id=\"0\"><product_name>");
    memset(text + n, 'A', mid);
    n += mid;
    n += (size_t)sprintf(text + n, "</product_name></gpu></nvidia_smi_log>");
    int rc = nvsmi_parse(text, n, "mid.xml", &log, &err);
    assert_true(rc == GW_EDATA || rc == GW_OK);
    if (rc == GW_OK) {
        assert_true(strlen(log->gpus[0].product_name.text) <= NVSMI_MAX_TEXT + 3);
        nvsmi_log_free(log);
    }
    assert_true(cpu_seconds() - t0 < 3.0);
    free(text);
}

/* A DTD planted beside the dump, under the name the DOCTYPE gives, is never read. */
static void test_planted_dtd(void **state)
{
    (void)state;
    char dir[] = "/tmp/gw-nvsmi-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char dtd[256], dump[256], cwd[4096];
    snprintf(dtd, sizeof dtd, "%s/nvsmi_device_v12.dtd", dir);
    snprintf(dump, sizeof dump, "%s/dump.xml", dir);
    const char *dtd_text = "<!ENTITY planted \"PLANTED-ENTITY-WAS-LOADED\">\n"
                           "<!ATTLIST gpu planted CDATA \"PLANTED-ATTRIBUTE\">\n";
    const char *dump_text = "<?xml version=\"1.0\"?>\n"
                            "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n"
                            "<nvidia_smi_log><driver_version>535.1</driver_version>"
                            "<gpu id=\"0\"><product_name>RTX &planted;</product_name></gpu>"
                            "</nvidia_smi_log>\n";
    assert_int_equal(gw_write_file_atomic(dtd, dtd_text, strlen(dtd_text)), 0);
    assert_int_equal(gw_write_file_atomic(dump, dump_text, strlen(dump_text)), 0);
    assert_non_null(getcwd(cwd, sizeof cwd));
    nvsmi_log *log = NULL;
    gw_error err = {0};
    /* from the dump's folder (relative name) and from elsewhere (full path) */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            assert_int_equal(chdir(dir), 0);
        int rc = nvsmi_read_file(pass == 0 ? "dump.xml" : dump, &log, &err);
        if (pass == 0)
            assert_int_equal(chdir(cwd), 0);
        assert_true(rc == GW_OK || rc == GW_EDATA);
        if (rc == GW_OK) {
            const char *name = log->gpus[0].product_name.text;
            assert_null(strstr(name ? name : "", "PLANTED"));
            assert_null(log->gpus[0].bus_id ? strstr(log->gpus[0].bus_id, "PLANTED") : NULL);
            nvsmi_log_free(log);
        } else {
            assert_null(strstr(err.msg, "PLANTED"));
        }
    }
    unlink(dtd);
    unlink(dump);
    rmdir(dir);
}

static void test_capture_missing(void **state)
{
    (void)state;
    const char *old = getenv("PATH");
    char *saved = old ? gw_xstrdup(old) : NULL;
    setenv("PATH", "/nonexistent-gw", 1);
    char *text = NULL;
    size_t len = 0;
    gw_error err = {0};
    assert_int_equal(nvsmi_capture(NVSMI_TIMEOUT_SECONDS, &text, &len, &err), GW_EUNAVAILABLE);
    assert_non_null(strstr(err.msg, "nvidia-smi not found"));
    assert_null(text);
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
}

/* ---- running nvidia-smi: a fake one on PATH ---- */

static char fake_dir[64];

/* Puts an executable nvidia-smi with body (a shell script) first on PATH. */
static void fake_nvsmi(const char *body)
{
    char path[128];
    snprintf(fake_dir, sizeof fake_dir, "/tmp/gwnvsmi.XXXXXX");
    assert_non_null(mkdtemp(fake_dir));
    snprintf(path, sizeof path, "%s/nvidia-smi", fake_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
    char env[256];
    snprintf(env, sizeof env, "%s:/usr/bin:/bin", fake_dir);
    setenv("PATH", env, 1);
}

static void fake_done(const char *saved_path)
{
    char cmd[128];
    setenv("PATH", saved_path, 1);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake_dir);
    assert_int_equal(system(cmd), 0);
}

/* The pid written in fake_dir/name, or 0. */
static pid_t pid_in(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fake_dir, name);
    FILE *f = fopen(path, "r");
    int pid = 0;
    if (f && fscanf(f, "%d", &pid) != 1)
        pid = 0;
    if (f)
        fclose(f);
    return (pid_t)pid;
}

/* 1 when pid no longer runs (gone, or a zombie waiting for init), waiting 2 s at most. */
static int gone(pid_t pid)
{
    double t0 = now_seconds();
    do {
        char file[64], line[512];
        snprintf(file, sizeof file, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(file, "r");
        if (!f)
            return 1;
        char *got = fgets(line, sizeof line, f);
        fclose(f);
        const char *paren = got ? strrchr(line, ')') : NULL;
        if (paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'))
            return 1;
        struct timespec ms = {0, 20 * 1000000L};
        nanosleep(&ms, NULL);
    } while (now_seconds() - t0 < 2.0);
    return 0;
}

static void test_capture_timeout(void **state)
{
    (void)state;
    char *saved = gw_xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    /* a card that fell off the bus: nvidia-smi hangs, here in a child of its own */
    fake_nvsmi("d=$(dirname \"$0\")\necho $$ > \"$d/smi.pid\"\nsleep 100 &\necho $! > \"$d/sleep.pid\"\n"
               "wait");
    alarm(10);
    char *text = NULL;
    size_t len = 0;
    gw_error err = {0};
    double t0 = now_seconds();
    assert_int_equal(nvsmi_capture(1, &text, &len, &err), GW_EUNAVAILABLE);
    double took = now_seconds() - t0;
    alarm(0);
    assert_null(text);
    /* 1 s to answer, then half a second at most to reap it */
    assert_true(took >= 1.0 && took < 2.0);
    assert_non_null(strstr(err.msg, "-q -x gave no answer in 1 s and was stopped"));
    assert_non_null(strstr(err.msg, "take the dump by hand: nvidia-smi -q -x > dump.xml, then "
                                    "gpuwise inspect dump.xml"));
    /* nvidia-smi and what it started were killed with their process group */
    pid_t smi = pid_in("smi.pid"), child = pid_in("sleep.pid");
    assert_true(smi > 0 && child > 0);
    assert_true(gone(smi));
    assert_true(gone(child));
    fake_done(saved);

    /* a dump printed, and then no exit: still stopped at the deadline */
    fake_nvsmi("echo '<nvidia_smi_log></nvidia_smi_log>'\nexec sleep 100");
    alarm(10);
    t0 = now_seconds();
    assert_int_equal(nvsmi_capture(1, &text, &len, &err), GW_EUNAVAILABLE);
    assert_true(now_seconds() - t0 < 2.0);
    alarm(0);
    fake_done(saved);

    /* more than the dump limit (1 MiB here): stopped as soon as it passes it */
    setenv("GPUWISE_MAX_DUMP_MB", "1", 1);
    fake_nvsmi("exec cat /dev/zero");
    alarm(10);
    assert_int_equal(nvsmi_capture(NVSMI_TIMEOUT_SECONDS, &text, &len, &err), GW_EDATA);
    alarm(0);
    assert_non_null(strstr(err.msg, "printed more than 1 MiB, too much for an nvidia-smi dump "
                                    "(GPUWISE_MAX_DUMP_MB raises the limit)"));
    unsetenv("GPUWISE_MAX_DUMP_MB");
    fake_done(saved);

    /* a well-behaved one: its output, whole */
    fake_nvsmi("[ \"$1 $2\" = \"-q -x\" ] || exit 3\nprintf '<nvidia_smi_log/>'");
    assert_int_equal(nvsmi_capture(NVSMI_TIMEOUT_SECONDS, &text, &len, &err), GW_OK);
    assert_int_equal(len, 17);
    assert_string_equal(text, "<nvidia_smi_log/>");
    free(text);
    fake_done(saved);
    free(saved);
}

static void test_value_words(void **state)
{
    (void)state;
    nvsmi_value v = {0};
    assert_false(nvsmi_known(&v));
    v.text = "Requested functionality has been deprecated";
    assert_false(nvsmi_known(&v));
    v.text = "[N/A]";
    assert_false(nvsmi_known(&v));
    v.text = "Not Active";
    assert_true(nvsmi_known(&v));
    assert_true(nvsmi_is(&v, "not active"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_every_real_dump),
        cmocka_unit_test(test_real_layouts),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_not_a_dump),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_billion_laughs),
        cmocka_unit_test(test_external_entities),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_huge_text),
        cmocka_unit_test(test_planted_dtd),
        cmocka_unit_test(test_capture_missing),
        cmocka_unit_test(test_capture_timeout),
        cmocka_unit_test(test_value_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
