#!/bin/sh
# tests/cli/offers_stream.sh — `offers` streams (issue 31): SQLite folds the offers that differ
# only in region and orders the rows, each row is written as it is read.  Every format is checked
# to the byte against a fold computed here on its own (sqlite3 lists the offers unfolded, in the
# listing's order; awk folds them as the listing promises), and the peak memory of 20,000 offers
# against a bound worked out below.
. "$ROOT/tests/cli/lib.sh"

KB=$(fresh_kb stream)
# 3 GPUs x 4 instances x 4 regions (the first: none), each kept where (g + k + r) % 3 != 0, the
# regions outermost so that a row's offers are far apart in the KB, and a row whose first offer
# (the lowest id) has no region still names the regions of the others, but no area.  Per
# GPU-hour 0.5, 0.75, 0.5, 1.25 for k = 0..3: k = 0 and k = 2 of one GPU tie, and the row whose
# first offer came first must come first.  Counts 1, 2, 4, 1; k = 3 is spot.
awk 'BEGIN {
    print "# sources.csv"
    print "id,title,publisher,url,retrieved,kind,note"
    print "offers-stream,Offers made up for the streaming tests,gpuwise tests,,2026-12-01,user,Made-up offers."
    print ""
    print "# prices.csv"
    print "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality,gpu_fraction,min_billing_hours,system,network_gbps"
    split("rtx-4090 a100-sxm4-80gb t4", gpu, " ")
    split("- us-east-1 eu-west-1 ap-south-1", region, " ")
    split("0.5 0.75 0.5 1.25", per_gpu, " ")
    split("1 2 4 1", count, " ")
    for (r = 0; r < 4; r++)
        for (g = 0; g < 3; g++)
            for (k = 0; k < 4; k++) {
                if ((g + k + r) % 3 == 0) continue
                line = sprintf("%s,cloud,%s,USD,hour,%d,%s,StreamCloud,stream-%d,%d,2026-11,offers-stream,,list,,,,",
                               gpu[g + 1], per_gpu[k + 1] * count[k + 1], count[k + 1],
                               r ? region[r + 1] : "", k, k == 3)
                print line
            }
}' >"$T/stream.csv"
run "$GW" --kb "$KB" kb import "$T/stream.csv"
check_rc "offers stream: the fixture imports" 0

# The offers unfolded, in the listing's order (per GPU-hour, then GPU, then row), as sqlite3 reads
# them: id|gpu|count|provider|instance|region|spot|amount|per GPU-hour|currency|as_of|source|memory
sqlite3 -separator '|' "$KB" "SELECT p.id, p.gpu, p.gpu_count, p.provider, p.instance,
    ifnull(p.region, ''), p.spot, p.amount, p.amount / p.gpu_count, p.currency, p.as_of, p.source,
    g.memory_gb FROM price p JOIN gpu g ON g.id = p.gpu WHERE p.source = 'offers-stream'
    ORDER BY p.amount / p.gpu_count, p.gpu, p.id" >"$T/unfolded"
# 3 x 4 x 4 = 48 places, 16 of them left out ((g + k + r) % 3 == 0 for r = 0 and 3 or for r = 1
# or 2 alone: 8 (g, k) pairs twice, 4 once... 48 - 16 = 32)
check_eq "offers stream: sqlite3 lists the fixture's 32 offers" "$(wc -l <"$T/unfolded" | tr -d ' ')" 32

# The fold, on its own: a row for each offer whose fields but the region (and id) no earlier offer
# had, at that offer's place; its regions each once in the offers' order, the first of them its
# REGION; AREA the first offer's region's (us-east-1 US, eu-west-1 EU, ap-south-1 APAC:
# core/kb/kb_area.c's rules); one line a row, fields separated by '|' as in CSV's columns.
awk -F'|' 'BEGIN { area["us-east-1"] = "US"; area["eu-west-1"] = "EU"; area["ap-south-1"] = "APAC" }
{
    key = $2 "|" $3 "|" $4 "|" $5 "|" $7 "|" $8 "|" $10 "|" $11 "|" $12
    if (!(key in row)) {
        row[key] = ++n
        order[n] = key
        f[n] = $0
        lead_area[n] = $6 != "" ? area[$6] : ""
    }
    i = row[key]
    if ($6 != "" && index(" " regs[i] " ", " " $6 " ") == 0) {
        regs[i] = regs[i] (regs[i] == "" ? "" : " ") $6
        nregs[i]++
        a = area[$6]
        if (index(" " areas[i] " ", " " a " ") == 0) areas[i] = areas[i] (areas[i] == "" ? "" : " ") a
    }
}
END {
    for (i = 1; i <= n; i++) {
        split(f[i], c, "|")
        split(regs[i], first, " ")
        printf "%s|%d|%s|%s|%s|%s|%s|%s|%s|%s|%s||%s|%d|%s|%s|%s\n", c[2], c[3], c[4], c[5],
            first[1], c[7] ? "true" : "false", c[8] + 0 "", c[9] + 0 "", c[10], c[11], c[12],
            c[13] + 0 "", nregs[i], regs[i], lead_area[i], areas[i]
    }
}' "$T/unfolded" >"$T/fold"
# every (g, k) is one row whatever its regions (its offers differ in nothing else): 12 rows
check_eq "offers stream: the fold by hand has 12 rows" "$(wc -l <"$T/fold" | tr -d ' ')" 12

# ---- CSV and md, to the byte ------------------------------------------------------------------
{
    printf 'gpu,gpu_count,provider,instance,region,spot,price_per_hour,price_per_gpu_hour,currency,as_of,source,fraction,memory_gb,region_count,regions,area,areas\r\n'
    tr '|' ',' <"$T/fold" | sed 's/$/\r/'
} >"$T/expected.csv"
"$GW" --kb "$KB" offers --format csv --where "source = offers-stream" >"$T/got.csv"
cmp -s "$T/got.csv" "$T/expected.csv"
check_eq "offers stream: CSV is the fold by hand, to the byte" "$?" 0
# Sorted by a row's own field with no currency asked, the listing folds the offers as they come
# (core/kb/kb_offers.c rows_fold); with --currency, SQLite's GROUP BY folds them.  Every offer
# here is in USD, so --currency USD lists the same rows: both folds agree to the byte.
"$GW" --kb "$KB" offers --format csv --currency USD --where "source = offers-stream" >"$T/got-usd.csv"
cmp -s "$T/got-usd.csv" "$T/expected.csv"
check_eq "offers stream: SQLite's fold (--currency USD) is the same CSV" "$?" 0

{
    echo "| GPU | Count | Provider | Instance | Region | Spot | Per hour | Per GPU-hour | Currency | As of | Source | Fraction | Memory GB | Regions | Region list | Area | Area list |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    sed 's/|/ | /g; s/^/| /; s/$/ |/' "$T/fold"
} >"$T/expected.md"
"$GW" --kb "$KB" offers --format md --where "source = offers-stream" >"$T/got.md"
cmp -s "$T/got.md" "$T/expected.md"
check_eq "offers stream: md is the fold by hand, to the byte" "$?" 0

# ---- JSON, to the byte ------------------------------------------------------------------------
awk -F'|' -v where="source = offers-stream" '
function str(s) { return s == "" ? "null" : "\"" s "\"" }
function list(s,   n, i, parts, out) {
    n = split(s, parts, " ")
    if (n == 0) return "[]"
    out = "["
    for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") "\n        \"" parts[i] "\""
    return out "\n      ]"
}
BEGIN { printf "{\n  \"currency\": null,\n  \"where\": \"%s\",\n  \"sort\": null,\n  \"offers\": [", where }
{
    sep = NR > 1 ? "," : ""
    printf "%s\n    {", sep
    printf "\n      \"gpu\": \"%s\",\n      \"label\": \"%s\",\n      \"gpu_count\": %s,", $1, $1, $2
    printf "\n      \"gpu_fraction\": 1,\n      \"fraction\": null,\n      \"memory_gb\": %s,", $13
    printf "\n      \"provider\": \"%s\",\n      \"instance\": \"%s\",\n      \"spot\": %s,", $3, $4, $6
    printf "\n      \"price_per_hour\": %s,\n      \"price_per_gpu_hour\": %s,", $7, $8
    printf "\n      \"currency\": \"%s\",\n      \"as_of\": \"%s\",\n      \"source\": \"%s\",", $9, $10, $11
    printf "\n      \"quality\": \"list\",\n      \"regions\": %s,\n      \"areas\": %s,", list($15), list($17)
    printf "\n      \"area\": %s,\n      \"region\": %s,\n      \"region_count\": %s\n    }", str($16), str($5), $14
}
END { printf "\n  ]\n}\n" }' "$T/fold" >"$T/expected.json"
"$GW" --kb "$KB" offers --format json --where "source = offers-stream" >"$T/got.json"
cmp -s "$T/got.json" "$T/expected.json"
check_eq "offers stream: JSON is the fold by hand, to the byte" "$?" 0

# ---- text, to the byte: columns as wide as their widest entry ---------------------------------
awk -F'|' '
function money(x) { return sprintf("$%.2f", x) }
BEGIN {
    split("GPU COUNT MEMORY PROVIDER INSTANCE REGION AREA SPOT PER_HOUR PER_GPU-H AS_OF SOURCE", t, " ")
    for (j = 1; j <= 12; j++) { gsub("_", " ", t[j]); cell[0, j] = t[j] }
    split("0 1 1 0 0 0 0 0 1 1 0 0", right, " ")   # COUNT, MEMORY and the prices align right
}
{
    cell[NR, 1] = $1; cell[NR, 2] = $2; cell[NR, 3] = $13 " GB"; cell[NR, 4] = $3
    cell[NR, 5] = $4
    cell[NR, 6] = $14 > 1 ? $5 " +" ($14 - 1) : $5 == "" ? "-" : $5
    cell[NR, 7] = $17 == "" ? "-" : $17; gsub(" ", ",", cell[NR, 7])
    cell[NR, 8] = $6 == "true" ? "spot" : "-"
    cell[NR, 9] = money($7); cell[NR, 10] = money($8); cell[NR, 11] = $10; cell[NR, 12] = $11
    folded += $14 > 1
}
END {
    for (r = 0; r <= NR; r++)
        for (j = 1; j <= 12; j++)
            if (length(cell[r, j]) > w[j]) w[j] = length(cell[r, j])
    for (r = 0; r <= NR; r++) {
        line = ""
        for (j = 1; j <= 12; j++)
            line = line (j > 1 ? "  " : "") sprintf(right[j] ? "%" w[j] "s" : "%-" w[j] "s", cell[r, j])
        sub(/ +$/, "", line)
        print line
    }
    printf "(%d offers%s)\n", NR, folded ? "; REGION +N: the same offer in N more regions, which --json lists" : ""
}' "$T/fold" >"$T/expected.text"
"$GW" --kb "$KB" offers --where "source = offers-stream" >"$T/got.text"
cmp -s "$T/got.text" "$T/expected.text"
check_eq "offers stream: the text table is the fold by hand, to the byte" "$?" 0

# The same listing written to -o FILE is the same bytes (the file is written in pieces too).
"$GW" --kb "$KB" offers --format csv --where "source = offers-stream" -o "$T/out.csv" 2>/dev/null
cmp -s "$T/out.csv" "$T/expected.csv"
check_eq "offers stream: -o FILE gets the bytes standard output gets" "$?" 0
# A filter that fails leaves -o's file as it was and writes nothing to standard output.
echo "kept" >"$T/kept.csv"
run "$GW" --kb "$KB" offers --format csv --where "vram >= 24" -o "$T/kept.csv"
check_eq "offers stream: a bad --where leaves -o FILE as it was" "$(cat "$T/kept.csv")" "kept"
run "$GW" --kb "$KB" --json offers --where "vram >= 24"
check_eq "offers stream: a bad --where writes no partial JSON" "$RC:$OUT" "64:"

# ---- memory: flat in the offers ---------------------------------------------------------------
if [ ! -x /usr/bin/time ]; then
    skip "offers stream: peak memory" "no /usr/bin/time"
    exit 0
fi
BIG=$(fresh_kb stream20k)
awk -v n=20000 -v seed=42 -v gpus=rtx-3090,h100-sxm5,a100-sxm4-80gb,t4 \
    -f "$ROOT/tests/bench/gen_offers.awk" >"$T/offers20k.csv"
"$GW" --kb "$BIG" kb import "$T/offers20k.csv" >/dev/null 2>&1
# peak FORMAT KB: the peak memory (max RSS, KB) of offers in FORMAT, output discarded
peak() {
    /usr/bin/time -f %M -o "$T/rss" "$GW" --kb "$2" offers --format "$1" >/dev/null 2>&1 &&
        cat "$T/rss"
}
# The bound, by hand: streamed, what 20,000 more offers add is SQLite's own: its page cache
# (cache_size -2000: 2,000 KiB) and the two sorts (GROUP BY, ORDER BY), each held in memory up
# to the page cache's size before it spills to a temporary file: 3 x 2,000 KiB = 6,000 KiB,
# plus the 64 KiB the output is written in.  Allow 8,192 KiB.  The listing held whole (a view
# per offer) added some 60 MB here.
for format in csv json md text; do
    if nm "$GW" 2>/dev/null | grep -q '__asan_'; then   # the sanitizer's quarantine grows
        skip "offers stream: $format peak memory" "an AddressSanitizer build"
        continue
    fi
    small=$(peak "$format" "$SHIPPED_KB")
    large=$(peak "$format" "$BIG")
    if [ -n "$small" ] && [ -n "$large" ] && [ $((large - small)) -lt 8192 ]; then
        pass "offers stream: $format of 20,000 more offers adds under 8 MB ($small KB, then $large KB)"
    else
        fail "offers stream: $format of 20,000 more offers adds under 8 MB" "$small KB, then $large KB"
    fi
done
