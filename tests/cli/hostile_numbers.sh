#!/bin/sh
# Numbers at the edges: GPU counts that are fractional or huge (from a pricing plugin, an
# importer and a CSV file alike), garbage in the numeric environment variables, dates that are
# not days of the calendar, and speeds that are unknown: each refused with the place and the
# rule named, or shown as unknown with the reason, never as nan.
. "$ROOT/tests/cli/lib.sh"

KB=$(fresh_kb numbers)
P="$T/plugins"
mkdir -p "$P/pricing" "$P/importers"
RULE="expected a whole number of GPUs from 1 to 1024"

# ---- gpu_count: pricing plugins -------------------------------------------------------------
# count_plugin NAME COUNT: an offer of one Edge Cloud instance with COUNT GPUs.
count_plugin() {
    cat >"$P/pricing/$1.lua" <<LUA
return {
  name = "$1", kind = "pricing", version = "1.0", description = "an instance of $2 GPUs",
  offers = function(ctx)
    return { { provider = "Edge Cloud $1", gpu = "rtx-4090", gpu_count = $2, price_per_hour = 1.5,
               currency = "USD", region = "US", spot = false, instance = "edge-$1",
               as_of = "2026-11-01" } }
  end,
}
LUA
}
# 2.5 GPUs once became "rent 2x" and won; 1e12 GPUs "rent -2147483648x" with a negative speed.
for c in half:2.5 huge:1e12 zero:0 over:1025; do
    name=count-${c%%:*} count=${c#*:}
    count_plugin "$name" "$count"
    run "$GW" --kb "$KB" --plugins "$P" prices refresh "$name"
    check_rc "pricing plugin gpu_count $count: refused" 65
    case $count in
        0) check_err "pricing plugin gpu_count 0: named" \
               "$name: offers[1].gpu_count: expected a number greater than 0, got 0" ;;
        1e12) check_err "pricing plugin gpu_count 1e12: named" \
                  "$name: offers[1].gpu_count: $RULE, got 1000000000000" ;;
        *) check_err "pricing plugin gpu_count $count: named" \
               "$name: offers[1].gpu_count: $RULE, got $count" ;;
    esac
done
run "$GW" --kb "$KB" --json offers --gpu rtx-4090
check_eq "pricing plugin: no refused offer stored" \
    "$(jqr '[.offers[] | select(.provider | startswith("Edge Cloud"))] | length')" 0
# the edges of the range are counts
count_plugin count-one 1
count_plugin count-max 1024
run "$GW" --kb "$KB" --plugins "$P" prices refresh count-one count-max
check_rc "pricing plugin gpu_count 1 and 1024: stored" 0

# ---- gpu_count: importers -------------------------------------------------------------------
cat >"$P/importers/counts.lua" <<'LUA'
-- One cloud price per line of the file: the line's text is the GPU count.
return {
  name = "counts", kind = "importer", version = "1.0", description = "counts from a file",
  import = function(ctx, text)
    local out, line = {}, 0
    for n in text:gmatch("[^\n]+") do
      line = line + 1
      out[#out + 1] = { kind = "price", line = line, gpu = "rtx-4090", price_kind = "cloud",
                        amount = 1.5, currency = "USD", gpu_count = tonumber(n), region = "US",
                        provider = "Edge Import", as_of = "2026-11-01" }
    end
    return out
  end,
}
LUA
for count in 2.5 1e12; do
    printf '1\n%s\n' "$count" >"$T/counts.txt"
    run "$GW" --kb "$KB" --plugins "$P" kb import --with counts "$T/counts.txt"
    check_rc "importer gpu_count $count: refused" 65
    [ "$count" = 1e12 ] && shown=1000000000000 || shown=$count
    check_err "importer gpu_count $count: record, field and line named" \
        "counts: records[2].gpu_count: $RULE, got $shown (line 2)"
done
run "$GW" --kb "$KB" --json offers --gpu rtx-4090
check_eq "importer: nothing stored from a refused file" \
    "$(jqr '[.offers[] | select(.provider == "Edge Import")] | length')" 0

# ---- gpu_count: CSV ---------------------------------------------------------------------------
# benchmark_csv FILE COUNT, price_csv FILE COUNT AS_OF: one row each under the KB's own header.
benchmark_csv() {
    { head -n 1 "$ROOT/kb/data/benchmarks.csv"   # its 27 columns (schema version 17)
      echo "rtx-4090,$2,resnet50,train_throughput,2000,images/s,fp16,256,pytorch,,,lambda-gpu-benchmarks,edge,,,,,,,,,,,,,,"
    } >"$1"
}
price_csv() {
    { head -n 1 "$ROOT/kb/data/prices.csv"
      echo "rtx-4090,cloud,1.5,USD,hour,$2,US,Edge CSV,edge,0,$3,lambda-gpu-benchmarks,,list,,,,,,"
    } >"$1"
}
for count in 2.5 1e12; do
    [ "$count" = 1e12 ] && shown=1000000000000 || shown=$count
    benchmark_csv "$T/bench.csv" "$count"
    run "$GW" --kb "$KB" kb import "$T/bench.csv"
    check_rc "benchmarks.csv gpu_count $count: refused" 65
    check_err "benchmarks.csv gpu_count $count: file, line and column named" \
        "$T/bench.csv:2: gpu_count: $RULE, got $shown"
    price_csv "$T/price.csv" "$count" 2026-11-01
    run "$GW" --kb "$KB" kb import "$T/price.csv"
    check_rc "prices.csv gpu_count $count: refused" 65
    check_err "prices.csv gpu_count $count: file, line and column named" \
        "$T/price.csv:2: gpu_count: $RULE, got $shown"
done

# ---- dates -------------------------------------------------------------------------------------
# 2023 is not a leap year (not divisible by 4), 2024 is; February 30 and 31 never exist.
for d in 2023-02-29 2023-02-31 2026-02-30 2023-04-31; do
    price_csv "$T/price.csv" 1 "$d"
    run "$GW" --kb "$KB" kb import "$T/price.csv"
    check_rc "prices.csv as_of $d: refused" 65
    check_err "prices.csv as_of $d: named" "$T/price.csv:2: as_of: '$d' is not a date"
done
price_csv "$T/price.csv" 1 2024-02-29
run "$GW" --kb "$KB" kb import "$T/price.csv"
check_rc "prices.csv as_of 2024-02-29 (a leap day): stored" 0
cat >"$P/pricing/bad-date.lua" <<'LUA'
return {
  name = "bad-date", kind = "pricing", version = "1.0", description = "dated February 31",
  offers = function(ctx)
    return { { provider = "Edge Dated", gpu = "rtx-4090", gpu_count = 1, price_per_hour = 1.5,
               currency = "USD", region = "US", as_of = "2023-02-31" } }
  end,
}
LUA
run "$GW" --kb "$KB" --plugins "$P" prices refresh bad-date
check_rc "pricing plugin as_of 2023-02-31: refused" 65
check_err "pricing plugin as_of 2023-02-31: named" "bad-date: offers[1].as_of: '2023-02-31' is not a date"

# ---- the environment ---------------------------------------------------------------------------
# Every numeric variable goes through one parser: garbage is exit 64 naming the variable, the
# range and the value, whichever command runs.  (1e300 once set an instruction limit of
# -9223372036854775808.)
env_case() {   # VAR VALUE EXPECTED-MESSAGE
    run env "$1=$2" "$GW" --kb "$KB" kb show rtx-4090
    check_rc "$1='$2': refused" 64
    check_err "$1='$2': variable, range and value named" "$3"
}
for v in 1e300 -1 0 12abc ""; do
    env_case GPUWISE_PLUGIN_INSTRUCTIONS "$v" \
        "GPUWISE_PLUGIN_INSTRUCTIONS: expected a whole number of instructions from 1 to 1000000000000000, not '$v'"
    env_case GPUWISE_PLUGIN_MEMORY_MB "$v" \
        "GPUWISE_PLUGIN_MEMORY_MB: expected a whole number of MiB from 1 to 1048576, not '$v'"
    env_case GPUWISE_PLUGIN_SECONDS "$v" \
        "GPUWISE_PLUGIN_SECONDS: expected a number of seconds from 0.001 to 86400, not '$v'"
    env_case GPUWISE_MAX_DUMP_MB "$v" \
        "GPUWISE_MAX_DUMP_MB: expected a whole number of MiB from 1 to 1048576, not '$v'"
done
for v in 1e300 -1 12abc ""; do   # 0 is a wait of no time, and 1970-01-01
    env_case GPUWISE_BUSY_TIMEOUT_MS "$v" \
        "GPUWISE_BUSY_TIMEOUT_MS: expected a whole number of milliseconds from 0 to 2147483647, not '$v'"
    env_case SOURCE_DATE_EPOCH "$v" \
        "SOURCE_DATE_EPOCH: expected a whole number of seconds from 0 to 253402300799, not '$v'"
done
run env GPUWISE_PLUGIN_INSTRUCTIONS=1000000000000000 GPUWISE_PLUGIN_MEMORY_MB=1048576 \
    "$GW" --kb "$KB" --plugins "$P" prices refresh count-one
check_rc "the largest values of the ranges are accepted" 0

# ---- unknown speeds ----------------------------------------------------------------------------
# vision-team's three AMD offers have no resnet50 result to measure or scale from: their speed
# is unknown, said so with the reason, never nan.
W="$ROOT/examples/vision-team.lua"
run "$GW" decide "$W"
check_rc "decide vision-team" 0
check_eq "decide text: no nan or inf" "$(printf '%s\n' "$OUT" | grep -ciwE 'nan|inf|infinity')" 0
check_eq "decide text: the AMD rows say unknown" \
    "$(printf '%s\n' "$OUT" | grep -cE 'rent 1x mi3[0-9]+x .* unknown -')" 3
check_out "decide text: the reason under the row" \
    "excluded: no measured or comparable resnet50 result for AMD Instinct MI300X: no AMD GPU is measured on this benchmark to scale from"
run "$GW" --json decide "$W"
check_rc "decide vision-team --json" 0
check_eq "decide json: unknown speeds are null, band included" \
    "$(jqr '[.options[] | select(.throughput.value == null) | [.throughput.low, .throughput.high] | map(. == null) | all] | length, all')" \
    "3
true"
check_eq "decide json: each says why" \
    "$(jqr '[.options[] | select(.throughput.value == null) | .throughput.unknown_because] | unique | .[]')" \
    "no AMD GPU is measured on this benchmark to scale from"
check_eq "decide json: known speeds have no reason to be unknown" \
    "$(jqr '[.options[] | select(.throughput.value != null) | .throughput.unknown_because] | unique | .[]')" \
    "null"
run "$GW" report "$W" --format md -o "$T/vision.md"
check_rc "report md vision-team" 0
check_eq "report md: no nan or inf" "$(grep -ciwE 'nan|inf|infinity' "$T/vision.md")" 0
check_eq "report md: the AMD options named as without a speed result" \
    "$(grep -c 'no speed result (3)' "$T/vision.md")" 1

# --- a KB changed outside gpuwise: counts no import would take -----------------------------------
# sqlite3 writes what gpuwise refuses to store; every read bounds the count (kb_table.c) before any
# conversion to int, and kb check names the table.
KB=$(fresh_kb edited-counts)
sqlite3 "$KB" "UPDATE price SET gpu_count = 1e12 WHERE id IN (SELECT id FROM price WHERE gpu = 'rtx-4090' LIMIT 1);
               UPDATE price SET gpu_count = 2.5 WHERE id IN (SELECT id FROM price WHERE gpu = 'a100-sxm4-80gb' LIMIT 1);"
run "$GW" --kb "$KB" kb check
check_rc "kb check: counts out of range are a problem" 65
check_out "kb check: the price table named, 2 rows" "price: 2 rows with a GPU count that is not a whole number from 1 to 1024"
run "$GW" --kb "$KB" decide "$W"
check_rc "decide on the edited KB still answers" 0
check_out_not "decide: no negative count" "-2147483648"
check_eq "decide: no nan or inf" "$(printf '%s\n' "$OUT" | grep -ciwE 'nan|inf|infinity')" 0
