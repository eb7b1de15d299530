/* test_bounds.c — every input bounded and every output target respected (buf.c, limits.c,
 * check.c): reads within a limit (regular files, /dev/zero, FIFOs with and without a writer, a
 * signal while a read waits), the table of limits and numeric variables, its strict parser and
 * the generated manual that documents it, the -o rules (mode and owner kept, links followed,
 * folders, devices, FIFOs and sockets refused untouched), and the strict number parsers.  Every
 * hostile case runs under alarm(): a hang kills the program, which fails. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/signals.h"
#include "cli/cli.h"

#define MIB ((size_t)1 << 20)

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gwbounds.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- reading ---- */

static void test_read_endless_device(void **state)
{
    (void)state;
    alarm(10);
    char *text = NULL;
    size_t len = 99;
    double t0 = now();
    /* /dev/zero never ends: refused one byte past the limit, not read until memory runs out */
    assert_int_equal(gw_read_file_max("/dev/zero", MIB, &text, &len), EFBIG);
    assert_null(text);
    assert_int_equal(len, 0);
    assert_true(now() - t0 < 2.0);
    /* the same file within a limit that holds it: /dev/null is empty */
    assert_int_equal(gw_read_file_max("/dev/null", MIB, &text, &len), 0);
    assert_int_equal(len, 0);
    assert_string_equal(text, "");
    free(text);
    alarm(0);
}

static void test_read_regular_file_limits(void **state)
{
    (void)state;
    alarm(10);
    char path[128];
    path_in(path, sizeof path, "sparse");
    /* a 10 GiB sparse file: refused by its size before a byte is read (no 10 GiB buffer) */
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)10 << 30), 0);
    close(fd);
    char *text = NULL;
    size_t len = 0;
    double t0 = now();
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), EFBIG);
    assert_true(now() - t0 < 1.0);
    /* exactly at the limit is fine; one byte more is not */
    assert_int_equal(truncate(path, (off_t)MIB), 0);
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), 0);
    assert_int_equal(len, MIB);
    free(text);
    assert_int_equal(truncate(path, (off_t)MIB + 1), 0);
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), EFBIG);
    unlink(path);
    /* a folder and a missing file */
    assert_int_equal(gw_read_file_max(dir, MIB, &text, &len), EISDIR);
    path_in(path, sizeof path, "missing");
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), ENOENT);
    alarm(0);
}

static void test_read_fifo(void **state)
{
    (void)state;
    alarm(10);
    char path[128];
    path_in(path, sizeof path, "fifo");
    assert_int_equal(mkfifo(path, 0600), 0);
    char *text = NULL;
    size_t len = 99;
    /* nobody writes: opened without waiting for a writer, read as empty, at once */
    double t0 = now();
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), 0);
    assert_int_equal(len, 0);
    free(text);
    assert_true(now() - t0 < 1.0);

    /* a writer that never stops: refused at the limit.  The writer opens the FIFO read-write
     * (which waits for nobody) before the reader starts, then writes until it is stopped. */
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_RDWR);
        char chunk[4096];
        memset(chunk, 'x', sizeof chunk);
        if (fd < 0 || write(ready[1], "r", 1) != 1)
            _exit(1);
        for (;;)
            if (write(fd, chunk, sizeof chunk) < 0)
                _exit(1);
    }
    close(ready[1]);
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    t0 = now();
    assert_int_equal(gw_read_file_max(path, MIB, &text, &len), EFBIG);
    assert_null(text);
    assert_true(now() - t0 < 2.0);
    kill(pid, SIGKILL);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    unlink(path);
    alarm(0);
}

/* The state letter of process pid ('S' sleeping, 'R' running, ...), or 0. */
static char proc_state(pid_t pid)
{
    char file[64], line[512];
    snprintf(file, sizeof file, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    const char *paren = got ? strrchr(line, ')') : NULL;
    return paren && paren[1] == ' ' ? paren[2] : 0;
}

static void test_read_stops_on_signal(void **state)
{
    (void)state;
    alarm(10);
    char path[128];
    path_in(path, sizeof path, "fifo-held");
    assert_int_equal(mkfifo(path, 0600), 0);
    /* a writer that holds the FIFO open (read-write: that waits for nobody) and writes nothing:
     * the read waits */
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* the command's own set-up: SIGINT recorded, reads not restarted */
        gw_signals_install();
        close(ready[0]);
        assert_int_equal(write(ready[1], "r", 1), 1);
        char *text = NULL;
        size_t len = 0;
        int rc = gw_read_file_max(path, MIB, &text, &len);
        _exit(rc == EINTR && gw_signal_pending() == SIGINT ? 42 : 1);
    }
    close(ready[1]);
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    double t0 = now();
    while (proc_state(pid) != 'S' && now() - t0 < 5)
        ;
    assert_int_equal(proc_state(pid), 'S');
    assert_int_equal(kill(pid, SIGINT), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 42);   /* EINTR with the signal pending */
    close(fd);
    close(ready[0]);
    unlink(path);
    alarm(0);
}

static void test_read_input_messages(void **state)
{
    (void)state;
    alarm(10);
    char path[128];
    path_in(path, sizeof path, "w.lua");
    /* 1.5 MiB of workload: over a 1 MiB limit, within a 2 MiB one */
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)(MIB + MIB / 2)), 0);
    close(fd);
    char *text = NULL;
    size_t len = 0;
    gw_error err = {0};
    unsetenv("GPUWISE_MAX_WORKLOAD_MB");
    assert_int_equal(gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, &err), GW_OK);
    assert_int_equal(len, MIB + MIB / 2);
    free(text);
    setenv("GPUWISE_MAX_WORKLOAD_MB", "1", 1);
    assert_int_equal(gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, &err), GW_EDATA);
    char want[300];
    snprintf(want, sizeof want, "%s: too large for a workload file: more than 1 MiB "
             "(GPUWISE_MAX_WORKLOAD_MB raises the limit)", path);
    assert_string_equal(err.msg, want);
    setenv("GPUWISE_MAX_WORKLOAD_MB", "2", 1);
    assert_int_equal(gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, &err), GW_OK);
    free(text);
    /* the variable takes whole MiB only */
    const char *bad[] = {"0", "-1", "0x10", "1.5", " 2", "2 ", "inf", "1048577",
                         "99999999999999999999", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("GPUWISE_MAX_WORKLOAD_MB", bad[i], 1);
        assert_int_equal(gw_read_input(path, GW_INPUT_WORKLOAD, &text, &len, &err), GW_EUSAGE);
        assert_non_null(strstr(err.msg, "GPUWISE_MAX_WORKLOAD_MB: expected a whole number of "
                                        "MiB from 1 to 1048576"));
    }
    unsetenv("GPUWISE_MAX_WORKLOAD_MB");
    /* the dump's limit from the same table: /dev/zero names it */
    assert_int_equal(gw_read_input("/dev/zero", GW_INPUT_DUMP, &text, &len, &err), GW_EDATA);
    assert_string_equal(err.msg, "/dev/zero: too large for an nvidia-smi dump: more than 32 MiB "
                                 "(GPUWISE_MAX_DUMP_MB raises the limit)");
    assert_int_equal(gw_read_input(dir, GW_INPUT_TEMPLATE, &text, &len, &err), GW_ENOINPUT);
    snprintf(want, sizeof want, "%s: is a folder, not a template", dir);
    assert_string_equal(err.msg, want);
    unlink(path);
    alarm(0);
}

/* The section of the generated manual that starts at "\n# NAME\n", up to the next "\n# "
 * (caller frees); fails when there is none. */
static char *manual_section(const char *manual, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, "\n# %s\n", name);
    const char *start = strstr(manual, head);
    if (!start)
        fail_msg("the generated manual has no %s section", name);
    const char *end = strstr(start + 1, "\n# ");
    return gw_xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

/* The manual (gpuwise help --all) is written from the table: ENVIRONMENT has a line for every
 * variable with its range and default, LIMITS one for every kind of input, and no placeholder
 * is left behind. */
static void test_limits_documented(void **state)
{
    (void)state;
    gw_buf manual = GW_BUF_INIT;
    cli_manual_markdown(&manual);
    assert_null(strstr(buf_cstr(&manual), "@ENVIRONMENT@"));
    assert_null(strstr(buf_cstr(&manual), "@LIMITS@"));
    char *env = manual_section(buf_cstr(&manual), "ENVIRONMENT");
    char *limits = manual_section(buf_cstr(&manual), "LIMITS");
    for (int id = 0; id < GW_ENV_N; id++) {
        const gw_env_var *v = &gw_env_vars[id];
        char row[300];
        snprintf(row, sizeof row, "\n- **%s**: ", v->name);
        if (!strstr(env, row))
            fail_msg("the manual's ENVIRONMENT section lacks \"%s\"", row + 1);
        snprintf(row, sizeof row, "number%s%s from %.16g to %.16g", *v->unit ? " of " : "",
                 v->unit, v->min, v->max);   /* a switch has no unit */
        if (!strstr(strstr(env, v->name), row))
            fail_msg("the manual's ENVIRONMENT section lacks %s's range \"%s\"", v->name, row);
    }
    assert_non_null(strstr(env, "number of MiB from 1 to 1048576; default 4.\n"));
    assert_non_null(strstr(env, "number of seconds from 0 to 253402300799.\n"));   /* no default */
    for (int k = 0; k < GW_INPUT_N; k++) {
        char row[200];
        snprintf(row, sizeof row, "\n- %s: %.16g MiB (`%s`)\n", gw_input_what((gw_input)k),
                 gw_env_vars[k].fallback, gw_input_env((gw_input)k));
        if (!strstr(limits, row))
            fail_msg("the manual's LIMITS section lacks the line \"%s\"", row + 1);
    }
    assert_non_null(strstr(limits, "\n- a workload file: 4 MiB (`GPUWISE_MAX_WORKLOAD_MB`)\n"));
    free(env);
    free(limits);
    buf_free(&manual);
}

/* ---- the environment's numbers ---- */

/* Garbage, negative, fractional where a whole number is needed, out of range, empty: each is
 * GW_EUSAGE naming the variable, the allowed range and the value. */
static void test_env_parse_refuses_garbage(void **state)
{
    (void)state;
    gw_error err = {0};
    double v = -7;
    const char *not_seconds[] = {"abc", "0x10", "-1", "1e300", "", " 1", "1 ", "inf", "nan",
                                 "0", "0.0001", "86401", "20s"};
    for (size_t i = 0; i < sizeof not_seconds / sizeof not_seconds[0]; i++) {
        char want[200];
        snprintf(want, sizeof want, "GPUWISE_PLUGIN_SECONDS: expected a number of seconds from "
                 "0.001 to 86400, not '%s'", not_seconds[i]);
        assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, not_seconds[i], &v, &err),
                         GW_EUSAGE);
        assert_string_equal(err.msg, want);
        assert_true(v == -7);   /* untouched */
    }
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "0.5", &v, &err), GW_OK);
    assert_true(v == 0.5);
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "86400", &v, &err), GW_OK);
    assert_true(v == 86400);
    /* a whole number: digits only */
    const char *not_whole[] = {"1.5", "1e3", "+5", "-0", "0", "1048577", "0x10", "",
                               "99999999999999999999999999"};
    for (size_t i = 0; i < sizeof not_whole / sizeof not_whole[0]; i++) {
        assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_MEMORY_MB, not_whole[i], &v, &err),
                         GW_EUSAGE);
        assert_non_null(strstr(err.msg, "GPUWISE_PLUGIN_MEMORY_MB: expected a whole number of "
                                        "MiB from 1 to 1048576, not '"));
    }
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_MEMORY_MB, "1048576", &v, &err), GW_OK);
    assert_true(v == 1048576);
    /* 0 is in the busy timeout's range: it does not wait at all */
    assert_int_equal(gw_env_parse(GW_ENV_BUSY_TIMEOUT_MS, "0", &v, &err), GW_OK);
    assert_true(v == 0);
    assert_int_equal(gw_env_parse(GW_ENV_BUSY_TIMEOUT_MS, "2147483648", &v, &err), GW_EUSAGE);
    assert_string_equal(err.msg, "GPUWISE_BUSY_TIMEOUT_MS: expected a whole number of "
                                 "milliseconds from 0 to 2147483647, not '2147483648'");
    /* a long value is cut in the message, which stays one line */
    assert_int_equal(gw_env_parse(GW_ENV_FETCH_MAX_MB, "123456789012345678901234567890123456789"
                                  "0123456789", &v, &err), GW_EUSAGE);
    assert_string_equal(err.msg, "GPUWISE_FETCH_MAX_MB: expected a number of MiB from 0.001 to "
                                 "1048576, not '1234567890123456789012345678901234567890'");
}

/* Each variable through the environment: unset is its default, set is its value, garbage an
 * error (with the default in *out); gw_env_check names the first bad one. */
static void test_env_number_and_check(void **state)
{
    (void)state;
    gw_error err = {0};
    double v;
    unsetenv("GPUWISE_FETCH_MAX_MB");
    assert_int_equal(gw_env_number(GW_ENV_FETCH_MAX_MB, &v, &err), GW_OK);
    assert_true(v == 64);
    setenv("GPUWISE_FETCH_MAX_MB", "0.5", 1);
    assert_int_equal(gw_env_number(GW_ENV_FETCH_MAX_MB, &v, &err), GW_OK);
    assert_true(v == 0.5);
    setenv("GPUWISE_FETCH_MAX_MB", "0x10", 1);
    assert_int_equal(gw_env_number(GW_ENV_FETCH_MAX_MB, &v, &err), GW_EUSAGE);
    assert_true(v == 64);
    assert_int_equal(gw_env_check(&err), GW_EUSAGE);
    assert_string_equal(err.msg, "GPUWISE_FETCH_MAX_MB: expected a number of MiB from 0.001 to "
                                 "1048576, not '0x10'");
    unsetenv("GPUWISE_FETCH_MAX_MB");
    setenv("GPUWISE_PLUGIN_SECONDS", "abc", 1);
    assert_int_equal(gw_env_check(&err), GW_EUSAGE);
    assert_string_equal(err.msg, "GPUWISE_PLUGIN_SECONDS: expected a number of seconds from "
                                 "0.001 to 86400, not 'abc'");
    setenv("GPUWISE_PLUGIN_SECONDS", "", 1);   /* empty is not unset */
    assert_int_equal(gw_env_check(&err), GW_EUSAGE);
    unsetenv("GPUWISE_PLUGIN_SECONDS");
    assert_int_equal(gw_env_check(&err), GW_OK);
    /* every row of the table is well formed: a name, a unit, a default in its range */
    for (int id = 0; id < GW_ENV_N; id++) {
        const gw_env_var *var = &gw_env_vars[id];
        assert_non_null(var->name);
        assert_non_null(var->unit);
        assert_true((var->sets != NULL) != (var->input != NULL));
        assert_true(var->min <= var->max);
        assert_true(isnan(var->fallback) ||
                    (var->fallback >= var->min && var->fallback <= var->max));
    }
    assert_string_equal(gw_input_env(GW_INPUT_DUMP), "GPUWISE_MAX_DUMP_MB");
    assert_string_equal(gw_input_what(GW_INPUT_DUMP), "an nvidia-smi dump");
}

/* ---- writing ---- */

static void read_back(const char *path, const char *want)
{
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gw_read_file(path, &text, &len), 0);
    assert_string_equal(text, want);
    free(text);
}

static void test_write_keeps_mode_and_owner(void **state)
{
    (void)state;
    char path[128];
    path_in(path, sizeof path, "secret.md");
    write_text(path, "old");
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(gw_write_file_atomic(path, "new", 3), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);   /* not widened to 0644 */
    read_back(path, "new");
    assert_int_equal(chmod(path, 0755), 0);
    assert_int_equal(gw_write_file_atomic(path, "newer", 5), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0755);
    /* a new file: 0644 as before */
    char fresh[128];
    path_in(fresh, sizeof fresh, "fresh.md");
    assert_int_equal(gw_write_file_atomic(fresh, "x", 1), 0);
    assert_int_equal(stat(fresh, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    if (geteuid() == 0) {
        /* root can give the new file the old one's owner and group */
        assert_int_equal(chown(path, 4321, 8765), 0);
        assert_int_equal(gw_write_file_atomic(path, "owned", 5), 0);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_uid, 4321);
        assert_int_equal(st.st_gid, 8765);
        assert_int_equal(st.st_mode & 07777, 0755);
    }
    unlink(path);
    unlink(fresh);
}

static void test_write_follows_links(void **state)
{
    (void)state;
    char target[128], link[128], chain[128];
    path_in(target, sizeof target, "target.csv");
    path_in(link, sizeof link, "link.csv");
    path_in(chain, sizeof chain, "chain.csv");
    write_text(target, "old");
    assert_int_equal(symlink("target.csv", link), 0);   /* relative to the link's folder */
    assert_int_equal(symlink(link, chain), 0);          /* absolute, and a link to a link */
    assert_int_equal(gw_write_file_atomic(chain, "new", 3), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));                     /* the links stay links */
    assert_int_equal(lstat(chain, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_back(target, "new");
    /* a dangling link: its target is created */
    unlink(target);
    assert_int_equal(gw_write_file_atomic(link, "created", 7), 0);
    read_back(target, "created");
    /* a loop of links is an error, not a hang */
    char a[128], b[128];
    path_in(a, sizeof a, "loop-a");
    path_in(b, sizeof b, "loop-b");
    assert_int_equal(symlink("loop-b", a), 0);
    assert_int_equal(symlink("loop-a", b), 0);
    assert_int_equal(gw_write_file_atomic(a, "x", 1), ELOOP);
    unlink(a);
    unlink(b);
    unlink(chain);
    unlink(link);
    unlink(target);
}

/* Every entry in dir but "." and "..": nothing may be left behind (no temporary file). */
static int entries(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    return n;
}

static void test_write_refuses_special_files(void **state)
{
    (void)state;
    alarm(10);
    gw_error err = {0};
    char path[128], want[300];
    /* a FIFO: refused untouched (writing would wait for a reader; renaming would replace it) */
    path_in(path, sizeof path, "fifo.md");
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(gw_write_output(path, "x", 1, &err), GW_ECANTCREAT);
    snprintf(want, sizeof want, "%s: is a named pipe (FIFO), not a regular file: left untouched "
             "(write to a file, or use -o - and redirect standard output)", path);
    assert_string_equal(err.msg, want);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(entries(), 1);   /* no temporary file left beside it */
    unlink(path);
    /* a socket */
    snprintf(path, sizeof path, "%.60s/sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%.100s", path);
    assert_int_equal(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
    assert_int_equal(gw_write_output(path, "x", 1, &err), GW_ECANTCREAT);
    assert_non_null(strstr(err.msg, "is a socket, not a regular file: left untouched"));
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    close(s);
    unlink(path);
    /* a device, also through a link: it stays the device it is.  The node is made here (as
     * /dev/null's twin), never the system's own: a regression must not replace /dev/null. */
    char node[128];
    path_in(node, sizeof node, "null-twin");
    if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        assert_int_equal(gw_write_output(node, "x", 1, &err), GW_ECANTCREAT);
        snprintf(want, sizeof want, "%s: is a device, not a regular file: left untouched (write "
                 "to a file, or use -o - and redirect standard output)", node);
        assert_string_equal(err.msg, want);
        path_in(path, sizeof path, "null-link");
        assert_int_equal(symlink(node, path), 0);
        assert_int_equal(gw_write_output(path, "x", 1, &err), GW_ECANTCREAT);
        assert_int_equal(lstat(node, &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        unlink(path);
        unlink(node);
    } else {
        print_message("skipped the device case: mknod needs root\n");
    }
    /* a folder without its '/' */
    assert_int_equal(gw_write_output(dir, "x", 1, &err), GW_ECANTCREAT);
    snprintf(want, sizeof want, "%s: is a folder (end it with '/' to write into it)", dir);
    assert_string_equal(err.msg, want);
    /* a folder that does not exist: 73 with the system's reason */
    path_in(path, sizeof path, "missing/out.md");
    assert_int_equal(gw_write_output(path, "x", 1, &err), GW_ECANTCREAT);
    assert_non_null(strstr(err.msg, "No such file or directory"));
    assert_int_equal(entries(), 0);
    alarm(0);
}

static void test_output_folder_names(void **state)
{
    (void)state;
    char *p = gw_output_path("out/", "justification.html");
    assert_string_equal(p, "out/justification.html");
    free(p);
    p = gw_output_path("out", "justification.html");
    assert_string_equal(p, "out");
    free(p);
    assert_true(gw_output_is_folder("/"));
    assert_true(gw_output_is_folder("a/b/"));
    assert_false(gw_output_is_folder("a/b"));
    assert_false(gw_output_is_folder(""));
    assert_false(gw_output_is_folder(NULL));
}

/* ---- numbers as people type them ---- */

static void test_parse_decimal(void **state)
{
    (void)state;
    double v = 0;
    static const struct { const char *text; double value; } good[] = {
        {"16", 16}, {"-12", -12}, {"+3", 3}, {"0.5", 0.5}, {".5", 0.5}, {"5.", 5},
        {"2.5e3", 2500}, {"1E-2", 0.01}, {"1e+2", 100}, {"1e308", 1e308},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_true(gw_parse_decimal(good[i].text, &v));
        assert_true(v == good[i].value);
    }
    static const char *const bad[] = {
        "", "-", ".", "0x10", "0X1p4", "inf", "-inf", "nan", "infinity", "1e309", "-1e999",
        " 5", "5 ", "5x", "1e", "1e+", "1.2.3", "1,5", "--1", "e5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (gw_parse_decimal(bad[i], &v))
            fail_msg("'%s' read as a decimal number", bad[i]);
}

static void test_parse_count(void **state)
{
    (void)state;
    unsigned long n = 0;
    assert_true(gw_parse_count("1", 10, &n));
    assert_int_equal(n, 1);
    assert_true(gw_parse_count("10", 10, &n));
    assert_int_equal(n, 10);
    assert_true(gw_parse_count("1048576", 1048576, &n));
    assert_int_equal(n, 1048576);
    static const char *const bad[] = {"", "0", "-2", "+2", "2.0", " 2", "2x", "11", "0x5",
                                      "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (gw_parse_count(bad[i], 10, &n))
            fail_msg("'%s' read as a count of at most 10", bad[i]);
    /* a maximum below 10 still works digit by digit (9 - 5 never wraps) */
    assert_false(gw_parse_count("5", 1, &n));
    assert_true(gw_parse_count("1", 1, &n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_endless_device),
        cmocka_unit_test(test_read_regular_file_limits),
        cmocka_unit_test(test_read_fifo),
        cmocka_unit_test(test_read_stops_on_signal),
        cmocka_unit_test(test_read_input_messages),
        cmocka_unit_test(test_limits_documented),
        cmocka_unit_test(test_env_parse_refuses_garbage),
        cmocka_unit_test(test_env_number_and_check),
        cmocka_unit_test(test_write_keeps_mode_and_owner),
        cmocka_unit_test(test_write_follows_links),
        cmocka_unit_test(test_write_refuses_special_files),
        cmocka_unit_test(test_output_folder_names),
        cmocka_unit_test(test_parse_decimal),
        cmocka_unit_test(test_parse_count),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
