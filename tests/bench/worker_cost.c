/* worker_cost.c — what the plugin process boundary costs, apart from the plugins' own work:
 * starting a worker (fork, the limits, the seccomp filter) and ending it, and one request's
 * round trip with a small and with a rule-sized message (61 options of 40 fields, what every
 * rule of `report examples/vision-team.lua` is shown at once).  Prints the median of each in
 * microseconds.  Built and run by tests/bench/run.sh against build/libgw.a. */
#include <stdio.h>
#include <stdlib.h>

#include "base/check.h"
#include "base/clock.h"
#include "sandbox/worker.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Answers each request with an empty map until the channel closes. */
static int echo_main(int fd, void *ud)
{
    (void)ud;
    view *req;
    while ((req = worker_read(fd))) {
        view *r = view_map();
        worker_write(fd, r);
        view_free(r);
        view_free(req);
    }
    return 0;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

static view *options(int n)
{
    view *l = view_list();
    for (int i = 0; i < n; i++) {
        view *o = view_list_push(l, view_map());
        for (int f = 0; f < 40; f++) {
            char key[32];
            snprintf(key, sizeof key, "field_%d", f);
            if (f % 2)
                view_map_set_num(o, key, f * 1.5);
            else
                view_map_set_str(o, key, "buy-used:4x rtx-3090");
        }
    }
    return l;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 200;
    if (runs < 1 || runs > 100000)
        runs = 200;
    double *t = malloc((size_t)runs * sizeof *t);
    worker_limits l = {64u * 1024 * 1024, 21};
    gw_error err;
    for (int i = 0; i < runs; i++) {
        double s = gw_now_seconds();
        worker *w;
        if (worker_start(&l, NULL, echo_main, NULL, &w, &err) != GW_OK) {
            fprintf(stderr, "worker_cost: %s\n", err.msg);
            return 1;
        }
        view *req = view_map(), *reply = NULL;
        int timed_out;
        worker_request(w, req, gw_now_seconds() + 10, NULL, NULL, &reply, &timed_out, &err);
        view_free(req);
        view_free(reply);
        worker_free(w);
        t[i] = (gw_now_seconds() - s) * 1e6;
    }
    printf("  %-44s %10.0f us\n", "start, one request, end a worker", median(t, runs));
    worker *w;
    worker_start(&l, NULL, echo_main, NULL, &w, &err);
    view *small = view_map(), *big = options(61);
    const view *msgs[2] = {small, big};
    const char *labels[2] = {"a request's round trip (empty)",
                             "a request's round trip (61 options)"};
    for (int m = 0; m < 2; m++) {
        for (int i = 0; i < runs; i++) {
            double s = gw_now_seconds();
            view *reply = NULL;
            int timed_out;
            worker_request(w, msgs[m], gw_now_seconds() + 10, NULL, NULL, &reply, &timed_out, &err);
            view_free(reply);
            t[i] = (gw_now_seconds() - s) * 1e6;
        }
        printf("  %-44s %10.0f us\n", labels[m], median(t, runs));
    }
    worker_free(w);
    view_free(small);
    view_free(big);
    free(t);
    return 0;
}
