#!/bin/sh
# Checks the Debian packages gpuwise builds with (and, with --test, those its tests use).
# As root on Debian it installs what is missing with one apt-get line; otherwise it prints
# that line and fails. It never fetches anything else.
set -u
BUILD_PKGS="pkg-config liblua5.4-dev libsqlite3-dev libxml2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libcsv-dev libcjson-dev libcurl4-openssl-dev libseccomp-dev"
TEST_PKGS="libcmocka-dev sqlite3 cmark-gfm chromium jq libxml2-utils strace man-db bsdextrautils bash poppler-utils python3"
# make fuzz (libFuzzer) and make bench (the references it times gpuwise against)
FUZZ_PKGS="clang-14 libclang-rt-14-dev"
BENCH_PKGS="sqlite3 cmark-gfm pandoc"

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

want="$BUILD_PKGS"
case "${1:-}" in
    --test) want="$want $TEST_PKGS" ;;
    --fuzz) want="$want $FUZZ_PKGS" ;;
    --bench) want="$want $BENCH_PKGS" ;;
esac
missing=""
for p in $want; do have_pkg "$p" || missing="$missing $p"; done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "gpuwise: installing missing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || exit 1
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
    exit 0
fi
echo "gpuwise: missing Debian packages:$missing" >&2
echo "gpuwise: install them with:  sudo $line" >&2
exit 1
