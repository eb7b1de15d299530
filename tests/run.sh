#!/bin/sh
# Runs every test suite and ends with one line "N passed, N failed[, N skipped]".
#   unit/    cmocka programs (built by make into $GPUWISE_BUILD/tests/)
#   cli/     end-to-end scripts that run the real binary (lib.sh: "ok -", "not ok -", "skip -")
#   plugins/ the same, for the shipped plugins and the sandbox
# The suites are independent (each script works in its own mktemp folder, see lib.sh), so they
# run as parallel jobs; each one's output goes to its own file, and the files are read and
# counted in a fixed order (unit programs, then scripts, by name), so the report reads the same
# whatever finished first.  The slowest suites (as timed by the last run) start first.
# Usage: sh tests/run.sh [-j JOBS]
# Environment: GPUWISE_BIN (the binary), GPUWISE_BUILD (its build folder), TESTS (patterns, separated
# by spaces, that limit which scripts and programs run, e.g. TESTS=kb), TEST_JOBS (parallel suites;
# twice the number of cores, 2 when that is unknown), TEST_TIMEOUT (seconds per suite, 600),
# GW_TEST_LONG=1 (the suites that sample a long sweep run all of it: make check-long).
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
: "${GPUWISE_BIN:=$ROOT/build/gpuwise}"
: "${GPUWISE_BUILD:=$ROOT/build}"
export GPUWISE_BIN GPUWISE_BUILD ROOT
export SHARED="${SHARED:-$ROOT/../shared}"
export NO_COLOR=1 CMOCKA_MESSAGE_OUTPUT=stdout
# Twice as many suites as cores: a suite that waits (for a time limit, a signal, a child) leaves
# its core to another one.
jobs=${TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 1) * 2 ))}
case "${1:-}" in
    -j) jobs=${2:-} ;;
    -j*) jobs=${1#-j} ;;
esac
case "$jobs" in ''|*[!0-9]*|0) echo "run.sh: -j needs a number of jobs, not '$jobs'" >&2; exit 64 ;; esac
log="$GPUWISE_BUILD/test.log"
times="$GPUWISE_BUILD/test-times"   # "SECONDS SUITE" per line, from the last run
cpu_times="$GPUWISE_BUILD/test-cpu" # "CPU-SECONDS SUITE" (user + sys) per line, the last run's
mkdir -p "$GPUWISE_BUILD"
: >"$log"
pattern="${TESTS:-}"
W=$(mktemp -d "${TMPDIR:-/tmp}/gwrun.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
export W

# python3 behind a version manager's shim (pyenv's is a bash script that costs half a CPU-second
# a call, more than the interpreter) is resolved once, to the interpreter the shim would run.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && [ "$py" != "$(command -v python3)" ]; then
    mkdir "$W/bin" && ln -s "$py" "$W/bin/python3" && PATH="$W/bin:$PATH"
    export PATH
fi

# The suites, numbered in report order: $W/N.suite holds suite N's path.
n=0
add() {
    if [ -n "$pattern" ]; then   # any of the space-separated patterns
        _hit=0
        for _p in $pattern; do
            case "$1" in *"$_p"*) _hit=1 ;; esac
        done
        [ "$_hit" = 1 ] || return
    fi
    n=$((n + 1))
    printf '%s\n' "$1" >"$W/$n.suite"
    printf '%s %s\n' "$n" "$1" >>"$W/all"
}
: >"$W/all"
for t in "$GPUWISE_BUILD"/tests/test_*; do
    [ -x "$t" ] && add "$t"
done
for s in tests/cli/*.sh tests/plugins/*.sh; do
    case "$s" in */lib.sh) continue ;; esac
    [ -f "$s" ] && add "$s"
done

# install.sh runs `make install`, which rebuilds whatever a neighbour's edit made stale: it runs
# alone, after every other suite, so no suite runs a binary or links a library while it is being
# rebuilt.  Run outside make for another build folder, its make gets that folder (and its KB):
# it installs the binary under test and never writes into build/ or kb/gpuwise.db.
alone=' tests/cli/install.sh '
if [ "$GPUWISE_BUILD" != "$ROOT/build" ]; then
    case " ${MAKEFLAGS:-} " in
        *" BUILD="*) ;;
        *) kb_db=kb/gpuwise.db
           [ -f "$GPUWISE_BUILD/gpuwise.db" ] && kb_db="${GPUWISE_BUILD#"$ROOT"/}/gpuwise.db"
           install_makeflags="${MAKEFLAGS:-} BUILD=${GPUWISE_BUILD#"$ROOT"/} KB_DB=$kb_db" ;;
    esac
fi
export install_makeflags="${install_makeflags:-${MAKEFLAGS:-}}"

# One suite: its output in $W/N.out, its exit status in $W/N.rc, its seconds in $W/N.time;
# prints N when done.
run_one='
    IFS= read -r suite <"$W/$1.suite"
    start=$(date +%s)
    case "$suite" in
        */install.sh) MAKEFLAGS=$install_makeflags timeout "${TEST_TIMEOUT:-600}" sh "$suite" ;;
        *.sh) timeout "${TEST_TIMEOUT:-600}" sh "$suite" ;;
        *) timeout "${TEST_TIMEOUT:-600}" "$suite" ;;
    esac >"$W/$1.out" 2>&1 </dev/null
    echo $? >"$W/$1.rc"
    echo $(( $(date +%s) - start )) "$suite" >"$W/$1.time"
    times >"$W/$1.times"   # not in a pipe: a subshell has no children to count
    awk -v s="$suite" '"'"'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4, s }'"'"' \
        "$W/$1.times" >"$W/$1.cpu"
    echo "$1"'

# Start order: slowest first by the last run's times (a suite never timed counts as slowest).
[ -f "$times" ] || : >"$times"
awk -v tf="$times" -v alone="$alone" '{ s = substr($0, index($0, " ") + 1) }
     FILENAME == tf { t[s] = $1; next }
     index(alone, " " s " ") == 0 { print (s in t ? t[s] : 999999), $1 }' \
    "$times" "$W/all" | sort -k1,1nr -k2,2n | cut -d' ' -f2 >"$W/parallel"
awk -v alone="$alone" '{ s = substr($0, index($0, " ") + 1) }
     index(alone, " " s " ") { print $1 }' "$W/all" >"$W/serial"

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

report() {  # suite N's heading, failures and counts
    IFS= read -r suite <"$W/$1.suite"
    rc=$(cat "$W/$1.rc")
    case "$suite" in
        *.sh) echo "cli: $suite" ;;
        *) echo "unit: $(basename "$suite")" ;;
    esac
    count <"$W/$1.out"
    # A script that exits non-zero has failed; a cmocka program's exit status is its number of
    # failed tests, already counted above unless it stopped before printing them.
    case "$suite" in
        *.sh) [ "$rc" -ne 0 ] ;;
        *) [ "$rc" -ne 0 ] && ! grep -q '^\[  FAILED  \]' "$W/$1.out" ;;
    esac && {
        failed=$((failed + 1))
        printf '  not ok - %s exited %d\n' "$suite" "$rc"
        tail -5 "$W/$1.out" | sed 's/^/    /'
    }
}

# The jobs print each suite's number as it finishes; the reader reports every suite whose
# predecessors are all done, so the report grows in order while the jobs run.
{
    xargs -P "$jobs" -I{} sh -c "$run_one" sh {} <"$W/parallel"
    while read -r i; do sh -c "$run_one" sh "$i"; done <"$W/serial"
} | {
    passed=0 failed=0 skipped=0 next=1
    while read -r done_n; do
        : >"$W/$done_n.done"
        while [ -f "$W/$next.done" ]; do
            report "$next"
            next=$((next + 1))
        done
    done
    while [ "$next" -le "$n" ]; do   # after a job that never reported back
        if [ -f "$W/$next.rc" ]; then
            report "$next"
        else
            failed=$((failed + 1))
            echo "  not ok - $(cat "$W/$next.suite") did not finish"
        fi
        next=$((next + 1))
    done
    cat "$W"/*.time "$times" 2>/dev/null |
        awk '!seen[substr($0, index($0, " ") + 1)]++' >"$times.tmp" && mv "$times.tmp" "$times"
    cat "$W"/*.cpu 2>/dev/null | sort -rn >"$cpu_times"
    echo "(full log: $log)"
    if [ "$skipped" -gt 0 ]; then
        echo "$passed passed, $failed failed, $skipped skipped"
    else
        echo "$passed passed, $failed failed"
    fi
    [ "$failed" -eq 0 ]
}
