#!/bin/sh
# Builds the libFuzzer harnesses (clang-14, ASan + UBSan) and runs each for FUZZ_SECONDS
# (default 60; CI's smoke run uses 10).  Seeds come from tests/fixtures and, when present,
# ../shared/testdata.  A crash leaves its input in build-fuzz/crashes/NAME/ and fails the run;
# turn it into a regression test in tests/fixtures/fuzz/NAME/ (replayed by tests/cli/fuzz.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
SHARED="${SHARED:-$ROOT/../shared}"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
CLANG="${CLANG:-clang-14}"
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: $CLANG not found (apt-get install clang-14 libclang-rt-14-dev)" >&2
    exit 69
fi
make -s BUILD=build-fuzz CC="$CLANG" \
    CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
    build-fuzz/libgw.a || exit 1
PKG_LIBS="$(pkg-config --libs lua5.4 sqlite3 libxml-2.0 libcmark-gfm libcjson) -lcmark-gfm-extensions -lcsv -lm"
PKG_CFLAGS="$(pkg-config --cflags lua5.4 sqlite3 libxml-2.0 libcmark-gfm libcjson)"
failed=0
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    bin="build-fuzz/$name"
    "$CLANG" -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -Icore \
        -Ibuild-fuzz/gen $PKG_CFLAGS -o "$bin" "$h" build-fuzz/libgw.a $PKG_LIBS || { failed=1; continue; }
    corpus="build-fuzz/corpus/$name"
    crashes="build-fuzz/crashes/$name"
    mkdir -p "$corpus" "$crashes"
    seeds=""
    for d in "tests/fixtures/fuzz/$name" $(sed -n 's/^\/\/ seeds: //p' "$h" | sed "s|\$SHARED|$SHARED|g; s|\$ROOT|$ROOT|g"); do
        [ -d "$d" ] && seeds="$seeds $d"
    done
    echo "fuzz: $name for ${SECONDS_EACH}s"
    # shellcheck disable=SC2086
    if ! "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -artifact_prefix="$crashes/" "$corpus" $seeds >"build-fuzz/$name.log" 2>&1; then
        echo "fuzz: $name FAILED — see build-fuzz/$name.log and $crashes/" >&2
        tail -20 "build-fuzz/$name.log" >&2
        failed=1
    else
        grep -E '^#[0-9]+.*(DONE|pulse)' "build-fuzz/$name.log" | tail -1
    fi
done
exit $failed
