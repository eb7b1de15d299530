#!/bin/sh
# fuzz_regress.sh — every input the fuzzers once broke the code with (tests/fixtures/fuzz/NAME/)
# is replayed through its harness built with the normal compiler (tests/fuzz/replay.c instead of
# libFuzzer), against the same libgw.a as the rest of the suite (ASan's under make asan).  Each
# harness must build, and each input must run to the end: no crash, no abort, no hang.
. "$ROOT/tests/cli/lib.sh"

BUILD="${GPUWISE_BUILD:-$ROOT/build}"
LIB="$BUILD/libgw.a"
if [ ! -f "$LIB" ] || ! command -v pkg-config >/dev/null 2>&1; then
    skip "fuzz regressions" "no $LIB"
    exit 0
fi
CC="${CC:-cc}"
PKGS="lua5.4 sqlite3 libxml-2.0 libcmark-gfm libcjson libseccomp"
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# shellcheck disable=SC2046
set -- $(pkg-config --cflags --libs $PKGS) -lcmark-gfm-extensions -lcsv -lm
SAN=""
# The ASan build's library needs the sanitizer runtimes at link time.
if nm "$LIB" 2>/dev/null | grep -q '__asan_'; then
    SAN="-fsanitize=address,undefined"
fi
OUTDIR="$BUILD/fuzz-replay"
mkdir -p "$OUTDIR"
cd "$ROOT" || exit 1
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    bin="$OUTDIR/$name"
    # shellcheck disable=SC2086
    if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g $WARN -Werror $SAN -Icore -Itests/fuzz \
            -o "$bin" "$h" tests/fuzz/replay.c "$LIB" "$@" 2>"$T/cc.err"; then
        fail "fuzz regress: $name builds with $CC" "$(head -3 "$T/cc.err")"
        continue
    fi
    pass "fuzz regress: $name builds with $CC"
    dir="tests/fixtures/fuzz/$name"
    [ -d "$dir" ] || continue
    for input in "$dir"/*; do
        [ -f "$input" ] || continue
        timeout 60 "$bin" "$input" >"$T/replay.out" 2>"$T/replay.err"
        rc=$?
        if [ $rc = 0 ]; then
            pass "fuzz regress: $name $(basename "$input")"
        else
            fail "fuzz regress: $name $(basename "$input")" \
                "exit $rc: $(grep -m2 -E 'ERROR|runtime error|Assertion|abort' "$T/replay.err")"
        fi
    done
done
