/* fetch.c — HTTPS downloads with libcurl for `gpuwise prices fetch`: the URL rule (HTTPS, or
 * HTTP to loopback), the addresses a download may connect to (checked on each socket libcurl
 * opens), the time limit, the size cap, HTTP errors and truncated bodies as errors, and a
 * signal as an orderly stop.  Only this file knows libcurl, and only `prices fetch` calls
 * it, so no other command opens a socket.
 *
 * libcurl is opened on first use (dlopen), not linked, as xml.c opens libxml2: Debian's libcurl
 * brings OpenSSL, Kerberos, LDAP, libssh2, nghttp2 and more, 30 libraries whose loading and
 * constructors every start of the program would pay.  Measured with callgrind (Debian 12,
 * libcurl 7.88.1): `gpuwise --version` runs 16.6 M instructions linked against 1.7 M opened;
 * no other command needs the network.  Without libcurl installed, only `prices fetch` fails. */
#include "fetch.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#define CURL_DISABLE_TYPECHECK   /* its checking macros would rename the pointers below */
#include <curl/curl.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "base/signals.h"
#include "fetch_address.h"

#ifndef GW_VERSION
#define GW_VERSION "dev"
#endif
#ifndef GW_LIBCURL_SONAME
#define GW_LIBCURL_SONAME "libcurl.so.4"
#endif

/* The libcurl functions used here, each looked up once by name into cu.NAME, a pointer of the
 * declared function's own type. */
#define LIBCURL_FUNCTIONS(X)                                                                    \
    X(curl_global_init) X(curl_global_cleanup) X(curl_easy_init) X(curl_easy_setopt)           \
    X(curl_easy_perform) X(curl_easy_getinfo) X(curl_easy_cleanup) X(curl_easy_strerror)       \
    X(curl_url) X(curl_url_set) X(curl_url_get) X(curl_url_cleanup) X(curl_free)

static struct {
#define DECLARE(name) __typeof__(name) *name;
    LIBCURL_FUNCTIONS(DECLARE)
#undef DECLARE
} cu;

static int libcurl_open(gw_error *err)
{
    static int state;   /* 0: not tried, 1: open, -1: failed */
    static char why[200];
    if (state == 0) {
        void *h = dlopen(GW_LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
        const char *missing = NULL;
        if (h) {
#define RESOLVE(fn)                                                                             \
    if (!missing && !(*(void **)&cu.fn = dlsym(h, #fn)))                                        \
        missing = #fn;
            LIBCURL_FUNCTIONS(RESOLVE)
#undef RESOLVE
        }
        if (!h)
            snprintf(why, sizeof why, "%s", dlerror());
        else if (missing)
            snprintf(why, sizeof why, "%s has no %s", GW_LIBCURL_SONAME, missing);
        state = h && !missing ? 1 : -1;
    }
    if (state < 0)
        return gw_error_set(err, GW_EUNAVAILABLE, "cannot download: libcurl is not usable (%s); "
                            "install the libcurl4 package", why);
    return GW_OK;
}

/* 1 when host (as curl gives it: "[::1]" with brackets) is a loopback address. */
static int loopback_host(const char *host)
{
    unsigned char addr[16];
    char bare[64];
    if (!strcasecmp(host, "localhost"))
        return 1;
    if (inet_pton(AF_INET, host, addr) == 1)
        return addr[0] == 127;
    size_t n = strlen(host);
    if (n < 3 || n - 2 >= sizeof bare || host[0] != '[' || host[n - 1] != ']')
        return 0;
    memcpy(bare, host + 1, n - 2);
    bare[n - 2] = '\0';
    static const unsigned char one[16] = {[15] = 1};
    return inet_pton(AF_INET6, bare, addr) == 1 && !memcmp(addr, one, sizeof one);
}

/* The scheme fetch_get allows url: "https", "http" (loopback only), or NULL with err set.  A
 * redirect (from_http: 1 when the page redirecting was itself plain HTTP) may go to plain HTTP
 * only from plain HTTP: an HTTPS server cannot send gpuwise to a local service. */
static const char *allowed_scheme(const char *url, int redirect, int from_http, gw_error *err)
{
    if (libcurl_open(err) != GW_OK)
        return NULL;
    CURLU *u = cu.curl_url();
    char *scheme = NULL, *host = NULL;
    const char *ok = NULL;
    if (!u)
        return gw_error_set(err, GW_ESOFTWARE, "out of memory"), NULL;
    if (cu.curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        cu.curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        cu.curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
        gw_error_set(err, GW_EUSAGE, "%.300s: not a URL (https://HOST/PATH)", url);
    else if (!strcasecmp(scheme, "https"))
        ok = "https";
    else if (!strcasecmp(scheme, "http") && loopback_host(host) && (!redirect || from_http))
        ok = "http";
    else
        gw_error_set(err, GW_EUSAGE, redirect ? "%.300s: only HTTPS is followed (or plain HTTP "
                     "from a loopback address to a loopback address)" : "%.300s: only HTTPS is "
                     "fetched (or plain HTTP to a loopback address: 127.0.0.1, ::1, localhost)",
                     url);
    cu.curl_free(scheme);
    cu.curl_free(host);
    cu.curl_url_cleanup(u);
    return ok;
}

int fetch_url_allowed(const char *url, gw_error *err)
{
    return allowed_scheme(url, 0, 0, err) ? GW_OK : err->code;
}

/* A part of url as libcurl reads it (caller frees), or NULL: not a URL, or no such part. */
static char *url_part(const char *url, CURLUPart part)
{
    gw_error ignored;
    if (libcurl_open(&ignored) != GW_OK)
        return NULL;
    CURLU *u = cu.curl_url();
    char *got = NULL, *copy = NULL;
    if (u && cu.curl_url_set(u, CURLUPART_URL, url, CURLU_GUESS_SCHEME) == CURLUE_OK &&
        cu.curl_url_get(u, part, &got, 0) == CURLUE_OK)
        copy = gw_xstrdup(got);
    cu.curl_free(got);
    if (u)
        cu.curl_url_cleanup(u);
    return copy;
}

char *fetch_url_host(const char *url)
{
    char *host = url_part(url, CURLUPART_HOST), *port = url_part(url, CURLUPART_PORT);
    if (host && port) {
        gw_buf both = GW_BUF_INIT;
        buf_printf(&both, "%s:%s", host, port);
        free(host);
        host = buf_detach(&both);
    }
    free(port);
    return host;
}

/* The most addresses of one name looked at (a proxy's, or a host's through a proxy). */
#define FETCH_MAX_ADDRESSES 16

/* What one hop may connect to, and the first address refused to it. */
typedef struct reach_guard {
    int public_only;                  /* 0: any address */
    const char *refused_class;        /* fetch_address.h's phrase; NULL: nothing refused */
    char refused_addr[INET6_ADDRSTRLEN];
    struct sockaddr_storage proxy[FETCH_MAX_ADDRESSES];   /* the proxy's addresses, allowed */
    size_t n_proxy;
} reach_guard;

/* The addresses host (as libcurl gives it: "[::1]" with brackets) resolves to here, at most
 * FETCH_MAX_ADDRESSES, into out: their count (0 when it does not resolve). */
static size_t resolve_host(const char *host, struct sockaddr_storage *out)
{
    char bare[256];
    size_t n = strlen(host), got = 0;
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']')
        snprintf(bare, sizeof bare, "%.*s", (int)(n - 2), host + 1);
    else
        snprintf(bare, sizeof bare, "%s", host);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *list = NULL;
    if (getaddrinfo(bare, NULL, &hints, &list) != 0)
        return 0;
    for (struct addrinfo *a = list; a && got < FETCH_MAX_ADDRESSES; a = a->ai_next)
        if (a->ai_addrlen <= sizeof *out)
            memcpy(&out[got++], a->ai_addr, a->ai_addrlen);
    freeaddrinfo(list);
    return got;
}

/* 1 when sa is one of the proxy's addresses (the port aside: libcurl picks the proxy's). */
static int proxy_address(const reach_guard *g, const struct sockaddr *sa)
{
    for (size_t i = 0; i < g->n_proxy; i++) {
        const struct sockaddr *p = (const struct sockaddr *)&g->proxy[i];
        if (p->sa_family != sa->sa_family)
            continue;
        if (sa->sa_family == AF_INET &&
            ((const struct sockaddr_in *)(const void *)p)->sin_addr.s_addr ==
                ((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr)
            return 1;
        if (sa->sa_family == AF_INET6 &&
            !memcmp(&((const struct sockaddr_in6 *)(const void *)p)->sin6_addr,
                    &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
                    sizeof(struct in6_addr)))
            return 1;
    }
    return 0;
}

/* The text of an IPv4 or IPv6 socket address ("127.0.0.1", "::1"). */
static void address_text(const struct sockaddr *sa, char *out, size_t size)
{
    const void *bytes = sa->sa_family == AF_INET6
                            ? (const void *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr
                            : (const void *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr;
    if (!inet_ntop(sa->sa_family, bytes, out, (socklen_t)size))
        snprintf(out, size, "an address of family %d", sa->sa_family);
}

/* libcurl asks here for the socket of each connection it opens: each address of a name in
 * turn, after every lookup.  A refused address gets no socket, so libcurl tries the next one or
 * gives up (CURLE_COULDNT_CONNECT) before anything is sent. */
static curl_socket_t on_open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
    reach_guard *g = arg;
    (void)purpose;
    const char *refused = g->public_only ? fetch_sockaddr_class(&a->addr, a->addrlen) : NULL;
    if (refused && !proxy_address(g, &a->addr)) {
        if (!g->refused_class) {
            g->refused_class = refused;
            address_text(&a->addr, g->refused_addr, sizeof g->refused_addr);
        }
        return CURL_SOCKET_BAD;
    }
    return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

/* 1 when the hop to hop_url may connect only to public addresses. */
static int hop_public_only(fetch_reach reach, const char *url, const char *hop_url)
{
    if (reach != FETCH_REACH_NAMED_HOST)
        return reach == FETCH_REACH_PUBLIC;
    char *named = url_part(url, CURLUPART_HOST), *hop = url_part(hop_url, CURLUPART_HOST);
    int other = !named || !hop || strcasecmp(named, hop) != 0;
    free(named);
    free(hop);
    return other;
}

/* The error for a hop (to hop_url, the hops-th redirect of url) that every address was refused. */
static int refused_error(const char *url, const char *hop_url, int hops, const reach_guard *g,
                         gw_error *err)
{
    char *host = url_part(hop_url, CURLUPART_HOST);
    const char *name = host ? host : "the host";
    size_t n = strlen(name);
    int literal = n >= 2 && name[0] == '[' ? n - 2 == strlen(g->refused_addr) &&
                                                 !strncasecmp(name + 1, g->refused_addr, n - 2)
                                           : !strcasecmp(name, g->refused_addr);
    gw_buf where = GW_BUF_INIT;
    if (hops > 0)
        buf_printf(&where, "redirected to %.300s: ", hop_url);
    if (literal)
        buf_printf(&where, "refused: %s is %s", name, g->refused_class);
    else
        buf_printf(&where, "refused: %.200s is at %s, %s", name, g->refused_addr,
                   g->refused_class);
    gw_error_set(err, GW_EUNAVAILABLE, "%.300s: %s; a plugin's source%s reaches public addresses "
                 "only (name it with --url, or set %s=1)", url, where.data,
                 hops > 0 ? ", or a redirect to another host," : "",
                 gw_env_vars[GW_ENV_FETCH_ALLOW_PRIVATE].name);
    buf_free(&where);
    free(host);
    return err->code;
}

/* The body as it arrives, stopped past the cap. */
typedef struct body_sink {
    gw_buf data;
    size_t max;
    int too_big;
} body_sink;

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
    body_sink *s = arg;
    size_t n = size * nmemb;
    if (n > s->max - s->data.len) {
        s->too_big = 1;
        return 0;   /* curl stops with CURLE_WRITE_ERROR */
    }
    buf_append(&s->data, ptr, n);
    return n;
}

/* A signal stops the transfer (CURLE_ABORTED_BY_CALLBACK). */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    (void)arg, (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    return gw_signal_pending() != 0;
}

/* What went wrong, in a person's words, as an error naming the URL. */
static int transfer_error(const char *url, CURLcode rc, const body_sink *sink,
                          const fetch_limits *lim, const char *detail, gw_error *err)
{
    double mib = (double)lim->max_bytes / (1024.0 * 1024.0);
    switch (rc) {
    case CURLE_ABORTED_BY_CALLBACK:
        return gw_error_set(err, gw_signal_exit_code() ? gw_signal_exit_code() : GW_EINTR_INT,
                            "%.300s: stopped by %s", url, gw_signal_name());
    case CURLE_OPERATION_TIMEDOUT:
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: no complete response within %g s "
                            "(--timeout)", url, lim->timeout_s);
    case CURLE_FILESIZE_EXCEEDED:
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: larger than the %g MiB cap "
                            "(--max-size)", url, mib);
    case CURLE_WRITE_ERROR:
        if (sink->too_big)
            return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: larger than the %g MiB cap "
                                "(--max-size)", url, mib);
        break;
    case CURLE_PARTIAL_FILE:
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: truncated: the connection closed "
                            "after %zu bytes, before the end the server announced", url,
                            sink->data.len);
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_WEIRD_SERVER_REPLY:
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: not an HTTP response (%s)", url,
                            detail && *detail ? detail : cu.curl_easy_strerror(rc));
    case CURLE_OUT_OF_MEMORY:
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: the response's headers are larger than "
                            "libcurl accepts (or memory ran out)", url);
    default:
        break;
    }
    return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: %s", url,
                        detail && *detail ? detail : cu.curl_easy_strerror(rc));
}

/* Redirects are followed here, one hop at a time, so that each target meets the URL rule
 * (libcurl's own following knows schemes, not loopback hosts). */
#define FETCH_MAX_REDIRECTS 5

/* A libcurl handle set up for fetch_get: no following of its own, the size cap, the
 * decodings libcurl knows, the body into sink, a signal as a stop, each socket through guard,
 * messages into detail (sink, guard and detail must outlive the handle).  NULL with err set when libcurl cannot start; otherwise the caller
 * ends it with transfer_close. */
static CURL *transfer_open(const char *url, const fetch_limits *lim, body_sink *sink,
                           reach_guard *guard, char *detail, gw_error *err)
{
    if (cu.curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return gw_error_set(err, GW_ESOFTWARE, "%.300s: libcurl could not start", url), NULL;
    CURL *h = cu.curl_easy_init();
    if (!h) {
        cu.curl_global_cleanup();
        return gw_error_set(err, GW_ESOFTWARE, "%.300s: libcurl could not start", url), NULL;
    }
    cu.curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    cu.curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)lim->max_bytes);
    cu.curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");   /* what libcurl can decode */
    cu.curl_easy_setopt(h, CURLOPT_USERAGENT, "gpuwise/" GW_VERSION);
    cu.curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    cu.curl_easy_setopt(h, CURLOPT_ERRORBUFFER, detail);
    cu.curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    cu.curl_easy_setopt(h, CURLOPT_WRITEDATA, sink);
    cu.curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    cu.curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    cu.curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
    cu.curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, guard);
    return h;
}

static void transfer_close(CURL *h)
{
    cu.curl_easy_cleanup(h);
    cu.curl_global_cleanup();
}

/* A 3xx answer to the hop at *where (the hops-th redirect so far): GW_OK with *where (caller
 * frees) and *scheme moved to the next hop when it may be followed, else an error naming url
 * (no Location, too many redirects, a target the URL rule refuses). */
static int next_hop(CURL *h, const char *url, long status, int hops, char **where,
                    const char **scheme, gw_error *err)
{
    char *next = NULL;
    gw_error why = {0};
    const char *next_scheme;
    cu.curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &next);
    if (!next)
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: HTTP %ld from the server, without a "
                            "Location to follow", url, status);
    if (hops == FETCH_MAX_REDIRECTS)
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: more than %d redirects (the last to "
                            "%.300s): not followed", url, FETCH_MAX_REDIRECTS, next);
    if (!(next_scheme = allowed_scheme(next, 1, !strcmp(*scheme, "http"), &why)))
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: redirected to %s: not followed", url,
                            why.msg);
    free(*where);
    *where = gw_xstrdup(next);
    *scheme = next_scheme;
    return GW_OK;
}

/* The final answer's status and body: GW_OK for a 2xx with a body, else an error naming url. */
static int final_answer(const char *url, long status, const body_sink *sink, gw_error *err)
{
    if (status < 200 || status >= 300)
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: HTTP %ld from the server", url,
                            status);
    if (sink->data.len == 0)
        return gw_error_set(err, GW_EUNAVAILABLE, "%.300s: an empty response (HTTP %ld): nothing "
                            "to read", url, status);
    return GW_OK;
}

/* The proxy libcurl would take from the environment for a URL of scheme, looked up as libcurl
 * does (http_proxy in lowercase only, libcurl's guard against a CGI's HTTP_PROXY header;
 * https_proxy or HTTPS_PROXY; then all_proxy or ALL_PROXY), or NULL.  prepare_hop hands it to
 * libcurl itself, so the proxy allowed is the proxy used. */
static const char *env_proxy(const char *scheme)
{
    int https = !strcmp(scheme, "https");
    const char *names[] = {https ? "https_proxy" : "http_proxy", https ? "HTTPS_PROXY" : NULL,
                           "all_proxy", "ALL_PROXY"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = names[i] ? getenv(names[i]) : NULL;
        if (v && *v)
            return v;
    }
    return NULL;
}

/* Sets up the hop to where (the hops-th redirect of url): its URL, scheme, time left, proxy and
 * guard.  Through a proxy, the proxy (the user's choice) may be at any address, and the proxy
 * resolves and connects to the host: so a public-only hop checks the host's addresses here,
 * before the request (a name this machine cannot resolve is left to the proxy).  GW_OK, or
 * the refusal as an error. */
static int prepare_hop(CURL *h, const char *url, const char *where, int hops, const char *scheme,
                       const fetch_limits *lim, double deadline, reach_guard *guard,
                       gw_error *err)
{
    long left_ms = (long)((deadline - gw_now_seconds()) * 1000.0);
    const char *proxy = env_proxy(scheme);
    *guard = (reach_guard){.public_only = hop_public_only(lim->reach, url, where)};
    cu.curl_easy_setopt(h, CURLOPT_URL, where);
    cu.curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, scheme);
    cu.curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, left_ms > 0 ? left_ms : 1L);
    cu.curl_easy_setopt(h, CURLOPT_PROXY, proxy ? proxy : "");   /* "": none */
    if (!guard->public_only || !proxy)
        return GW_OK;
    char *proxy_host = url_part(proxy, CURLUPART_HOST), *host = url_part(where, CURLUPART_HOST);
    struct sockaddr_storage addrs[FETCH_MAX_ADDRESSES];
    size_t n = host ? resolve_host(host, addrs) : 0;
    guard->n_proxy = proxy_host ? resolve_host(proxy_host, guard->proxy) : 0;
    for (size_t i = 0; i < n && !guard->refused_class; i++) {
        const struct sockaddr *sa = (const struct sockaddr *)&addrs[i];
        if ((guard->refused_class = fetch_sockaddr_class(sa, sizeof addrs[i])) != NULL)
            address_text(sa, guard->refused_addr, sizeof guard->refused_addr);
    }
    free(proxy_host);
    free(host);
    return guard->refused_class ? refused_error(url, where, hops, guard, err) : GW_OK;
}

int fetch_get(const char *url, const fetch_limits *lim, char **body, size_t *len, gw_error *err)
{
    *body = NULL;
    *len = 0;
    const char *scheme = allowed_scheme(url, 0, 0, err);
    if (!scheme)
        return err->code;
    body_sink sink = {GW_BUF_INIT, lim->max_bytes, 0};
    reach_guard guard = {0};
    char detail[CURL_ERROR_SIZE] = "";
    CURL *h = transfer_open(url, lim, &sink, &guard, detail, err);
    if (!h)
        return err->code;
    double deadline = gw_now_seconds() + lim->timeout_s;
    char *where = gw_xstrdup(url);   /* the URL of this hop */
    int result = GW_OK;
    for (int hops = 0;; hops++) {
        long status = 0;
        buf_reset(&sink.data);
        detail[0] = '\0';
        if ((result = prepare_hop(h, url, where, hops, scheme, lim, deadline, &guard, err)) != GW_OK)
            break;
        CURLcode rc = cu.curl_easy_perform(h);
        cu.curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        int redirect = rc == CURLE_OK && status >= 300 && status < 400;
        if (rc == CURLE_COULDNT_CONNECT && guard.refused_class)
            result = refused_error(url, where, hops, &guard, err);
        else if (rc != CURLE_OK)
            result = transfer_error(url, rc, &sink, lim, detail, err);
        else if (redirect)
            result = next_hop(h, url, status, hops, &where, &scheme, err);
        else
            result = final_answer(url, status, &sink, err);
        if (!redirect || result != GW_OK)
            break;   /* the final answer, or a failure */
    }
    free(where);
    transfer_close(h);
    if (result != GW_OK) {
        buf_free(&sink.data);
        return result;
    }
    *len = sink.data.len;
    *body = buf_detach(&sink.data);
    return GW_OK;
}
