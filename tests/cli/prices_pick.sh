#!/bin/sh
# tests/cli/prices_pick.sh — which price stands for an option (issue 26): the best kind of price
# the KB ranks, current before stale, a launch MSRP never recommended, a 'from' price weighed at
# the high end of its range, and each conversion dated by the rates that convert it.  Over a
# fixture KB (tests/fixtures/prices_pick), on a pinned today, 2026-12-01.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/prices_pick"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

K="$T/pick.db"
run "$GW" --kb "$K" kb import "$FX/sources.csv" "$FX/gpus.csv" "$FX/benchmarks.csv" \
    "$FX/rates.csv" "$FX/prices.csv" "$FX/assumptions.csv"
check_rc "prices_pick: the fixture KB imports" 0

# ---- buying: buy.lua, one card each, USD, price_max_age_days 180 ---------------------------
# Every card does 1,000 images/s, so cost per 1M images = total / 2,880 h (8 h x 30 x 12) / 3.6.
# RTX 3090: its market price of 2026-11 (30 days old) stands, not the launch MSRP of 2020-09:
#   cards 900 + host CNY 8,000 / 7.10 = 1,126.76, electricity (350 + 200) W x 2,880 h x 0.15 =
#   237.60, resale 0.3 x 900 = 270: 1,994.36 / 2,880 / 3.6 = USD 0.19236 per 1M images.
# RTX 4090: list USD 800 of 2026-01, 334 days old, stale: 800 + 1,126.76 + 650 W x 2,880 h x
#   0.15 (280.80) - 240 = 1,967.56 / 2,880 / 3.6 = 0.18977, cheaper, yet ranked after the 3090.
# TITAN RTX: only its launch MSRP (2018-12), discontinued 2020-06: held back.
run "$GW" --kb "$K" decide "$FX/buy.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '[.options[] | select(.gpu == "rtx-3090")][0] | "\(.price_kind) \(.cost.price_as_of) \(.cost.unit_price) \(.price_stale) \(.held_back)"' \
    _j3 '[.options[] | select(.gpu == "rtx-3090")][0].cost.per_unit' \
    _j4 '[.options[] | select(.gpu == "rtx-4090")][0] | "\(.rank) \(.price_kind) \(.price_stale) \(.held_back)"' \
    _j5 '[.options[] | select(.gpu == "rtx-4090")][0].cost.per_unit' \
    _j6 '[.options[] | select(.gpu == "rtx-4090")][0].held_back_because' \
    _j7 '[.options[] | select(.gpu == "titan-rtx")][0] | "\(.rank) \(.price_kind) \(.held_back)"' \
    _j8 '[.options[] | select(.gpu == "titan-rtx")][0].held_back_because' \
    _j9 '[.options[] | select(.price_kind == "launch" and (.held_back | not))] | length' \
    _j10 '.price_age.requote | map("\(.label)|\(.price_kind)|\(.as_of)|\(.age_days)") | join(";")' \
    _j11 '[.options[] | select(.gpu == "rtx-3090")][0].rate_as_of'
check_rc "decide buy: exit 0" 0
check_eq "decide buy: the 2026 market price is recommended, not the 2020 launch MSRP" \
    "$_j1" "buy-new:1x rtx-3090"
check_eq "decide buy: the RTX 3090's market row stands (kind, date, price, current)" \
    "$_j2" "market 2026-11 900 false false"
check_num "decide buy: the RTX 3090 costs USD 0.19236 per 1M images by hand" "$_j3" 0.19236 0.00001
check_eq "decide buy: the stale RTX 4090 ranks after the current option, held back" \
    "$_j4" "2 list true true"
check_num "decide buy: ... though it costs less, USD 0.18977 per 1M images by hand" \
    "$_j5" 0.18977 0.00001
check_eq "decide buy: why the stale price is held back" "$_j6" \
    "its price is of 2026-01, 334 days old, older than the workload's price_max_age_days (180): re-quote it (stale_ok = true only ranks it at this price)"
check_eq "decide buy: a discontinued card priced only at launch is held back, last" \
    "$_j7" "3 launch true"
check_eq "decide buy: why the launch MSRP is held back" "$_j8" \
    "it is priced only by the launch MSRP of 2018-12, a historical fact rather than an offer (the card has not been sold new since 2020-06)"
check_eq "decide buy: no launch price may be recommended" "$_j9" "0"
# What to re-quote: the stale prices that would beat the recommendation if they held, the RTX
# 4090's (0.18977 < 0.19236), 2026-01-01 to 2026-12-01: 334 days; not the TITAN RTX's launch
# MSRP, which costs more per image than the recommendation even at its 2018 price.
check_eq "decide buy: what to re-quote: the stale price that would win" "$_j10" \
    "new GeForce RTX 4090|list|2026-01|334"
check_eq "decide buy: a price in the workload's currency names no rate" "$_j11" "null"
# The other way: the host's CNY 8,000 in a USD workload, at 1 / 7.10 = 0.1408 USD per CNY; the
# parenthesis states the rate as the KB stores it, CNY per USD, with its value and date.
check_eq "decide buy: a USD workload's yuan are converted by the yuan's rate, named the right way round" \
    "$(jqr '.assumptions | map(.text) | map(select(startswith("Amounts in CNY"))) | .[0]')" \
    "Amounts in CNY converted at 0.1408 USD per CNY (the rate of 2026-11-28: 7.1 CNY per USD)."

# Purchases held back beside a rental: the RTX 4090 (stale) and the TITAN RTX (launch MSRP) against
# renting H100s (ListCo's list 2.69 / 3.6 = 0.7472 per 1M images, recommended; Cheapo's 'from'
# held back).  No break-even, and the report says why, counted by reason; the 4090 would cost
# 0.18977, 1 - 0.18977 / 0.7472 = 74.6% less, were its 2026-01 price to hold: one sentence.
sed 's/candidates = .*/candidates = { "1x rtx-4090", "1x titan-rtx", "rent:h100-sxm" },/' \
    "$FX/buy.lua" >"$T/buy-rent.lua"
run "$GW" --kb "$K" decide "$T/buy-rent.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '.break_even.held_back | map("\(.side) \(.reason) \(.count)") | join(",")' \
    _j3 '.break_even.not_compared_text' \
    _j4 '.recommendation.cheaper_held_back | "\(.option)|\(.per_unit_text)|\(.share_text)|\(.reason)"'
check_eq "decide buy-rent: the rental is recommended" "$_j1" "rent:ListCo:h100-list:1x h100-sxm"
check_eq "decide buy-rent: the purchases counted by why each is held back" "$_j2" \
    "purchase launch 1,purchase stale 1"
check_eq "decide buy-rent: why no break-even, in words" "$_j3" \
    "No break-even: no purchase may be recommended: of the 2 feasible purchases, 1 is priced only by a launch MSRP and 1 is priced longer ago than price_max_age_days (180 days). Held back, an option is shown, ranked after the others, but never compared."
check_eq "decide buy-rent: the stale purchase that would be cheaper, and by how much" "$_j4" \
    "buy-new:1x rtx-4090|\$0.190|75%|its price is of 2026-01, older than price_max_age_days (180 days)"
run "$GW" --kb "$K" report "$T/buy-rent.lua"
check_out "report buy-rent: the summary names the cheaper held-back option" \
    "**Held back, yet cheaper at its price:** new 1x GeForce RTX 4090 would cost \$0.190 per 1M images, 75% less than the recommendation, but its price is of 2026-01, older than price\\_max\\_age\\_days (180 days): re-quote before committing (see Re-quote before signing)."
check_out "report buy-rent: the break-even section gives the reasons" \
    "No break-even: no purchase may be recommended: of the 2 feasible purchases, 1 is priced only by a launch MSRP"

# stale_ok: the stale RTX 4090 may be recommended, and is, at 0.18977 < 0.19236; still stale.
run "$GW" --kb "$K" decide "$FX/buy-stale-ok.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '.options[0] | "\(.price_stale) \(.held_back)"' \
    _j3 '.price_age.recommendation_old'
check_eq "decide buy, stale_ok: the stale price is recommended" "$_j1" "buy-new:1x rtx-4090"
check_eq "decide buy, stale_ok: said to be stale, not held back" "$_j2" "true false"
check_eq "decide buy, stale_ok: the price-age warning names the recommendation" "$_j3" "true"

# ---- 'from' prices --------------------------------------------------------------------------
# rent.lua: every GPU does 1,000 images/s, and a rental costs its hourly price for each hour of
# use, so cost per 1M images = price / 3.6.  Cheapo's H100 "from" USD 2.50 (0.6944) is within
# 10% of ListCo's list 2.69 (0.7472): its range is 2.50 to 2.69, the highest current list price
# of an H100 and count; at 2.69 it costs 0.7472, no less than ListCo's: held back, and ListCo's
# list price is recommended.
run "$GW" --kb "$K" decide "$FX/rent.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '[.options[] | select(.id == "rent:Cheapo:h100-from:1x h100-sxm")][0] | "\(.price_kind) \(.price_floor) \(.price_range_low) \(.price_range_high) \(.held_back)"' \
    _j3 '[.options[] | select(.id == "rent:Cheapo:h100-from:1x h100-sxm")][0].held_back_because' \
    _j4 '[.options[] | select(.id == "rent:Cheapo:h100-from:1x h100-sxm")][0].offer_note' \
    _j5 '[.options[] | select(.id == "rent:Cheapo:h100-from:1x h100-sxm")][0].cost.unit_price'
check_rc "decide rent: exit 0" 0
check_eq "decide rent: a 'from' price within 10% of a list price yields the list price" \
    "$_j1" "rent:ListCo:h100-list:1x h100-sxm"
check_eq "decide rent: the 'from' price is a range up to the list price, held back" \
    "$_j2" "from true 2.5 2.69 true"
check_eq "decide rent: why" "$_j3" \
    "its 'from' price is only a lower bound: at the high end of its range (\$2.69 an hour) it costs \$0.747 per 1M images, no less than the \$0.747 of rent 1x NVIDIA H100 SXM5 80GB (ListCo, h100-list)"
check_out "decide rent: the note says where the high end comes from" \
    "its high end: the highest current list price of the same GPU and count, ListCo's \$2.69 an hour, of 2026-11"
check_eq "decide rent: its figure stays the low end for display" "$_j5" "2.5"

# rent-b200.lua: a B200 "from" USD 3.00 (0.8333) with no list price of a B200: its high end is
# 3.00 x 1.48 (the KB's from_high_factor) = 4.44, or 1.2333 per 1M images, dearer than ListCo's
# H200 at 4.00 (1.1111): held back, the H200 recommended.
run "$GW" --kb "$K" decide "$FX/rent-b200.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '[.options[] | select(.gpu == "b200-sxm")][0] | "\(.rank) \(.price_range_high) \(.held_back)"' \
    _j3 '[.options[] | select(.gpu == "b200-sxm")][0].held_back_because' \
    _j4 '.assumptions | map(.text) | any(test("x 1.48"))'
check_eq "decide rent-b200: a 'from' price whose high end loses is not recommended" \
    "$_j1" "rent:ListCo:h200-list:1x h200-sxm"
check_num "decide rent-b200: its high end is the assumed 3.00 x 1.48 = 4.44, ranked last" \
    "$(echo "$_j2" | cut -d' ' -f2)" 4.44 1e-9
check_eq "decide rent-b200: ranked last, held back" "$(echo "$_j2" | cut -d' ' -f1,3)" "3 true"
check_eq "decide rent-b200: why" "$_j3" \
    "its 'from' price is only a lower bound: at the high end of its range (\$4.44 an hour) it costs \$1.23 per 1M images, no less than the \$1.11 of rent 1x NVIDIA H200 SXM 141GB (ListCo, h200-list)"
check_out "decide rent-b200: the note names the assumed ratio" \
    "the figure x 1.48, the KB's assumed ratio of a 'from' price's high end to its figure"
# Without ListCo, the next H200 is DearCo's 5.00 (1.3889): at 4.44 (1.2333) the B200 still wins.
run "$GW" --kb "$K" prices remove ListCo
check_rc "prices remove ListCo: exit 0" 0
run "$GW" --kb "$K" decide "$FX/rent-b200.lua" --json
check_eq "decide rent-b200 without ListCo: a 'from' price whose high end wins is recommended" \
    "$(jqr '.recommendation.option')" "rent:Cheapo:b200-from:1x b200-sxm"
# With a B200 list price only of another count, QuadCo's 4 GPUs at USD 22.00 an hour (5.50 per
# GPU-hour), the 'from' price's high end is that price per GPU x its 1 GPU = 5.50 (not the
# assumed 4.44): 5.50 / 3.6 = 1.5278 per 1M images, no less than DearCo's 1.3889: held back,
# DearCo recommended.  QuadCo's own 4x option costs at least 22 / (4 x 3.6) = 1.5278: dearer.
# FromCo's H200 "from" 5.20 (1.4444) ranks below DearCo: its high end is max(DearCo's list 5.00,
# 5.20) = 5.20, 1.4444 per 1M images, no less than the recommendation's 1.3889: held back too,
# though it never stood first (every 'from' option that loses at its high end is held back).
printf '%s\n' "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,quality" \
    "b200-sxm,cloud,22.00,USD,hour,4,,QuadCo,b200-quad,0,2026-11,fx-prices,,list" \
    "h200-sxm,cloud,5.20,USD,hour,1,,FromCo,h200-from,0,2026-11,fx-prices,,from" >"$T/prices.csv"
run "$GW" --kb "$K" kb import "$T/prices.csv"
check_rc "kb import QuadCo's four-GPU B200: exit 0" 0
run "$GW" --kb "$K" decide "$FX/rent-b200.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '[.options[] | select(.id == "rent:Cheapo:b200-from:1x b200-sxm")][0] | "\(.price_range_high) \(.held_back)"' \
    _j3 '[.options[] | select(.id == "rent:Cheapo:b200-from:1x b200-sxm")][0].offer_note'
check_eq "decide rent-b200 with a 4-GPU list price: the 'from' price loses at 5.50, held back" \
    "$_j1" "rent:DearCo:h200-dear:1x h200-sxm"
check_eq "decide rent-b200 with a 4-GPU list price: its high end is 22.00 / 4 x 1 GPU" \
    "$_j2" "5.5 true"
check_out "decide rent-b200 with a 4-GPU list price: the note names the price per GPU" \
    "its high end: QuadCo's list price, \$5.50 per GPU-hour (4 GPUs an instance, of 2026-11), for its 1 GPU: the highest current list price of this GPU, as none is of its count"
check_eq "decide rent-b200: a 'from' option ranked below the recommendation, losing at its high end, is held back" \
    "$(jqr '[.options[] | select(.id == "rent:FromCo:h200-from:1x h200-sxm")][0].held_back_because')" \
    "its 'from' price is only a lower bound: at the high end of its range (\$5.20 an hour) it costs \$1.44 per 1M images, no less than the \$1.39 of rent 1x NVIDIA H200 SXM 141GB (DearCo, h200-dear)"

# ---- exchange-rate dates ------------------------------------------------------------------
# The KB's USD row is dated 2024-03, CNY's 2026-11-28 and EUR's 2026-09-25.  A US dollar per US
# dollar is no rate: USD prices in yuan are converted by CNY's rate alone, dated 2026-11-28 (3
# days old, not flagged); USD 900 x 7.10 = CNY 6,390.
run "$GW" --kb "$K" decide "$FX/buy-cny.lua" --json
jq_all _j1 '[.options[] | select(.gpu == "rtx-3090")][0] | "\(.cost.unit_price) \(.rate_as_of)"' \
    _j2 '.assumptions | map(.text) | map(select(startswith("Amounts in USD"))) | .[0]' \
    _j3 '.price_age.old_rates | length'
check_eq "decide buy-cny: the option names its rate's date, not the USD row's 2024-03" \
    "$_j1" "6390 2026-11-28"
check_eq "decide buy-cny: the method's rate is dated by the yuan's rate" "$_j2" \
    "Amounts in USD converted at 7.1 CNY per USD (the rate of 2026-11-28: 7.1 CNY per USD)."
check_eq "decide buy-cny: a 3-day-old rate is not old" "$_j3" "0"
# In euros: USD 900 x 0.92 = EUR 828, by EUR's rate of 2026-09-25 (67 days old: flagged past 30);
# the host's CNY 8,000 by two rates, each with its own date.
run "$GW" --kb "$K" decide "$FX/buy-eur.lua" --json
jq_all _j1 '[.options[] | select(.gpu == "rtx-3090")][0] | "\(.cost.unit_price) \(.rate_as_of)"' \
    _j2 '.assumptions | map(.text) | map(select(startswith("Amounts in CNY"))) | .[0]' \
    _j3 '.price_age.old_rates | map("\(.currency) \(.as_of) \(.age_days)") | join(";")'
check_eq "decide buy-eur: the option names the euro's rate date" "$_j1" "828 2026-09-25"
check_eq "decide buy-eur: each converting rate with its own date" "$_j2" \
    "Amounts in CNY converted at 0.1296 EUR per CNY (the rates of 2026-11-28: 7.1 CNY per USD, and of 2026-09-25: 0.92 EUR per USD)."
check_eq "decide buy-eur: the euro's age, 67 days, not the USD row's" "$_j3" \
    "CNY 2026-09-25 67;USD 2026-09-25 67"

# The text table says why each held-back option is held back, under its row.
run "$GW" --kb "$K" decide "$FX/buy.lua"
check_out "decide buy (table): the stale price's rank in brackets" "(2)  new 1x rtx-4090"
check_out "decide buy (table): why, under its row" \
    "     held back: it is priced only by the launch MSRP of 2018-12, a historical fact rather than an offer"

# The method's assumption names the KB's kinds in their rank order (kb/schema.sql's price_kind).
run "$GW" --kb "$K" decide "$FX/buy.lua" --json
check_eq "decide buy: the price rule names the KB's kinds, best first" \
    "$(jqr '.assumptions[].text | select(startswith("Prices:")) | capture("best first: (?<k>[a-z, ]*)\\)").k')" \
    "list, quote, market, from, anecdote, launch"

# A 'from' price to buy: buy-used.lua, one RTX 3090 new (the market USD 900 above, 0.19236) or
# used "from" USD 700 with no list price of a used 3090: its range is 700 to 700 x 1.48 = 1,036.
# At 700: 700 + 1,126.76 + 237.60 - 0.3 x 700 = 1,854.36 / 2,880 / 3.6 = 0.17885, x 1.05 (the
# used-card rule's warning) = 0.18780, which would win; at 1,036: 1,036 + 1,126.76 + 237.60 -
# 310.80 = 2,089.56 / 2,880 / 3.6 = 0.20154, x 1.05 = 0.21162, no less than 0.19236: held back.
run "$GW" --kb "$K" decide "$FX/buy-used.lua" --json
jq_all _j1 '.recommendation.option' \
    _j2 '[.options[] | select(.id == "buy-used:1x rtx-3090")][0] | "\(.rank) \(.price_kind) \(.held_back) \(.price_range_low) \(.price_range_high)"' \
    _j3 '[.options[] | select(.id == "buy-used:1x rtx-3090")][0].cost.per_unit'
check_eq "decide buy-used: the new card's market price wins over a 'from' price losing at its high end" \
    "$_j1" "buy-new:1x rtx-3090"
check_eq "decide buy-used: the used card's range is 700 to 700 x 1.48, held back, ranked after" \
    "$_j2" "2 from true 700 1036"
check_num "decide buy-used: ranked on its figure, USD 0.17885 per 1M images" "$_j3" 0.17885 0.00001
