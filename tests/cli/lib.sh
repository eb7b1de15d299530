# tests/cli/lib.sh — sourced by every end-to-end script.  Each check prints one line:
# "ok - NAME", "not ok - NAME: why" or "skip - NAME: why"; tests/run.sh counts them.
GW="${GPUWISE_BIN:?run through make test}"
ROOT="${ROOT:-$(pwd)}"
SHARED="${SHARED:-$ROOT/../shared}"
TESTDATA="$SHARED/testdata"
FIX="$ROOT/tests/fixtures"
T=$(mktemp -d "${TMPDIR:-/tmp}/gwtest.XXXXXX")
trap 'rm -rf "$T"' EXIT
# A suite stopped by a signal (run.sh's timeout, ^C) still removes its folder.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# Keep the user's real XDG folders out of every test.
export XDG_DATA_HOME="$T/xdg-data" XDG_CONFIG_HOME="$T/xdg-config" NO_COLOR=1
unset GPUWISE_KB

pass() { echo "ok - $1"; }
fail() { echo "not ok - $1${2:+: $2}"; }
skip() { echo "skip - $1: $2"; }

# run CMD...: stdout in $OUT, stderr in $ERR, exit status in $RC.
run() {
    "$@" >"$T/.out" 2>"$T/.err" </dev/null
    RC=$?
    # An empty file is not read: each cat is a process, and most commands print no stderr.
    OUT= ERR=
    if [ -s "$T/.out" ]; then OUT=$(cat "$T/.out"); fi
    if [ -s "$T/.err" ]; then ERR=$(cat "$T/.err"); fi
}

# The shipped KB: the one built beside the binary under test when there is one (make asan's
# build-asan/gpuwise.db), so that a test never mixes one build's program with another's KB.
SHIPPED_KB="$ROOT/kb/gpuwise.db"
[ -f "${GPUWISE_BUILD:-}/gpuwise.db" ] && SHIPPED_KB="$GPUWISE_BUILD/gpuwise.db"

# A private copy of the shipped KB; prints its path.
fresh_kb() {
    _kb="$T/kb-$$-${1:-x}.db"
    cp "$SHIPPED_KB" "$_kb" || return 1
    echo "$_kb"
}

# assumed_shares_kb NAME: a copy of the shipped KB without its measured language-model rows
# (tokens/s), which would calibrate a language model's utilisation and serving shares
# (tests/cli/llm_calibration.sh): the model's arithmetic checked at the KB's assumed shares.
assumed_shares_kb() {
    _kb=$(fresh_kb "$1") && sqlite3 "$_kb" "DELETE FROM benchmark WHERE unit = 'tokens/s'" &&
        echo "$_kb"
}

# wait_until SECONDS CMD...: runs CMD every 20 ms until it succeeds; fails once SECONDS have
# passed.  Tests wait for what another process does with this, never for a fixed time.
wait_until() {
    _tries=$(($1 * 50))
    shift
    until "$@"; do
        _tries=$((_tries - 1))
        [ "$_tries" -gt 0 ] || return 1
        sleep 0.02
    done
}
# write_locked DB: another connection holds DB's write lock (sqlite3's own BEGIN IMMEDIATE fails
# at once: it waits for no lock unless told to).  Needs sqlite3.
write_locked() { ! sqlite3 "$1" 'BEGIN IMMEDIATE; ROLLBACK;' >/dev/null 2>&1; }

check_rc() {      # NAME EXPECTED
    if [ "$RC" = "$2" ]; then pass "$1"; else fail "$1" "exit $RC, expected $2; stderr: $(echo "$ERR" | head -3)"; fi
}
check_out() {     # NAME TEXT: stdout contains TEXT
    case "$OUT" in *"$2"*) pass "$1" ;; *) fail "$1" "stdout lacks '$2': $(echo "$OUT" | head -5)" ;; esac
}
check_out_not() { # NAME TEXT: stdout does not contain TEXT
    case "$OUT" in *"$2"*) fail "$1" "stdout has '$2'" ;; *) pass "$1" ;; esac
}
check_err() {     # NAME TEXT: stderr contains TEXT
    case "$ERR" in *"$2"*) pass "$1" ;; *) fail "$1" "stderr lacks '$2': $(echo "$ERR" | head -3)" ;; esac
}
check_eq() {      # NAME ACTUAL EXPECTED
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}
# check_num NAME ACTUAL EXPECTED TOLERANCE: |actual - expected| <= tolerance
check_num() {
    if awk -v a="$2" -v e="$3" -v t="$4" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(a != "" && d <= t) }'; then
        pass "$1"
    else
        fail "$1" "got '$2', expected $3 +/- $4"
    fi
}
# jqr EXPR: runs jq -r EXPR on $OUT (the last command's stdout).
# (A here-document, not printf into a pipe: one process fewer for each of some 600 calls.)
jqr() {
    jq -r "$1" <<EOF
$OUT
EOF
}
# jq_all NAME EXPR [NAME EXPR]...: sets each shell variable NAME to what `jqr EXPR` prints (one
# line per output; a string as is, anything else as compact JSON), all from ONE jq process over
# $OUT: a jq start costs some 25 ms of CPU (45 ms on decide's output), and a suite checks the same
# output many times.  Each value comes back quoted by @sh and is read with eval, so any text
# (newlines included) survives; an expression that fails leaves its NAME empty, not the others.
jq_all() {
    _jq_prog=
    while [ $# -ge 2 ]; do
        eval "$1="
        _jq_prog="$_jq_prog\"$1=\" + ((try ([\$in[] | $2] | map(if type == \"string\" then . else tojson end) | join(\"\\n\")) catch \"\") | @sh),"
        shift 2
    done
    eval "$(jq -nr "[inputs] as \$in | ${_jq_prog%,}" <<EOF
$OUT
EOF
)"
}
have_testdata() { [ -d "$TESTDATA" ]; }

# wl NAME BODY: a workload file $T/NAME.lua returning { BODY, and the common fields } (8 h a
# day, 12 months, USD, electricity at 0.1).  A suite with a family of workloads of its own
# (catalog.sh, demand.sh, layouts.sh, production.sh) defines its own wl in its place.
wl() {
    cat >"$T/$1.lua" <<EOF
return { $2,
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
}
