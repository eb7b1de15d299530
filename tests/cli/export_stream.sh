#!/bin/sh
# tests/cli/export_stream.sh — `kb export` streams (issue 31 item 1): its peak memory does not
# grow with the rows exported, to standard output or to -o FILE, and both give the same bytes.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ] || [ ! -x /usr/bin/time ]; then
    skip "export streams" "no built KB or no /usr/bin/time"
    exit 0
fi

# grown N: a copy of the shipped KB with N more results (distinct notes), written by sqlite3
grown() {
    _kb=$(fresh_kb "rows$1") && sqlite3 "$_kb" "
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
        INSERT INTO benchmark (gpu, gpu_count, workload, metric, value, unit, source, note)
        SELECT 'rtx-4090', 1, 'resnet50', 'train_throughput', 1000 + i, 'images/s',
               'lambda-gpu-benchmarks', 'streamed row ' || i FROM n" && echo "$_kb"
}
# peak_kb KB ARGS...: the peak memory (max RSS, KB) of kb export with ARGS, output discarded
peak_kb() {
    _kb=$1
    shift
    /usr/bin/time -f %M -o "$T/rss" "$GW" --kb "$_kb" kb export "$@" >/dev/null 2>&1 &&
        cat "$T/rss"
}

SMALL=$(grown 20000)
LARGE=$(grown 80000)
small=$(peak_kb "$SMALL")
large=$(peak_kb "$LARGE")
large_file=$(peak_kb "$LARGE" -o "$T/large.csv")
# Each added row is some 100 bytes of text: 60,000 more rows are about 6 MB more output, which
# an export held whole in memory adds to its peak (10.9 MB then 17.3 MB before it streamed);
# streamed, the peak stays within SQLite's sorter and page cache whatever the rows: under 4 MB
# more.
if [ -n "$small" ] && [ -n "$large" ] && [ $((large - small)) -lt 4096 ]; then
    pass "kb export: peak memory flat from 20,000 to 80,000 more results ($small KB, $large KB)"
else
    fail "kb export: peak memory flat from 20,000 to 80,000 more results" "$small KB, then $large KB"
fi
if [ -n "$large_file" ] && [ $((large_file - small)) -lt 4096 ]; then
    pass "kb export -o FILE: peak memory flat too ($large_file KB)"
else
    fail "kb export -o FILE: peak memory flat too" "$small KB, then $large_file KB"
fi
"$GW" --kb "$LARGE" kb export >"$T/large-stdout.csv"
if cmp -s "$T/large.csv" "$T/large-stdout.csv"; then
    pass "kb export -o FILE writes the bytes standard output gets"
else
    fail "kb export -o FILE writes the bytes standard output gets"
fi
# 80,000 added rows, each on one line of the benchmarks section
check_eq "kb export: every added row is there" \
    "$(grep -c '^rtx-4090,1,resnet50,train_throughput,.*,streamed row ' "$T/large.csv")" "80000"
# A failed export leaves -o's file as it was: an export into a KB that is not one fails before
# anything replaces the target.
echo "kept" >"$T/kept.csv"
echo "not a database" >"$T/bad.db"
run "$GW" --kb "$T/bad.db" kb export -o "$T/kept.csv"
check_eq "a failed export leaves -o FILE as it was" "$(cat "$T/kept.csv")" "kept"
