#!/bin/sh
# `gpuwise kb`: the shipped KB's datasheets, name forms, compare, list filters, search, sources,
# export/import round trip, failed imports leaving the file as it was, busy and foreign files.
. "$ROOT/tests/cli/lib.sh"
KFIX="$FIX/kb"

if [ ! -f "$ROOT/kb/gpuwise.db" ]; then
    skip "kb: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
KB=$(fresh_kb main)

# --- every GPU the issue lists: memory, bandwidth, TDP and dense FP16 tensor throughput -------
for id in rtx-2080-ti rtx-3060-12gb rtx-3080 rtx-3090 rtx-3090-ti rtx-4070-ti-super rtx-4080 \
          rtx-4090 rtx-5090 rtx-a4000 rtx-a5000 rtx-a6000 rtx-6000-ada l40s v100-pcie-16gb \
          v100-pcie-32gb v100-sxm2-16gb v100-sxm2-32gb t4 a10 a30 a40 l4 a100-pcie-40gb \
          a100-pcie-80gb a100-sxm4-40gb a100-sxm4-80gb h100-pcie h100-sxm5 h100-nvl h200-sxm \
          b200 gh200 mi250x mi300x; do
    run "$GW" --kb "$KB" kb show --json "$id"
    got=$(jqr '[.memory_gb, .memory_bandwidth_gbs, .tdp_w, .fp16_tflops] | map(type) | join(",")')
    check_eq "kb show $id has memory, bandwidth, TDP, FP16 dense" "$got" "number,number,number,number"
    run "$GW" --kb "$KB" kb show "$id"
    case "$OUT" in
        *"Memory "*"Memory bandwidth"*"TDP"*"FP16 tensor"*"TFLOPS dense"*) pass "kb show $id text datasheet" ;;
        *) fail "kb show $id text datasheet" "$(echo "$OUT" | head -12)" ;;
    esac
done

# Datasheet figures (vendor datasheets): A100 SXM4 80GB 2039 GB/s, 400 W, 312 TFLOPS FP16 dense
# (624 with 2:4 sparsity); RTX 3090 936 GB/s, 350 W; H100 SXM5 3350 GB/s, 700 W, FP16 1979 with
# sparsity = 989.5 dense.
run "$GW" --kb "$KB" kb show --json a100-sxm4-80gb
check_eq "A100 SXM4 80GB bandwidth" "$(jqr .memory_bandwidth_gbs)" "2039"
check_eq "A100 SXM4 80GB TDP" "$(jqr .tdp_w)" "400"
check_eq "A100 SXM4 80GB FP16 dense" "$(jqr .fp16_tflops)" "312"
check_eq "A100 bandwidth text" "$(jqr .memory_bandwidth_text)" "2,039 GB/s"
check_eq "A100 sparsity recorded apart" "$(jqr .sparsity)" "2:4"
check_eq "A100 sources have the datasheet fields" \
    "$(jqr '.sources[0] | [has("id"), has("title"), has("publisher"), has("url"), has("retrieved")] | all')" "true"
run "$GW" --kb "$KB" kb show --json rtx-3090
check_eq "RTX 3090 bandwidth" "$(jqr .memory_bandwidth_gbs)" "936"
check_eq "RTX 3090 TDP" "$(jqr .tdp_w)" "350"
check_eq "RTX 3090 NVLink (2-way bridge)" "$(jqr .nvlink_gbs)" "112.5"
run "$GW" --kb "$KB" kb show --json h100-sxm5
check_eq "H100 SXM5 bandwidth" "$(jqr .memory_bandwidth_gbs)" "3350"
check_eq "H100 SXM5 TDP" "$(jqr .tdp_w)" "700"
check_eq "H100 SXM5 FP16 dense" "$(jqr .fp16_tflops)" "989.5"

run "$GW" --kb "$KB" kb show "RTX 3090"
check_out "datasheet lists aliases" "Also called"
check_out "datasheet lists measured results" "Measured results"
check_out "datasheet lists prices" "CNY 24,000 for 4 GPUs"
check_out "datasheet lists disputed claims" "Disputed claims"
check_out "datasheet lists sources" "Sources"

if [ -f "$ROOT/templates/datasheet.md.mustache" ]; then
    run "$GW" --kb "$KB" --format md kb show "A100 80GB"
    check_rc "kb show --format md" 0
    check_out "the Markdown datasheet has the bandwidth" "2,039 GB/s"
else
    skip "kb show --format md" "templates/datasheet.md.mustache not there"
fi
if [ -f "$ROOT/templates/comparison.md.mustache" ]; then
    run "$GW" --kb "$KB" --format html kb compare 3090 "A100 80GB" -o "$T/compare.html"
    check_rc "kb compare --format html -o FILE" 0
    if grep -q "2,039 GB/s" "$T/compare.html"; then pass "the HTML comparison has the bandwidth"
    else fail "the HTML comparison has the bandwidth"; fi
else
    skip "kb compare --format html" "templates/comparison.md.mustache not there"
fi

# --- names --------------------------------------------------------------------------------
for name in 3090 "RTX 3090" "GeForce RTX 3090" rtx_3090 "NVIDIA GeForce RTX 3090"; do
    run "$GW" --kb "$KB" kb show --json "$name"
    check_eq "'$name' is the RTX 3090" "$(jqr .id)" "rtx-3090"
done
run "$GW" --kb "$KB" kb show --json "NVIDIA A100-SXM4-80GB"
check_eq "nvidia-smi name resolves" "$(jqr .id)" "a100-sxm4-80gb"
run "$GW" --kb "$KB" kb show A100
check_rc "'A100' is ambiguous: exit 67" 67
check_err "'A100' lists the candidates" "'A100' is ambiguous: a100-pcie-40gb, a100-pcie-80gb, a100-sxm4-40gb, a100-sxm4-80gb"
run "$GW" --kb "$KB" kb show "RTX 3900"
check_rc "unknown GPU: exit 67" 67
check_err "unknown GPU suggests the closest" "did you mean: rtx-3090"

# --- compare ------------------------------------------------------------------------------
run "$GW" --kb "$KB" kb compare "RTX 3090" "A100 80GB"
check_rc "README compare runs" 0
check_out "compare marks the best" "2,039 GB/s *"
run "$GW" --kb "$KB" --json kb compare "RTX 3090" "A100 80GB"
check_eq "compare --json: bandwidth best is the A100 (index 1)" \
    "$(jqr '.rows[] | select(.field=="memory_bandwidth_gbs") | .best')" "1"
check_eq "compare --json: lower TDP is best (RTX 3090 350 W < 400 W)" \
    "$(jqr '.rows[] | select(.field=="tdp_w") | .best')" "0"
check_eq "compare --json: text rows have no best" \
    "$(jqr '.rows[] | select(.field=="vendor") | .best')" "null"
run "$GW" --kb "$KB" kb compare 3090
check_rc "compare needs two names" 64

# --- list ---------------------------------------------------------------------------------
run "$GW" --kb "$KB" --json kb list --where 'memory_gb>=48 and nvlink_gbs>0' --sort -memory_bandwidth_gbs
check_rc "list with a filter" 0
check_eq "every listed GPU has >= 48 GB and NVLink" \
    "$(jqr '[.gpus[] | .memory_gb >= 48 and .nvlink_gbs > 0] | all')" "true"
check_eq "sorted by bandwidth, highest first" \
    "$(jqr '[.gpus[].memory_bandwidth_gbs] | . == (sort | reverse)')" "true"
run "$GW" --kb "$KB" kb list --columns id,tdp_w --where "vendor = AMD"
check_out "list --columns" "mi300x"
for where in "x > 1" "'; drop table gpu; --" "name ~ 'open" "memory_gb > lots" "memory_gb >= 48 or 1=1"; do
    run "$GW" --kb "$KB" kb list --where "$where"
    check_rc "hostile --where '$where': exit 64" 64
    case "$ERR" in *SQL*|*sqlite*|*syntax*) fail "no SQL error text for '$where'" "$ERR" ;;
                   *) pass "no SQL error text for '$where'" ;; esac
done
run "$GW" --kb "$KB" kb list --where "$(awk 'BEGIN { while (i++ < 10000) printf "a" }')"
check_rc "10k-long --where: exit 64" 64
run "$GW" --kb "$KB" kb list --sort -bogus
check_err "--sort checks the field" "unknown field 'bogus'"
run "$GW" --kb "$KB" kb list
check_out "the KB still has its GPUs" "rtx-3090"

# --- search -------------------------------------------------------------------------------
run "$GW" --kb "$KB" kb search 80GB nvlink
check_rc "search runs" 0
check_out "search marks the matched words" "["
run "$GW" --kb "$KB" --json kb search --limit 3 resnet50
check_eq "search --limit" "$(jqr '.hits | length')" "3"
for q in 'NEAR(' '"' 'a100 "80' '*' 'AND OR NOT' '-' ':' 'h100*' "'; drop table gpu; --" 'col:x'; do
    run "$GW" --kb "$KB" kb search -- "$q"
    case "$RC" in 0|64) pass "search '$q' exits 0 or 64" ;; *) fail "search '$q'" "exit $RC: $ERR" ;; esac
    case "$ERR" in *SQL*|*sqlite*|*fts5*|*syntax*) fail "search '$q' no SQL error" "$ERR" ;;
                   *) pass "search '$q' no SQL error" ;; esac
done

# --- sources and check --------------------------------------------------------------------
run "$GW" --kb "$KB" --json kb sources
check_eq "every source is listed with its fact count" \
    "$(jqr '[.sources[] | has("fact_count")] | all')" "true"
check_eq "the A100 datasheet is cited" \
    "$(jqr '[.sources[] | select(.fact_count > 0)] | length > 0')" "true"
run "$GW" --kb "$KB" kb check
check_rc "the shipped KB passes kb check" 0
check_out "kb check reports sourced facts" "every fact cites a source"

# --- export / import ----------------------------------------------------------------------
run "$GW" --kb "$KB" kb export -o "$T/one.csv"
check_rc "export" 0
run "$GW" --kb "$T/empty.db" kb import "$T/one.csv"
check_rc "import the export into an empty KB" 0
"$GW" --kb "$T/empty.db" kb export >"$T/two.csv"
if cmp -s "$T/one.csv" "$T/two.csv"; then pass "export, import, export: identical bytes"
else fail "export, import, export: identical bytes" "$(diff "$T/one.csv" "$T/two.csv" | head -5)"; fi
run "$GW" --kb "$T/empty.db" kb import "$T/one.csv"
check_out "importing again adds nothing" "nothing new"

run "$GW" --kb "$T/fix.db" kb import "$KFIX/claims.csv" "$KFIX/gpus.csv" "$KFIX/sources.csv" \
    "$KFIX/aliases.csv" "$KFIX/rates.csv" "$KFIX/benchmarks.csv" "$KFIX/prices.csv"
check_rc "table files in any order, one transaction" 0
check_out "import says what it added" "gpus       15 added"
"$GW" --kb "$T/fix.db" kb export >"$T/fix1.csv"
"$GW" --kb "$T/fix2.db" kb import "$T/fix1.csv" >/dev/null
"$GW" --kb "$T/fix2.db" kb export >"$T/fix2.csv"
if cmp -s "$T/fix1.csv" "$T/fix2.csv"; then pass "fixture round trip identical"
else fail "fixture round trip identical" "$(diff "$T/fix1.csv" "$T/fix2.csv" | head -5)"; fi

for bad in unknown-gpu unknown-source bad-number broken-quote stray-quote wrong-header \
           negative-price short-row duplicate-id; do
    cp "$KB" "$T/before.db"
    run "$GW" --kb "$KB" kb import "$KFIX/bad/$bad.csv"
    check_rc "bad import $bad: exit 65" 65
    check_err "bad import $bad names file and line" "$bad.csv:"
    if cmp -s "$KB" "$T/before.db"; then pass "bad import $bad leaves the KB byte-identical"
    else fail "bad import $bad leaves the KB byte-identical"; fi
done
# a good file and a bad one together: neither is stored
cp "$KB" "$T/before.db"
run "$GW" --kb "$KB" kb import "$KFIX/rates.csv" "$KFIX/bad/unknown-source.csv"
check_rc "good + bad files: exit 65" 65
if cmp -s "$KB" "$T/before.db"; then pass "good + bad files: nothing stored"
else fail "good + bad files: nothing stored"; fi
run "$GW" --kb "$KB" kb import "$T/no-such-file.csv"
check_rc "missing import file: exit 66" 66

# --- files that are not a KB, busy, migration ---------------------------------------------
printf 'my notes\n' >"$T/notes.txt"
cp "$T/notes.txt" "$T/notes.copy"
run "$GW" --kb "$T/notes.txt" kb import "$KFIX/rates.csv"
check_rc "a text file as --kb: exit 65" 65
check_err "a text file is named as not a KB" "not a gpuwise knowledge base"
if cmp -s "$T/notes.txt" "$T/notes.copy"; then pass "the text file is unchanged"
else fail "the text file is unchanged"; fi
run "$GW" --kb "$T/nowhere.db" kb show 3090
check_rc "missing KB file: exit 66" 66

if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$T/other.db" 'CREATE TABLE notes(x); INSERT INTO notes VALUES (1);'
    cp "$T/other.db" "$T/other.copy"
    run "$GW" --kb "$T/other.db" kb import "$KFIX/rates.csv"
    check_rc "another program's SQLite file: exit 65" 65
    if cmp -s "$T/other.db" "$T/other.copy"; then pass "the foreign SQLite file is unchanged"
    else fail "the foreign SQLite file is unchanged"; fi

    BUSY=$(fresh_kb busy)
    (printf 'BEGIN IMMEDIATE;\n'; sleep 3; printf 'COMMIT;\n') | sqlite3 "$BUSY" &
    holder=$!
    sleep 1
    GPUWISE_BUSY_TIMEOUT_MS=200 run "$GW" --kb "$BUSY" kb import "$KFIX/rates.csv"
    check_rc "a KB another writer holds: exit 75" 75
    check_err "busy says so" "knowledge base busy"
    GPUWISE_BUSY_TIMEOUT_MS=200 run "$GW" --kb "$BUSY" kb show 3090
    check_rc "reading while another writes works" 0
    wait "$holder"

    sqlite3 "$T/v1.db" <"$KFIX/v1.sql"
    run "$GW" --kb "$T/v1.db" kb show 3090
    check_rc "an older KB read-only: exit 65" 65
    check_err "an older KB says how to upgrade" "kb upgrade"
    run "$GW" --kb "$T/v1.db" kb upgrade
    check_out "kb upgrade migrates to the current schema" "schema 2"
    run "$GW" --kb "$T/v1.db" --json kb show 3090
    check_eq "the migrated KB keeps its rows" "$(jqr .memory_bandwidth_gbs)" "936"
else
    skip "kb: busy, foreign SQLite, migration" "sqlite3 not installed"
fi

# --- usage --------------------------------------------------------------------------------
run "$GW" --kb "$KB" kb
check_rc "kb without a subcommand: exit 64" 64
run "$GW" --kb "$KB" kb frobnicate
check_rc "unknown kb subcommand: exit 64" 64
run "$GW" --kb "$KB" kb show
check_rc "kb show without a name: exit 64" 64
run "$GW" --kb "$KB" kb search --limit 0 x
check_rc "kb search --limit 0: exit 64" 64
run "$GW" help kb
check_out "kb usage lists every subcommand" "upgrade"
