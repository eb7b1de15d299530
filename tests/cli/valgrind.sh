#!/bin/sh
# valgrind.sh — representative commands under valgrind's memcheck: no invalid read or write, no
# use of uninitialised memory, no definite or indirect leak.  Skipped without valgrind, and under
# make asan (the sanitizers and valgrind do not run together).  make test runs the first command
# (about 2 s of CPU each under valgrind); make check-long (GW_TEST_LONG=1) runs them all.
. "$ROOT/tests/cli/lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
    skip "valgrind" "valgrind not installed"
    exit 0
fi
if nm "$GW" 2>/dev/null | grep -q '__asan_'; then
    skip "valgrind" "an AddressSanitizer build"
    exit 0
fi
KB=$(fresh_kb vg)
awk -v n=100 -v seed=5 -v prefix=vg -v gpus=rtx-3090,h100-sxm5 \
    -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/rows.csv"
# 99: what valgrind returns on an error, apart from the command's own exit statuses.
VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect"

vg() {   # NAME EXPECTED-EXIT ARGS...
    name=$1 want=$2
    shift 2
    # shellcheck disable=SC2086
    $VG "$GW" --kb "$KB" "$@" >/dev/null 2>"$T/vg.err" </dev/null
    rc=$?
    if [ $rc = "$want" ]; then
        pass "valgrind: $name"
    else
        fail "valgrind: $name" "exit $rc: $(grep -m3 -E '==[0-9]+== [A-Z]' "$T/vg.err")"
    fi
}

cd "$ROOT" || exit 1
vg "kb show 3090" 0 kb show 3090
if [ "${GW_TEST_LONG:-0}" != 1 ]; then
    echo "# valgrind: kb search, the imports, inspect and report run in make check-long"
    exit 0
fi
vg "kb search nvlink ampere" 0 kb search nvlink ampere
vg "kb import (table CSV)" 0 kb import "$T/rows.csv"
vg "kb import --with gpuwise-csv" 0 kb import --with gpuwise-csv "$T/rows.csv"
# The dump shows a card that slowed down for heat: the check fails, exit 2.
vg "inspect" 2 inspect tests/fixtures/nvsmi/hw-slowdown-3090.xml
if "$GW" help report >/dev/null 2>&1; then
    vg "report --format html" 0 report examples/vision-team.lua --format html -o "$T/r.html"
fi
