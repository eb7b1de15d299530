#!/bin/sh
# tests/plugins/fetch.sh — `gpuwise prices fetch` against a real HTTP server on 127.0.0.1
# (fetch_server.py, started here): a mirror of a SkyPilot catalog, the cache and its offline
# replay, and sources that fail (slow, truncated, oversized with and without a length, 404, 500,
# a redirect to plain HTTP), each download bounded in time; URLs that are refused; and no
# socket opened by any other command.  The server is on loopback, which a plugin's own URLs may
# not reach: the runs below name it with --url, or allow it with GPUWISE_FETCH_ALLOW_PRIVATE=1
# (tests/plugins/hostile_fetch.sh has the refusals).
. "$ROOT/tests/cli/lib.sh"
export XDG_CACHE_HOME="$T/xdg-cache"
CACHE="$XDG_CACHE_HOME/gpuwise/prices"
TODAY=$(date -u +%Y-%m-%d)

if ! command -v python3 >/dev/null 2>&1; then
    skip "prices fetch" "python3 not found (the test's HTTP server)"
    exit 0
fi

# the server's files: the fixture catalog at a mirror of the catalog's own path
WWW="$T/www"
mkdir -p "$WWW/catalogs/v7/aws"
cp "$FIX/prices/skypilot-aws-vms.csv" "$WWW/catalogs/v7/aws/vms.csv"
printf 'gpu,count,price\nL4,1,0.71\n' >"$WWW/good.csv"
python3 "$ROOT/tests/plugins/fetch_server.py" "$WWW" "$T/port" 120 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
if ! wait_until 10 test -s "$T/port"; then
    fail "fetch server started" "no port after 10 s"
    exit 0
fi
PORT=$(cat "$T/port")
BASE="http://127.0.0.1:$PORT"

# timed CMD...: run with a hard limit of 30 s; $SECS gets the seconds it took
timed() {
    _start=$(date +%s)
    run timeout 30 "$@"
    SECS=$(( $(date +%s) - _start ))
}

# -- a mirror of one of skypilot's sources
KB=$(fresh_kb fetch)
timed "$GW" --kb "$KB" prices fetch skypilot --url "$BASE/catalogs/v7/aws/vms.csv"
check_rc "fetch mirror: exit 0" 0
# .../aws/vms.csv ends like skypilot's own aws URL: the source is "aws", the file aws-vms.csv
# skypilot-aws-vms.csv: p4d us-east-1 (on demand + spot) and us-west-2, p5, g5 (+ spot), p3
# (+ spot) = 8; the Radeon Pro V520's 4 offers are reported and left out
check_out "fetch mirror: the offers stored, by source" "skypilot aws: 8 offers stored; 4 left out"
check_err "fetch mirror: the unknown GPU named with its lines" \
    "no GPU named 'Radeon Pro V520 8GB'"
CACHED=$(ls "$CACHE/skypilot/aws/" 2>/dev/null | grep -v '\.url$')
check_eq "fetch mirror: one response kept, named by date and source" \
    "$(printf '%s' "$CACHED" | sed 's/^[0-9-]*T[0-9]*Z-//')" "aws-vms.csv"
if cmp -s "$CACHE/skypilot/aws/$CACHED" "$FIX/prices/skypilot-aws-vms.csv"; then
    pass "fetch mirror: the response kept byte for byte"
else
    fail "fetch mirror: the response kept byte for byte" "$CACHE/skypilot/aws/$CACHED differs"
fi
check_eq "fetch mirror: its URL kept beside it" \
    "$(cat "$CACHE/skypilot/aws/$CACHED.url" 2>/dev/null)" "$BASE/catalogs/v7/aws/vms.csv"
run "$GW" --kb "$KB" --json offers --gpu "A100 40GB SXM4" --spot
check_eq "fetch mirror: p4d spot in us-east-1 is the lower zone's, 7.9011, dated today" \
    "$(jqr '[.offers[] | select(.provider == "AWS" and .instance == "p4d.24xlarge")][0] | [.price_per_hour, .as_of] | join(" ")')" \
    "7.9011 $TODAY"
check_eq "fetch mirror: the source names the URL" \
    "$(sqlite3 "$KB" "SELECT url FROM source WHERE id = 'plugin-skypilot-aws-vms-csv'")" \
    "$BASE/catalogs/v7/aws/vms.csv"

# -- replayed offline from the cache, dated the day of the download
mv "$CACHE/skypilot/aws/$CACHED" "$CACHE/skypilot/aws/2026-01-02T030405Z-aws-vms.csv"
mv "$CACHE/skypilot/aws/$CACHED.url" "$CACHE/skypilot/aws/2026-01-02T030405Z-aws-vms.csv.url"
run "$GW" --kb "$KB" prices refresh skypilot --cached
check_rc "refresh --cached: exit 0" 0
# dated 2026-01-02 now, not today: another identity, so 8 added and the 8 fetched ones removed
check_out "refresh --cached: the same 8 offers replace the fetched ones" \
    "skypilot aws: 8 offers stored; 4 left out"
check_out "refresh --cached: 8 added, 8 earlier removed" \
    "prices     8 added, 0 updated, 8 removed (0 unchanged)"
run "$GW" --kb "$KB" --json offers --gpu "H100 SXM"
check_eq "refresh --cached: dated the day of the download (2026-01-02)" \
    "$(jqr '[.offers[] | select(.instance == "p5.48xlarge")][0].as_of')" "2026-01-02"
run "$GW" --kb "$KB" prices refresh skypilot --input "$CACHE/skypilot/aws/2026-01-02T030405Z-aws-vms.csv"
# another source (the cached file's name) and dated today: 8 added, the 8 earlier ones removed
check_out "refresh --input a cached file: replaces them again (same plugin, same provider)" \
    "prices     8 added, 0 updated, 8 removed (0 unchanged)"
run "$GW" --kb "$KB" prices refresh html-table --cached
check_rc "refresh --cached without downloads: exit 66" 66

# -- sources that fail, each named on one line; the good one is stored; exit 69
mkdir -p "$T/plugins/pricing"
cat >"$T/plugins/pricing/localcloud.lua" <<EOF
-- a test plugin: "gpu,count,price" rows, from the test server
return {
  name = "localcloud", kind = "pricing", version = "1", description = "test server prices",
  needs_input = true,
  urls = { good = "$BASE/good.csv", slow = "$BASE/slow", truncated = "$BASE/truncated",
           big = "$BASE/big", bigchunked = "$BASE/big-chunked", missing = "$BASE/missing",
           broken = "$BASE/error", redirect = "$BASE/redirect-http", moved = "$BASE/moved",
           loop = "$BASE/loop", nolocation = "$BASE/no-location", empty = "$BASE/empty",
           nothttp = "$BASE/not-http" },
  offers = function(ctx)
    local offers = {}
    for _, row in ipairs(gw.csv.rows(ctx.input)) do
      offers[#offers + 1] = { provider = "Local Cloud", gpu = row.gpu, gpu_count = tonumber(row.count),
                              price_per_hour = tonumber(row.price), currency = "USD" }
    end
    return offers
  end,
}
EOF
KB=$(fresh_kb failing)
timed env GPUWISE_FETCH_ALLOW_PRIVATE=1 "$GW" --kb "$KB" --plugins "$T/plugins" prices fetch \
    localcloud --timeout 2 --max-size 1
check_rc "failing sources: exit 69" 69
check_out "failing sources: the good one stored" "localcloud good: 1 offer stored"
check_err "slow: timed out" "localcloud slow: $BASE/slow: no complete response within 2 s"
check_err "truncated: said so" "localcloud truncated: $BASE/truncated: truncated"
check_err "oversized with a length: refused" "localcloud big: $BASE/big: larger than the 1 MiB cap"
check_err "oversized without a length: stopped at the cap" \
    "localcloud bigchunked: $BASE/big-chunked: larger than the 1 MiB cap"
check_err "404: said so" "localcloud missing: $BASE/missing: HTTP 404"
check_err "500: said so" "localcloud broken: $BASE/error: HTTP 500"
check_err "redirect to plain HTTP elsewhere: not followed" \
    "localcloud redirect: $BASE/redirect-http: redirected to http://example.invalid/vms.csv: only HTTPS is followed (or plain HTTP from a loopback address to a loopback address): not followed"
check_out "redirect from loopback HTTP to loopback HTTP: followed, the same offer as good.csv" \
    "localcloud moved: 1 offer stored"
check_err "a redirect loop: stopped after 5" \
    "localcloud loop: $BASE/loop: more than 5 redirects (the last to $BASE/loop): not followed"
check_err "a 301 without a Location: a failure, not a body" \
    "localcloud nolocation: $BASE/no-location: HTTP 301 from the server, without a Location to follow"
check_err "an empty body: a failure, not zero offers" \
    "localcloud empty: $BASE/empty: an empty response (HTTP 200): nothing to read"
check_err "a reply that is not HTTP: said so" "localcloud nothttp: $BASE/not-http: not an HTTP response"
check_err "failing sources: the summary" "some downloads failed (see the lines above); the others' offers are stored"
check_eq "failing sources: one line each (11 failing sources)" \
    "$(printf '%s\n' "$ERR" | grep -c '^gpuwise prices fetch: localcloud ')" 11
if [ "$SECS" -le 15 ]; then
    pass "failing sources: done within 15 s ($SECS s; the slow one gave up after 2)"
else
    fail "failing sources: done within 15 s" "took $SECS s"
fi
run "$GW" --kb "$KB" --json offers --gpu L4
check_eq "failing sources: the good source's offer, USD 0.71" \
    "$(jqr '[.offers[] | select(.provider == "Local Cloud")][0].price_per_hour')" "0.71"
check_eq "failing sources: nothing kept of the failed ones" \
    "$(ls "$CACHE/localcloud" | sort | tr '\n' ' ')" "good moved "
timed "$GW" --kb "$KB" --plugins "$T/plugins" prices fetch localcloud --timeout 2 \
    --url "$BASE/missing"
check_rc "every source failing: exit 69" 69
check_err "every source failing: says so" "every download failed"
GPUWISE_FETCH_MAX_MB=abc run "$GW" --kb "$KB" --plugins "$T/plugins" prices fetch localcloud
check_rc "a bad GPUWISE_FETCH_MAX_MB: exit 64" 64

# -- a signal during a download: exit 130, nothing stored, nothing kept
if command -v ss >/dev/null 2>&1; then
    KB=$(fresh_kb intr)
    "$GW" --kb "$KB" --plugins "$T/plugins" prices fetch localcloud --timeout 25 \
        --url "$BASE/slow" >"$T/intr.out" 2>"$T/intr.err" </dev/null &
    FETCH=$!
    if wait_until 10 sh -c "ss -tn state established '( dport = :$PORT )' | grep -q :$PORT"; then
        _start=$(date +%s)
        kill -INT $FETCH
        wait $FETCH
        rc=$?
        check_eq "SIGINT during a download: exit 130" "$rc" 130
        if [ $(( $(date +%s) - _start )) -le 5 ]; then
            pass "SIGINT during a download: stops at once, not at the timeout"
        else
            fail "SIGINT during a download: stops at once" "took $(( $(date +%s) - _start )) s"
        fi
        check_eq "SIGINT during a download: says so" \
            "$(grep -c 'stopped by SIGINT' "$T/intr.err")" 1
        check_eq "SIGINT during a download: no offers of the provider" \
            "$(sqlite3 "$KB" "SELECT count(*) FROM price WHERE provider = 'Local Cloud'")" 0
    else
        kill $FETCH 2>/dev/null
        fail "SIGINT during a download" "the download never connected"
    fi
else
    skip "SIGINT during a download" "ss not found (to see the download connected)"
fi

# -- a plugin that fails on what it fetched: nothing stored
cat >"$T/plugins/pricing/brokencloud.lua" <<EOF
return {
  name = "brokencloud", kind = "pricing", version = "1", description = "fails",
  urls = { a = "$BASE/good.csv" },
  offers = function(ctx) error("cannot read " .. ctx.input_name) end,
}
EOF
KB=$(fresh_kb broken)
"$GW" --kb "$KB" kb export >"$T/before.txt"
run env GPUWISE_FETCH_ALLOW_PRIVATE=1 "$GW" --kb "$KB" --plugins "$T/plugins" prices fetch \
    localcloud brokencloud --timeout 2
check_rc "a plugin failing after the downloads: exit 70" 70
check_err "a plugin failing: nothing stored" "nothing stored: the knowledge base is as it was"
"$GW" --kb "$KB" kb export >"$T/after.txt"
if cmp -s "$T/before.txt" "$T/after.txt"; then
    pass "a plugin failing: the KB exported the same before and after"
else
    fail "a plugin failing: the KB exported the same before and after"
fi

# -- refused before any connection
run "$GW" --kb "$KB" prices fetch skypilot --url "http://example.invalid/aws/vms.csv"
check_rc "plain HTTP to another host: exit 64" 64
check_err "plain HTTP to another host: says why" "only HTTPS is fetched"
run "$GW" --kb "$KB" prices fetch skypilot --url "ftp://127.0.0.1/x"
check_rc "another scheme: exit 64" 64
run "$GW" --kb "$KB" prices fetch skypilot vast --url "$BASE/good.csv"
check_rc "--url with two plugins: exit 64" 64
run "$GW" --kb "$KB" prices fetch fsdl
check_rc "a plugin without urls: exit 64" 64
check_err "a plugin without urls: says what to do" "fsdl declares no urls"
run "$GW" --kb "$KB" prices fetch skypilot --timeout 0
check_rc "--timeout 0: exit 64" 64

# -- only fetch opens a socket
if command -v strace >/dev/null 2>&1; then
    KB=$(fresh_kb strace)
    strace -f -e trace=socket,connect -o "$T/trace-refresh" "$GW" --kb "$KB" prices refresh \
        skypilot --input "$FIX/prices/skypilot-gcp-vms.csv" >/dev/null 2>&1
    strace -f -e trace=socket,connect -o "$T/trace-list" "$GW" --kb "$KB" prices list \
        >/dev/null 2>&1
    strace -f -e trace=socket,connect -o "$T/trace-offers" "$GW" --kb "$KB" offers >/dev/null 2>&1
    if cat "$T/trace-refresh" "$T/trace-list" "$T/trace-offers" | grep -q -E 'socket\(|connect\('; then
        fail "refresh, list, offers: no socket" "$(grep -h -E 'socket|connect' "$T"/trace-* | head -2)"
    else
        pass "refresh, list, offers: no socket opened"
    fi
    strace -f -e trace=connect -o "$T/trace-fetch" timeout 30 "$GW" --kb "$KB" prices fetch \
        skypilot --url "$BASE/catalogs/v7/aws/vms.csv" >/dev/null 2>&1
    if grep -q "sin_port=htons($PORT)" "$T/trace-fetch"; then
        pass "fetch: the one command that connects (to 127.0.0.1:$PORT)"
    else
        fail "fetch: the one command that connects" "no connect to port $PORT in the trace"
    fi
else
    skip "only fetch opens a socket" "strace not found"
fi
