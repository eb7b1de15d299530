#!/bin/sh
# kb_show_summary.sh — a datasheet summarises a card's measured results: one row per workload,
# metric and GPU count (and precision and unit) with how many results, their median, range and
# sources, in text, Markdown and JSON; --all lists every result.  The rows are added to a card
# the shipped KB has no results for (the A30), so every figure below is computed by hand.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "kb show summary: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
KB=$(fresh_kb summary)
# Two sources the shipped KB has: lambda-gpu-benchmarks (L) and nvidia-a30-page (N).
cat >"$T/rows.csv" <<'EOF'
gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,interconnect,power_w,source,note
a30,1,team-train,train_throughput,300,images/s,fp16,64,pytorch,,,lambda-gpu-benchmarks,run 1
a30,1,team-train,train_throughput,100,images/s,fp16,64,pytorch,,,lambda-gpu-benchmarks,run 2
a30,1,team-train,train_throughput,400,images/s,fp16,64,pytorch,,,nvidia-a30-page,run 3
a30,1,team-train,train_throughput,200,images/s,fp16,64,pytorch,,,lambda-gpu-benchmarks,run 4
a30,1,team-train,train_throughput,70,images/s,fp32,64,pytorch,,,lambda-gpu-benchmarks,run 5
a30,1,team-train,train_throughput,50,images/s,fp32,64,pytorch,,,lambda-gpu-benchmarks,run 6
a30,1,team-train,train_throughput,60,images/s,fp32,64,pytorch,,,lambda-gpu-benchmarks,run 7
a30,2,team-train,train_throughput,900,images/s,fp16,64,pytorch,nvlink,,lambda-gpu-benchmarks,run 8
a30,1,team-infer,latency,12.5,ms,fp16,1,pytorch,,,nvidia-a30-page,run 9
a30,1,team-infer,latency,10,ms,fp16,1,pytorch,,,lambda-gpu-benchmarks,run 10
EOF
run sqlite3 "$KB" "SELECT count(*) FROM source WHERE id IN ('lambda-gpu-benchmarks', 'nvidia-a30-page')
    UNION ALL SELECT count(*) FROM benchmark WHERE gpu = 'a30'"
check_eq "the fixture's sources are in the KB, and the A30 has no results of its own" \
    "$(echo $OUT)" "2 0"
run "$GW" --kb "$KB" kb import "$T/rows.csv"
check_rc "the rows import" 0

# Groups, in the order of workload, metric, GPU count and precision (by hand):
#   team-infer latency, 1 GPU, fp16: 10, 12.5          -> 2 results, median (10 + 12.5) / 2 = 11.25
#   team-train, 1 GPU, fp16: 100, 200, 300, 400        -> 4 results, median (200 + 300) / 2 = 250
#   team-train, 1 GPU, fp32: 50, 60, 70                -> 3 results, median 60 (the middle one)
#   team-train, 2 GPUs, fp16: 900                      -> 1 result, median 900, no range
# 2 + 4 + 3 + 1 = 10 results in all.
run "$GW" --kb "$KB" kb show a30 --json
check_rc "kb show --json" 0
jq_all _groups '.results_summary | map([.workload, .gpu_count, .precision, .rows, .median, .min, .max] | map(tostring) | join(" ")) | join("; ")' \
    _results '.results' \
    _summarised '.summarised' \
    _listed '.benchmarks | length' \
    _sources '.results_summary | map(.sources | map(.source) | join("+")) | join(" ")' \
    _numbered '[.results_summary[].sources[] | .source_n > 0] | all' \
    _texts '.results_summary | map((.median_text) + " / " + (.range_text // "-")) | join("; ")'
check_eq "four groups, their results, medians and ranges" "$_groups" \
    "team-infer 1 fp16 2 11.25 10 12.5; team-train 1 fp16 4 250 100 400; team-train 1 fp32 3 60 50 70; team-train 2 fp16 1 900 900 900"
check_eq "10 results in all" "$_results" 10
# JSON lists every result for scripts whether or not --all asks people to see them
check_eq "summarised for people, listed for scripts" "$_summarised,$_listed" "true,10"
# each group's sources in the order of their citation numbers: N is [1] (the A30's specs cite
# it first), L [2]; team-infer has runs 9 (N) and 10 (L), the fp16 group runs 1-4 (run 3 N)
check_eq "each group's sources" "$_sources" \
    "nvidia-a30-page+lambda-gpu-benchmarks nvidia-a30-page+lambda-gpu-benchmarks lambda-gpu-benchmarks lambda-gpu-benchmarks"
check_eq "each source is cited with its number" "$_numbered" true
check_eq "the figures for people: median, and the range where the results differ" "$_texts" \
    "11.25 ms / 10–12.5 ms; 250 images/s / 100–400 images/s; 60 images/s / 50–70 images/s; 900 images/s / -"

run "$GW" --kb "$KB" kb show a30
check_out "the text datasheet says it summarises 10 results" "Measured results (10: the median"
check_out "a group of four: its median, count and range" \
    "team-train train_throughput: 250 images/s (median of 4, 100–400 images/s), fp16 ["
check_out "a group of three: the middle result" \
    "team-train train_throughput: 60 images/s (median of 3, 50–70 images/s), fp32 ["
check_out "a group of one: the result alone, with its GPU count" \
    "team-train train_throughput: 900 images/s with 2 GPUs, fp16 ["
check_eq "one line per group" "$(echo "$OUT" | grep -c '^  team-')" 4

run "$GW" --kb "$KB" kb show a30 --format md
check_out "the Markdown datasheet has the summary table" \
    "| team-train | train\\_throughput | 1 | fp16 | 4 | 250 images/s [^"
check_out "its range column" "| 100–400 images/s |"

# --all: every result, as each row reads.
run "$GW" --kb "$KB" kb show a30 --all --json
jq_all _n '.benchmarks | length' _summarised '.summarised' _values '[.benchmarks[].value] | map(tostring) | join(" ")'
check_eq "--all --json lists the 10 results, for people too" "$_n,$_summarised" "10,false"
# kb_benchmarks_find's order: workload, metric, GPU count, value
check_eq "--all lists each value" "$_values" "10 12.5 50 60 70 100 200 300 400 900"
run "$GW" --kb "$KB" kb show a30 --all
check_eq "--all: one text line per result" "$(echo "$OUT" | grep -c '^  team-')" 10
check_out_not "--all: no median" "median of"
run "$GW" --kb "$KB" kb show a30 --all --format md
check_eq "--all --format md: one table row per result" "$(echo "$OUT" | grep -c '^| team-')" 10

# A card without results has no such section.
run "$GW" --kb "$KB" kb show a10g --json
check_eq "no results: an empty summary" "$(jqr '[(.results_summary | length), .results] | join(",")')" "0,0"
run "$GW" --kb "$KB" kb show a10g
check_out_not "no results: no Measured results heading" "Measured results"
