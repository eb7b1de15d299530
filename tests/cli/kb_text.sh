#!/bin/sh
# The KB's text form (issue 18): one CSV reader decides every record, batches of an importer
# included; export -> import -> export is exact; bytes that are not text are refused with
# file:line:column; --json stays JSON whatever the KB holds; import counts are true; bulk
# full-text indexing equals what the triggers build; memory does not grow with the file.
# The generated-input harnesses are tests/fuzz/kb_text.py (make fuzz runs them longer).
. "$ROOT/tests/cli/lib.sh"
KFIX="$FIX/kb"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "kb_text: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    # python3 is a test dependency (.ci/deps.sh --test): Python's csv module is the other reader
    skip "kb_text" "python3 is not installed (apt-get install python3)"
    exit 0
fi
json_ok() { printf '%s' "$OUT" | python3 -m json.tool >/dev/null 2>&1; }

# --- the fixture: '#' at a line start inside a quoted field, an alias row "gpu,alias" --------
run "$GW" --kb "$T/rt1.db" kb import "$KFIX/text/roundtrip.csv"
check_rc "round-trip fixture imports into an empty KB" 0
"$GW" --kb "$T/rt1.db" kb export -o "$T/e1.csv"
run "$GW" --kb "$T/rt2.db" kb import "$T/e1.csv"
check_rc "its export imports into another empty KB" 0
"$GW" --kb "$T/rt2.db" kb export -o "$T/e2.csv"
if cmp -s "$T/e1.csv" "$T/e2.csv"; then pass "export, import, export: the same bytes"; else
    fail "export, import, export: the same bytes" "$(diff "$T/e1.csv" "$T/e2.csv" | head -5)"; fi
check_eq "the note keeps its line that starts with '#'" \
    "$(sqlite3 "$T/rt2.db" "SELECT note FROM source WHERE id = 'rt-src'")" \
    "first line
# second line starts with a hash, inside the quotes
third line, with \"quotes\" and a comma"
check_eq "the alias row 'gpu,alias' is a row, not a header (2 aliases)" \
    "$(sqlite3 "$T/rt2.db" "SELECT group_concat(alias, '|') FROM (SELECT alias FROM gpu_alias WHERE gpu = 'gpu' ORDER BY alias)")" \
    "#1 card|alias"

# --- generated inputs: hostile CSVs against Python's csv, random KBs round-tripped -----------
python3 "$ROOT/tests/fuzz/kb_text.py" diff "$GW" "$SHIPPED_KB" "$T" --seed 18 --cases 30
python3 "$ROOT/tests/fuzz/kb_text.py" roundtrip "$GW" "$SHIPPED_KB" "$T" --seed 18 --cases 25

# --- importer batches end where libcsv's records end ------------------------------------------
# 2,012 records in gpuwise-csv's columns; record 1999's quoted note holds a line that looks like
# a row ("8x RTX 4090, 999,999 images/s") and spans the first batch's end (batch_rows 2000).
python3 - "$T/batch.csv" <<'EOF'
import sys
with open(sys.argv[1], "w", newline="") as f:
    f.write("gpu,gpu_count,workload,metric,value,unit,note\n")
    for i in range(1, 2013):
        note = "run %d" % i
        if i == 1999:
            note = '"note with a row inside:\n8x RTX 4090,8,resnet50,train,999999,images/s,x\nend"'
        f.write("RTX 3090,1,batch-test,train_throughput,%d,images/s,%s\n" % (i, note))
EOF
expected=$(python3 -c 'import csv,sys; print(sum(1 for r in csv.reader(open(sys.argv[1], newline="")) if r) - 1)' "$T/batch.csv")
check_eq "Python's csv reads 2012 records" "$expected" "2012"
KB=$(fresh_kb batch)
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/batch.csv"
check_rc "gpuwise-csv import of 2012 records: exit 0" 0
check_eq "gpuwise stores the 2012 records Python reads" \
    "$(sqlite3 "$KB" "SELECT count(*) FROM benchmark WHERE workload = 'batch-test'")" "$expected"
check_eq "no row made of the quoted note's text" \
    "$(sqlite3 "$KB" "SELECT count(*) FROM benchmark WHERE value = 999999")" "0"
check_eq "record 1999 keeps its three-line note" \
    "$(sqlite3 "$KB" "SELECT note FROM benchmark WHERE workload = 'batch-test' AND value = 1999")" \
    "note with a row inside:
8x RTX 4090,8,resnet50,train,999999,images/s,x
end"
# A stray quote in an unquoted field: readers disagree, so the file is refused, naming the line.
sed '5s/^RTX 3090,1,batch-test/RTX 3090,1,batch"test/' "$T/batch.csv" >"$T/stray.csv"
KB=$(fresh_kb stray)
cp "$KB" "$T/stray-before.db"
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/stray.csv"
check_rc "a stray quote: exit 65" 65
check_err "a stray quote: file and line named" "stray.csv:5: broken CSV quoting: a quote inside an unquoted field"
if cmp -s "$KB" "$T/stray-before.db"; then pass "a stray quote: KB unchanged"; else fail "a stray quote: KB changed"; fi
run "$GW" --kb "$KB" kb import "$KFIX/bad/stray-quote.csv"
check_rc "a stray quote in a table CSV: exit 65" 65

# --- bytes that are not text: file, line and column -----------------------------------------
printf 'id,title\nok-src,Fine\nbad-src,Caf\351 au lait\n' >"$T/latin1.csv"
run "$GW" --kb "$(fresh_kb t1)" kb import "$T/latin1.csv"
check_rc "Latin-1 byte: exit 65" 65
# line 3, "bad-src,Caf" is 11 characters: the byte is the 12th
check_eq "Latin-1 byte: file:line:column and the byte" "$ERR" \
    "gpuwise kb import: $T/latin1.csv:3:12: invalid UTF-8 (byte 0xE9): not text"
printf 'id,title\nbad-src,"Caf\303\251 \033[31mred"\n' >"$T/escape.csv"
run "$GW" --kb "$(fresh_kb t2)" kb import "$T/escape.csv"
# line 2: b,a,d,-,s,r,c,",",C,a,f,é,space: ESC is character 15 (é is one character)
check_eq "an escape character: file:line:column" "$ERR" \
    "gpuwise kb import: $T/escape.csv:2:15: a control character (U+001B); only tab and newline may be in a field"
printf 'id,title\nnul-src,a\000b\n' >"$T/nul.csv"
run "$GW" --kb "$(fresh_kb t3)" kb import "$T/nul.csv"
check_eq "a NUL byte: file:line:column" "$ERR" \
    "gpuwise kb import: $T/nul.csv:2:10: a control character (U+0000); only tab and newline may be in a field"
printf 'id,title\r\ncr-src,"one\rtwo"\r\n' >"$T/cr.csv"
run "$GW" --kb "$(fresh_kb t4)" kb import "$T/cr.csv"
check_rc "a lone CR inside a quoted value: exit 65" 65
check_err "a lone CR inside a value: named as a control character" "title: a control character (U+000D) at byte 4"
printf 'id,title,note\ntab-src,"tab\there","two\nlines"\n' >"$T/tab.csv"
run "$GW" --kb "$(fresh_kb t5)" kb import "$T/tab.csv"
check_rc "tab and newline in a value are text: exit 0" 0

# --- --json is JSON whatever the KB holds (rows written behind gpuwise's back) -----------------
KB=$(fresh_kb json)
sqlite3 "$KB" "INSERT INTO source (id, title, note, kind) VALUES ('raw-src', 'bad ' || CAST(X'FF01C3' AS TEXT) || ' end', 'ctl ' || CAST(X'1B00' AS TEXT), 'user')"
for cmd in "kb sources" "kb source raw-src" "kb search bad" "kb show 3090" "kb list"; do
    # shellcheck disable=SC2086
    run "$GW" --kb "$KB" --json $cmd
    if [ "$RC" = 0 ] && json_ok; then pass "--json $cmd: valid JSON"; else
        fail "--json $cmd: valid JSON" "exit $RC: $(printf '%s' "$OUT" | head -c 200)"; fi
done
run "$GW" --kb "$KB" --json kb source raw-src
# FF: not UTF-8; 01: a control character (text, escaped in JSON); C3 then a space: cut short
check_eq "a byte that is not UTF-8 reads as U+FFFD" "$(jqr '.title == "bad \ufffd\u0001\ufffd end"')" "true"

# --- import counts: added, updated, unchanged, removed -------------------------------------------
# (an import without --replace removes nothing: removed is 0 throughout; kb_edit.sh has --replace)
KB=$(fresh_kb counts)
printf 'id,title\ncount-src,First title\n' >"$T/src1.csv"
printf 'id,title\ncount-src,Second title\n' >"$T/src2.csv"
run "$GW" --kb "$KB" --json kb import "$T/src1.csv"
check_eq "a new source: 1 added" "$(jqr '.tables.sources | [.added, .updated, .unchanged, .removed] | join(",")')" "1,0,0,0"
run "$GW" --kb "$KB" --json kb import "$T/src1.csv"
check_eq "the same again: 1 unchanged" "$(jqr '.tables.sources | [.added, .updated, .unchanged, .removed] | join(",")')" "0,0,1,0"
run "$GW" --kb "$KB" --json kb import "$T/src2.csv"
check_eq "a new title: 1 updated" "$(jqr '.tables.sources | [.added, .updated, .unchanged, .removed] | join(",")')" "0,1,0,0"
run "$GW" --kb "$KB" kb import "$T/src1.csv"
check_out "text: the table's added, updated and removed" "sources    0 added, 1 updated, 0 removed"
head -7 "$T/batch.csv" >"$T/six.csv"   # the header and 6 records
run "$GW" --kb "$KB" --json kb import --with gpuwise-csv "$T/six.csv"
check_eq "gpuwise-csv, first time: 6 benchmarks and the file's source added" \
    "$(jqr '[.tables.benchmarks.added, .tables.benchmarks.unchanged, .tables.sources.added] | join(",")')" "6,0,1"
run "$GW" --kb "$KB" --json kb import --with gpuwise-csv "$T/six.csv"
check_eq "gpuwise-csv, the same file again: nothing added, 6 unchanged" \
    "$(jqr '[.tables.benchmarks.added, .tables.benchmarks.unchanged, .tables.sources.added] | join(",")')" "0,6,0"
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/six.csv"
check_out "the text report says the rows were there (6 benchmarks, the source)" "7 rows already there"

# --- errors echo the value and suggest the importer --------------------------------------------
run "$GW" --kb "$(fresh_kb e1)" kb import "$T/six.csv"
check_rc "a measurements CSV without --with: exit 65" 65
check_err "a measurements CSV: the importer suggested" "--with gpuwise-csv"
printf 'gpu,gpu_count,workload,metric,value,unit,source\nrtx-3090,1,w,m,"3,150",u,lambda-gpu-benchmarks\n' >"$T/comma.csv"
run "$GW" --kb "$(fresh_kb e2)" kb import "$T/comma.csv"
check_eq "a number with a comma: the value echoed" "$ERR" \
    "gpuwise kb import: $T/comma.csv:2: value: '3,150' is not a number"
printf 'gpu,gpu_count,workload,metric,value,unit\nRTX 3090,1,w,m,"3,150",u\n' >"$T/comma2.csv"
run "$GW" --kb "$(fresh_kb e3)" kb import --with gpuwise-csv "$T/comma2.csv"
check_err "through gpuwise-csv: the value echoed" "records[1].value: expected a number, got the text '3,150'"

# --- bulk full-text indexing is what the per-row triggers build -------------------------------
GPUS=$(sqlite3 "$SHIPPED_KB" "SELECT group_concat(id) FROM (SELECT id FROM gpu ORDER BY id LIMIT 10)")
awk -v n=3000 -v seed=7 -v prefix=fts -v gpus="$GPUS" -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/fts.csv"
A=$(fresh_kb fts-gw)
B=$(fresh_kb fts-sql)
run "$GW" --kb "$A" kb import "$T/fts.csv"
check_rc "3000 rows imported" 0
# The per-row triggers are made by each writing connection (kb/schema.sql's "-- connection"
# sections, schema version 18), so the sqlite3 shell makes them as gpuwise does.
sed -n '/^-- connection (views)/,$p' "$ROOT/kb/schema.sql" >"$T/connection.sql"
sqlite3 "$B" <<EOF
.read $T/connection.sql
.mode csv
.import $T/fts.csv staging
INSERT INTO benchmark (gpu, gpu_count, workload, metric, value, unit, precision, batch, framework,
    interconnect, power_w, source, note)
SELECT gpu, gpu_count, workload, metric, value, unit, NULLIF(precision, ''), NULLIF(batch, ''),
       NULLIF(framework, ''), NULLIF(interconnect, ''), NULLIF(power_w, ''), source,
       NULLIF(note, '') FROM staging;
DROP TABLE staging;
EOF
q="SELECT rowid, kind, ref, title, body FROM kb_fts WHERE kind = 'benchmark' ORDER BY rowid"
if [ "$(sqlite3 "$A" "$q" | cksum)" = "$(sqlite3 "$B" "$q" | cksum)" ]; then
    pass "the index holds what the triggers write, row for row"; else
    fail "the index holds what the triggers write, row for row"; fi
check_eq "FTS5 integrity-check passes" \
    "$(sqlite3 "$A" "INSERT INTO kb_fts(kb_fts, rank) VALUES ('integrity-check', 1); SELECT 'ok'" 2>&1)" "ok"
m="SELECT rowid FROM kb_fts WHERE kb_fts MATCH 'fts AND pytorch AND nvlink' ORDER BY rowid"
check_eq "search finds the same rows" "$(sqlite3 "$A" "$m" | cksum)" "$(sqlite3 "$B" "$m" | cksum)"
check_num "search finds new rows (about 3000 x 3/4 linked)" "$(sqlite3 "$A" "$m" | wc -l)" 2250 200
# The bulk import drops the connection's insert triggers and makes them again at its end as
# the connection's own (TEMP): none may land in the file, where every reader would parse it.
check_eq "the triggers made again after the import stay out of the file" \
    "$(sqlite3 "$A" "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ('benchmark_fts_ins', 'price_fts_ins', 'claim_fts_ins')")" "0"
run "$GW" --kb "$A" kb check
check_rc "kb check passes after a bulk import" 0

# --- memory does not grow with the file -------------------------------------------------------
peak_kb() {   # peak RSS in KB of the command
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
awk -v n=5000 -v seed=3 -v prefix=mem -v gpus="$GPUS" -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/m1.csv"
awk -v n=50000 -v seed=3 -v prefix=mem -v gpus="$GPUS" -f "$ROOT/tests/bench/gen_benchmarks.awk" >"$T/m10.csv"
if nm "$GW" 2>/dev/null | grep -q '__asan_'; then   # the sanitizer's own memory grows
    skip "kb_text: peak memory" "an AddressSanitizer build"
    exit 0
fi
small=$(peak_kb "$GW" --kb "$(fresh_kb m1)" kb import "$T/m1.csv")
big=$(peak_kb "$GW" --kb "$(fresh_kb m10)" kb import "$T/m10.csv")
if awk -v s="$small" -v b="$big" 'BEGIN { exit !(b <= 1.5 * s) }'; then
    pass "10x the rows, at most 1.5x the peak memory ($small KB, $big KB)"; else
    fail "10x the rows, at most 1.5x the peak memory" "$small KB, then $big KB"; fi
