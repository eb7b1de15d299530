#!/bin/sh
# concurrency.sh — two imports and several readers (show, search, list, report) at once on one
# KB: nothing is corrupted, readers never fail, and a writer that waits either gets its turn or
# exits 75 "knowledge base busy" once GPUWISE_BUSY_TIMEOUT_MS has passed.
. "$ROOT/tests/cli/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
    skip "concurrency" "sqlite3 not installed"
    exit 0
fi
GEN="$ROOT/tests/bench/gen_benchmarks.awk"
GPUS=rtx-3090,a100-sxm4-80gb,h100-sxm5,rtx-4090,l40s
awk -v n=1500 -v seed=21 -v prefix=conc-a -v gpus=$GPUS -f "$GEN" >"$T/a.csv"
awk -v n=1500 -v seed=22 -v prefix=conc-b -v gpus=$GPUS -f "$GEN" >"$T/b.csv"
KB=$(fresh_kb conc)
count_rows() { sqlite3 "$KB" "SELECT count(*) FROM benchmark WHERE workload LIKE '$1%'"; }
base=$(sqlite3 "$KB" 'SELECT count(*) FROM benchmark')
have_report=0
"$GW" help report >/dev/null 2>&1 && [ -f "$ROOT/examples/vision-team.lua" ] && have_report=1

# reader N: runs read commands until $T/stop exists; each failure is one line in $T/rfail.N.
reader() {
    i=0
    while [ ! -f "$T/stop" ]; do
        i=$((i + 1))
        case $(( (i + $1) % 4 )) in
            0) set -- "$1" kb show 3090; want="RTX 3090" ;;
            1) set -- "$1" kb search nvlink; want="nvlink" ;;
            2) set -- "$1" kb list --where "memory_gb>=48"; want="H100" ;;
            3) if [ $have_report = 1 ]; then
                   set -- "$1" report "$ROOT/examples/vision-team.lua" --format md; want="GPU"
               else
                   set -- "$1" kb show a100; want="A100"
               fi ;;
        esac
        n=$1
        shift
        "$GW" --kb "$KB" "$@" >"$T/rout.$n" 2>"$T/rerr.$n"
        rc=$?
        if [ $rc != 0 ] || ! grep -qi "$want" "$T/rout.$n"; then
            echo "$* exit $rc: $(head -2 "$T/rerr.$n")" >>"$T/rfail.$n"
        fi
        echo x >>"$T/rcount.$n"
        set -- "$n"
        # A pause between reads: readers that never rest take the cores from the imports
        # they are meant to run beside (and so make them, and themselves, run longer).
        sleep 0.1
    done
}

# readers_running N...: each of these readers has finished a read.
readers_running() {
    for n in "$@"; do [ -f "$T/rcount.$n" ] || return 1; done
}

# ---- 1. a patient writer: both imports succeed, one after the other ----------------------
rm -f "$T/stop"
for n in 1 2 3 4; do reader $n & done
wait_until 30 readers_running 1 2 3 4 ||
    fail "concurrency: the readers run before the imports start" "$(cat "$T"/rerr.* 2>/dev/null | head -3)"
GPUWISE_BUSY_TIMEOUT_MS=60000 "$GW" --kb "$KB" kb import "$T/a.csv" >"$T/a.out" 2>"$T/a.err" &
pa=$!
GPUWISE_BUSY_TIMEOUT_MS=60000 "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/b.csv" \
    >"$T/b.out" 2>"$T/b.err" &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
touch "$T/stop"
wait
check_eq "concurrency: import A with a long busy timeout succeeds" "$ra" 0
check_eq "concurrency: import B (plugin) with a long busy timeout succeeds" "$rb" 0
check_eq "concurrency: both imports stored all 1500 rows each" \
    "$(count_rows conc-a) $(count_rows conc-b)" "1500 1500"
check_eq "concurrency: benchmark rows = shipped + 3000" \
    "$(sqlite3 "$KB" 'SELECT count(*) FROM benchmark')" $((base + 3000))
check_eq "concurrency: integrity_check ok after two imports and readers" \
    "$(sqlite3 "$KB" 'PRAGMA integrity_check')" ok
run "$GW" --kb "$KB" kb check
check_rc "concurrency: kb check passes afterwards" 0
reads=$(cat "$T"/rcount.* 2>/dev/null | wc -l)
if [ -z "$(cat "$T"/rfail.* 2>/dev/null)" ] && [ "$reads" -gt 0 ]; then
    pass "concurrency: $reads reads during the imports all succeeded"
else
    fail "concurrency: reads during the imports all succeeded" \
        "$(cat "$T"/rfail.* 2>/dev/null | head -3)"
fi

# ---- 2. an impatient writer: busy after its timeout, nothing half-written ------------------
KB=$(fresh_kb conc2)
rm -f "$T/stop" "$T"/rfail.* "$T"/rcount.*
awk -v n=40000 -v seed=23 -v prefix=conc-c -v gpus=$GPUS -f "$GEN" >"$T/c.csv"
for n in 1 2; do reader $n & done
"$GW" --kb "$KB" kb import "$T/c.csv" >"$T/c.out" 2>"$T/c.err" &
pc=$!
# Once the long import holds the write lock, the impatient writer starts: 40000 rows keep the
# lock far longer than its 200 ms timeout.
wait_until 30 write_locked "$KB" ||
    fail "concurrency: the long import takes the write lock" "$(head -3 "$T/c.err")"
start=$(date +%s%3N)
GPUWISE_BUSY_TIMEOUT_MS=200 "$GW" --kb "$KB" kb import "$T/a.csv" >"$T/a.out" 2>"$T/a.err"
ra=$?
end=$(date +%s%3N)
holder_running=0
kill -0 $pc 2>/dev/null && holder_running=1
wait $pc
rc_c=$?
touch "$T/stop"
wait
check_eq "concurrency: the long import succeeds" "$rc_c" 0
if [ $ra = 75 ]; then
    pass "concurrency: the impatient writer exits 75"
    if grep -q "knowledge base busy" "$T/a.err"; then
        pass "concurrency: it says knowledge base busy"
    else
        fail "concurrency: it says knowledge base busy" "$(cat "$T/a.err")"
    fi
    check_eq "concurrency: it stored nothing" "$(count_rows conc-a)" 0
    if [ $((end - start)) -ge 200 ]; then
        pass "concurrency: it waited the busy timeout ($((end - start)) ms >= 200)"
    else
        fail "concurrency: it waited the busy timeout" "$((end - start)) ms"
    fi
elif [ $holder_running = 1 ]; then
    fail "concurrency: the impatient writer exits 75" "exit $ra while the long import still ran"
elif [ $ra = 0 ]; then
    # The long import finished first on a fast machine: then the second one simply ran.
    check_eq "concurrency: the second writer stored all its rows" "$(count_rows conc-a)" 1500
else
    fail "concurrency: the impatient writer exits 75 or 0" "exit $ra: $(cat "$T/a.err")"
fi
check_eq "concurrency: the long import stored all 40000 rows" "$(count_rows conc-c)" 40000
check_eq "concurrency: integrity_check ok after a busy writer" \
    "$(sqlite3 "$KB" 'PRAGMA integrity_check')" ok
if [ -z "$(cat "$T"/rfail.* 2>/dev/null)" ]; then
    pass "concurrency: reads beside a busy writer all succeeded"
else
    fail "concurrency: reads beside a busy writer all succeeded" \
        "$(cat "$T"/rfail.* 2>/dev/null | head -3)"
fi
