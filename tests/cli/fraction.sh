#!/bin/sh
# tests/cli/fraction.sh — fractional GPUs (issue 29): a slice of a card (Azure's NVadsA10 v5
# sizes: 1/6, 1/3 and 1/2 of an A10, and the whole card) is labelled by its share, each share is
# its own option, it holds its share of the card's memory, computes at its share of the whole
# card's speed (kind "scaled", never "measured"), and is priced by its instance's hour and that
# price per whole GPU-hour.  Over a copy of the shipped KB whose other A10 prices are removed,
# with the fixture's four Azure offers (tests/fixtures/fraction), on a pinned today, 2026-12-01;
# then over the real SkyPilot catalogues in ../shared/testdata with the repository's Azure one.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/fraction"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

if [ ! -f "$SHIPPED_KB" ]; then
    skip "fraction" "kb/gpuwise.db not built (run make)"
    exit 0
fi
K=$(fresh_kb fraction) && sqlite3 "$K" "DELETE FROM price WHERE gpu = 'a10'"
run "$GW" --kb "$K" kb import "$FX/sources.csv" "$FX/prices.csv"
check_rc "fraction: the fixture's Azure A10 offers import" 0

# Hand figures used throughout.  The KB's A10: 24 GB nominal, 23,028 MiB as nvidia-smi reports
# it = 23,028 x 1,048,576 = 24.1466e9 bytes.  The fixture stores 0.167 and 0.333 (a catalogue's
# three decimals), read as 1/6 and 1/3; 0.5 and 1 as they are.
#   share  instance  USD/h   memory GB (of 24.1466)  nominal  per whole GPU-hour
#   1/6    NV6ads    0.454   4.0244                  4        0.454 x 6 = 2.724
#   1/3    NV12ads   0.908   8.0489                  8        0.908 x 3 = 2.724
#   1/2    NV18ads   1.60    12.0733                 12       1.60 x 2  = 3.20
#   1      NV36ads   3.20    24.1466                 24       3.20

# ---- an image model: measured on the whole card, scaled to each slice --------------------------
# vision.lua: 25.6M parameters at AMP + Adam (16 bytes each) and 2 GB of activations:
# (0.4096 + 2) x 1.10 + 1.0 GB = 3.65 GB, which every share holds.  The A10's ResNet-50 at AMP
# is measured, 638 images/s: a slice runs 638 x 1/6 = 106.33, x 1/3 = 212.67, x 1/2 = 319.
# Capacity, 8 h a day for 12 months = 2,880 h: the bill is the hourly price x 2,880, its first
# month (what the budget is held to) x 240; per 1M images = price / (speed x 3,600) x 1e6.
run "$GW" --kb "$K" decide "$FX/vision.lua" --json
check_rc "fraction: decide over the slices of an A10" 0
row='"\(.gpu_fraction_text)|\(.label)"'
jq_all _labels "[.options[] | $row] | sort | join(\";\")" \
    _n '.options | length' \
    _mem '[.options[] | "\(.gpu_fraction_text)|\(.usable_memory_gb * 1e4 | round / 1e4)|\(.memory_gb)|\(.fits)"] | sort | join(";")' \
    _speed '[.options[] | "\(.gpu_fraction_text)|\(.throughput.value * 100 | round / 100)|\(.throughput.basis)|\(.throughput.estimate)"] | sort | join(";")' \
    _price '[.options[] | "\(.gpu_fraction_text)|\(.cost.unit_price)|\(.cost.per_gpu_hour * 1e6 | round / 1e6)|\(.cost.per_gpu_hour_text)"] | sort | join(";")' \
    _cost '[.options[] | "\(.gpu_fraction_text)|\(.cost.total * 100 | round / 100)|\(.cost.committed * 100 | round / 100)|\(.cost.per_unit * 1e5 | round / 1e5)"] | sort | join(";")' \
    _fraction '[.options[] | .gpu_fraction * 1e6 | round] | sort | join(",")' \
    _slice '.options[] | select(.gpu_fraction_text == "1/6") | .slice_text' \
    _how '.options[] | select(.gpu_fraction_text == "1/6") | .throughput.how' \
    _band '.options[] | select(.gpu_fraction_text == "1/6") | .throughput.band_basis' \
    _method '.method.rent | test("; a slice of a card \\(gpu_fraction: .* its instance price / the share is its price per whole GPU-hour; per GPU, card count and share of a card only")'
# Four options, one per share, each labelled by it (a whole card as before: "1x").
check_eq "fraction: every share of the A10 is its own option" "$_n" "4"
check_eq "fraction: each option is labelled by its share, distinct from the others" "$_labels" \
    "1/2|rent 1/2 × NVIDIA A10 (Azure, Standard_NV18ads_A10_v5);1/3|rent 1/3 × NVIDIA A10 (Azure, Standard_NV12ads_A10_v5);1/6|rent 1/6 × NVIDIA A10 (Azure, Standard_NV6ads_A10_v5);null|rent 1x NVIDIA A10 (Azure, Standard_NV36ads_A10_v5)"
# 0.167 and 0.333 are read as 1/6 = 0.166667 and 1/3 = 0.333333 (x 1e6, rounded).
check_eq "fraction: three decimals read as the simple fraction they round" "$_fraction" \
    "166667,333333,500000,1000000"
check_eq "fraction: a slice holds its share of the card's memory (4 GB of 24 for 1/6)" "$_mem" \
    "1/2|12.0733|12|true;1/3|8.0489|8|true;1/6|4.0244|4|true;null|24.1466|24|true"
# Only the whole card is measured; each slice is scaled from it (an estimate, not a measurement).
check_eq "fraction: a slice's speed is the whole card's x its share, scaled" "$_speed" \
    "1/2|319|scaled|true;1/3|212.67|scaled|true;1/6|106.33|scaled|true;null|638|measured|false"
check_eq "fraction: the instance's price and that price per whole GPU-hour" "$_price" \
    "1/2|1.6|3.2|\$3.20;1/3|0.908|2.724|\$2.72;1/6|0.454|2.724|\$2.72;null|3.2|3.2|\$3.20"
# totals 0.454 x 2,880 = 1,307.52, 0.908 x 2,880 = 2,615.04, 1.6 x 2,880 = 4,608,
# 3.2 x 2,880 = 9,216; first months x 240: 108.96, 217.92, 384, 768; per 1M images
# 0.454 / (106.33 x 3,600) x 1e6 = 1.18600 (= 2.724 / (638 x 3,600) x 1e6: the same for 1/3),
# 1.6 / (319 x 3,600) x 1e6 = 1.39324 (= 3.2 / (638 x 3,600) x 1e6 for the whole card).
check_eq "fraction: bill, first month and cost per 1M images of each share" "$_cost" \
    "1/2|4608|384|1.39324;1/3|2615.04|217.92|1.186;1/6|1307.52|108.96|1.186;null|9216|768|1.39324"
check_eq "fraction: the slice in words, its memory and both prices" "$_slice" \
    "1/6 of one NVIDIA A10 (4.0 GB): \$0.45 an hour, \$2.72 per whole GPU-hour"
check_eq "fraction: how the slice's speed was found" "$_how" \
    "measured on one NVIDIA A10 (638); scaled to the slice: 638 x 1/6 = 106 (a slice computes at its share of the whole card; no slice is measured)"
case "$_band" in
    *"; a slice: the whole card's band, times 1/6") pass "fraction: the slice carries the whole card's band" ;;
    *) fail "fraction: the slice carries the whole card's band" "band_basis: $_band" ;;
esac

check_eq "fraction: the method says how a slice is costed and compared" "$_method" "true"

# The text table: each share on its own row, its label distinct, a line with both prices.
run "$GW" --kb "$K" decide "$FX/vision.lua"
check_out "fraction: the table labels a slice by its share" "rent 1/6 x a10 (Azure)"
check_out "fraction: ... and a third apart from it" "rent 1/3 x a10 (Azure)"
check_out "fraction: ... with the slice's memory and its price per whole GPU-hour" \
    "     slice: 1/6 of one NVIDIA A10 (4.0 GB): \$0.45 an hour, \$2.72 per whole GPU-hour"
# the columns: rank, rent, 1/6, x, a10, (Azure), fits, speed, basis
check_eq "fraction: the table calls a slice's speed scaled" \
    "$(echo "$OUT" | awk '$3 == "1/6" && $5 == "a10" { print $8, $9 }')" "106 scaled"

# ---- a model that needs 10 GB: no 4 GB or 8 GB slice holds it ----------------------------------
# 8 GB of activations: (0.4096 + 8) x 1.10 + 1.0 = 10.25 GB.  1/6 (4.02 GB) and 1/3 (8.05 GB)
# are left out by the memory rule, which names the slice; 1/2 (12.07 GB) and the whole card hold it.
sed 's/activations_gb = 2/activations_gb = 8/' "$FX/vision.lua" >"$T/vision-10gb.lua"
run "$GW" --kb "$K" decide "$T/vision-10gb.lua" --json
jq_all _fit '[.options[] | "\(.gpu_fraction_text)|\(.per_card_gb * 100 | round / 100)|\(.fits)|\(.feasible)"] | sort | join(";")' \
    _why '.options[] | select(.gpu_fraction_text == "1/6") | .excluded_because'
check_eq "fraction: a 10 GB model fits no 4 GB or 8 GB slice" "$_fit" \
    "1/2|10.25|true|true;1/3|10.25|false|false;1/6|10.25|false|false;null|10.25|true|true"
check_eq "fraction: ... and the slice is named as the share of the card" "$_why" \
    "needs 10.3 GB per replica; 1/6 of one NVIDIA A10 holds 4.0 GB (4 GB nominal)"

# Only slices on offer (the whole card's row removed) and 12 GB of activations: (0.4096 + 12) x
# 1.10 + 1.0 = 14.65 GB fits none; the closest is the 1/2 slice, 14.65 / 12.07 = 1.21x short,
# named as the slice it is.
S=$(fresh_kb slices) && cp "$K" "$S" &&
    sqlite3 "$S" "DELETE FROM price WHERE instance = 'Standard_NV36ads_A10_v5'"
sed 's/activations_gb = 2/activations_gb = 12/' "$FX/vision.lua" >"$T/vision-15gb.lua"
run "$GW" --kb "$S" decide "$T/vision-15gb.lua"
check_rc "fraction: no slice holds a 14.7 GB model" 3
check_err "fraction: ... and the closest is named as the slice it is" \
    "no option is feasible: the closest, rent 1/2 × NVIDIA A10 (Azure), needs 14.7 GB per GPU and has 12.1 (1.21x)"

# ---- a budget only a slice meets ---------------------------------------------------------------
# USD 150 for the first month: the 1/6 slice's 108.96 is under it, the 1/3 slice's 217.92 over.
sed 's/candidates = .*/candidates = { "rent:a10" }, budget = 150,/' "$FX/vision.lua" >"$T/vision-150.lua"
run "$GW" --kb "$K" decide "$T/vision-150.lua" --json
jq_all _ok '[.options[] | select(.feasible) | .gpu_fraction_text] | join(",")' \
    _best '.recommendation.label'
check_eq "fraction: only the 1/6 slice meets a USD 150 first month" "$_ok" "1/6"
check_eq "fraction: ... and is recommended as the slice it is" "$_best" \
    "rent 1/6 × NVIDIA A10 (Azure, Standard_NV6ads_A10_v5)"

# The report: the per-hour column and the recommendation's evidence give both prices.
run "$GW" --kb "$K" report "$T/vision-150.lua" -o "$T/vision-150.md"
check_rc "fraction: the report of a slice" 0
check_eq "fraction: the report's hourly price of the slice, per whole GPU-hour beside it" \
    "$(grep -c '| \$0.45 (\$2.72 per whole GPU-hour) |' "$T/vision-150.md")" "1"
check_eq "fraction: the report's summary names the slice" \
    "$(grep -c '^| A slice of a card | 1/6 of one NVIDIA A10 (4.0 GB): \$0.45 an hour, \$2.72 per whole GPU-hour |$' "$T/vision-150.md")" "1"
# (the price "dated", not "observed": many prices are a dataset's transcription)
check_eq "fraction: the report's evidence prices the slice per whole GPU-hour" \
    "$(grep -c '^- Price: list, \$0.45 an hour for 1/6 of the card (\$2.72 per whole GPU-hour), dated 2026-11-20' "$T/vision-150.md")" "1"

# ---- a language model served from a slice ------------------------------------------------------
# serve.lua: Llama 3.2 1B at BF16, 2 requests in flight, 24 h a day for 12 months = 8,640 h.  The
# whole card's serving speed is modelled (no measured A10 row); a slice's is that x its share,
# each step's time over it: 1/6's capacity = whole / 6, its time per output token x 6.  Its kind
# stays "modelled", the weaker of the two (the card was never measured either).  Memory: every
# share holds the replica (its need, per_card_gb, under 1/6's 4.02 GB).
run "$GW" --kb "$K" decide "$FX/serve.lua" --json
check_rc "fraction: decide over serving from slices" 0
jq_all _whole_cap '.options[] | select(.gpu_fraction == 1) | .capacity_tokens_per_s' \
    _whole_tpot '.options[] | select(.gpu_fraction == 1) | .tpot_ms' \
    _whole_unit '.options[] | select(.gpu_fraction == 1) | .cost.per_unit' \
    _sixth_cap '.options[] | select(.gpu_fraction_text == "1/6") | .capacity_tokens_per_s' \
    _sixth_tpot '.options[] | select(.gpu_fraction_text == "1/6") | .tpot_ms' \
    _sixth_unit '.options[] | select(.gpu_fraction_text == "1/6") | .cost.per_unit' \
    _sixth_band '.options[] | select(.gpu_fraction_text == "1/6") | (.throughput.low / .throughput.value * 1e6 | round)' \
    _whole_band '.options[] | select(.gpu_fraction == 1) | (.throughput.low / .throughput.value * 1e6 | round)' \
    _kinds '[.options[] | "\(.gpu_fraction_text)|\(.throughput.basis)|\(.fits)|\(.per_card_gb < 4.0244)"] | sort | join(";")' \
    _totals '[.options[] | "\(.gpu_fraction_text)|\(.cost.total * 100 | round / 100)|\(.cost.per_gpu_hour)"] | sort | join(";")'
check_eq "fraction: every share holds the served model, each modelled" "$_kinds" \
    "1/2|modelled|true|true;1/3|modelled|true|true;1/6|modelled|true|true;null|modelled|true|true"
check_num "fraction: a 1/6 slice serves the whole card's capacity / 6" "$_sixth_cap" \
    "$(echo "$_whole_cap / 6" | bc -l)" 1e-6
check_num "fraction: ... each output token takes 6 x the whole card's time" "$_sixth_tpot" \
    "$(echo "$_whole_tpot * 6" | bc -l)" 1e-6
# per 1M tokens = hourly price / (capacity x 3,600) x 1e6: the slice's 0.454 / (cap / 6) is
# 2.724 / cap, the whole card's 3.2 / cap: the slice costs 2.724 / 3.2 = 0.85125 of it.
check_num "fraction: the slice's cost per 1M tokens is the whole card's x 2.724 / 3.2" \
    "$_sixth_unit" "$(echo "$_whole_unit * 0.85125" | bc -l)" 1e-9
check_eq "fraction: the slice's band is the whole card's, in proportion" "$_sixth_band" "$_whole_band"
# bills: 0.454 x 8,640 = 3,922.56; 0.908 x 8,640 = 7,845.12; 1.6 x 8,640 = 13,824; 3.2 x 8,640 =
# 27,648; per whole GPU-hour as above.
check_eq "fraction: the served slices' bills and prices per whole GPU-hour" "$_totals" \
    "1/2|13824|3.2;1/3|7845.12|2.724;1/6|3922.56|2.724;null|27648|3.2"

# ---- the real SkyPilot catalogues: no slice mislabelled ----------------------------------------
# The GCP, Lambda and RunPod slices of ../shared/testdata and the repository's Azure catalogue in
# SkyPilot's format (its NV6ads A10 v5 row: AcceleratorCount 0.167, on demand and spot), all
# offered to an image workload that takes every rental: every option of a slice is labelled by
# its share, no two options share a label, and every whole card's label counts its GPUs.
if ! have_testdata; then
    skip "fraction: real SkyPilot catalogues" "no ../shared/testdata"
    exit 0
fi
R=$(fresh_kb real)
for offer in "Azure:$FIX/prices/skypilot-azure-vms.csv" \
    "GCP:$TESTDATA/cloud_prices/skypilot-v7-gcp-vms.slice.csv" \
    "Lambda:$TESTDATA/cloud_prices/skypilot-v7-lambda-vms.slice.csv" \
    "RunPod:$TESTDATA/cloud_prices/skypilot-v7-runpod-vms.slice.csv"; do
    "$GW" --kb "$R" prices refresh skypilot --input "${offer#*:}" --provider "${offer%%:*}" \
        >/dev/null 2>&1
done
sed 's/candidates = .*/candidates = { "rent:*" }, spot_ok = true,/' "$FX/vision.lua" >"$T/every-rental.lua"
run "$GW" --kb "$R" decide "$T/every-rental.lua" --json
check_rc "fraction: decide over the real catalogues" 0
jq_all _slices '[.options[] | select(.gpu_fraction < 1) | "\(.gpu_fraction_text)|\(.label)"] | sort | join(";")' \
    _bad '[.options[] | select((.gpu_fraction < 1 and (.label | test("^rent (\\d+ × )?\\d+/\\d+ × ") | not)) or (.gpu_fraction == 1 and (.label | test("^(rent|new|used) \\d+x ") | not))) | .label] | "\(length)|\(join(";"))"' \
    _dups '[.options[].label] | length - (unique | length)'
check_eq "fraction: the real catalogues' A10 slices, each labelled 1/6" "$_slices" \
    "1/6|rent 1/6 × NVIDIA A10 (Azure, Standard_NV6ads_A10_v5 (spot));1/6|rent 1/6 × NVIDIA A10 (Azure, Standard_NV6ads_A10_v5)"
check_eq "fraction: no option of the real catalogues mislabelled" "$_bad" "0|"
check_eq "fraction: no two options of the real catalogues share a label" "$_dups" "0"
# Without spot_ok the Azure slice's spot price (0.0908 an hour) is not considered: the list names
# it by its share, as its option would be, not as "1x".
sed 's/candidates = .*/candidates = { "rent:a10" },/' "$FX/vision.lua" >"$T/a10-on-demand.lua"
run "$GW" --kb "$R" decide "$T/a10-on-demand.lua" --json
check_eq "fraction: a slice's spot offer left out is named by its share" \
    "$(jqr '[.not_considered[] | select(.gpu == "a10") | "\(.offer)|\(.reason)"] | join(";")')" \
    "1/6 slice, Azure, Standard_NV6ads_A10_v5|spot price (set spot_ok)"
