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
jq_all _j1 '.memory_bandwidth_gbs' \
    _j2 '.tdp_w' \
    _j3 '.fp16_tflops' \
    _j4 '.memory_bandwidth_gbs_text' \
    _j5 '.memory_gb_text' \
    _j6 'has("memory_bandwidth_text") or has("tdp_text")' \
    _j7 '.sparsity' \
    _j8 '.sources[0] | [has("id"), has("title"), has("publisher"), has("url"), has("retrieved")] | all'
check_eq "A100 SXM4 80GB bandwidth" "$_j1" "2039"
check_eq "A100 SXM4 80GB TDP" "$_j2" "400"
check_eq "A100 SXM4 80GB FP16 dense" "$_j3" "312"
# One *_text rule for --json: the figure's whole field name, then _text.
check_eq "A100 bandwidth text" "$_j4" "2,039 GB/s"
check_eq "A100 memory text" "$_j5" "80 GB HBM2e"
check_eq "no unit-stripped text keys" "$_j6" "false"
check_eq "A100 sparsity recorded apart" "$_j7" "2:4"
check_eq "A100 sources have the datasheet fields" \
    "$_j8" "true"
run "$GW" --kb "$KB" kb show --json rtx-3090
jq_all _j1 '.memory_bandwidth_gbs' \
    _j2 '.tdp_w' \
    _j3 '.nvlink_gbs'
check_eq "RTX 3090 bandwidth" "$_j1" "936"
check_eq "RTX 3090 TDP" "$_j2" "350"
check_eq "RTX 3090 NVLink (2-way bridge)" "$_j3" "112.5"
run "$GW" --kb "$KB" kb show --json h100-sxm5
jq_all _j1 '.memory_bandwidth_gbs' \
    _j2 '.tdp_w' \
    _j3 '.fp16_tflops'
check_eq "H100 SXM5 bandwidth" "$_j1" "3350"
check_eq "H100 SXM5 TDP" "$_j2" "700"
check_eq "H100 SXM5 FP16 dense" "$_j3" "989.5"

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
jq_all _j1 '.rows[] | select(.field=="memory_bandwidth_gbs") | .best' \
    _j2 '.rows[] | select(.field=="tdp_w") | .best' \
    _j3 '.rows[] | select(.field=="vendor") | .best'
check_eq "compare --json: bandwidth best is the A100 (index 1)" \
    "$_j1" "1"
check_eq "compare --json: lower TDP is best (RTX 3090 350 W < 400 W)" \
    "$_j2" "0"
check_eq "compare --json: text rows have no best" \
    "$_j3" "null"
# Every price shown is dated: the launch price as of the release (RTX 3090 USD 1,499 of 2020-09,
# RTX 4090 USD 1,599 of 2022-10; the lower one is marked best); a GPU without one shows '-'
run "$GW" --kb "$KB" kb compare 3090 4090
check_out "compare: the launch prices with their dates" \
    "Launch price        \$1,499 (as of 2020-09) *  \$1,599 (as of 2022-10)"
run "$GW" --kb "$KB" --json kb compare 3090 h100-sxm5
check_eq "compare --json: the launch price's text carries its date; unknown is null" \
    "$(jqr '.rows[] | select(.field=="launch_price_usd") | .texts | map(tostring) | join("|")')" \
    "\$1,499 (as of 2020-09)|null"
run "$GW" --kb "$KB" kb compare 3090
check_rc "compare needs two names" 64

# --- list ---------------------------------------------------------------------------------
run "$GW" --kb "$KB" --json kb list --where 'memory_gb>=48 and nvlink_gbs>0' --sort -memory_bandwidth_gbs
jq_all _j1 '[.gpus[] | .memory_gb >= 48 and .nvlink_gbs > 0] | all' \
    _j2 '[.gpus[] | select(.id == "mi300x") | .link_kind] | join(",")' \
    _j3 '[.gpus[].memory_bandwidth_gbs] | . == (sort | reverse)'
check_rc "list with a filter" 0
check_eq "every listed GPU has >= 48 GB and a scale-up link" \
    "$_j1" "true"
# nvlink_gbs holds any kind of link since schema version 6: the MI300X's Infinity Fabric is listed
check_eq "the MI300X (Infinity Fabric, 896 GB/s) is among them" \
    "$_j2" "infinity-fabric"
check_eq "sorted by bandwidth, highest first" \
    "$_j3" "true"
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
jq_all _j1 '[.sources[] | has("fact_count")] | all' \
    _j2 '[.sources[] | select(.fact_count > 0)] | length > 0'
check_eq "every source is listed with its fact count" \
    "$_j1" "true"
check_eq "the A100 datasheet is cited" \
    "$_j2" "true"
run "$GW" --kb "$KB" kb check
check_rc "the shipped KB passes kb check" 0
check_out "kb check reports sourced facts" "every fact cites a source"
# ten: issue 27 adds support_fraction and colocation_per_kw_month
check_out "kb check counts the assumed figures (kb/data/assumptions.csv)" "assumptions 10"
check_out "kb check counts the hosts (kb/data/hosts.csv: desktop, workstation, server)" "hosts 3"

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
           negative-price short-row duplicate-id assumption-range; do
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
    # Another writer holds the KB until told to commit: sqlite3 reads its commands from a FIFO
    # (fd 7) and writes "locked" to a file once its BEGIN IMMEDIATE has succeeded.
    mkfifo "$T/holder.fifo"
    sqlite3 -bail "$BUSY" <"$T/holder.fifo" >"$T/holder.out" 2>&1 &
    holder=$!
    exec 7>"$T/holder.fifo"
    printf 'BEGIN IMMEDIATE;\n.output "%s"\n.print locked\n.output stdout\n' "$T/holder.locked" >&7
    if wait_until 10 grep -qsx locked "$T/holder.locked"; then pass "another writer holds the KB"
    else fail "another writer holds the KB" "sqlite3: $(head -2 "$T/holder.out")"; fi
    GPUWISE_BUSY_TIMEOUT_MS=200 run "$GW" --kb "$BUSY" kb import "$KFIX/rates.csv"
    check_rc "a KB another writer holds: exit 75" 75
    check_err "busy says so" "knowledge base busy"
    GPUWISE_BUSY_TIMEOUT_MS=200 run "$GW" --kb "$BUSY" kb show 3090
    check_rc "reading while another writes works" 0
    (printf 'COMMIT;\n' >&7) 2>/dev/null   # a subshell: a holder that died costs no SIGPIPE here
    exec 7>&-
    wait "$holder"

    sqlite3 "$T/v1.db" <"$KFIX/v1.sql"
    run "$GW" --kb "$T/v1.db" kb show 3090
    check_rc "an older KB read-only: exit 65" 65
    check_err "an older KB says how to upgrade" "kb upgrade"
    run "$GW" --kb "$T/v1.db" kb upgrade
    latest=$(grep -c '^-- version ' "$ROOT/kb/schema.sql")   # the last "-- version N" section
    check_out "kb upgrade migrates to the current schema" "schema $latest"
    run "$GW" --kb "$T/v1.db" --json kb show 3090
    check_eq "the migrated KB keeps its rows" "$(jqr .memory_bandwidth_gbs)" "936"

    # version 2 to 3: the assumption table, with the figures gpuwise 2 had built in, citing the
    # two articles the v2 KB holds
    sqlite3 "$T/v2.db" <"$KFIX/v2.sql"
    run "$GW" --kb "$T/v2.db" kb show 3090
    check_rc "a version 2 KB read-only: exit 65" 65
    run "$GW" --kb "$T/v2.db" kb upgrade
    check_out "kb upgrade migrates version 2 to the current schema" "schema $latest"
    # version 4: every price carries its quality, GPU fraction and minimum billing; version 19:
    # its second billing step
    check_eq "the upgraded KB exports the offer terms" \
        "$("$GW" --kb "$T/v2.db" kb export | sed -n '/^# prices.csv$/{n;p;}')" \
        "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality,gpu_fraction,min_billing_hours,system,network_gbps,long_billing_after_hours,long_billing_hours"
    # version 6: a GPU's FP4 rate, its link's kind and its export restriction, after the note;
    # version 10: when it stopped being sold new, and whether peer-to-peer over PCIe works;
    # version 12: the memory its driver reports, in MiB, and the source of that dump
    check_eq "the upgraded KB exports the GPU's version 6, 10 and 12 columns" \
        "$("$GW" --kb "$T/v2.db" kb export | sed -n '/^# gpus.csv$/{n;p;}')" \
        "id,name,vendor,architecture,form_factor,memory_gb,memory_type,memory_bandwidth_gbs,tdp_w,fp32_tflops,tf32_tflops,fp16_tflops,bf16_tflops,fp8_tflops,int8_tops,sparsity,pcie_gen,pcie_lanes,nvlink_gbs,mig_instances,ecc,release_date,launch_price_usd,source,note,fp4_tflops,link_kind,restriction,discontinued,p2p,memory_mib,memory_mib_source"
    # version 12: a language model's scenario; version 13: the parallel layout a row states;
    # version 15: the activation recomputation a training row states; version 16: its pipeline
    # stage layout; version 17: its data-parallel sharding
    check_eq "the upgraded KB exports the benchmark's version 12, 13, 15, 16 and 17 columns" \
        "$("$GW" --kb "$T/v2.db" kb export | sed -n '/^# benchmarks.csv$/{n;p;}')" \
        "gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,interconnect,power_w,source,note,method,input_tokens,output_tokens,tensor_parallel,pipeline_parallel,context_parallel,expert_parallel,virtual_pipeline,micro_batch,global_batch,recompute,recompute_layers,pipeline_layout,sharding"
    run "$GW" --kb "$T/v2.db" --json kb show 3090
    check_eq "the upgraded RTX 3090's 112.5 GB/s link is NVLink" "$(jqr .link_kind)" "nvlink"
    run "$GW" --kb "$T/v2.db" kb check
    check_rc "the upgraded version 2 KB passes kb check" 0
    check_out "the upgraded KB has the ten assumed figures (version 7 adds llm_mfu and decode_bandwidth_fraction, version 10 from_high_factor, version 11 support_fraction and colocation_per_kw_month)" "assumptions 10"
    run "$GW" --kb "$T/v2.db" --json kb source article-a100-vs-4x3090
    check_eq "the upgraded assumed figures cite their article" "$(jqr '[.facts[] | .kind + ":" + .ref] | join(",")')" \
        "benchmark:1,claim:1,assumption:host_power_w,assumption:poor_cooling_factor"
    # the figures gpuwise 2's decide.c held (host CNY 8,000 and 200 W, resale 30%, PCIe 16 GB/s,
    # poor cooling keeps 80%), with version 7's two for language models (MFU 0.4, decode
    # bandwidth 0.7), version 10's high end of a "from" price (RunPod's 3.99 / 2.69 = 1.48) and
    # version 11's colocation (USD 196 per kW a month) and support (10% a year), in export order
    # (by id)
    check_eq "the upgrade carries over gpuwise 2's figures and adds version 7's, 10's and 11's" \
        "$("$GW" --kb "$T/v2.db" kb export | sed -n '/^# assumptions.csv$/,/^$/p' | sed 1,2d | grep . | cut -d, -f1-4 | tr '\n' ' ')" \
        "colocation_per_kw_month,196,USD,encoradvisors-colocation-2026 decode_bandwidth_fraction,0.7,fraction,mbu-glossary from_high_factor,1.48,ratio,datareceipts-gpu-pricing host_cost,8000,CNY,article-4090-a100-h100 host_network_gbps,10,Gb/s,ieee-802-3an host_power_w,200,W,article-a100-vs-4x3090 llm_mfu,0.4,fraction,llama-3-paper poor_cooling_factor,0.8,fraction,article-a100-vs-4x3090 resale_fraction,0.3,fraction,article-4090-a100-h100 support_fraction,0.1,fraction,librarytechnology-hw-maintenance "
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

# --- every subcommand from the option tables: --help, unknown options, error prefix -------------
for sub in show compare list search sources source check export import upgrade fields; do
    run "$GW" --kb "$KB" kb "$sub" --help
    check_rc "kb $sub --help: exit 0" 0
    check_out "kb $sub --help shows its usage" "usage: gpuwise kb $sub"
done
run "$GW" --kb "$KB" kb list --wher "vendor = AMD"
check_rc "kb list --wher: exit 64" 64
check_err "kb list --wher suggests --where" "did you mean --where?"
run "$GW" --kb "$KB" kb search --limt 3 nvlink
check_rc "kb search --limt: exit 64" 64
check_err "kb search --limt suggests --limit" "did you mean --limit?"
run "$GW" --kb "$KB" kb import --wiht gpuwise-csv "$KFIX/rates.csv"
check_err "kb import --wiht suggests --with" "did you mean --with?"
run "$GW" --kb "$KB" kb compare 3090
check_eq "one error prefix: 'gpuwise kb compare: ', not twice" "$ERR" \
    "gpuwise kb compare: give two or more GPUs (a family name such as h100 stands for all its variants)"
run "$GW" --kb "$KB" kb list memory_gb '>=' 48
check_rc "kb list with an unquoted filter: exit 64" 64
check_err "an unquoted filter says to quote it" "gpuwise kb list: unexpected operand 'memory_gb' (quote the --where expression"
for lim in 2.5 abc 1001 0x10; do
    run "$GW" --kb "$KB" kb search --limit "$lim" nvlink
    check_rc "kb search --limit $lim: exit 64" 64
done
run "$GW" --kb "$KB" kb search --limit=2 --json nvlink
check_eq "kb search --limit=2" "$(jqr '.hits | length')" "2"

# --- formats: what each command writes, chosen by --format, --json or -o's extension -------------
run "$GW" --kb "$KB" kb show 3090 -o "$T/ds.json"
check_rc "kb show -o x.json: exit 0" 0
check_eq "kb show -o x.json writes JSON" "$(jq -r .id "$T/ds.json")" "rtx-3090"
if [ -f "$ROOT/templates/comparison.md.mustache" ]; then
    run "$GW" --kb "$KB" kb compare 3090 "A100 80GB" -o "$T/by-ext.html"
    check_rc "kb compare -o x.html: exit 0" 0
    check_eq "kb compare -o x.html: nothing on stdout" "$OUT" ""
    if grep -q '<table' "$T/by-ext.html" && grep -q "2,039 GB/s" "$T/by-ext.html"; then
        pass "kb compare -o x.html writes the HTML comparison"
    else fail "kb compare -o x.html writes the HTML comparison" "$(head -c 300 "$T/by-ext.html")"; fi
fi
# the shipped KB has 73 GPUs (60 + issue 14's 13: h20, l20, a800-pcie-80gb, a800-sxm4-80gb,
# h800-sxm5, rtx-4090-d, rtx-5090-d, rtx-5090-d-v2, gaudi2, gaudi3, gb200, b300, mi355x): kb list -o
# x.csv is a header row and 73 rows of the 7 default columns
run "$GW" --kb "$KB" kb list -o "$T/gpus.csv"
check_rc "kb list -o x.csv: exit 0" 0
check_eq "kb list csv: header row is the column keys" "$(head -1 "$T/gpus.csv" | tr -d '\r')" \
    "id,name,memory_gb,memory_bandwidth_gbs,tdp_w,fp16_tflops,nvlink_gbs"
check_eq "kb list csv: CRLF line ends (RFC 4180)" "$(head -1 "$T/gpus.csv" | tail -c 2 | od -An -tx1 | tr -d ' \n')" "0d0a"
check_eq "kb list csv: header + 73 rows" "$(wc -l <"$T/gpus.csv" | tr -d ' ')" 74
if command -v python3 >/dev/null 2>&1; then
    check_eq "kb list csv: Python's csv module reads 74 rows of 7 fields" \
        "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=""))); print(len(r), set(map(len, r)))' "$T/gpus.csv")" \
        "74 {7}"
fi
# --columns drives csv and md too: the 5 AMD GPUs (MI210 300 W, MI250X 500 W, MI300X 750 W,
# MI325X 1000 W, MI355X 1400 W)
run "$GW" --kb "$KB" kb list --where "vendor = AMD" --columns id,tdp_w --format csv
check_eq "kb list --columns --format csv" "$(printf '%s' "$OUT" | tr -d '\r' | tr '\n' ' ')" \
    "id,tdp_w mi210,300 mi250x,500 mi300x,750 mi325x,1000 mi355x,1400"
run "$GW" --kb "$KB" kb list --where "vendor = AMD" --columns id,tdp_w --format md
check_eq "kb list --format md: header, rule and 5 rows" "$(printf '%s\n' "$OUT" | grep -c '^|')" 7
check_out "kb list --format md: a row" "| mi300x | 750 |"
run "$GW" --kb "$KB" kb search --limit 3 resnet50 -o "$T/hits.csv"
check_eq "kb search csv: header row is the column keys" "$(head -1 "$T/hits.csv" | tr -d '\r')" \
    "kind,ref,title,snippet,open"
check_eq "kb search csv: header + 3 hits" "$(wc -l <"$T/hits.csv" | tr -d ' ')" 4
run "$GW" --kb "$KB" kb search --limit 3 resnet50 --format md
check_eq "kb search md: header, rule and 3 rows" "$(printf '%s\n' "$OUT" | grep -c '^|')" 5
run "$GW" --kb "$KB" kb sources -o "$T/sources.csv"
check_eq "kb sources csv: header row is the column keys" "$(head -1 "$T/sources.csv" | tr -d '\r')" \
    "id,fact_count,title,publisher,retrieved"
check_eq "kb sources csv: header + 190 sources (55 + article-rtx5090-p2p-driver + 9 for systems, their prices and networks + 35 for issue 14's cards, restrictions and prices + 12 for its dated price lists and street prices + 16 for the model catalog and its two assumed figures + 8 for issue 14's third batch of prices + 1 for the A800 server price + 19 for its fourth batch: 5 news items, 4 reports of a listings tracker, 1 dataset of sold listings, 3 of an Amazon tracker (its data, its upstream's table of 2025-05-30, its export of 2025-05-04), 4 shops' pages and a blog read on 2026-09-26, and the ECB's euro rate of 2026-09-25 + 4 of issue 26: a post on GPU peer-to-peer, two news reports of discontinued cards, and the ECB's rates of 2026-04-13 + 2 for the published spread of training's utilisation: torchtitan's performance page on H100s, and its earlier version on A100s + 1 for the published low of the decode bandwidth share: gpt-fast's benchmarks + 3 for serving's parallel costs: all-reduce latencies over NVLink and over PCIe, and a hop between machines + 15 of issue 27: 10 providers' SLAs or terms, Lambda's terms, Vast.ai's FAQ, Runpod's hosting rules, SkyPilot's catalog and the GeForce driver licence + 4 for hosts and ownership costs: a four-card build, a DGX H100 bill of materials, colocation per kW and hardware maintenance contracts + 1 for rental shapes: RunPod's reference for a pod's GPU count + 21 for issue 28's model catalog: 20 models' config.json and the GPT-3 paper + 6 of issue 28's memory: five repositories of published nvidia-smi dumps and the Liger Kernel paper + 7 of issue 28's speed terms: PaLM's FLOPs count, FlashAttention-2's causal kernels, gpt-fast's tensor-parallel and Mixtral batch-1 decode, TensorRT-LLM's DeepSeek-R1 at one stream on B200, and two measurements of QLoRA's slowdown + 6 for the precision table: FP8 and FP4 training against BF16 measured by Databricks, PyTorch on B200s, NeMo's performance archive and NVIDIA's NVFP4 post, and vLLM's weight-only FP8 and FP4 kernels) + 15 for issue 28's measured language-model rows: TensorRT-LLM's performance overview and two of its blogs, Megatron Bridge's and NeMo's performance summaries, MLPerf Inference v4.1 and v5.0 and Training v4.0 and v5.1 results (v5.1's Krai, AMD and NVIDIA submissions), NVIDIA's MLPerf and Model Optimizer blogs, Oracle's MI300X blog and AMD's ROCm results + 3 for the MLPerf importer's rules: the submission checker, the llama2-70b reference's tokens per sample and GPT-J's token scaling + 1 for a stated training layout's pipeline bubble: the Megatron-LM paper + 3 for the recomputation and scenarios measured rows ran with: Megatron Bridge's 25.11 performance recipes and its v0.2.1 release's table, TensorRT-LLM's DeepSeek-R1 reproduction commands + 1 for the pipeline stage layouts measured rows ran with: Megatron Bridge's 25.11 model recipes + 1 for a decode step's attention width: the DeepSeek-V2 paper's absorbed latent attention + 1 for the sequence length torchtitan's H100 rows ran at: its Llama 3 8B train config + 1 for the precision a mixture of experts keeps outside its experts at FP4: NVIDIA's DeepSeek-R1 FP4 v2 model card + 3 for attention data-parallel x expert-parallel serving: TensorRT-LLM's one-sided all-to-all kernels' fixed cost over NVLink, its measure of ranks waiting on another's prompt, and of the experts' uneven load)" "$(wc -l <"$T/sources.csv" | tr -d ' ')" 256
run "$GW" --kb "$KB" kb sources --format md
check_out "kb sources md: the A100 datasheet row (8 facts: 4 GPUs, 4 claims)" \
    "| nvidia-a100-datasheet | 8 | NVIDIA A100 Tensor Core GPU datasheet | NVIDIA | 2026-11-30 |"
run "$GW" --kb "$KB" kb fields --json
check_eq "kb fields --json: the field names" "$(jqr '.[0]')" "id"
run "$GW" --kb "$KB" kb check --json
check_eq "kb check --json: ok" "$(jqr .ok)" "true"
# formats a command cannot write are refused, and nothing is written
for args in "kb list --format html" "kb search nvlink -o $T/no.html" "kb sources --format html" \
            "kb source nvidia-a100-datasheet --format csv" "kb show 3090 --format csv" \
            "kb compare 3090 4090 -o $T/no.csv" "kb export --json" "kb fields --format md" \
            "kb check --format csv" "kb import $KFIX/rates.csv --format md" "kb upgrade -o $T/no.md"; do
    run "$GW" --kb "$KB" $args
    check_rc "$args: exit 64" 64
done
[ -e "$T/no.html" ] || [ -e "$T/no.csv" ] || [ -e "$T/no.md" ] && fail "refused formats write no file" ||
    pass "refused formats write no file"
run "$GW" --kb "$KB" kb search nvlink -o "$T/no.html"
check_err "a refused -o says which formats" "kb search cannot write html"

# --- kb import / upgrade --json ---------------------------------------------------------------
run "$GW" --kb "$T/fix-json.db" kb import --json "$KFIX/claims.csv" "$KFIX/gpus.csv" \
    "$KFIX/sources.csv" "$KFIX/aliases.csv" "$KFIX/rates.csv" "$KFIX/benchmarks.csv" "$KFIX/prices.csv"
jq_all _j1 '.tables.gpus.added' \
    _j2 '.files'
check_rc "kb import --json: exit 0" 0
check_eq "kb import --json: 15 GPUs added, as the text report says" "$_j1" "15"
check_eq "kb import --json: 7 files" "$_j2" "7"
run "$GW" --kb "$T/fix-json.db" kb upgrade --json
check_eq "kb upgrade --json: the schema" "$(jqr .schema)" "$(grep -c '^-- version ' "$ROOT/kb/schema.sql")"

# --- compare takes family names ---------------------------------------------------------------
# h100: h100-nvl, h100-pcie, h100-sxm5 (3); a100: 40/80 GB x PCIe/SXM4 (4); 3 + 4 = 7 columns
run "$GW" --kb "$KB" --json kb compare h100 a100
jq_all _j1 '.gpus | length' \
    _j2 '[.gpus[].id] | join(",")'
check_rc "kb compare h100 a100: exit 0" 0
check_eq "kb compare h100 a100: 3 + 4 = 7 GPUs" "$_j1" "7"
check_eq "kb compare h100 a100: in the order given" "$_j2" \
    "h100-nvl,h100-pcie,h100-sxm5,a100-pcie-40gb,a100-pcie-80gb,a100-sxm4-40gb,a100-sxm4-80gb"
check_err "kb compare names the variants of h100" \
    "gpuwise kb compare: 'h100' stands for 3 GPUs: h100-nvl, h100-pcie, h100-sxm5"
run "$GW" --kb "$KB" --json kb compare h100 h100-sxm5 "H100 SXM5"
check_eq "kb compare: a GPU named twice is shown once (3, not 5)" "$(jqr '.gpus | length')" "3"
run "$GW" --kb "$KB" kb compare a100
check_rc "kb compare with one family name of 4 variants: exit 0" 0
run "$GW" --kb "$KB" kb compare 3090 rtx-3090 "RTX 3090"
check_rc "kb compare of one GPU named three ways: exit 64" 64

# --- every search hit prints the command that opens it, and that command works -----------------
# these queries reach every kind the index holds: GPUs, benchmarks, prices, rates, sources, claims,
# assumptions
kinds=""
: >"$T/opens"
for q in nvlink "per USD" cloud resnet50 datasheet ports "host cost"; do
    run "$GW" --kb "$KB" --json kb search --limit 1000 $q
    kinds="$kinds $(jqr '[.hits[].kind] | unique | join(" ")')"
    check_eq "search '$q': every hit has an open command" "$(jqr '[.hits[] | .open | type == "string"] | all')" "true"
    run "$GW" --kb "$KB" kb search --limit 1000 $q
    printf '%s\n' "$OUT" | sed -n 's/^ *\(gpuwise kb .*\)$/\1/p' >>"$T/opens"
done
check_eq "the searches reach every kind" "$(echo $kinds | tr ' ' '\n' | sort -u | tr '\n' ' ')" \
    "assumption benchmark claim gpu price rate source system "
sort -u "$T/opens" >"$T/opens.u"
# make test runs every 8th command (each kind of hit is among them: checked below); make
# check-long (GW_TEST_LONG=1) runs them all.
sample() { if [ "${GW_TEST_LONG:-0}" = 1 ]; then cat; else awk 'NR % 8 == 1'; fi; }
sample <"$T/opens.u" >"$T/opens.run"
opens_failed=""
while IFS= read -r cmd; do
    set -f
    # shellcheck disable=SC2086
    "$GW" --kb "$KB" ${cmd#gpuwise } >/dev/null 2>"$T/open.err" </dev/null || opens_failed="$opens_failed; $cmd: $(cat "$T/open.err")"
    set +f
done <"$T/opens.run"
check_eq "every printed open command run exits 0 ($(wc -l <"$T/opens.run" | tr -d ' ') of $(wc -l <"$T/opens.u" | tr -d ' ') commands)" "$opens_failed" ""
grep -q '^gpuwise kb show ' "$T/opens.run" && grep -q '^gpuwise kb source ' "$T/opens.run" &&
    pass "the open commands run include kb show and kb source" ||
    fail "the open commands run include kb show and kb source" "$(head -3 "$T/opens.run")"
grep -q '^gpuwise kb show ' "$T/opens.u" && grep -q '^gpuwise kb source ' "$T/opens.u" &&
    pass "the open commands include kb show and kb source" ||
    fail "the open commands include kb show and kb source" "$(head -3 "$T/opens.u")"
# a benchmark opens its GPU's datasheet; a rate and a claim about no one GPU open their source
run "$GW" --kb "$KB" --json kb search --limit 1000 resnet50
check_eq "a benchmark hit opens its GPU" \
    "$(jqr '[.hits[] | select(.kind == "benchmark") | .open == "gpuwise kb show " + .gpu] | all')" "true"
run "$GW" --kb "$KB" --json kb search per USD
check_eq "a rate hit opens its source (the ECB's of 2026, the Federal Reserve's of 2024-03)" \
    "$(jqr '[.hits[] | select(.kind == "rate") | .open] | unique | join(",")')" \
    "gpuwise kb source ecb-eurofxref-2026-04-13,gpuwise kb source ecb-eurofxref-2026-09-25,gpuwise kb source fed-g5-exchange-rates"
run "$GW" --kb "$KB" --json kb search nvlink ports
check_eq "a claim about nvlink (no GPU) opens its source" \
    "$(jqr '[.hits[] | select(.kind == "claim") | .gpu == null and (.open | startswith("gpuwise kb source "))] | all')" "true"
# kb/data/assumptions.csv: host_cost cites article-4090-a100-h100
run "$GW" --kb "$KB" --json kb search host cost
check_eq "an assumed figure's hit opens its source" \
    "$(jqr '[.hits[] | select(.kind == "assumption" and .ref == "host_cost") | .title + "|" + .open] | join(",")')" \
    "assumed 8000 CNY|gpuwise kb source article-4090-a100-h100"

# --- kb source ID ------------------------------------------------------------------------------
# fed-g5-exchange-rates is cited by 4 rates of rates.csv (USD, CNY, GBP, JPY; the euro's is the
# ECB's of 2026-09-25) and nothing else
run "$GW" --kb "$KB" --json kb source fed-g5-exchange-rates
jq_all _j1 '[.title, .publisher, .kind, .retrieved] | join("|")' \
    _j2 '[.facts[].ref] | join(",")' \
    _j3 '.fact_count'
check_rc "kb source: exit 0" 0
check_eq "kb source --json: the source's fields" "$_j1" \
    "Foreign Exchange Rates - G.5 (Monthly)|Board of Governors of the Federal Reserve System|dataset|2026-11-30"
check_eq "kb source --json: the 4 rates cite it" "$_j2" \
    "USD@2024-03,CNY@2024-03,GBP@2024-03,JPY@2024-03"
check_eq "kb source --json: fact_count" "$_j3" "4"
run "$GW" --kb "$KB" kb source nvidia-a100-datasheet
check_out "kb source text: the title" "NVIDIA A100 Tensor Core GPU datasheet"
check_out "kb source text: the URL" "https://www.nvidia.com/"
check_out "kb source text: a GPU it is cited for, with its command" "gpuwise kb show a100-sxm4-80gb"
run "$GW" --kb "$KB" kb source nvidia-a100-datasheet -o "$T/source.md"
check_rc "kb source -o x.md: exit 0" 0
check_eq "kb source md: the title as a heading" "$(head -1 "$T/source.md")" "# NVIDIA A100 Tensor Core GPU datasheet"
grep -qx '| gpu | a100-sxm4-80gb | NVIDIA A100 SXM4 80GB | gpuwise kb show a100-sxm4-80gb |' "$T/source.md" &&
    pass "kb source md: a table row per fact" || fail "kb source md: a table row per fact" "$(grep '^|' "$T/source.md" | head -3)"
# every source lists as many facts as kb sources counts for it
run "$GW" --kb "$KB" --json kb sources
# 73 GPUs + 102 benchmarks + 100 prices (63 + issue 14's 37) + 5 rates + 15 claims x 2 (source,
# correction) + 5 assumptions + 7 systems (4 + gb200-nvl72, intel-gaudi2-hls2, intel-gaudi3-hls3)
# = 73 + 102 + 100 + 5 + 30 + 5 + 7 = 322
# 322 before issue 14's second batch of prices, + its 32 prices (26 cloud offers, 6 purchases) = 354
# + the model catalog's 14 models and its 2 assumed figures (llm_mfu, decode_bandwidth_fraction) = 370
# + issue 14's third batch of prices: 44 (18 cloud offers of the silybench dataset, Modal's L40S,
# 2 tracker rates, and 12 purchases, 11 of them ranges entered as a low and a high row: 23) = 414
# + the high ends of three earlier ranges (Vast.ai's RTX 4090 and 5090, the RTX PRO 6000) = 417
# + 2 for the A800 eight-card server's price of 2024-02-18 (a range: its low and high row) = 419
# + issue 14's fourth batch: 13 purchase prices (Gaudi 2's kit, the MI355X's forecast, the H20's
# range (2 rows) and module, an H800 server; used V100 16GB and 32GB, T4, L4, L40S, H100 PCIe and
# RTX 2080 Ti) = 432
# + the tracker's used A30 and A40, and its new and used RTX 5090 and 5080 of 2026-09: 6 = 438
# + 17 new prices of Amazon listings (L4, RTX A6000, RTX 6000 Ada, A40, A100 40GB PCIe, H100 PCIe,
# RTX A4000, A5000, RTX 4000 Ada, Quadro RTX 6000, T4, P100, P4, V100 SXM2 32GB, RTX 3090, 3090 Ti,
# 3070) = 455
# + the L40S and L40 from the tracker's table of 2025-05-30: 2 = 457
# + the prices read on 2026-09-26: the L40S's range (2 rows), the H100 NVL, H100 PCIe, RTX PRO 6000
# Max-Q and RTX PRO 6000 = 6, and the euro's rate of 2026-09-25 replacing the Federal Reserve's of
# 2024-03 (the same count of rates) = 463
# + the tracker's used H200 NVL of 2026-08 = 464
# + the used RTX A6000 of the Amazon tracker's export of 2025-05-04 = 465
# + the assumed high end of a "from" price (RunPod's two H100 SXM prices) = 466
# + the ECB's CNY, GBP and JPY rates of 2026-04-13 = 469
# + issue 27's three hosts (desktop, workstation, server) and two assumed figures (support,
#   colocation) = 474
# + the rental shapes of issue 27: Lambda's 2x and 4x H100 SXM and B200 and 4x A6000 (5),
# CoreWeave's 8-GPU H200 and A100 on demand and spot (4), RunPod's pods of 2, 4 and 8 H100 SXM and
# H200, Community and Secure Cloud (12): 21 = 495
# + issue 28's 21 models (Llama 3.2, 3.3 and 4, Qwen3, DeepSeek-R1 and its 6 distills, gpt-oss,
# Mixtral 8x22B, Gemma 3, Phi-4, GPT-3), each citing its own source = 516
# + issue 28's 32 cards whose memory an nvidia-smi dump gives (memory_mib_source) = 548
# + issue 28's 74 measured LLM results, each citing its source = 622
# + 24 more published LLM results to test the speed model on: gpt-fast's other batch-1 rows (5),
# NeMo 24.07's other DGX-H100 rows (6), MLPerf Training v4.0's other NVIDIA LoRA runs (5) and
# v5.1's AMD, NVIDIA and Krai ones (8) = 646
# + torchtitan's FSDP pre-training rows: Llama 3.1 8B on 8 and 128 H100 (7) and Llama 3 8B on 64
# A100 (1), each citing its performance page = 654
# + the same A100 page's other rows once calibration narrows by GPU architecture: Llama 3 70B,
# Llama 2 13B (two) and Llama 2 70B (two) on 64 A100 (5) = 659
# + TensorRT-LLM's DeepSeek-R1 FP8 max-throughput run on 8 H200, citing its reproduction
# commands = 660
check_eq "kb sources: 660 citations in the shipped KB" "$(jqr '[.sources[].fact_count] | add')" "660"
printf '%s' "$OUT" | jq -r '.sources[] | "\(.id) \(.fact_count)"' >"$T/counts"
# One jq reads every source's JSON: a jq for each of the 156 cost more than gpuwise did.
# make test checks every 8th source, make check-long every one.
sample <"$T/counts" >"$T/counts.run"
while read -r id count; do
    "$GW" --kb "$KB" --json kb source "$id" </dev/null
done <"$T/counts.run" | jq -r '"\(.id) \(.facts | length)"' >"$T/got"
mismatch=$(awk 'NR == FNR { got[$1] = $2; next }
                got[$1] != $2 { printf " %s:%s/%s", $1, got[$1], $2 }' "$T/got" "$T/counts.run")
check_eq "kb source lists the facts kb sources counts ($(wc -l <"$T/counts.run" | tr -d ' ') of $(wc -l <"$T/counts" | tr -d ' ') sources)" "$mismatch" ""
run "$GW" --kb "$KB" kb source nvidia-a100-datashet
check_rc "kb source of an unknown id: exit 67" 67
check_err "kb source suggests the closest id" "no source 'nvidia-a100-datashet' (did you mean nvidia-a100-datasheet?)"

# --- kb list: derived value fields, and `or` and parentheses in --where (issue 14, item 6) ----
# A KB of four real cards (datasheet figures) and prices written here, so the hand calculations
# below do not move when the shipped prices are refreshed.
V="$T/value"
mkdir -p "$V"
cat >"$V/sources.csv" <<'CSV'
id,title,publisher,url,retrieved,kind,note
ds,Datasheets,NVIDIA and AMD,,2026-01,datasheet,
shop,A shop's price list,A shop,,2026-01,price-list,
fx,Exchange rates,A central bank,,2026-01,dataset,
CSV
cat >"$V/gpus.csv" <<'CSV'
id,name,vendor,memory_gb,memory_bandwidth_gbs,tdp_w,fp16_tflops,form_factor,source
rtx-3090,GeForce RTX 3090,NVIDIA,24,936,350,71,pcie,ds
rtx-4090,GeForce RTX 4090,NVIDIA,24,1008,450,165.2,pcie,ds
h100-sxm5,NVIDIA H100 SXM5 80GB,NVIDIA,80,3350,700,989.5,sxm5,ds
mi300x,AMD Instinct MI300X,AMD,192,5300,750,1307.4,oam,ds
CSV
cat >"$V/rates.csv" <<'CSV'
currency,per_usd,as_of,source
USD,1,2026-01,fx
CNY,7.2,2026-01,fx
CNY,7.0,2025-01,fx
EUR,0.92,2026-01,fx
CSV
cat >"$V/systems.csv" <<'CSV'
id,name,gpu,gpu_count,power_w,network_gbps,source,note
dgx-h100,NVIDIA DGX H100,h100-sxm5,8,10200,3200,ds,
CSV
cat >"$V/prices.csv" <<'CSV'
gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality,gpu_fraction,min_billing_hours,system,network_gbps
rtx-4090,new,12999,CNY,card,1,CN,,,0,2022-09,shop,older,list,,,,
rtx-4090,new,1599,USD,card,1,US,,,0,2022-10,shop,launch,list,,,,
rtx-3090,new,1100,EUR,card,1,DE,,,0,2024-03,shop,,list,,,,
rtx-3090,used,700,USD,card,1,US,,,0,2025-06,shop,used is not new,list,,,,
h100-sxm5,new,300000,USD,card,8,US,,,0,2024-08,shop,a whole server,quote,,,dgx-h100,
CSV
VKB="$T/value.db"
run "$GW" --kb "$VKB" kb import "$V/sources.csv" "$V/gpus.csv" "$V/rates.csv" "$V/systems.csv" "$V/prices.csv"
check_rc "value KB: imported" 0

# RTX 4090: the latest new price is USD 1,599 (2022-10; the CNY one is older):
#   1599 / 24 GB = 66.625 (USD 66.63 per GB); 1599 / 165.2 TFLOPS = 9.6792;
#   1599 / 1.008 TB/s = 1586.31; 165.2 TFLOPS / 450 W = 0.3671
# RTX 3090: EUR 1,100 at 0.92 EUR per USD = USD 1,195.65; / 24 GB = 49.82 (the used price is
#   not new)
# H100 SXM5: sold in a server: USD 300,000 / 8 GPUs = 37,500 a card; / 80 GB = 468.75;
#   / 3.35 TB/s = 11,194.03; 989.5 TFLOPS / 700 W = 1.4136
# MI300X: no new price: no price figures (null, never 0); 1307.4 / 750 W = 1.7432
run "$GW" --kb "$VKB" --json kb list
g4090='.gpus[] | select(.id == "rtx-4090")'
gh100='.gpus[] | select(.id == "h100-sxm5")'
gmi='.gpus[] | select(.id == "mi300x")'
jq_all _j1 .currency \
    _j2 "$g4090 | [.new_price, .new_price_as_of, .new_price_source] | join(\"|\")" \
    _j3 "$g4090 | .price_per_gb" \
    _j4 "$g4090 | .price_per_gb_text" \
    _j5 "$g4090 | .price_per_fp16_tflops" \
    _j6 "$g4090 | .price_per_tbs" \
    _j7 "$g4090 | .fp16_tflops_per_w" \
    _j8 '.gpus[] | select(.id == "rtx-3090") | .new_price' \
    _j9 '.gpus[] | select(.id == "rtx-3090") | .price_per_gb' \
    _j10 "$gh100 | .new_price" \
    _j11 "$gh100 | .price_per_gb" \
    _j12 "$gh100 | .price_per_tbs" \
    _j13 "$gmi | [.new_price, .new_price_as_of, .price_per_gb, .price_per_fp16_tflops, .price_per_tbs, .price_per_gb_text] | map(tostring) | join(\",\")" \
    _j14 "$gmi | .fp16_tflops_per_w"
check_rc "kb list --json with derived fields: exit 0" 0
check_eq "kb list --json: the currency" "$_j1" "USD"
check_eq "RTX 4090: new price USD 1,599, the latest (2022-10) of its two" \
    "$_j2" "1599|2022-10|shop"
check_eq "RTX 4090: 1599 / 24 GB = USD 66.625 per GB" "$_j3" "66.625"
# 66.625 is exactly half a cent: shown as every figure of gpuwise is, rounded as printf rounds
# the exact value (half to even), 66.62
check_eq "RTX 4090: per GB for people" "$_j4" "\$66.62 per GB"
check_num "RTX 4090: 1599 / 165.2 TFLOPS = 9.6792 per TFLOPS" "$_j5" 9.6792 0.0001
check_num "RTX 4090: 1599 / 1.008 TB/s = 1586.31 per TB/s" "$_j6" 1586.31 0.01
check_num "RTX 4090: 165.2 / 450 W = 0.3671 TFLOPS/W" "$_j7" 0.3671 0.0001
check_num "RTX 3090: EUR 1,100 / 0.92 = USD 1,195.65" "$_j8" 1195.65 0.01
check_num "RTX 3090: 1195.65 / 24 GB = 49.82 per GB" "$_j9" 49.82 0.01
check_eq "H100 SXM5: a server's USD 300,000 / 8 GPUs = 37,500 a card" "$_j10" "37500"
check_eq "H100 SXM5: 37,500 / 80 GB = 468.75 per GB" "$_j11" "468.75"
check_num "H100 SXM5: 37,500 / 3.35 TB/s = 11,194.03 per TB/s" "$_j12" 11194.03 0.01
check_eq "MI300X without a new price: its price fields are null, never 0" \
    "$_j13" \
    "null,null,null,null,null,null"
check_num "MI300X: 1307.4 / 750 W = 1.7432 TFLOPS/W (no price needed)" "$_j14" 1.7432 0.0001

# sorted by price per GB: 49.82, 66.63, 468.75, then the MI300X without one
run "$GW" --kb "$VKB" kb list --sort price_per_gb --columns id,new_price,price_per_gb,price_per_tbs,fp16_tflops_per_w
check_eq "kb list --sort price_per_gb: cheapest per GB first, no price last" \
    "$(printf '%s\n' "$OUT" | awk 'NR > 1 && NF > 1 { print $1 }' | grep -v '^(' | tr '\n' ' ')" "rtx-3090 rtx-4090 h100-sxm5 mi300x "
check_eq "the text table: RTX 4090 at 66.62 per GB (66.625, half to even), 1,586.31 per TB/s, 0.37 TFLOPS/W" \
    "$(printf '%s\n' "$OUT" | awk '$1 == "rtx-4090" { print $2, $3, $4, $5 }')" "1,599 66.62 1,586.31 0.37"
check_eq "the text table: unknown is '-'" "$(printf '%s\n' "$OUT" | awk '$1 == "mi300x" { print $2, $3, $4 }')" "- - -"
check_out "the footer names the currency" "(4 GPUs; prices in USD)"
run "$GW" --kb "$VKB" --json kb list --sort -price_per_gb
check_eq "--sort -price_per_gb: highest first, no price still last" "$(jqr '[.gpus[].id] | join(" ")')" \
    "h100-sxm5 rtx-4090 rtx-3090 mi300x"
run "$GW" --kb "$VKB" --json kb list --sort -fp16_tflops_per_w --columns id,fp16_tflops_per_w
jq_all _j1 '[.gpus[].id] | join(" ")' \
    _j2 '.gpus[0] | keys | join(",")'
check_eq "--sort -fp16_tflops_per_w: 1.74, 1.41, 0.37, 0.20" "$_j1" \
    "mi300x h100-sxm5 rtx-4090 rtx-3090"
check_eq "--columns keeps to the derived field asked" "$_j2" "fp16_tflops_per_w,id"
# A price column brings its date: price_per_gb the date of the new price it divides (RTX 4090:
# 2022-10), the launch price the release date (none in this KB: null), each once, at the end
run "$GW" --kb "$VKB" --json kb list --where 'id = rtx-4090' --columns id,price_per_gb,new_price
jq_all _j1 '.columns | join(",")' \
    _j2 '.gpus[0].new_price_as_of'
check_eq "--columns with a price: new_price_as_of added once, at the end" \
    "$_j1" "id,price_per_gb,new_price,new_price_as_of"
check_eq "--columns with a price: its date is the new price's, 2022-10" "$_j2" "2022-10"
run "$GW" --kb "$VKB" --json kb list --where 'id = rtx-4090' --columns id,new_price_as_of,price_per_gb
check_eq "--columns that already date the price: nothing added" "$(jqr '.columns | join(",")')" \
    "id,new_price_as_of,price_per_gb"
run "$GW" --kb "$VKB" kb list --where 'id = rtx-4090' --columns id,launch_price_usd
check_out "--columns launch_price_usd: the release date comes with it" "release_date"

# another currency: CNY at its latest rate, 7.2 (not 2025's 7.0): 1599 * 7.2 = 11,512.8 a card,
# / 24 GB = 479.7; EUR: 1599 * 0.92 = 1,471.08, / 24 GB = 61.295
run "$GW" --kb "$VKB" --json kb list --currency CNY --where 'id = rtx-4090'
jq_all _j1 '.currency' \
    _j2 '.gpus[0].new_price' \
    _j3 '.gpus[0].price_per_gb' \
    _j4 '.gpus[0].price_per_gb_text'
check_eq "--currency CNY: the listing says so" "$_j1" "CNY"
check_num "--currency CNY: 1599 * 7.2 = 11,512.8 a card" "$_j2" 11512.8 0.001
check_num "--currency CNY: 11,512.8 / 24 GB = 479.7 per GB" "$_j3" 479.7 0.001
check_eq "--currency CNY: per GB for people (whole units from 100 up)" "$_j4" "CNY 480 per GB"
run "$GW" --kb "$VKB" kb list --currency EUR --where 'id = rtx-4090' --columns id,price_per_gb
check_eq "--currency EUR: 1599 * 0.92 / 24 = 61.30 per GB" "$(printf '%s\n' "$OUT" | awk '$1 == "rtx-4090" { print $2 }')" "61.30"
check_out "--currency EUR: the footer" "prices in EUR"
run "$GW" --kb "$VKB" kb list --currency JPY
check_rc "--currency without a rate in the KB: exit 67" 67
check_err "--currency without a rate says so" "no exchange rate for 'JPY' in the knowledge base"
run "$GW" --kb "$VKB" kb list --currency usd
check_rc "--currency in lower case: exit 64" 64
check_err "--currency names the problem" "--currency: expected a code like USD, not 'usd'"

# --where on derived fields, with `or` and parentheses
run "$GW" --kb "$VKB" --json kb list --where 'price_per_gb < 100 or vendor = AMD'
check_eq "--where 'price_per_gb < 100 or vendor = AMD': 49.82, 66.63 and the AMD card" \
    "$(jqr '[.gpus[].id] | join(" ")')" "mi300x rtx-3090 rtx-4090"
run "$GW" --kb "$VKB" --json kb list --where 'vendor = AMD or memory_gb >= 80 and tdp_w < 740'
check_eq "'a or b and c' is 'a or (b and c)': the MI300X and the 700 W H100" \
    "$(jqr '[.gpus[].id] | join(" ")')" "h100-sxm5 mi300x"
run "$GW" --kb "$VKB" --json kb list --where '(vendor = AMD or memory_gb >= 80) and tdp_w < 740'
check_eq "'(a or b) and c': the 750 W MI300X is out" "$(jqr '[.gpus[].id] | join(" ")')" "h100-sxm5"
run "$GW" --kb "$VKB" --json kb list --where "new_price_as_of >= '2024' && (price_per_tbs > 10000 || price_per_gb<50)"
check_eq "&&, || and a text derived field: the 2024 prices over 10,000 per TB/s or under 50 per GB" \
    "$(jqr '[.gpus[].id] | join(" ")')" "h100-sxm5 rtx-3090"
run "$GW" --kb "$VKB" kb list --where 'price_per_gb > 0' --columns id
check_eq "a GPU without a price matches no condition on it" "$(printf '%s\n' "$OUT" | grep -c mi300x)" "0"
for case in "(memory_gb > 1|'(' at position 1 is not closed" \
            "(tdp_w>1))|')' at position 10 has no matching '('" \
            "memory_gb > 1 or|expected a condition after 'or' at position 15" \
            "and memory_gb > 1|'and' at position 1 has no condition before it" \
            "memory_gb > 1 or and tdp_w < 2|'and' at position 18 has no condition before it" \
            "tdp_w > 1 and ()|expected a condition after '(' at position 15" \
            "tdp_w > 1 tdp_w < 2|position 11: expected 'and' or 'or' between conditions" \
            "price_per_gb < 1; drop table gpu|unexpected character in a value"; do
    where=${case%%|*}
    run "$GW" --kb "$VKB" kb list --where "$where"
    check_rc "--where '$where': exit 64" 64
    check_err "--where '$where' names the problem" "${case#*|}"
done
run "$GW" --kb "$VKB" kb list --columns id,price_per_gbp
check_err "--columns lists the derived fields too" "fp16_tflops_per_w)"
run "$GW" --kb "$VKB" --format csv kb list --sort price_per_gb --columns id,price_per_gb
check_eq "csv: the exact figures, dated" "$(printf '%s' "$OUT" | tr -d '\r' | sed -n 3p)" "rtx-4090,66.625,2022-10"

# one description drives kb fields, help and completion
run "$GW" kb fields
check_out "kb fields: a derived field with its label" "$(printf 'price_per_gb\tnumber\tderived: Price per GB of memory')"
check_out "kb fields: a derived text field" "$(printf 'new_price_as_of\ttext\tderived: ')"
run "$GW" kb fields --json
check_eq "kb fields --json: the derived names after the GPU fields" "$(jqr '.[-4:] | join(",")')" \
    "price_per_gb,price_per_fp16_tflops,price_per_tbs,fp16_tflops_per_w"
run "$GW" help kb list
check_out "help kb list: each derived field, how it is computed" "price_per_tbs, price per TB/s of memory bandwidth (CUR per TB/s)"
check_out "help kb list: the server price per card" "server's price / its gpu_count"
check_out "help kb list: --currency" "--currency CUR"
run "$GW" help kb
check_out "help kb: or and parentheses" "binds tighter than or"
check_eq "completion offers the derived fields for --sort" \
    "$("$GW" complete 4 gpuwise kb list --sort price_per | tr '\n' ' ')" \
    "price_per_gb price_per_fp16_tflops price_per_tbs "

# the shipped KB: every GPU with a new price before those without, ascending
run "$GW" --kb "$KB" --json kb list --sort price_per_gb
jq_all _j1 '[.gpus[].price_per_gb] as $p | ($p | map(select(. != null))) as $k | ($k == ($k | sort)) and ($p[($k | length):] | all(. == null))' \
    _j2 '[.gpus[] | select(.price_per_gb != null) | .new_price_as_of != null] | all'
check_rc "shipped KB: kb list --sort price_per_gb" 0
check_eq "shipped KB: known prices per GB ascending, then the unknown ones" \
    "$_j1" "true"
check_eq "shipped KB: every known price per GB has its date" \
    "$_j2" "true"
