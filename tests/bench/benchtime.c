/* benchtime.c — runs a command N times and prints the median wall time and the largest peak
 * memory (max RSS) of its runs: "median_ms max_rss_kb".  Used by tests/bench/run.sh so that
 * every figure comes from the same measurement for gpuwise and for the reference tool.
 * usage: benchtime RUNS COMMAND [ARGS...]   (the command's stdout and stderr go to /dev/null) */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: benchtime RUNS COMMAND [ARGS...]\n");
        return 64;
    }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "benchtime: RUNS must be 1..1000\n");
        return 64;
    }
    double *ms = calloc((size_t)runs, sizeof *ms);
    long max_rss = 0;
    if (!ms)
        return 71;
    for (int i = 0; i < runs; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = fork();
        if (pid < 0) {
            perror("benchtime: fork");
            return 71;
        }
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, STDOUT_FILENO);
                if (!getenv("BENCH_SHOW_STDERR"))
                    dup2(null, STDERR_FILENO);
            }
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0) {
            perror("benchtime: wait4");
            return 71;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "benchtime: %s failed (status %d)\n", argv[2], status);
            return 1;
        }
        ms[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        if (ru.ru_maxrss > max_rss)
            max_rss = ru.ru_maxrss;
    }
    qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
    double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    printf("%.3f %ld\n", median, max_rss);
    free(ms);
    return 0;
}
