#!/bin/sh
# tests/cli/need_on.sh — hours_needed_on: a capacity need measured in hours of a named card, each
# option costed for the hours that work takes at its own speed (the need x the reference card's
# speed / the option's); the refusals; the words of a need without it.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/need_on"
L40S='rent:RunPod:L40S (Community Cloud):1x l40s'
H100='rent:RunPod:H100 SXM (Community Cloud):1x h100-sxm5'
H100x2='rent:RunPod:2x H100 SXM (Community Cloud):2x h100-sxm5'

# ---- a language model: 100 hours a month of an A100 SXM4 80GB, 12 months ----
# A LoRA token costs the same FLOPs on every card and the utilisation is one calibrated figure,
# so the modelled speeds are in the ratio of the dense BF16 rates: A100 312, L40S 362.05, H100
# SXM5 989.5 TFLOPS (0.69439 x rate / 35.341 GFLOP a token: 6,130.2, 7,113.6 and 19,441.9
# tokens/s; the utilisation is NVIDIA's 8 LoRA rows without context parallelism, the options'
# vendor's, each row's data-parallel exchange divided out (tests/cli/llm_calibration.sh): it was
# 67.12% before, and every vendor's 19, 61.39%, the A100 5,420 tokens/s, before the calibration
# was narrowed by vendor and layout; no Ampere LoRA row narrows it further for the A100; the
# hours, a ratio of rates, do not move).  L40S: 100 x 12 x 312 / 362.05 = 1,034.11 h, x USD 0.79 (RunPod) = 816.95;
# H100: 1,200 x 312 / 989.5 = 378.37 h, x 2.69 = 1,017.82.
run "$GW" decide "$FX/lora-a100.lua" --json
check_rc "need_on: A100 need, exit 0" 0
jq_all _l_h "[.options[] | select(.id == \"$L40S\") | .hours_needed][0]" \
    _l_t "[.options[] | select(.id == \"$L40S\") | .cost.total][0]" \
    _h_h "[.options[] | select(.id == \"$H100\") | .hours_needed][0]" \
    _h_t "[.options[] | select(.id == \"$H100\") | .cost.total][0]" \
    _l_s "[.options[] | select(.id == \"$L40S\") | .throughput.value][0]" \
    _2_h "[.options[] | select(.id == \"$H100x2\") | .hours_needed][0]" \
    _2_s "[.options[] | select(.id == \"$H100x2\") | .throughput.value][0]"
check_num "need_on: L40S 1,200 x 312 / 362.05 = 1,034.11 h" "$_l_h" 1034.11 0.01
check_num "need_on: L40S 0.79 x 1,034.11 = 816.95" "$_l_t" 816.95 0.01
check_num "need_on: H100 1,200 x 312 / 989.5 = 378.37 h" "$_h_h" 378.37 0.01
check_num "need_on: H100 2.69 x 378.37 = 1,017.82" "$_h_t" 1017.82 0.01
# Two H100s at their data-parallel efficiency (their throughput, 2 x 19,441.9 x 96.8%): their
# hours x their speed is the same work as the L40S's, the A100's 1,200 h x 6,130.2 tokens/s.
check_num "need_on: 2x H100 do the L40S's work, hours x speed equal" \
    "$(echo "($_2_h * $_2_s) / ($_l_h * $_l_s)" | bc -l)" 1 0.000001
run "$GW" decide "$FX/lora-a100.lua"
check_out "need_on: the recommendation says whose hours and the card's speed" \
    "Covers the need in 86.2 hours of running a month (at most 8 h a day, 240 h a month): 100 hours a month on NVIDIA A100 SXM4 80GB (6,130 tokens/s on it; each option costed for the hours that work takes at its own speed)."

# Measured on an L40S: the L40S option is costed for the need's own 1,200 hours (0.79 x 1,200 =
# 948), the H100 for 1,200 x 362.05 / 989.5 = 439.07.
run "$GW" decide "$FX/lora-l40s.lua" --json
jq_all _l_h "[.options[] | select(.id == \"$L40S\") | .hours_needed][0]" \
    _l_t "[.options[] | select(.id == \"$L40S\") | .cost.total][0]" \
    _h_h "[.options[] | select(.id == \"$H100\") | .hours_needed][0]"
check_num "need_on: on its own card the need is its hours, 1,200" "$_l_h" 1200 0.001
check_num "need_on: 0.79 x 1,200 = 948" "$_l_t" 948 0.001
check_num "need_on: H100 1,200 x 362.05 / 989.5 = 439.07 h" "$_h_h" 439.07 0.01

# ---- a benchmark: 150 hours a month of an RTX 3090, resnet50, 36 months ----
# Both measured (amp class): the 3090 905 images/s, the 4090 1,301, two 4090s 2,468.  RunPod's
# 4090: 150 x 36 x 905 / 1,301 = 3,756.34 h, x USD 0.34 = 1,277.16; two bought 4090s:
# 5,400 x 905 / 2,468 = 1,980.15 h.
run "$GW" decide "$FX/resnet-3090.lua" --json
check_rc "need_on: RTX 3090 need, exit 0" 0
R='rent:RunPod:RTX 4090 (Community Cloud):1x rtx-4090'
jq_all _r_h "[.options[] | select(.id == \"$R\") | .hours_needed][0]" \
    _r_t "[.options[] | select(.id == \"$R\") | .cost.total][0]" \
    _b_h '[.options[] | select(.id == "buy-new:2x rtx-4090") | .hours_needed][0]'
check_num "need_on: 4090 5,400 x 905 / 1,301 = 3,756.34 h" "$_r_h" 3756.34 0.01
check_num "need_on: 4090 0.34 x 3,756.34 = 1,277.16" "$_r_t" 1277.16 0.01
check_num "need_on: two 4090s 5,400 x 905 / 2,468 = 1,980.15 h" "$_b_h" 1980.15 0.01

# ---- without hours_needed_on: hours of each option's own card, said so ----
run "$GW" decide "$FIX/budgets/need-150.lua"
check_out "need_on: without it the need is said to be of each option's own card" \
    "150 hours a month of each option's own card (a faster card does more work in them: compare the cost per unit of work; name the card the need was measured on with hours_needed_on)."

# ---- refusals: one line naming the file, line and field, EX_DATAERR ----
sed '/hours_needed_per_month = 100,/d' "$FX/lora-a100.lua" >"$T/no-need.lua"
run "$GW" decide "$T/no-need.lua"
check_rc "need_on: without hours_needed_per_month, exit 65" 65
check_err "need_on: without hours_needed_per_month, said" \
    "no-need.lua:9: hours_needed_on: the card of which need? (give hours_needed_per_month, the hours a month measured on it)"
sed 's/"a100-sxm4-80gb"/"no-such-gpu-9000"/' "$FX/lora-a100.lua" >"$T/unknown.lua"
run "$GW" decide "$T/unknown.lua"
check_rc "need_on: an unknown GPU, exit 65" 65
check_err "need_on: an unknown GPU named with its line" "unknown.lua:10: hours_needed_on"
sed 's/"a100-sxm4-80gb"/"2x a100-sxm4-80gb"/' "$FX/lora-a100.lua" >"$T/two.lua"
run "$GW" decide "$T/two.lua"
check_rc "need_on: two cards, exit 65" 65
check_err "need_on: two cards refused" "two.lua:10: hours_needed_on: name one card, not 2"
# A reference card whose speed is unknown (no AMD card is measured on resnet50, and an NVIDIA
# one cannot be scaled to it): refused as work.hours_on's is, naming the field and the card.
sed 's/"rtx-3090"/"mi300x"/' "$FX/resnet-3090.lua" >"$T/mi300x.lua"
run "$GW" decide "$T/mi300x.lua"
check_rc "need_on: a reference card of unknown speed, exit 65" 65
check_err "need_on: a reference card of unknown speed, said" \
    "mi300x.lua: hours_needed_on: no resnet50 result measured on or comparable to AMD Instinct MI300X"
