/* fetch_address.h — which IP addresses a download a plugin asked for may not reach: loopback,
 * private, link-local, cloud metadata, shared (carrier-grade NAT), unspecified, multicast,
 * broadcast and reserved ones, IPv4 inside IPv6 (mapped, compatible, NAT64, 6to4) judged as the
 * IPv4 address it carries.  Pure functions of the address: fetch.c applies them to the address
 * each connection is about to be opened to. */
#ifndef GW_FETCH_ADDRESS_H
#define GW_FETCH_ADDRESS_H

#include <stddef.h>
#include <stdint.h>

/* The class of the IPv4 address in host byte order (0x7f000001 is 127.0.0.1) when it is not
 * public, as a phrase with its range ("a loopback address (127.0.0.0/8)"), or NULL for a
 * public one.  The string is static. */
const char *fetch_ipv4_class(uint32_t addr);

/* The same for the 16 bytes of an IPv6 address in network order. */
const char *fetch_ipv6_class(const unsigned char addr[16]);

/* The same for a socket address (struct sockaddr_in or sockaddr_in6 of len bytes); any other
 * family is "not an IP address". */
const char *fetch_sockaddr_class(const void *sockaddr, size_t len);

#endif
