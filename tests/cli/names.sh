#!/bin/sh
# GPU names that never surprise, on the shipped KB: a count at either end is a count and a card
# (or a refusal), never another card; a laptop name never resolves to a desktop card; numbers
# inside names still work; and a workload candidate that resolves to nothing stops decide and
# report with exit 65, naming the file, the candidate's line and the nearest names.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "names: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi
KB=$(fresh_kb names)

# --- kb show NAME: what each name gives --------------------------------------------------------
# NAME | EXPECTED: an id; "ID xN" where the name has a count (kb show shows one card and says on
# stderr that it ignored the count); "! TEXT": refused (exit 67) with TEXT in the message.
while IFS='|' read -r name expected; do
    name=$(echo "$name" | sed 's/ *$//')
    expected=$(echo "$expected" | sed 's/^ *//')
    case "$name" in '#'*|'') continue ;; esac
    run "$GW" --kb "$KB" kb show --json "$name"
    case "$expected" in
    '!'*)
        check_rc "kb show '$name': refused (67)" 67
        check_err "kb show '$name': says why" "${expected#! }"
        ;;
    *' x'*)
        id=${expected% x*}
        count=${expected##* x}
        check_eq "kb show '$name' is $id" "$(jqr .id)" "$id"
        check_err "kb show '$name': the count $count is said to be ignored" \
            "'$name' is $count x $id; showing one $id (the count is ignored)"
        ;;
    *)
        check_eq "kb show '$name' is $expected" "$(jqr .id)" "$expected"
        check_eq "kb show '$name': no note" "$ERR" ""
        ;;
    esac
done <<'EOF'
# counts at either end: an x beside or glued to a whole number
4090x2               | rtx-4090 x2
2x 4090              | rtx-4090 x2
3090 x4              | rtx-3090 x4
3090x4               | rtx-3090 x4
2 x RTX 3090         | rtx-3090 x2
2x4090               | rtx-4090 x2
4090 x 4             | rtx-4090 x4
rtx4090x2            | rtx-4090 x2
4× A100 80GB         | a100-sxm4-80gb x4
8x H100 SXM5         | h100-sxm5 x8
H100 SXM5 x8         | h100-sxm5 x8
MI300X x8            | mi300x x8
MI300Xx8             | mi300x x8
2x Gaudi 2           | gaudi2 x2
Gaudi2 x8            | gaudi2 x8
4x T4                | t4 x4
4× A100              | ! '4× A100' is ambiguous: a100-pcie-40gb, a100-pcie-80gb, a100-sxm4-40gb, a100-sxm4-80gb
8xH100               | ! '8xH100' is ambiguous: h100-nvl, h100-pcie, h100-sxm5
H100x8               | ! 'H100x8' is ambiguous: h100-nvl, h100-pcie, h100-sxm5
x4                   | ! 'x4' is a count with no GPU name
2x H100 x8           | ! '2x H100 x8' has a count at both ends
rtx-4090 x0          | ! 'rtx-4090 x0': a GPU count is a whole number of at least 1
rtx-4090 x1.5        | ! 'rtx-4090 x1.5': a GPU count is a whole number of at least 1
4090x3090            | ! '4090x3090': which number is the count?
# suggestions for the name without its count: "3095", near the 3090 (not "4", near L4, P4, T4)
3095x4               | ! no GPU named '3095x4'; did you mean: rtx-3090,
RTX 3095 x4          | ! no GPU named 'RTX 3095 x4'; did you mean: rtx-3090,
# laptop parts: their own card where the KB has it, else refused, never the desktop card
RTX PRO 6000 Blackwell Max-Q | rtx-pro-6000-blackwell-max-q
rtx pro 6000 maxq    | rtx-pro-6000-blackwell-max-q
RTX PRO 6000 Blackwell | rtx-pro-6000-blackwell
RTX 2080 Max-Q       | ! no GPU named 'RTX 2080 Max-Q': the knowledge base has no Max-Q variant of this card (rtx-2080 is the desktop card, a different GPU)
GeForce RTX 2080 with Max-Q Design | ! has no Max-Q variant of this card (rtx-2080 is the desktop card
RTX 3080 Laptop GPU  | ! no GPU named 'RTX 3080 Laptop GPU': the knowledge base has no laptop variant of this card (rtx-3080 is the desktop card
RTX A5000 Laptop     | ! no GPU named 'RTX A5000 Laptop': the knowledge base has no laptop variant of this card (rtx-a5000 is the desktop card
NVIDIA RTX A5000 Laptop GPU | ! has no laptop variant of this card (rtx-a5000 is the desktop card
GTX 1070 Mobile      | ! no GPU named 'GTX 1070 Mobile': the knowledge base has no laptop variant of this card
# numbers and x's inside names
A100 80GB            | a100-sxm4-80gb
H100 SXM5            | h100-sxm5
RTX 4090             | rtx-4090
Gaudi 2              | gaudi2
Gaudi2               | gaudi2
MI300X               | mi300x
L40S                 | l40s
RTX 6000 Ada         | rtx-6000-ada
V100 16GB            | v100-sxm2-16gb
T4                   | t4
P4                   | p4
GTX 1080 Ti          | gtx-1080-ti
Titan RTX            | titan-rtx
Radeon Pro VII       | ! no GPU named 'Radeon Pro VII'; did you mean:
Titan X              | ! no GPU named 'Titan X'; did you mean:
TITAN Xp             | ! no GPU named 'TITAN Xp'; did you mean:
 ! no GPU named 'Titan X 2'; did you mean:| ! no GPU named 'Titan X 2'; did you mean:
Titan X x2           | ! no GPU named 'Titan X x2'; did you mean:
EOF

# --- workload candidates ---------------------------------------------------------------------
# vision-team.lua with its candidates line replaced: candidates WORKLOAD_FILE LIST
candidates() {
    sed "s/^\( *candidates = \).*/\1$2,/" "$ROOT/examples/vision-team.lua" >"$1"
    grep -qF "candidates = $2" "$1" || fail "names: workload $1" "no candidates line to edit"
}

# A counted name is that count of that card: "4090x2" gives only options of 2 RTX 4090 (it used
# to give the Gaudi 2, and the RTX 4090 disappeared).
candidates "$T/counted.lua" '{"4090x2"}'
run "$GW" --kb "$KB" decide --json "$T/counted.lua"
check_rc "decide '4090x2' candidate: exit 0" 0
check_eq "decide '4090x2': every option is 2 RTX 4090" \
    "$(jqr '[.options[] | "\(.gpu) \(.count)"] | unique | join(",")')" "rtx-4090 2"
check_eq "decide '4090x2': the trace says which card" \
    "$(jqr '[.trace[] | select(startswith("candidate"))] | join(",")')" 'candidate "4090x2" -> rtx-4090'

# A candidate the KB does not know: one line naming the file, the candidate's own line (here the
# fourth of a list written over six lines: line 45 + 3 = 48), the candidate and suggestions.
sed '45s/.*/    candidates = {\n        "rtx-3090", -- a comment, "quoted"\n        "rent:*",\n        "rtx-4090x",\n        "a100-pcie-80gb",\n    },/' \
    "$ROOT/examples/vision-team.lua" >"$T/typo.lua"
for cmd in decide report; do
    run "$GW" --kb "$KB" $cmd "$T/typo.lua" -o "$T/typo-$cmd.json"
    check_rc "$cmd: unknown candidate: exit 65" 65
    check_eq "$cmd: unknown candidate: one line naming file, line, candidate, suggestions" "$ERR" \
        "gpuwise $cmd: $T/typo.lua:48: candidates[3]: no GPU named 'rtx-4090x'; did you mean: rtx-4090, rtx-4090-d, rtx-3090?"
    [ ! -e "$T/typo-$cmd.json" ] && pass "$cmd: unknown candidate: nothing written" ||
        fail "$cmd: unknown candidate: nothing written" "$T/typo-$cmd.json exists"
done

# Ambiguous, laptop, counted-unknown and rent: candidates are errors too, never dropped.
while IFS='|' read -r list message; do
    candidates "$T/bad.lua" "$list"
    run "$GW" --kb "$KB" decide "$T/bad.lua"
    check_rc "decide candidates $list: exit 65" 65
    check_err "decide candidates $list: says why" "$T/bad.lua:45: $message"
done <<'EOF'
{"rtx-3090", "A100"}|candidates[2]: 'A100' is ambiguous: a100-pcie-40gb, a100-pcie-80gb, a100-sxm4-40gb, a100-sxm4-80gb
{"RTX 3080 Laptop GPU"}|candidates[1]: no GPU named 'RTX 3080 Laptop GPU': the knowledge base has no laptop variant of this card (rtx-3080 is the desktop card, a different GPU)
{"rtx-3090", "2x rtx-9090"}|candidates[2]: no GPU named '2x rtx-9090'; did you mean: rtx-3090,
{"rent:rtx-9090"}|candidates[1]: no GPU named 'rtx-9090'; did you mean: rtx-3090,
{"*"}|candidates[1]: no GPU named '*' (a name has letters or digits)
EOF
