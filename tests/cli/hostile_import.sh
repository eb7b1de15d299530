#!/bin/sh
# tests/cli/hostile_import.sh — imports of repetitive rows stay linear (issue 30 item 8): 20,000
# rows that share everything an old index named (GPU, workload, metric, value) and differ in one
# other column, rows that are all identical, and prices that share one identity.  Each import
# is held to 10 s of CPU time (user + system, which a loaded machine does not inflate as it does
# the wall clock): the quadratic look-up took 111 s for the first file; linear, it takes 0.5 s,
# and the prices under 2 s.  The rules checked beside the time: benchmark rows have no identity
# (a row is itself), so distinct rows are all added and identical ones stored once; price rows
# of one identity (a range's ends) are all kept, each finds its own row again when imported
# again, and edited, each updates one stored end, in order.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ] || [ ! -x /usr/bin/time ]; then
    skip "hostile import" "no built KB (run make) or no /usr/bin/time"
    exit 0
fi
N=20000
BENCH_HEADER=$(head -1 "$ROOT/kb/data/benchmarks.csv")   # 27 columns since schema version 17
PRICE_HEADER=$(head -1 "$ROOT/kb/data/prices.csv")

# rows FILE HEADER AWK-PRINTF-FORMAT: N rows, %d the row's number (1..N) where the format has it.
rows() {
    { echo "$2"; awk -v n="$N" -v f="$3" 'BEGIN { for (i = 1; i <= n; i++) printf f "\n", i }'; } >"$1"
}
# import_json NAME KB FILE: `kb import --json`, $OUT the report; passes when it succeeds within
# 10 s of CPU time (and 120 s of wall clock, a guard for a loaded machine).
import_json() {
    run /usr/bin/time -f "%U %S" -o "$T/cpu" timeout 120 "$GW" --kb "$2" kb import --json "$3"
    _cpu=$(tail -1 "$T/cpu" | awk '{ printf "%.2f", $1 + $2 }')
    if [ "$RC" = 124 ]; then
        fail "$1" "not done within 120 s (quadratic?)"
    elif [ "$RC" != 0 ]; then
        check_rc "$1" 0
    elif awk -v c="$_cpu" 'BEGIN { exit !(c < 10) }'; then
        pass "$1 ($_cpu s CPU)"
    else
        fail "$1" "$_cpu s of CPU time, more than 10 (quadratic?)"
    fi
}
# counts TABLE: "added,updated,unchanged" of the last import's report.
counts() { jqr ".tables.$1 | [.added, .updated, .unchanged] | map(tostring) | join(\",\")"; }

# --- 20,000 results of one GPU, workload, metric and value, batch 1..20,000 -------------------
KB=$(fresh_kb bench)
rows "$T/batch.csv" "$BENCH_HEADER" \
    "rtx-4090,1,resnet50,train_throughput,1000,images/s,fp16,%d,pytorch,,,lambda-gpu-benchmarks,,,,,,,,,,,,,,,"
import_json "20,000 results sharing GPU, workload, metric and value: imported in linear time" \
    "$KB" "$T/batch.csv"
# every row differs from the others in its batch: 20,000 added
check_eq "20,000 distinct results: all added" "$(counts benchmarks)" "20000,0,0"
import_json "the same 20,000 again: in linear time" "$KB" "$T/batch.csv"
# each finds its identical stored row: nothing added, 20,000 unchanged
check_eq "the same 20,000 again: all unchanged" "$(counts benchmarks)" "0,0,20000"
check_eq "the KB holds the 20,000 once" \
    "$(sqlite3 "$KB" "SELECT count(*) FROM benchmark WHERE gpu = 'rtx-4090' AND value = 1000 AND workload = 'resnet50'")" \
    "20000"

# --- 20,000 identical results: one stored, the rest found identical ---------------------------
KB=$(fresh_kb same)
rows "$T/same.csv" "$BENCH_HEADER" \
    "rtx-4090,1,resnet50,train_throughput,1000,images/s,fp16,64,pytorch,,,lambda-gpu-benchmarks,same row,,,,,,,,,,,,,,"
import_json "20,000 identical results: imported in linear time" "$KB" "$T/same.csv"
# the first is added; the other 19,999 find it
check_eq "20,000 identical results: 1 added, 19,999 unchanged" "$(counts benchmarks)" "1,0,19999"

# --- 20,000 results that differ in the note alone (the last text column of the identity) -----
KB=$(fresh_kb note)
rows "$T/note.csv" "$BENCH_HEADER" \
    "rtx-4090,1,resnet50,train_throughput,1000,images/s,fp16,64,pytorch,,,lambda-gpu-benchmarks,run %d,,,,,,,,,,,,,,"
import_json "20,000 results differing in their note: imported in linear time" "$KB" "$T/note.csv"
check_eq "20,000 results differing in their note: all added" "$(counts benchmarks)" "20000,0,0"

# --- prices: 20,000 offers of one GPU, provider, amount and date in different instances -------
KB=$(fresh_kb offers)
rows "$T/instances.csv" "$PRICE_HEADER" \
    "rtx-4090,cloud,0.5,USD,hour,1,,acme,inst-%d,0,2026-01-01,lambda-gpu-benchmarks,,,,,,,,"
import_json "20,000 offers sharing GPU, provider, amount and date: imported in linear time" \
    "$KB" "$T/instances.csv"
# each instance is an identity of its own: 20,000 added
check_eq "20,000 offers of different instances: all added" "$(counts prices)" "20000,0,0"

# --- prices: 20,000 amounts of one identity (a range of 20,000 ends) --------------------------
KB=$(fresh_kb ends)
# amounts 0.500001 .. 0.520000 ("0.5" then i in five digits): all different
rows "$T/ends.csv" "$PRICE_HEADER" \
    "rtx-4090,cloud,0.5%05d,USD,hour,1,,acme,x,0,2026-01-01,lambda-gpu-benchmarks,,,,,,,,"
import_json "20,000 prices of one identity: imported in linear time" "$KB" "$T/ends.csv"
# a row of a shared identity updates only a stored row no earlier row took: none is stored
# before, so all 20,000 are added
check_eq "20,000 prices of one identity: all added" "$(counts prices)" "20000,0,0"
import_json "the same 20,000 prices again: in linear time" "$KB" "$T/ends.csv"
check_eq "the same 20,000 prices again: all unchanged" "$(counts prices)" "0,0,20000"
# one end edited (0.500001 -> 0.9): it updates the one stored end it no longer matches exactly,
# the closest untaken row of its identity; the other 19,999 are unchanged
sed 's/^\(rtx-4090,cloud,\)0\.500001,/\10.9,/' "$T/ends.csv" >"$T/ends-edited.csv"
import_json "20,000 prices of one identity, one edited: in linear time" "$KB" "$T/ends-edited.csv"
check_eq "one end of 20,000 edited: 1 updated, 19,999 unchanged" "$(counts prices)" "0,1,19999"
# every end edited (0.5xxxxx -> 0.6xxxxx, same order) and one more end, 0.7: no row is found
# identical, so each updates the open row of its identity with the fewest other columns
# different among the oldest few; every stored end differs in the amount alone, so the oldest:
# the 20,000 update the 20,000 stored ends in order, and the 20,001st finds every end taken
# and is added.  Comparing each row with every open row of the group took 13.3 s for 4,000.
{ sed 's/^\(rtx-4090,cloud,\)0\.5/\10.6/' "$T/ends.csv"
  echo "rtx-4090,cloud,0.7,USD,hour,1,,acme,x,0,2026-01-01,lambda-gpu-benchmarks,,,,,,,,"; } \
    >"$T/ends-all.csv"
import_json "20,000 prices of one identity, all edited: in linear time" "$KB" "$T/ends-all.csv"
check_eq "all 20,000 ends edited and one more: 1 added, 20,000 updated, 0 unchanged" \
    "$(counts prices)" "1,20000,0"
# in order: the oldest stored end (rowid order) holds the first edited amount, 0.600001, and
# the 20,001 ends of the identity are 0.600001 .. 0.620000 and 0.7, none left of 0.5xxxxx
check_eq "the edited ends updated the stored ends in order" \
    "$(sqlite3 "$KB" "SELECT amount FROM price WHERE provider = 'acme' AND instance = 'x' ORDER BY rowid LIMIT 1")" \
    "0.600001"
check_eq "the identity holds 20,001 ends, none old" \
    "$(sqlite3 "$KB" "SELECT count(*), sum(amount < 0.6) FROM price WHERE provider = 'acme' AND instance = 'x'")" \
    "20001|0"

# --- the identity indexes hold every column a row is compared on ------------------------------
# A column added to a table later and left out of its index makes rows that differ in it alone
# scan each other again.  kb/data's headers are the tables' columns (kb_table.c).
KB=$(fresh_kb index)
for pair in benchmark_identity:benchmarks price_identity:prices claim_identity:claims; do
    index=${pair%%:*} file=${pair#*:}
    got=$(sqlite3 "$KB" "SELECT name FROM pragma_index_info('$index') ORDER BY name" | tr '\n' ',')
    want=$(head -1 "$ROOT/kb/data/$file.csv" | tr ',' '\n' | sort | tr '\n' ',')
    check_eq "$index holds every column of $file.csv" "$got" "$want"
done
