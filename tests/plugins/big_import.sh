#!/bin/sh
# tests/plugins/big_import.sh — `kb import --with gpuwise-csv` on a 50,000-row file, which the
# core hands to the importer in slices of its batch_rows (2000): every row stored in one
# transaction, a bad row anywhere storing nothing, errors naming the file's real line.
. "$ROOT/tests/cli/lib.sh"

# gen FILE BAD_ROW: 50,000 unique rows (batch = row number) for two shipped GPUs, citing no
# source.  Row 2000, the last of the first slice, has a note with a newline inside quotes, so
# it spans lines 2001-2002 and every later row i sits on line i + 2.  BAD_ROW (0 = none) gets
# the value "abc".
gen() {
    awk -v bad="$2" 'BEGIN {
        srand(11)
        print "gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,interconnect,power_w,source,note"
        for (i = 1; i <= 50000; i++) {
            gpu = i % 2 ? "RTX 3090" : "A100-80GB"
            value = i == bad ? "abc" : sprintf("%.1f", 500 + 1000 * rand())
            note = i == 2000 ? "\"two\nlines\"" : ""
            printf "%s,1,resnet50,train_throughput,%s,images/s,fp16,%d,pytorch,,,,%s\n", gpu, value, i, note
        }
    }' >"$1"
}

gen "$T/big.csv" 0
KB=$(fresh_kb big)
before=$(sqlite3 "$KB" "select count(*) from benchmark")
run "$GW" --kb "$KB" kb import --with gpuwise-csv "$T/big.csv"
check_rc "50k rows: exit 0" 0
check_out "50k rows: all reported" "benchmarks 50000 added"
after=$(sqlite3 "$KB" "select count(*) from benchmark")
check_eq "50k rows: benchmark grows by 50000" "$((after - before))" 50000
check_eq "50k rows: the quoted newline at the slice boundary is kept in its note" \
    "$(sqlite3 "$KB" "select cast(batch as int) from benchmark where note = 'two' || char(10) || 'lines'")" 2000
# row 2001 is the first of the second slice; it sits on line 2003 (see gen)
check_eq "50k rows: the row after the boundary notes its real line" \
    "$(sqlite3 "$KB" "select note from benchmark where batch = 2001 and workload = 'resnet50' and note like 'line %'")" \
    "line 2003 of big.csv"
check_eq "50k rows: the last row is stored" \
    "$(sqlite3 "$KB" "select count(*) from benchmark where batch = 50000 and note = 'line 50002 of big.csv'")" 1

gen "$T/big-bad.csv" 49990
KB2=$(fresh_kb big-bad)
cp "$KB2" "$T/big-bad-before.db"
run "$GW" --kb "$KB2" kb import --with gpuwise-csv "$T/big-bad.csv"
check_rc "bad row 49990: exit 65" 65
# row 49990 is on line 49990 + 2 = 49992 (the header, and row 2000's second line)
check_err "bad row 49990: names the record, field and real line" \
    "gpuwise-csv: records[49990].value: expected a number, got the text 'abc' (line 49992)"
if cmp -s "$KB2" "$T/big-bad-before.db"; then pass "bad row 49990: KB unchanged"; else fail "bad row 49990: KB changed"; fi

# batch_rows must be a whole number; anything else is a shape problem of the plugin
cat >"$T/batchy.lua" <<'LUA'
return { name = "batchy", kind = "importer", version = "1", description = "d",
         batch_rows = "many", import = function(ctx, text) return {} end }
LUA
run "$GW" plugin check "$T/batchy.lua"
check_rc "batch_rows \"many\": exit 65" 65
check_out "batch_rows \"many\": names file, line and problem" \
    "batchy.lua:2: batch_rows: expected a whole number from 1 to 1000000"
