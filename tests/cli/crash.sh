#!/bin/sh
# crash.sh — the KB survives imports that are killed (SIGKILL at random moments), interrupted
# (SIGINT, SIGTERM), or cut short by a full disk (RLIMIT_FSIZE), and a corrupt or foreign file
# given as the KB is refused and never written.  CRASH_RUNS sets the SIGKILL runs: 16 in make
# test (8 a mode, a few seconds), 200 in make check-long (the full sweep, about two minutes).
. "$ROOT/tests/cli/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
    skip "crash safety" "sqlite3 not installed"
    exit 0
fi
GEN="$ROOT/tests/bench/gen_benchmarks.awk"
GPUS=rtx-3090,a100-sxm4-80gb,h100-sxm5,rtx-4090,l40s
BASE=$(fresh_kb base)
awk -v n=3000 -v seed=7 -v prefix=crash -v gpus=$GPUS -f "$GEN" >"$T/rows.csv"
awk -v n=20000 -v seed=8 -v prefix=intr -v gpus=$GPUS -f "$GEN" >"$T/big-plain.csv"
# An importer plugin hands back at most LUAAPI_MAX_ITEMS (100000) values: 6000 rows of 13.
awk -v n=6000 -v seed=8 -v prefix=intr -v gpus=$GPUS -f "$GEN" >"$T/big-plugin.csv"

now_ms() { date +%s%3N; }
integrity() { sqlite3 "$1" 'PRAGMA integrity_check' 2>&1; }
export_of() { "$GW" --kb "$1" kb export >"$2" 2>&1; }
reset_kb() {   # [DB]: DB (default $T/k.db) is a fresh copy of the shipped KB
    _db=${1:-$T/k.db}
    rm -f "$_db" "$_db-wal" "$_db-shm"
    cp "$BASE" "$_db"
}

export_of "$BASE" "$T/before.txt"

# ---- SIGKILL at random moments -----------------------------------------------------------
# kill_runs MODE N: the export after a finished import, and how long one takes; then N imports
# killed at delays spread over 0 .. 3 x that (the suites run side by side, so a later import can
# take longer than the one timed: 1.2 x once left no kill after the commit, and 2 x under a heavy
# load left none of 8).  Its own KB and files ($T/MODE.*), so that the two modes run side by side.
kill_runs() {
    mode=$1 n=$2
    k="$T/$mode.k.db"
    if [ $mode = plugin ]; then set -- --with gpuwise-csv; else set --; fi
    reset_kb "$k"
    t0=$(now_ms)
    "$GW" --kb "$k" kb import "$@" "$T/rows.csv" >/dev/null 2>"$T/$mode.err"
    RC=$?
    t1=$(now_ms)
    ERR=$(cat "$T/$mode.err")
    check_rc "crash: $mode import of 3000 rows completes" 0
    export_of "$k" "$T/$mode.after.txt"
    dur=$((t1 - t0))
    # One random delay in each of N equal slices of 0 .. 3 x that: even 8 kills reach every
    # stretch of the import, the commit's neighbourhood included, and land on both sides of it.
    awk -v n="$n" -v d="$dur" -v s=$((dur + 11)) \
        'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", (i + rand()) / n * d * 3 / 1000 }' \
        >"$T/$mode.delays"
    bad_integrity=0 bad_export=0 n_before=0 n_after=0 runs=0
    while read -r delay; do
        reset_kb "$k"
        "$GW" --kb "$k" kb import "$@" "$T/rows.csv" >/dev/null 2>&1 &
        pid=$!
        sleep "$delay"   # the moment of the kill, not a wait for anything
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        runs=$((runs + 1))
        ic=$(integrity "$k")
        if [ "$ic" != ok ]; then
            bad_integrity=$((bad_integrity + 1))
            echo "# run $runs (delay ${delay}s): integrity_check: $ic" | head -3
        fi
        export_of "$k" "$T/$mode.now.txt"
        if cmp -s "$T/$mode.now.txt" "$T/before.txt"; then
            n_before=$((n_before + 1))
        elif cmp -s "$T/$mode.now.txt" "$T/$mode.after.txt"; then
            n_after=$((n_after + 1))
        else
            bad_export=$((bad_export + 1))
            # the first one's difference from the export after, in the log
            [ $bad_export = 1 ] && diff "$T/$mode.after.txt" "$T/$mode.now.txt" | head -8 |
                sed "s/^/# run $runs (delay ${delay}s): /"
        fi
    done <"$T/$mode.delays"
    echo "# $mode: $runs kills over ${dur} ms imports: $n_before left the KB as before, $n_after as after"
    check_eq "crash: SIGKILL during $mode import ($runs runs): integrity_check ok" "$bad_integrity" 0
    check_eq "crash: SIGKILL during $mode import: export is the one before or the one after" \
        "$bad_export" 0
    # The delays straddle the import, so both outcomes must have happened.
    if [ $n_before -gt 0 ] && [ $n_after -gt 0 ]; then
        pass "crash: $mode kills landed both before and after the commit"
    else
        fail "crash: $mode kills landed both before and after the commit" \
            "before $n_before, after $n_after"
    fi
}
# The two modes are independent: they run at once (on two cores, half the time), and their
# reports are printed in order once both are done.
RUNS=${CRASH_RUNS:-16}
for mode in plain plugin; do
    kill_runs $mode $((RUNS / 2)) >"$T/$mode.kills" 2>&1 &
done
wait
cat "$T/plain.kills" "$T/plugin.kills"

# ---- SIGINT / SIGTERM: rolled back, 130 / 143 ------------------------------------------
for mode in plain plugin; do
    if [ $mode = plugin ]; then set -- --with gpuwise-csv; else set --; fi
    reset_kb
    run "$GW" --kb "$T/k.db" kb import "$@" "$T/big-$mode.csv"
    check_rc "crash: $mode import of the big file completes" 0
    for sig in INT TERM; do
        want=130
        [ $sig = TERM ] && want=143
        reset_kb
        "$GW" --kb "$T/k.db" kb import "$@" "$T/big-$mode.csv" >"$T/.out" 2>"$T/.err" &
        pid=$!
        # The signal comes once the import holds the write lock: after main() installed the
        # handlers, inside the transaction, which lasts far longer (the whole import) than
        # this poll's 20 ms steps.
        wait_until 30 write_locked "$T/k.db" ||
            fail "crash: $mode import takes the write lock" "$(head -2 "$T/.err")"
        kill -$sig $pid
        wait $pid
        RC=$?
        ERR=$(cat "$T/.err")
        check_rc "crash: SIG$sig during $mode import exits $want" $want
        check_err "crash: SIG$sig during $mode import says so" "interrupted"
        check_eq "crash: SIG$sig during $mode import: integrity_check ok" "$(integrity "$T/k.db")" ok
        export_of "$T/k.db" "$T/now.txt"
        if cmp -s "$T/now.txt" "$T/before.txt"; then
            pass "crash: SIG$sig during $mode import: KB unchanged"
        else
            fail "crash: SIG$sig during $mode import: KB unchanged" "export differs"
        fi
    done
done

# ---- a full disk (RLIMIT_FSIZE) -------------------------------------------------------
# ulimit -f counts 512-byte blocks; the limit leaves 64 KiB above the KB, far less than the
# write-ahead log of 6000 or 20000 rows needs.
reset_kb
size=$(wc -c <"$T/k.db")
blocks=$(( (size + 65536) / 512 ))
for mode in plain plugin; do
    if [ $mode = plugin ]; then with="--with gpuwise-csv"; else with=""; fi
    reset_kb
    run sh -c "ulimit -f $blocks; exec \"$GW\" --kb \"$T/k.db\" kb import $with \"$T/big-$mode.csv\""
    check_rc "crash: file size limit during $mode import exits 74" 74
    check_err "crash: file size limit during $mode import names the KB" "$T/k.db"
    check_err "crash: file size limit during $mode import says nothing was written" \
        "nothing was written"
    check_eq "crash: file size limit during $mode import: integrity_check ok" \
        "$(integrity "$T/k.db")" ok
    export_of "$T/k.db" "$T/now.txt"
    if cmp -s "$T/now.txt" "$T/before.txt"; then
        pass "crash: file size limit during $mode import: KB unchanged"
    else
        fail "crash: file size limit during $mode import: KB unchanged" "export differs"
    fi
done

# ---- corrupt and foreign files as the KB: refused, never written -----------------------
C="$T/corrupt"
mkdir -p "$C"
size=$(wc -c <"$BASE")
head -c $((size / 2)) "$BASE" >"$C/truncated.db"
head -c 4096 "$BASE" >"$C/first-page.db"
awk 'BEGIN { srand(3); for (i = 0; i < 50000; i++) printf "%c", 32 + int(rand() * 90) }' \
    >"$C/random.db"
{ printf 'SQLite format 3'; printf '\000'; cat "$C/random.db"; } >"$C/bad-header.db"
sqlite3 "$C/foreign.db" 'CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT);
                         INSERT INTO photos (path) VALUES ('"'"'a.jpg'"'"')'
printf 'id,name\nrtx-3090,GeForce RTX 3090\n' >"$C/text.db"
# A KB whose middle pages are overwritten: the header and schema still read.
cp "$BASE" "$C/scrambled.db"
dd if="$C/random.db" of="$C/scrambled.db" bs=4096 seek=20 count=8 conv=notrunc 2>/dev/null
for f in truncated first-page random bad-header foreign text scrambled; do
    db="$C/$f.db"
    cp "$db" "$C/$f.orig"
    for cmd in "kb show 3090" "kb search nvlink" "kb list" "kb export" "kb import $T/rows.csv" \
               "kb import --with gpuwise-csv $T/rows.csv"; do
        label=$(echo "$cmd" | sed "s|$T/||g")
        # shellcheck disable=SC2086
        run "$GW" --kb "$db" $cmd
        if [ "$RC" = 0 ] && [ $f = scrambled ]; then
            # A damaged page that this command never reads is not noticed; it must not write.
            case "$cmd" in "kb import"*) fail "corrupt $f: $label refused" "exit 0" ;; esac
        elif [ "$RC" = 65 ] || [ "$RC" = 74 ]; then
            case "$ERR" in
                *"$db"*) pass "corrupt $f: $label refused with an error naming the file" ;;
                *) fail "corrupt $f: $label refused with an error naming the file" "$ERR" ;;
            esac
        else
            fail "corrupt $f: $label refused" "exit $RC: $(echo "$ERR" | head -2)"
        fi
        if cmp -s "$db" "$C/$f.orig"; then
            pass "corrupt $f: $label leaves the file untouched"
        else
            fail "corrupt $f: $label leaves the file untouched" "bytes differ"
        fi
    done
done
