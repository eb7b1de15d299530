#!/bin/sh
# tests/cli/precision.sh — one precision table (issue 28): the KB's precision support rows (which
# architectures compute each format, with a source per row; an unknown format refused), what a
# GPU without a format runs instead and says so (BF16 on a V100, T4 or RTX 2080 Ti runs FP16;
# FP8 on an A100 serves its weights weight-only at 1 byte; FP4 on an H100 serves 4-bit weights
# weight-only and trains at FP8), labels that name the rate used ("71 fp16 TFLOPS" for int4 on an
# RTX 3090), and FP8/FP4 training at BF16's rate x the measured speed-up with its band.  Rentals
# come from a fixture price list (PrecisionCloud, tests/fixtures/precision/offers.csv).
. "$ROOT/tests/cli/lib.sh"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

# The figures below are the stated model's at the KB's assumed shares (40% utilisation, 70% of the
# bandwidth).
KB=$(assumed_shares_kb precision)
run "$GW" --kb "$KB" kb import "$FIX/precision/offers.csv"
check_rc "precision: fixture offers imported" 0

# opt ID FIELD: FIELD (a jq path) of the option ID in $OUT.
opt() { jqr ".options[] | select(.id == \"$1\") | $2"; }
P=rent:PrecisionCloud

# ---- the table ----
# The shipped rows: BF16 from Ampere (and CDNA 2), FP8 from Ada Lovelace, Hopper, Blackwell and
# CDNA 3, FP4 on Blackwell and CDNA 4, INT8 tensor cores from Turing; every row cites a source
# the KB has, and every architecture it names is a GPU's.
python3 - "$ROOT/kb/data" >"$T/table.txt" <<'EOF'
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/precision_support.csv")))
sources = {r["id"] for r in csv.DictReader(open(d + "/sources.csv"))}
archs = {g["architecture"] for g in csv.DictReader(open(d + "/gpus.csv"))}
by = {}
for r in rows:
    by.setdefault(r["precision"], []).append(r["architecture"])
for p in ("bf16", "fp8", "fp4", "int8"):
    print(p + ": " + ", ".join(sorted(by[p])))
print("uncited: %d" % sum(1 for r in rows if r["source"] not in sources
                           or (r["low_source"] and r["low_source"] not in sources)
                           or (r["high_source"] and r["high_source"] not in sources)))
print("unknown architectures: %d" % sum(1 for r in rows if r["architecture"] not in archs))
EOF
check_eq "precision: BF16 needs Ampere or later (CDNA 2 on AMD)" "$(sed -n 1p "$T/table.txt")" \
    "bf16: Ada Lovelace, Ampere, Blackwell, Blackwell Ultra, CDNA 2, CDNA 3, CDNA 4, Gaudi 2, Gaudi 3, Hopper"
check_eq "precision: FP8 needs Ada Lovelace, Hopper, Blackwell or CDNA 3" "$(sed -n 2p "$T/table.txt")" \
    "fp8: Ada Lovelace, Blackwell, Blackwell Ultra, CDNA 3, CDNA 4, Gaudi 2, Gaudi 3, Hopper"
check_eq "precision: FP4 needs Blackwell or CDNA 4 (MI355X)" "$(sed -n 3p "$T/table.txt")" \
    "fp4: Blackwell, Blackwell Ultra, CDNA 4"
check_eq "precision: INT8 tensor cores from Turing" "$(sed -n 4p "$T/table.txt")" \
    "int8: Ada Lovelace, Ampere, Blackwell, Blackwell Ultra, CDNA 2, CDNA 3, CDNA 4, Hopper, Turing"
check_eq "precision: every row cites a known source" "$(sed -n 5p "$T/table.txt")" "uncited: 0"
check_eq "precision: every architecture named is a GPU's" "$(sed -n 6p "$T/table.txt")" \
    "unknown architectures: 0"

# A support row naming a format the table does not know is refused, naming the file, the line
# and the formats it knows; so is a speed-up without its band's sources, and SQLite's own CHECK
# refuses such a row written past the import.
cat >"$T/precision_support.csv" <<'EOF'
precision,architecture,train_speedup,train_speedup_low,low_source,train_speedup_high,high_source,source,note
fp6,Blackwell,,,,,,nvidia-hgx-page,FP6 is not a format the table knows.
EOF
K2="$T/refuse.db"
cp "$KB" "$K2"
run "$GW" --kb "$K2" kb import "$T/precision_support.csv"
check_rc "precision: an unknown format exits 65" 65
check_err "precision: ... naming the file, line and the formats known" \
    "precision_support.csv:2: precision: 'fp6' is not one of: fp16, bf16, tf32, fp8, int8, fp4, fp8-w8a16, fp4-w4a16"
cat >"$T/precision_support.csv" <<'EOF'
precision,architecture,train_speedup,train_speedup_low,low_source,train_speedup_high,high_source,source,note
fp8,Ada Lovelace,1.3,,,,,nvidia-ada-whitepaper,
EOF
run "$GW" --kb "$K2" kb import "$T/precision_support.csv"
check_rc "precision: a speed-up without its band exits 65" 65
check_err "precision: ... and says what it needs" \
    "precision_support.csv:2: train_speedup: give it with train_speedup_low, low_source, train_speedup_high and high_source"
if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$K2" "INSERT INTO precision_support (precision, architecture, source) VALUES ('fp6', 'Blackwell', 'nvidia-hgx-page')" 2>"$T/sql.err"
    check_eq "precision: the schema's CHECK refuses an unknown format" \
        "$(grep -c 'CHECK constraint failed' "$T/sql.err")" 1
fi
run "$GW" --kb "$K2" kb check
check_rc "precision: the KB still checks clean" 0

# ---- BF16 on a V100, a T4 and an RTX 2080 Ti: FP16, said, at FP16's rate ----
# Llama 3.1 8B LoRA in bf16.  None of the three has BF16 tensor cores (Volta, Turing): each runs
# FP16 (the same 2 bytes a weight) at its FP16 rate, 125 / 65 / 53.8 TFLOPS, and the label says
# fp16.  A T4 (16 GB) and a 2080 Ti (11 GB) cannot hold it; their speed is computed all the same.
wl lora 'task = "finetune", model = { name = "llama-3.1-8b", precision = "bf16", optimizer = "adamw" }, finetune = { method = "lora", rank = 16 }, sequence_length = 2048, work = { tokens = 1e9 }, candidates = { "rent:v100-sxm2-16gb", "rent:t4", "rent:rtx-2080-ti" }'
run "$GW" --kb "$KB" decide "$T/lora.lua" --json
check_rc "precision: the bf16 LoRA decides" 0
check_eq "precision: an 8x V100 runs the bf16 LoRA at fp16" "$(opt "$P:v100x8:8x v100-sxm2-16gb" .runs_at)" "fp16"
check_eq "precision: ... and says so, with FP16's range" "$(opt "$P:v100x8:8x v100-sxm2-16gb" .precision_note)" \
    "Tesla V100 SXM2 16GB has no BF16 tensor cores: runs at FP16 (125 TFLOPS); FP16's range is narrower than BF16's: training needs loss scaling, and a model trained in BF16 can overflow in FP16"
check_eq "precision: the V100's label names FP16's rate" \
    "$(opt "$P:v100x8:8x v100-sxm2-16gb" '.throughput.how | contains("125 fp16 TFLOPS x ")')" "true"
check_eq "precision: ... never a bf16 rate" \
    "$(opt "$P:v100x8:8x v100-sxm2-16gb" '.throughput.how | contains("bf16 TFLOPS")')" "false"
check_eq "precision: a T4 runs it at fp16, 65 TFLOPS" \
    "$(opt "$P:t4x1:1x t4" '[.runs_at, (.precision_note | startswith("NVIDIA T4 has no BF16 tensor cores: runs at FP16 (65 TFLOPS)")), (.throughput.how | contains("65 fp16 TFLOPS x "))] | join(" ")')" \
    "fp16 true true"
check_eq "precision: an RTX 2080 Ti runs it at fp16, 53.8 TFLOPS" \
    "$(opt "$P:2080tix1:1x rtx-2080-ti" '[.runs_at, (.precision_note | startswith("GeForce RTX 2080 Ti has no BF16 tensor cores: runs at FP16 (53.8 TFLOPS)")), (.throughput.how | contains("54 fp16 TFLOPS x "))] | join(" ")')" \
    "fp16 true true"
check_eq "precision: the precision-support rule warns on each, in the decision's words" \
    "$(jqr '[.options[] | select(.provider == "PrecisionCloud") | [.verdicts[] | select(.rule == "precision-support") | .effect] | join("")] | unique | join(" ")')" \
    "warn"
check_eq "precision: the trace says it too (the rule's verdict, in the decision's words)" \
    "$(jqr '[.trace[] | select(startswith("rule precision-support: warn rent:PrecisionCloud:v100x8:8x v100-sxm2-16gb (0.05): Tesla V100 SXM2 16GB has no BF16 tensor cores: runs at FP16 (125 TFLOPS)"))] | length')" 1
# The V100 rental is the only option that holds the model: it is recommended, and the report
# says, among the recommendation's risks, that it runs FP16 and what that means.
check_eq "precision: the 8x V100 is recommended (nothing else holds it)" "$(jqr .recommendation.option)" \
    "$P:v100x8:8x v100-sxm2-16gb"
run "$GW" --kb "$KB" report "$T/lora.lua" --format md -o "$T/lora.md"
check_rc "precision: the bf16 LoRA's report" 0
sed -n '/^## Risks and checklists/,/^## /p' "$T/lora.md" >"$T/risks.md"
check_eq "precision: the report never recommends the V100 silently (its risks say FP16)" \
    "$(grep -c "Tesla V100 SXM2 16GB has no BF16 tensor cores: runs at FP16 (125 TFLOPS); FP16's range is narrower than BF16's: training needs loss scaling" "$T/risks.md")" 1

# ---- FP8 served on an A100: weight-only, 1 byte a weight ----
# Llama 2 7B (6.738e9 parameters, 32 layers, 32 KV heads of 128) at fp8, one request of 1,024 +
# 256 tokens.  A decode step reads the weights and the cache at the average context, 1,024 + 128
# = 1,152 tokens:
#   H100 (FP8 tensor cores, FP8 cache): 6.738 GB + 2 x 32 x 32 x 128 x 1 byte x 1,152 = 6.738 +
#     0.302 = 7.04 GB, the products at 1979 fp8 TFLOPS;
#   A100 (FP8 Marlin, weight-only): the same 6.738 GB of weights (not 13.48 at bf16) + a 16-bit
#     cache, 0.604 GB = 7.34 GB, the products at 312 fp16 TFLOPS.
# A step computes 2 x 6.738e9 = 13.476 GFLOP + attention over the 1,152 cached tokens, 4 x 32
# layers x 1,152 x 4,096 = 0.604 GFLOP: 14.1 GFLOP.
wl fp8serve 'task = "inference", model = { name = "llama-2-7b", precision = "fp8" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "rent:a100-sxm4-80gb", "rent:h100-sxm5" }'
run "$GW" --kb "$KB" decide "$T/fp8serve.lua" --json
check_eq "precision: an A100 serves fp8 weight-only" "$(opt "$P:a100x1:1x a100-sxm4-80gb" .runs_at)" "fp8-w8a16"
check_eq "precision: ... reading 1-byte weights and a 16-bit cache, at FP16's rate" \
    "$(opt "$P:a100x1:1x a100-sxm4-80gb" '.throughput.how | contains("7.34 GB at 70% of 2039 GB/s each, 14.1 GFLOP at 40% of 312 fp16 TFLOPS each")')" "true"
check_eq "precision: ... and says why" "$(opt "$P:a100x1:1x a100-sxm4-80gb" .precision_note)" \
    "NVIDIA A100 SXM4 80GB has no FP8 tensor cores: runs fp8-w8a16 (FP8 weights, 16-bit activations: weight-only) at FP16 (312 TFLOPS)"
check_eq "precision: an H100 serves fp8 itself" \
    "$(opt "$P:h100x1:1x h100-sxm5" '[.runs_at, (.precision_note == null), (.throughput.how | contains("7.04 GB at 70% of 3350 GB/s each, 14.1 GFLOP at 40% of 1979 fp8 TFLOPS each"))] | join(" ")')" \
    "fp8 true true"

# ---- FP4 on an H100 ----
# Served: no FP4 tensor cores, but FP4 Marlin: 4-bit weights with an 8-bit scale a 16 (0.5625
# byte) and a 16-bit cache: 6.738 x 0.5625 + 0.604 = 3.790 + 0.604 = 4.39 GB a step, at 990 fp16
# TFLOPS (989.5).  An MI300X-like GPU without those kernels would serve it at fp8 (test_precision).
wl fp4serve 'task = "inference", model = { name = "llama-2-7b", precision = "fp4" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "rent:h100-sxm5", "rent:b200" }'
run "$GW" --kb "$KB" decide "$T/fp4serve.lua" --json
check_eq "precision: an H100 serves fp4 weights weight-only" \
    "$(opt "$P:h100x1:1x h100-sxm5" '[.runs_at, (.throughput.how | contains("4.39 GB at 70% of 3350 GB/s each, 14.1 GFLOP at 40% of 990 fp16 TFLOPS each"))] | join(" ")')" \
    "fp4-w4a16 true"
check_eq "precision: a B200 serves fp4 on its FP4 tensor cores" "$(opt "$P:b200x1:1x b200" .runs_at)" "fp4"

# ---- int4: the label names FP16's rate ----
# int4 (w4a16: AWQ or GPTQ 4-bit weights, 16-bit activations) on an RTX 3090 computes at its
# FP16 rate, 71 TFLOPS: "71 fp16 TFLOPS", never "int4 TFLOPS".
wl int4 'task = "inference", model = { name = "llama-2-7b", precision = "int4" }, inference = { context = 1024, output_tokens = 256, concurrency = 1 }, candidates = { "rent:rtx-3090" }'
run "$GW" --kb "$KB" decide "$T/int4.lua" --json
check_eq "precision: int4 is w4a16, at 71 fp16 TFLOPS" \
    "$(opt "$P:3090x1:1x rtx-3090" '[.runs_at, (.throughput.how | contains("at 40% of 71 fp16 TFLOPS")), (.throughput.how | contains("int4 TFLOPS"))] | join(" ")')" \
    "w4a16 true false"

# ---- FP8 training on an H100: BF16's rate x the measured speed-up ----
# Llama 3 8B pre-trained at fp8 on one H100 SXM, sequences of 256 tokens (attention's share is
# small there).  The speed-up over BF16 measured on Hopper: 1.28 (torchtitan) to 1.5
# (Databricks), 1.4 used, not FP8's peak ratio 2.  By hand, at the KB's utilisation of 40% and
# 6 x 8.03e9 = 48.18 GFLOP a token:
#   989.5e12 x 1.4 x 0.40 / 48.18e9 = 1,385.3e12 x 0.40 / 48.18e9 = 11,501 tokens/s,
#   the same at bf16: 989.5e12 x 0.40 / 48.18e9 = 8,215 tokens/s (ratio 1.4);
# the FP8 speed's band is BF16's x 1.28 / 1.4 = 0.914 low and x 1.5 / 1.4 = 1.071 high.
for p in fp8 bf16; do
    wl "train-$p" "task = \"train\", model = { name = \"llama-3-8b\", precision = \"$p\", optimizer = \"adamw\" }, sequence_length = 256, work = { tokens = 1e9 }, candidates = { \"rent:h100-sxm5\" }"
done
run "$GW" --kb "$KB" decide "$T/train-fp8.lua" --json
H="$P:h100x1:1x h100-sxm5"
fp8_speed=$(opt "$H" .throughput.value)
fp8_low=$(opt "$H" .throughput.low)
fp8_high=$(opt "$H" .throughput.high)
check_num "precision: FP8 training on an H100, 11,501 tokens/s by hand" "$fp8_speed" 11501 350
check_eq "precision: ... its label names BF16's rate and the measured speed-up" \
    "$(opt "$H" '.throughput.how | contains("1385 TFLOPS (990 bf16 TFLOPS x 1.4, FP8 training'"'"'s measured speed-up over BF16 on Hopper) x ")')" "true"
check_eq "precision: ... never FP8's peak" "$(opt "$H" '.throughput.how | contains("1979")')" "false"
check_eq "precision: ... the band cites both measurements" \
    "$(opt "$H" '.throughput.band_basis | contains("published measurements from 1.28 to 1.5 on Hopper (torchtitan-performance-h100, databricks-fp8-training), the figure used 1.4")')" "true"
run "$GW" --kb "$KB" decide "$T/train-bf16.lua" --json
bf16_speed=$(opt "$H" .throughput.value)
check_num "precision: BF16 training on the same H100, 8,215 tokens/s by hand" "$bf16_speed" 8215 250
check_num "precision: FP8 / BF16 = the measured 1.4, not the peak's 2" \
    "$(awk -v a="$fp8_speed" -v b="$bf16_speed" 'BEGIN { print a / b }')" 1.4 0.0001
check_num "precision: the band's low end carries 1.28 / 1.4" \
    "$(awk -v l="$fp8_low" -v s="$fp8_speed" -v bl="$(opt "$H" .throughput.low)" -v bs="$bf16_speed" 'BEGIN { print (l / s) / (bl / bs) }')" 0.9143 0.0001
check_num "precision: the band's high end carries 1.5 / 1.4" \
    "$(awk -v h="$fp8_high" -v s="$fp8_speed" -v bh="$(opt "$H" .throughput.high)" -v bs="$bf16_speed" 'BEGIN { print (h / s) / (bh / bs) }')" 1.0714 0.0001

# FP4 training on an H100 (no FP4 tensor cores) runs FP8's: the same 1.4 x BF16, and says so.
wl train-fp4 'task = "train", model = { name = "llama-3-8b", precision = "fp4", optimizer = "adamw" }, sequence_length = 256, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5", "rent:b200" }'
run "$GW" --kb "$KB" decide "$T/train-fp4.lua" --json
check_eq "precision: FP4 training on an H100 runs fp8" \
    "$(opt "$H" '[.runs_at, .precision_note] | join(": ")')" \
    "fp8: NVIDIA H100 SXM5 80GB has no FP4 tensor cores: runs at FP8"
check_num "precision: ... at FP8's measured speed-up, 11,501 tokens/s as above" \
    "$(opt "$H" .throughput.value)" "$fp8_speed" 0.5
# On a B200, FP4 itself: 2,250 bf16 TFLOPS x 1.42 (the middle of 1.23, NVFP4 over MXFP8 in NeMo,
# to 1.6, NVIDIA's NVFP4 post) = 3,195 TFLOPS; x 0.40 / 48.18e9 = 26,526 tokens/s.
check_num "precision: FP4 training on a B200 at 2,250 x 1.42 TFLOPS, 26,526 tokens/s by hand" \
    "$(opt "$P:b200x1:1x b200" .throughput.value)" 26526 800

# ---- image models: the same rule ----
# ResNet-50 in bf16 on the 8x V100 rental: measured at fp16 there, and the option says it runs
# FP16 for want of BF16 tensor cores.
sed -e 's/precision = "amp"/precision = "bf16"/' \
    -e 's/candidates = { .* },/candidates = { "rent:v100-sxm2-16gb", "rent:rtx-3090" },/' \
    "$ROOT/examples/vision-team.lua" >"$T/vision.lua"
run "$GW" --kb "$KB" decide "$T/vision.lua" --json
check_eq "precision: an image model in bf16 on a V100 runs FP16, and says so" \
    "$(opt "$P:v100x8:8x v100-sxm2-16gb" '.throughput.how | startswith("Tesla V100 SXM2 16GB has no BF16 tensor cores: runs at FP16 (125 TFLOPS)")')" "true"
check_eq "precision: ... an RTX 3090 runs its bf16 (no note)" "$(opt "$P:3090x1:1x rtx-3090" .precision_note)" "null"

# ---- a KB without support rows (from before schema 12) ----
# A GPU is taken to compute a format where the KB gives it a rate, without weight-only kernels,
# and the trace says so: FP8 on an A100 then serves at bf16.
K3="$T/old.db"
cp "$KB" "$K3"
if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$K3" "DELETE FROM precision_support"
    run "$GW" --kb "$K3" decide "$T/fp8serve.lua" --json
    check_eq "precision: without support rows an A100 serves fp8 at bf16" \
        "$(opt "$P:a100x1:1x a100-sxm4-80gb" .runs_at)" "bf16"
    check_eq "precision: ... and the trace says why" \
        "$(jqr '[.trace[] | select(contains("no precision support rows"))] | length')" 1
fi

