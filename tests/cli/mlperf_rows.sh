#!/bin/sh
# tests/cli/mlperf_rows.sh — the shipped KB's MLPerf Training rows (llama2_70b_lora) store one
# rule, each recomputed here from its own note: the steady training throughput, the samples of
# the log's training blocks after the first x 8,192 tokens (a packed sequence) over the sum of
# those blocks' block_start to block_stop times, the first block's warm-up and the evaluations
# left out; the end-to-end rate (run_start to run_stop) kept in the note and recomputed too.
. "$ROOT/tests/cli/lib.sh"

if [ ! -f "$SHIPPED_KB" ]; then
    skip "mlperf rows: shipped KB" "kb/gpuwise.db not built (run make)"
    exit 0
fi

# rule_problem VALUE NOTE: prints nothing where the row keeps the rule, else what breaks it.
#   the steady figure: "Value = steady training throughput, blocks 2 to N (samples A to B):
#     S samples x 8192 tokens (packed sequence length) / T s = V tokens/s"; VALUE = S x 8192 / T
#     to 0.1, V = VALUE, S = B - A, and B the converged samples_count (the blocks run to the end);
#   the end-to-end figure: "End to end, evaluations and warm-up included: E samples x 8192 tokens
#     / R s = W tokens/s"; W = E x 8192 / R to 0.1, E the converged count, and W < VALUE (the
#     evaluations and the warm-up are out of the steady rate, so it is the faster).
rule_problem() {
    _conv=$(printf '%s' "$2" | sed -n 's/.*converged at samples_count \([0-9,]*\) .*/\1/p' | tr -d ,)
    _steady=$(printf '%s' "$2" | sed -n 's/.*Value = steady training throughput, blocks 2 to [0-9]* (samples \([0-9,]*\) to \([0-9,]*\)): \([0-9,]*\) samples x 8192 tokens (packed sequence length) \/ \([0-9.]*\) s = \([0-9,.]*\) tokens\/s.*/\1 \2 \3 \4 \5/p' | tr -d ,)
    _e2e=$(printf '%s' "$2" | sed -n 's/.*End to end, evaluations and warm-up included: \([0-9,]*\) samples x 8192 tokens \/ \([0-9.]*\) s = \([0-9,.]*\) tokens\/s.*/\1 \2 \3/p' | tr -d ,)
    if [ -z "$_conv" ] || [ -z "$_steady" ] || [ -z "$_e2e" ]; then
        echo "the note lacks the converged count, the steady figure or the end-to-end figure"
        return
    fi
    # shellcheck disable=SC2086 # the fields are numbers, split on purpose
    echo "$1 $_conv $_steady $_e2e" | awk '{
        value = $1; conv = $2; a = $3; b = $4; s = $5; t = $6; v = $7; e = $8; r = $9; w = $10
        want = sprintf("%.1f", s * 8192 / t)
        if (sprintf("%.1f", value) != want) print "value " value ", but " s " x 8192 / " t " = " want
        if (sprintf("%.1f", v) != sprintf("%.1f", value)) print "the note states " v ", the row " value
        if (b - a != s) print "samples " a " to " b " are " b - a ", not " s
        if (b != conv) print "the blocks end at " b ", not at convergence, " conv
        if (e != conv) print "end to end counts " e " samples, not " conv
        if (sprintf("%.1f", w) != sprintf("%.1f", e * 8192 / r)) print "end to end " w ", but " e " x 8192 / " r " = " sprintf("%.1f", e * 8192 / r)
        if (w + 0 >= value + 0) print "the steady rate " value " is not above the end-to-end " w
    }'
}

# Every MLPerf Training row of the shipped KB: v4.0's 6 (NVIDIA: 8, 64 and 1,024 H100, 8 H200,
# 64 and 384 L40S) and v5.1's 10 (Krai: 2 MI300X and 16, 32, 64 H200; AMD: MI300X, MI325X,
# MI355X; NVIDIA: 72 and 512 GB200) = 16.
sqlite3 -separator "$(printf '\t')" "$SHIPPED_KB" \
    "SELECT gpu || ' x' || CAST(gpu_count AS INTEGER), value, note FROM benchmark
     WHERE source LIKE 'mlperf-training-%' ORDER BY gpu, gpu_count, value" >"$T/rows.tsv"
check_eq "mlperf rows: the shipped KB's 16 MLPerf Training rows" "$(wc -l <"$T/rows.tsv" | tr -d ' ')" 16
_bad=0
while IFS="$(printf '\t')" read -r _who _value _note; do
    _why=$(rule_problem "$_value" "$_note")
    if [ -n "$_why" ]; then
        fail "mlperf rows: $_who ($_value tokens/s) keeps the steady-rate rule" "$(echo "$_why" | tr '\n' ';')"
        _bad=$((_bad + 1))
    fi
done <"$T/rows.tsv"
check_eq "mlperf rows: each stores the steady rate its note derives, and keeps the end-to-end rate" "$_bad" 0

# Two rows by hand (their logs: v4.0 eos_n128 result_0.txt, v5.1 tyche_ngpu512 result_0.txt):
#   1,024 H100: blocks 2 to 11, samples 7,296 to 11,136 = 3,840 in 20.539 s (the sum of ten
#     blocks of 1.967 to 2.280 s): 3,840 x 8192 / 20.539 = 1,531,587.7 tokens/s, against
#     11,136 x 8192 / 89.207 = 1,022,634.0 end to end (the first block alone took 55.773 s);
#   512 GB200: blocks 2 to 8, samples 4,224 to 6,912 = 2,688 in 8.839 s: 2,688 x 8192 / 8.839 =
#     2,491,242.9 tokens/s, against 6,912 x 8192 / 26.606 = 2,128,208.1 end to end.
check_eq "mlperf rows: 1,024 H100 at 3,840 x 8192 / 20.539 s = 1,531,587.7 tokens/s" \
    "$(sqlite3 "$SHIPPED_KB" "SELECT printf('%.1f', value) FROM benchmark WHERE source = 'mlperf-training-v4-0-results' AND gpu = 'h100-sxm5' AND gpu_count = 1024")" \
    1531587.7
check_eq "mlperf rows: 512 GB200 at 2,688 x 8192 / 8.839 s = 2,491,242.9 tokens/s" \
    "$(sqlite3 "$SHIPPED_KB" "SELECT printf('%.1f', value) FROM benchmark WHERE source = 'mlperf-training-v5-1-results-nvidia' AND gpu_count = 512")" \
    2491242.9

# The check can fail: the 1,024 H100 row given back its end-to-end value (1,022,634) breaks the
# rule three ways: 3,840 x 8192 / 20.539 is 1,531,587.7, the note states 1,531,587.7, and the
# end-to-end 1,022,634.0 is no longer below the value.
_note=$(sqlite3 "$SHIPPED_KB" "SELECT note FROM benchmark WHERE source = 'mlperf-training-v4-0-results' AND gpu_count = 1024")
check_eq "mlperf rows: an end-to-end value in place of the steady one is caught" \
    "$(rule_problem 1022634 "$_note" | wc -l | tr -d ' ')" 3
# ... and so is a note whose block samples do not add up (7,296 to 11,136 is 3,840, not 3,841).
_note2=$(printf '%s' "$_note" | sed 's/: 3,840 samples x 8192/: 3,841 samples x 8192/')
[ "$_note2" != "$_note" ] || fail "mlperf rows: the note to alter has its 3,840 samples" "sed changed nothing"
check_eq "mlperf rows: block samples that do not add up are caught" \
    "$(rule_problem 1531587.7 "$_note2" | grep -c 'samples 7296 to 11136 are 3840, not 3841')" 1
# ... and a note without the steady figure.
check_eq "mlperf rows: a note without the steady figure is caught" \
    "$(rule_problem 1531587.7 "converged at samples_count 11,136 (eval loss 0.9245)")" \
    "the note lacks the converged count, the steady figure or the end-to-end figure"
