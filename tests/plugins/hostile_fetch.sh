#!/bin/sh
# tests/plugins/hostile_fetch.sh — a plugin's URLs that point at local services: loopback in
# every spelling (a name, decimal, hex, octal, IPv6, IPv4 inside IPv6), the unspecified
# address, private, link-local, shared and cloud-metadata addresses, a redirect there from a
# server the user named, and a proxy asked to go there.  Each is refused before a byte is sent,
# on one line naming the plugin, the host and the address's class, exit 69, the KB as it was;
# the user's --url and GPUWISE_FETCH_ALLOW_PRIVATE=1 still reach loopback; `prices fetch` with no
# names says first where it will connect.
. "$ROOT/tests/cli/lib.sh"
export XDG_CACHE_HOME="$T/xdg-cache"
# a proxy of the environment would stand between gpuwise and every address below
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY \
    GPUWISE_FETCH_ALLOW_PRIVATE

if ! command -v python3 >/dev/null 2>&1; then
    skip "hostile fetch" "python3 not found (the test's HTTP server)"
    exit 0
fi

# a local service: its "price list" is what a plugin must not carry into the KB
WWW="$T/www"
mkdir -p "$WWW"
printf 'gpu,count,price\nL4,1,0.71\n' >"$WWW/good.csv"
REQUESTS="$T/requests"
: >"$REQUESTS"
python3 "$ROOT/tests/plugins/fetch_server.py" "$WWW" "$T/port" 120 "$REQUESTS" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
if ! wait_until 10 test -s "$T/port"; then
    fail "hostile fetch: server started" "no port after 10 s"
    exit 0
fi
PORT=$(cat "$T/port")

# source_plugin NAME URL: a pricing plugin in $T/p-NAME whose one source, "a", is URL
source_plugin() {
    mkdir -p "$T/p-$1/pricing"
    cat >"$T/p-$1/pricing/$1.lua" <<EOF
return {
  name = "$1", kind = "pricing", version = "1", description = "reads a local service",
  needs_input = true,
  urls = { a = "$2" },
  offers = function(ctx)
    local offers = {}
    for _, row in ipairs(gw.csv.rows(ctx.input)) do
      offers[#offers + 1] = { provider = "Local Service", gpu = row.gpu, gpu_count = 1,
                              price_per_hour = tonumber(row.price), currency = "USD" }
    end
    return offers
  end,
}
EOF
}

KB=$(fresh_kb hostile-fetch)
"$GW" --kb "$KB" kb export >"$T/before.txt"

# refused NAME URL HOST CLASS: a plugin whose source is URL fetches nothing: exit 69, one line
# naming the plugin, HOST and CLASS, no request at the server, the KB exported as before.
refused() {
    source_plugin "$1" "$2"
    : >"$REQUESTS"
    run timeout 30 "$GW" --kb "$KB" --plugins "$T/p-$1" prices fetch "$1" --timeout 5
    check_rc "$1: exit 69" 69
    check_err "$1: one line naming the plugin, the host and the class" \
        "gpuwise prices fetch: $1 a: $2: refused: $3 $4"
    check_eq "$1: the service got no request" "$(cat "$REQUESTS")" ""
    "$GW" --kb "$KB" kb export >"$T/after.txt"
    if cmp -s "$T/before.txt" "$T/after.txt"; then
        pass "$1: the KB as it was"
    else
        fail "$1: the KB as it was" "kb export differs"
    fi
}

# loopback, however it is spelt: each is 127.0.0.1 or ::1 once libcurl has read or resolved it
refused loopback "http://127.0.0.1:$PORT/good.csv" "127.0.0.1" \
    "is a loopback address (127.0.0.0/8)"
refused loopback-name "http://localhost:$PORT/good.csv" "localhost" "is at"
check_err "loopback-name: the address's class" "a loopback address"
refused loopback-decimal "http://2130706433:$PORT/good.csv" "127.0.0.1" \
    "is a loopback address (127.0.0.0/8)"
refused loopback-hex "http://0x7f.1:$PORT/good.csv" "127.0.0.1" \
    "is a loopback address (127.0.0.0/8)"
refused loopback-octal "http://0177.0.0.1:$PORT/good.csv" "127.0.0.1" \
    "is a loopback address (127.0.0.0/8)"
refused loopback-ipv6 "http://[::1]:$PORT/good.csv" "[::1]" "is a loopback address (::1)"
refused loopback-mapped "https://[::ffff:127.0.0.1]:$PORT/good.csv" "[::ffff:127.0.0.1]" \
    "is a loopback address (127.0.0.0/8)"
# 0.0.0.0 is this machine to connect(): Linux connects it to loopback
refused unspecified "https://0.0.0.0:$PORT/good.csv" "0.0.0.0" \
    "is an unspecified address (0.0.0.0/8)"

# other machines a plugin has no business reaching (no server there: the test would time out
# at --timeout 5 if any of them were tried)
refused metadata "https://169.254.169.254/latest/meta-data/iam/" "169.254.169.254" \
    "is a cloud metadata address (169.254.169.254)"
refused metadata-ipv6 "https://[fd00:ec2::254]/latest/meta-data/" "[fd00:ec2::254]" \
    "is a cloud metadata address (fd00:ec2::254)"
refused metadata-alibaba "https://100.100.100.200/latest/meta-data/" "100.100.100.200" \
    "is a cloud metadata address (100.100.100.200)"
refused private "https://10.0.0.1/prices.csv" "10.0.0.1" "is a private address (10.0.0.0/8)"
refused private-172 "https://172.16.5.4/prices.csv" "172.16.5.4" \
    "is a private address (172.16.0.0/12)"
refused private-192 "https://192.168.1.1/prices.csv" "192.168.1.1" \
    "is a private address (192.168.0.0/16)"
refused unique-local "https://[fd12:3456::1]/prices.csv" "[fd12:3456::1]" \
    "is a private address (fc00::/7)"
refused link-local "https://169.254.10.10/prices.csv" "169.254.10.10" \
    "is a link-local address (169.254.0.0/16)"
refused cgnat "https://100.64.0.1/prices.csv" "100.64.0.1" \
    "is a shared carrier-grade NAT address (100.64.0.0/10)"
refused mapped-private "https://[::ffff:10.1.2.3]/prices.csv" "[::ffff:10.1.2.3]" \
    "is a private address (10.0.0.0/8)"

# -- the user names the server (--url): its own host is theirs to reach, a redirect elsewhere
# is checked like a plugin's URL
source_plugin mirror "https://prices.example.com/good.csv"
: >"$REQUESTS"
run timeout 30 "$GW" --kb "$KB" --plugins "$T/p-mirror" prices fetch mirror \
    --url "http://127.0.0.1:$PORT/redirect?to=http://localhost:$PORT/good.csv" --timeout 5
check_rc "redirect from the user's server to loopback by name: exit 69" 69
check_err "redirect to loopback by name: refused, naming the hop" \
    "redirected to http://localhost:$PORT/good.csv: refused: localhost is at"
check_eq "redirect to loopback by name: only the user's URL was requested" \
    "$(cat "$REQUESTS")" "/redirect?to=http://localhost:$PORT/good.csv"
run timeout 30 "$GW" --kb "$KB" --plugins "$T/p-mirror" prices fetch mirror \
    --url "http://localhost:$PORT/redirect?to=http://127.0.0.1:$PORT/good.csv" --timeout 5
check_rc "redirect from the user's server to 127.0.0.1: exit 69" 69
check_err "redirect to 127.0.0.1: refused" \
    "redirected to http://127.0.0.1:$PORT/good.csv: refused: 127.0.0.1 is a loopback address"
run timeout 30 "$GW" --kb "$KB" --plugins "$T/p-mirror" prices fetch mirror \
    --url "http://127.0.0.1:$PORT/redirect?to=https://169.254.169.254/latest/meta-data/" \
    --timeout 5
check_rc "redirect from the user's server to cloud metadata: exit 69" 69
check_err "redirect to cloud metadata: refused" \
    "refused: 169.254.169.254 is a cloud metadata address"
"$GW" --kb "$KB" kb export >"$T/after.txt"
if cmp -s "$T/before.txt" "$T/after.txt"; then
    pass "refused redirects: the KB as it was"
else
    fail "refused redirects: the KB as it was" "kb export differs"
fi
run timeout 30 "$GW" --kb "$KB" --plugins "$T/p-mirror" prices fetch mirror \
    --url "http://127.0.0.1:$PORT/redirect?to=/good.csv" --timeout 5
check_rc "the user's --url on loopback, redirected on its own host: exit 0" 0
check_out "the user's --url: its offer stored" "mirror mirror: 1 offer stored"

# -- a proxy on loopback is the user's, but it may not be sent to a local service either
source_plugin proxied "http://localhost:$PORT/good.csv"
: >"$REQUESTS"
run env http_proxy="http://127.0.0.1:$PORT" timeout 30 "$GW" --kb "$KB" \
    --plugins "$T/p-proxied" prices fetch proxied --timeout 5
check_rc "through a proxy, to loopback by name: exit 69" 69
check_err "through a proxy: refused by the host's addresses" \
    "gpuwise prices fetch: proxied a: http://localhost:$PORT/good.csv: refused: localhost is at"
check_eq "through a proxy: the proxy got no request" "$(cat "$REQUESTS")" ""

# -- the user allows every address
source_plugin allowed "http://127.0.0.1:$PORT/good.csv"
KB2=$(fresh_kb allowed)
run env GPUWISE_FETCH_ALLOW_PRIVATE=1 timeout 30 "$GW" --kb "$KB2" --plugins "$T/p-allowed" \
    prices fetch allowed --timeout 5
check_rc "GPUWISE_FETCH_ALLOW_PRIVATE=1: a loopback source fetched, exit 0" 0
check_out "GPUWISE_FETCH_ALLOW_PRIVATE=1: its offer stored" "allowed a: 1 offer stored"
run env GPUWISE_FETCH_ALLOW_PRIVATE=yes "$GW" --kb "$KB2" --plugins "$T/p-allowed" \
    prices fetch allowed
check_rc "GPUWISE_FETCH_ALLOW_PRIVATE=yes: exit 64" 64
check_err "GPUWISE_FETCH_ALLOW_PRIVATE=yes: names the variable and its range" \
    "GPUWISE_FETCH_ALLOW_PRIVATE: expected a whole number from 0 to 1, not 'yes'"

# -- with no names, every plugin with urls runs: the hosts are said before any connection.
# --timeout 0.001 ends the shipped plugins' downloads before they can connect (no test needs
# the network).
mkdir -p "$T/p-all/pricing"
cp "$T/p-loopback/pricing/loopback.lua" "$T/p-loopback-name/pricing/loopback-name.lua" \
    "$T/p-all/pricing/"
: >"$REQUESTS"
run timeout 60 "$GW" --kb "$KB" --plugins "$T/p-all" prices fetch --timeout 0.001
check_err "no names: the hosts of each plugin" "loopback: will contact 127.0.0.1:$PORT"
check_err "no names: a host by name" "loopback-name: will contact localhost:$PORT"
# skypilot's sources are all on one host: said once
check_eq "no names: the shipped plugins' hosts, each once" \
    "$(printf '%s\n' "$ERR" | grep -c -x 'skypilot: will contact raw.githubusercontent.com')" 1
first_said=$(printf '%s\n' "$ERR" | grep -n ': will contact ' | head -1 | cut -d: -f1)
first_fetch=$(printf '%s\n' "$ERR" | grep -n '^gpuwise prices fetch: ' | head -1 | cut -d: -f1)
if [ -n "$first_said" ] && [ -n "$first_fetch" ] && [ "$first_said" -lt "$first_fetch" ]; then
    pass "no names: the hosts said before the first download's line"
else
    fail "no names: the hosts said before the first download's line" "$ERR"
fi
check_err "no names: the loopback sources refused all the same" \
    "gpuwise prices fetch: loopback a: http://127.0.0.1:$PORT/good.csv: refused"
check_eq "no names: the service got no request" "$(cat "$REQUESTS")" ""
