/* test_fetch_address.c — the address classes a plugin's download may not connect to
 * (io/fetch_address.c): each class at its edges, the public addresses just outside them, and
 * IPv4 carried inside IPv6 judged as the IPv4 address. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cmocka.h>

#include "io/fetch_address.h"

/* The class of an address written as text (IPv4 or IPv6), "public" for none. */
static const char *class_of(const char *text)
{
    struct in_addr v4;
    unsigned char v6[16];
    const char *what = NULL;
    if (inet_pton(AF_INET, text, &v4) == 1)
        what = fetch_ipv4_class(ntohl(v4.s_addr));
    else if (inet_pton(AF_INET6, text, v6) == 1)
        what = fetch_ipv6_class(v6);
    else
        fail_msg("not an address: %s", text);
    return what ? what : "public";
}

static void test_ipv4_classes(void **state)
{
    (void)state;
    assert_string_equal(class_of("127.0.0.1"), "a loopback address (127.0.0.0/8)");
    assert_string_equal(class_of("127.255.255.254"), "a loopback address (127.0.0.0/8)");
    assert_string_equal(class_of("0.0.0.0"), "an unspecified address (0.0.0.0/8)");
    assert_string_equal(class_of("10.0.0.1"), "a private address (10.0.0.0/8)");
    assert_string_equal(class_of("10.255.255.255"), "a private address (10.0.0.0/8)");
    /* 172.16/12 is 172.16.0.0 to 172.31.255.255 */
    assert_string_equal(class_of("172.16.0.0"), "a private address (172.16.0.0/12)");
    assert_string_equal(class_of("172.31.255.255"), "a private address (172.16.0.0/12)");
    assert_string_equal(class_of("172.15.255.255"), "public");
    assert_string_equal(class_of("172.32.0.0"), "public");
    assert_string_equal(class_of("192.168.1.1"), "a private address (192.168.0.0/16)");
    assert_string_equal(class_of("192.169.0.1"), "public");
    assert_string_equal(class_of("169.254.169.254"), "a cloud metadata address (169.254.169.254)");
    assert_string_equal(class_of("169.254.170.2"), "a cloud metadata address (169.254.170.2)");
    assert_string_equal(class_of("169.254.0.1"), "a link-local address (169.254.0.0/16)");
    /* 100.64/10 is 100.64.0.0 to 100.127.255.255 */
    assert_string_equal(class_of("100.64.0.0"),
                        "a shared carrier-grade NAT address (100.64.0.0/10)");
    assert_string_equal(class_of("100.127.255.255"),
                        "a shared carrier-grade NAT address (100.64.0.0/10)");
    assert_string_equal(class_of("100.63.255.255"), "public");
    assert_string_equal(class_of("100.128.0.0"), "public");
    assert_string_equal(class_of("100.100.100.200"), "a cloud metadata address (100.100.100.200)");
    assert_string_equal(class_of("168.63.129.16"), "a cloud metadata address (168.63.129.16)");
    assert_string_equal(class_of("224.0.0.1"), "a multicast address (224.0.0.0/4)");
    assert_string_equal(class_of("239.255.255.250"), "a multicast address (224.0.0.0/4)");
    assert_string_equal(class_of("255.255.255.255"), "the broadcast address (255.255.255.255)");
    assert_string_equal(class_of("240.0.0.1"), "a reserved address (240.0.0.0/4)");
    assert_string_equal(class_of("8.8.8.8"), "public");
    assert_string_equal(class_of("1.1.1.1"), "public");
    assert_string_equal(class_of("185.199.108.133"), "public");
}

static void test_ipv6_classes(void **state)
{
    (void)state;
    assert_string_equal(class_of("::1"), "a loopback address (::1)");
    assert_string_equal(class_of("::"), "the unspecified address (::)");
    assert_string_equal(class_of("fd00:ec2::254"), "a cloud metadata address (fd00:ec2::254)");
    assert_string_equal(class_of("fd00:ec2::253"), "a private address (fc00::/7)");
    assert_string_equal(class_of("fc00::1"), "a private address (fc00::/7)");
    assert_string_equal(class_of("fdff:ffff::1"), "a private address (fc00::/7)");
    assert_string_equal(class_of("fe80::1"), "a link-local address (fe80::/10)");
    assert_string_equal(class_of("febf::1"), "a link-local address (fe80::/10)");
    assert_string_equal(class_of("fec0::1"), "a site-local address (fec0::/10)");
    assert_string_equal(class_of("ff02::1"), "a multicast address (ff00::/8)");
    assert_string_equal(class_of("2606:4700:4700::1111"), "public");
    assert_string_equal(class_of("2001:4860:4860::8888"), "public");
    /* fbff:: is just below fc00::/7 */
    assert_string_equal(class_of("fbff::1"), "public");
}

static void test_ipv4_inside_ipv6(void **state)
{
    (void)state;
    assert_string_equal(class_of("::ffff:127.0.0.1"), "a loopback address (127.0.0.0/8)");
    assert_string_equal(class_of("::ffff:169.254.169.254"),
                        "a cloud metadata address (169.254.169.254)");
    assert_string_equal(class_of("::ffff:8.8.8.8"), "public");
    assert_string_equal(class_of("::127.0.0.1"), "a loopback address (127.0.0.0/8)");
    /* 64:ff9b::a00:1 is NAT64 for 10.0.0.1 (0x0a000001) */
    assert_string_equal(class_of("64:ff9b::a00:1"), "a private address (10.0.0.0/8)");
    assert_string_equal(class_of("64:ff9b::808:808"), "public");
    /* 2002:7f00:1:: is 6to4 for 127.0.0.1 (bytes 2 to 5: 7f 00 00 01) */
    assert_string_equal(class_of("2002:7f00:1::"), "a loopback address (127.0.0.0/8)");
    assert_string_equal(class_of("2002:c0a8:101::1"), "a private address (192.168.0.0/16)");
}

static void test_socket_addresses(void **state)
{
    (void)state;
    struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001)};
    assert_string_equal(fetch_sockaddr_class(&v4, sizeof v4), "a loopback address (127.0.0.0/8)");
    v4.sin_addr.s_addr = htonl(0x08080808);   /* 8.8.8.8 */
    assert_null(fetch_sockaddr_class(&v4, sizeof v4));
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    v6.sin6_addr.s6_addr[15] = 1;   /* ::1 */
    assert_string_equal(fetch_sockaddr_class(&v6, sizeof v6), "a loopback address (::1)");
    struct sockaddr_un local = {.sun_family = AF_UNIX};
    assert_string_equal(fetch_sockaddr_class(&local, sizeof local), "not an IP address");
    /* an IPv6 family with the length of an IPv4 address is not read past its end */
    assert_string_equal(fetch_sockaddr_class(&v6, sizeof v4), "not an IP address");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ipv4_classes),
        cmocka_unit_test(test_ipv6_classes),
        cmocka_unit_test(test_ipv4_inside_ipv6),
        cmocka_unit_test(test_socket_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
