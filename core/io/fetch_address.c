/* fetch_address.c — the address classes a plugin's download may not connect to (fetch_address.h):
 * one table of IPv4 ranges, one of IPv6 ranges, and the IPv6 forms that carry an IPv4 address. */
#include "fetch_address.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

typedef struct ipv4_range {
    uint32_t net;        /* host byte order */
    int bits;            /* prefix length */
    const char *what;
} ipv4_range;

/* First match wins: a single address before the range that holds it.  The metadata services
 * answer any process on the machine with its cloud credentials: AWS, GCP, Azure and OpenStack
 * at 169.254.169.254, AWS ECS tasks at 169.254.170.2, Alibaba at 100.100.100.200, Azure's
 * WireServer at 168.63.129.16 (a public address reached only from inside Azure). */
static const ipv4_range ipv4_ranges[] = {
    {0xa9fea9feu, 32, "a cloud metadata address (169.254.169.254)"},
    {0xa9feaa02u, 32, "a cloud metadata address (169.254.170.2)"},
    {0x646464c8u, 32, "a cloud metadata address (100.100.100.200)"},
    {0xa83f8110u, 32, "a cloud metadata address (168.63.129.16)"},
    {0x00000000u, 8, "an unspecified address (0.0.0.0/8)"},
    {0x0a000000u, 8, "a private address (10.0.0.0/8)"},
    {0x64400000u, 10, "a shared carrier-grade NAT address (100.64.0.0/10)"},
    {0x7f000000u, 8, "a loopback address (127.0.0.0/8)"},
    {0xa9fe0000u, 16, "a link-local address (169.254.0.0/16)"},
    {0xac100000u, 12, "a private address (172.16.0.0/12)"},
    {0xc0000000u, 24, "a reserved address (192.0.0.0/24)"},
    {0xc0a80000u, 16, "a private address (192.168.0.0/16)"},
    {0xc6120000u, 15, "a reserved address (198.18.0.0/15)"},
    {0xe0000000u, 4, "a multicast address (224.0.0.0/4)"},
    {0xffffffffu, 32, "the broadcast address (255.255.255.255)"},
    {0xf0000000u, 4, "a reserved address (240.0.0.0/4)"},
};

const char *fetch_ipv4_class(uint32_t addr)
{
    for (size_t i = 0; i < sizeof ipv4_ranges / sizeof *ipv4_ranges; i++) {
        const ipv4_range *r = &ipv4_ranges[i];
        uint32_t mask = r->bits == 0 ? 0 : 0xffffffffu << (32 - r->bits);
        if ((addr & mask) == r->net)
            return r->what;
    }
    return NULL;
}

typedef struct ipv6_range {
    unsigned char net[16];
    int bits;
    const char *what;   /* NULL: the range carries an IPv4 address, judged as that one */
    int ipv4_at;        /* where that IPv4 address starts (a byte offset) */
} ipv6_range;

/* First match wins, as for IPv4.  ::ffff:127.0.0.1 reaches 127.0.0.1 through any dual-stack
 * socket, ::127.0.0.1 (IPv4-compatible) where the system still maps it, 64:ff9b::7f00:1
 * through a NAT64 gateway, 2002:7f00:1:: through a 6to4 relay. */
static const ipv6_range ipv6_ranges[] = {
    {{0}, 128, "the unspecified address (::)", 0},
    {{[15] = 1}, 128, "a loopback address (::1)", 0},
    {{0xfd, 0x00, 0x0e, 0xc2, [15] = 0x54, [14] = 0x02}, 128,
     "a cloud metadata address (fd00:ec2::254)", 0},
    {{[10] = 0xff, [11] = 0xff}, 96, NULL, 12},
    {{0}, 96, NULL, 12},
    {{0x00, 0x64, 0xff, 0x9b}, 96, NULL, 12},
    {{0x20, 0x02}, 16, NULL, 2},
    {{0x01, 0x00}, 64, "a reserved address (100::/64)", 0},
    {{0xfc}, 7, "a private address (fc00::/7)", 0},
    {{0xfe, 0x80}, 10, "a link-local address (fe80::/10)", 0},
    {{0xfe, 0xc0}, 10, "a site-local address (fec0::/10)", 0},
    {{0xff}, 8, "a multicast address (ff00::/8)", 0},
};

/* 1 when the first bits of a and b are the same. */
static int same_prefix(const unsigned char *a, const unsigned char *b, int bits)
{
    int whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)whole) != 0)
        return 0;
    if (rest == 0)
        return 1;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

const char *fetch_ipv6_class(const unsigned char addr[16])
{
    for (size_t i = 0; i < sizeof ipv6_ranges / sizeof *ipv6_ranges; i++) {
        const ipv6_range *r = &ipv6_ranges[i];
        if (!same_prefix(addr, r->net, r->bits))
            continue;
        if (r->what)
            return r->what;
        const unsigned char *v4 = addr + r->ipv4_at;
        return fetch_ipv4_class((uint32_t)v4[0] << 24 | (uint32_t)v4[1] << 16 |
                                (uint32_t)v4[2] << 8 | v4[3]);
    }
    return NULL;
}

const char *fetch_sockaddr_class(const void *sockaddr, size_t len)
{
    const struct sockaddr *sa = sockaddr;
    if (len >= sizeof(struct sockaddr_in) && sa->sa_family == AF_INET)
        return fetch_ipv4_class(ntohl(((const struct sockaddr_in *)sockaddr)->sin_addr.s_addr));
    if (len >= sizeof(struct sockaddr_in6) && sa->sa_family == AF_INET6)
        return fetch_ipv6_class(((const struct sockaddr_in6 *)sockaddr)->sin6_addr.s6_addr);
    return "not an IP address";
}
