/* fetch.h — downloads for `gpuwise prices fetch`, the only place gpuwise opens a socket (libcurl,
 * which nothing else links against).  A URL is fetched only over HTTPS, except plain HTTP to a
 * loopback address (127.0.0.0/8, ::1, localhost: a local mirror, the tests); up to 5 redirects
 * are followed, each to HTTPS or, from plain HTTP on a loopback address, to another one; the
 * whole transfer, redirects included, has a time limit and the body a size cap; an HTTP status
 * other than 2xx (a 3xx without a Location too), an empty body, a body shorter than its
 * Content-Length and a signal are failures.  Where a download may connect is the caller's
 * fetch_reach: the address of every connection, redirects included, is checked as the socket
 * is about to be opened, so a name that resolves to a refused address (at once, or on a later
 * lookup: DNS rebinding) is refused before a byte is sent.  Nothing here prints or writes
 * files: the caller keeps the body. */
#ifndef GW_FETCH_H
#define GW_FETCH_H

#include <stddef.h>

#include "base/error.h"

/* The size cap's default is GPUWISE_FETCH_MAX_MB's (base/limits.h). */
#define FETCH_TIMEOUT_DEFAULT 30   /* seconds, the whole transfer */

/* The addresses a download may connect to.  "Public" leaves out every class of
 * fetch_address.h (loopback, private, link-local, cloud metadata, ...). */
typedef enum fetch_reach {
    FETCH_REACH_PUBLIC,       /* public addresses only, every hop (a plugin's own URL) */
    FETCH_REACH_NAMED_HOST,   /* the URL's own host at any address (the user named it: --url);
                                 a redirect to another host public only */
    FETCH_REACH_ANY           /* any address (GPUWISE_FETCH_ALLOW_PRIVATE=1) */
} fetch_reach;

typedef struct fetch_limits {
    double timeout_s;     /* the whole transfer, connecting included; > 0 */
    size_t max_bytes;     /* the body (after decompression); > 0 */
    fetch_reach reach;
} fetch_limits;

/* GW_OK when url may be fetched (https://, or http:// to a loopback host), else GW_EUSAGE with
 * the reason ("http://example.com/x: only HTTPS, or HTTP to a loopback address"). */
int fetch_url_allowed(const char *url, gw_error *err);

/* The host of url as libcurl reads it, with its port when the URL gives one ("example.com",
 * "127.0.0.1:8080", "[::1]:8080"; an IPv4 address in any spelling written the usual way:
 * 2130706433 is 127.0.0.1); caller frees.  NULL when url is not a URL or libcurl is missing. */
char *fetch_url_host(const char *url);

/* GETs url into *body (NUL-terminated, caller frees) and *len.  Errors, each naming the URL:
 * GW_EUSAGE a refused URL; GW_EUNAVAILABLE the host cannot be reached, an address limits->reach
 * refuses ("refused: localhost is at 127.0.0.1, a loopback address (127.0.0.0/8) ..."), a
 * timeout, an HTTP error status, a truncated or oversized body; GW_EINTR_INT/GW_EINTR_TERM a
 * signal stopped it. */
int fetch_get(const char *url, const fetch_limits *limits, char **body, size_t *len,
              gw_error *err);

#endif
