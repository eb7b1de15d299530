#!/bin/sh
# Builds the libFuzzer harnesses (clang-14, ASan + UBSan) and runs each for FUZZ_SECONDS
# (default 60; CI's smoke run uses 5).  FUZZ_ONLY=NAME runs the harnesses whose name contains
# NAME.  Seeds come from tests/fixtures/fuzz/NAME and the folders named on the harness's
# " * seeds:" line ($ROOT, $SHARED = ../shared when present).  A crash, leak or slow input leaves
# its input in build-fuzz/crashes/NAME/ and fails the run; turn it into a regression test in
# tests/fixtures/fuzz/NAME/ (replayed by tests/cli/fuzz_regress.sh) and fix the code.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
SHARED="${SHARED:-$ROOT/../shared}"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
CLANG="${CLANG:-clang-14}"
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: $CLANG not found (sh .ci/deps.sh --fuzz installs clang-14 libclang-rt-14-dev)" >&2
    exit 69
fi
# The filter and search harnesses read the shipped KB.
[ -f kb/gpuwise.db ] || make -s GW_DEPS_CHECKED=1 kb/gpuwise.db || exit 1
make -s GW_DEPS_CHECKED=1 BUILD=build-fuzz CC="$CLANG" \
    CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
    build-fuzz/libgw.a || exit 1
PKGS="lua5.4 sqlite3 libxml-2.0 libcmark-gfm libcjson libseccomp"
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
PKG_LIBS="$(pkg-config --libs $PKGS) -lcmark-gfm-extensions -lcsv -lm"
PKG_CFLAGS="$(pkg-config --cflags $PKGS)"
failed=0
for h in tests/fuzz/fuzz_*.c; do
    name=$(basename "$h" .c)
    case "$name" in *"${FUZZ_ONLY:-}"*) ;; *) continue ;; esac
    bin="build-fuzz/$name"
    # shellcheck disable=SC2086
    "$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g $WARN \
        -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -Icore -Itests/fuzz \
        -Ibuild-fuzz/gen $PKG_CFLAGS -o "$bin" "$h" build-fuzz/libgw.a $PKG_LIBS ||
        { failed=1; continue; }
    corpus="build-fuzz/corpus/$name"
    crashes="build-fuzz/crashes/$name"
    mkdir -p "$corpus" "$crashes"
    seeds=""
    for d in "tests/fixtures/fuzz/$name" \
             $(sed -n 's/^ \* seeds: //p; s/^\/\/ seeds: //p' "$h" | sed 's|\*/.*||' |
               sed "s|\$SHARED|$SHARED|g; s|\$ROOT|$ROOT|g"); do
        [ -d "$d" ] && seeds="$seeds $d"
    done
    echo "fuzz: $name for ${SECONDS_EACH}s"
    # -timeout: an input that takes over 10 s is a hang or a super-linear path.
    # shellcheck disable=SC2086
    if ! "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -artifact_prefix="$crashes/" "$corpus" $seeds >"build-fuzz/$name.log" 2>&1; then
        echo "fuzz: $name FAILED — see build-fuzz/$name.log and $crashes/" >&2
        tail -30 "build-fuzz/$name.log" >&2
        failed=1
    else
        grep -E '^#[0-9]+.*(DONE|pulse)' "build-fuzz/$name.log" | tail -1
    fi
done
# The KB's text form against generated inputs (tests/fuzz/kb_text.py): hostile CSVs against
# Python's csv module and random KBs round-tripped, with a new seed each run (printed, so that
# a failure can be replayed); about FUZZ_SECONDS / 2 cases of each.
case kb_text in *"${FUZZ_ONLY:-}"*)
    if command -v python3 >/dev/null 2>&1 && [ -x build/gpuwise ] && [ -f kb/gpuwise.db ]; then
        seed=$(date +%s)
        cases=$((SECONDS_EACH / 2 + 1))
        work=$(mktemp -d "${TMPDIR:-/tmp}/gwfuzz.XXXXXX")
        echo "fuzz: kb_text.py, seed $seed, $cases cases each"
        for mode in diff roundtrip; do
            python3 tests/fuzz/kb_text.py "$mode" build/gpuwise kb/gpuwise.db "$work" \
                --seed "$seed" --cases "$cases" >"build-fuzz/kb_text-$mode.log" 2>&1 || {
                echo "fuzz: kb_text.py $mode FAILED (seed $seed) — see build-fuzz/kb_text-$mode.log" >&2
                grep '^not ok' "build-fuzz/kb_text-$mode.log" | head -5 >&2
                failed=1
            }
        done
        rm -rf "$work"
    else
        echo "fuzz: kb_text.py skipped (needs python3 and make's build/gpuwise)"
    fi ;;
esac
exit $failed
