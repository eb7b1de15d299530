#!/bin/sh
# Runs every test suite and ends with one line "N passed, N failed[, N skipped]".
#   unit/    cmocka programs (built by make into $GPUWISE_BUILD/tests/)
#   cli/     end-to-end scripts that run the real binary (lib.sh: "ok -", "not ok -", "skip -")
#   plugins/ the same, for the shipped plugins and the sandbox
# Environment: GPUWISE_BIN (the binary), GPUWISE_BUILD (its build folder), TESTS (a pattern that
# limits which scripts and programs run, e.g. TESTS=kb), TEST_TIMEOUT (seconds per suite, 600).
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
: "${GPUWISE_BIN:=$ROOT/build/gpuwise}"
: "${GPUWISE_BUILD:=$ROOT/build}"
export GPUWISE_BIN GPUWISE_BUILD ROOT
export SHARED="${SHARED:-$ROOT/../shared}"
export NO_COLOR=1 CMOCKA_MESSAGE_OUTPUT=stdout
log="$GPUWISE_BUILD/test.log"
mkdir -p "$GPUWISE_BUILD"
: >"$log"
pattern="${TESTS:-}"
passed=0 failed=0 skipped=0

count() {   # reads a suite's output, adds to the counters, prints failures
    while IFS= read -r line; do
        printf '%s\n' "$line" >>"$log"
        case "$line" in
            "ok - "*) passed=$((passed + 1)) ;;
            "not ok - "*) failed=$((failed + 1)); printf '  %s\n' "$line" ;;
            "skip - "*) skipped=$((skipped + 1)); printf '  %s\n' "$line" ;;
            "[       OK ] "*) passed=$((passed + 1)) ;;
            "[  FAILED  ] "*"("*|"[  FAILED  ] "*")"*) ;;
            "[  FAILED  ] "*) failed=$((failed + 1)); printf '  %s\n' "$line" ;;
            "[  ERROR   ] "*|"[  SKIPPED ] "*) printf '  %s\n' "$line" ;;
        esac
    done
}

for t in "$GPUWISE_BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *"$pattern"*) ;; *) continue ;; esac
    name=$(basename "$t")
    echo "unit: $name"
    out=$(mktemp)
    timeout "${TEST_TIMEOUT:-600}" "$t" >"$out" 2>&1
    rc=$?
    count <"$out"
    if [ $rc -ne 0 ] && ! grep -q '^\[  FAILED  \]' "$out"; then
        failed=$((failed + 1))
        printf '  not ok - %s exited %d\n' "$name" "$rc"
        tail -5 "$out" | sed 's/^/    /'
    fi
    rm -f "$out"
done

for s in tests/cli/*.sh tests/plugins/*.sh; do
    [ -f "$s" ] || continue
    case "$s" in */lib.sh) continue ;; esac
    case "$s" in *"$pattern"*) ;; *) continue ;; esac
    echo "cli: $s"
    out=$(mktemp)
    timeout "${TEST_TIMEOUT:-600}" sh "$s" >"$out" 2>&1
    rc=$?
    count <"$out"
    if [ $rc -ne 0 ]; then
        failed=$((failed + 1))
        printf '  not ok - %s exited %d\n' "$s" "$rc"
        tail -5 "$out" | sed 's/^/    /'
    fi
    rm -f "$out"
done

echo "(full log: $log)"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
