#!/bin/sh
# tests/cli/catalog.sh — the model catalog of issue 28: every new model resolves by its id, its
# name, its Hugging Face repo id and a suffixed form of it (a release variant, a date, a quantized
# copy's format); the parameters of the rows recomputed by hand from their config.json; the repo
# ids `kb models` shows; and a workload field written in the wrong table named where it belongs.
. "$ROOT/tests/cli/lib.sh"

KB=$(fresh_kb catalog)

# resolve NAME: decides a small serving workload naming NAME (vram_gb stands in for the memory,
# so that every model fits the one candidate and the decision is quick); sets TITLE to the
# model the decision names (.llm.model_text up to the first ": "; a quantized copy's title says
# so in parentheses).
resolve() {
    cat >"$T/resolve.lua" <<EOF
return { task = "inference", model = "$1", vram_gb = 10,
  inference = { context = 100, output_tokens = 10 }, candidates = { "rent:h100-sxm5" },
  hours_per_day = 8, horizon_months = 12, currency = "USD", electricity = { price = 0.1 } }
EOF
    run "$GW" --kb "$KB" decide "$T/resolve.lua" --json
    TITLE=$(jqr '.llm.model_text // "" | split(": ") | .[0]')
}

# ---- every new row under its id, its name, its repo id and a suffixed repo id ----
run "$GW" --kb "$KB" kb models --json
printf '%s\n' "$OUT" >"$T/models.json"
NEW="llama-3.2-1b llama-3.2-3b llama-3.3-70b llama-4-scout llama-4-maverick qwen3-8b qwen3-32b
qwen3-235b-a22b deepseek-r1 deepseek-r1-distill-llama-8b deepseek-r1-distill-llama-70b
deepseek-r1-distill-qwen-1.5b deepseek-r1-distill-qwen-7b deepseek-r1-distill-qwen-14b
deepseek-r1-distill-qwen-32b gpt-oss-20b gpt-oss-120b mixtral-8x22b gemma-3-27b phi-4 gpt-3-175b"
# The suffixes a repo id is copied with, one per row in turn: variants (kept apart from the
# quantized formats, whose title says they were named).
set -- -Instruct -FP8 -AWQ -it -GPTQ-Int4 -2507 -bnb-4bit -Instruct-FP8-dynamic -GGUF -chat
count=0
for id in $NEW; do
    count=$((count + 1))
    name=$(jq -r --arg id "$id" '.models[] | select(.id == $id) | .name' "$T/models.json")
    repo=$(jq -r --arg id "$id" '.models[] | select(.id == $id) | .hf_repo // ""' "$T/models.json")
    if [ -z "$name" ]; then
        fail "catalog: $id is in the catalog"
        continue
    fi
    suffix=$1
    shift
    set -- "$@" "$suffix"
    # GPT-3 was never published on Hugging Face: its name stands for the repo id.
    base=${repo:-$name}
    for form in "$id" "$name" "$repo" "$base$suffix"; do
        [ -n "$form" ] || continue
        resolve "$form"
        case "$form" in
        *-FP8 | *-AWQ | *-GPTQ-Int4 | *-bnb-4bit | *-dynamic | *-GGUF)
            want="$name (named as its quantized copy $form" ;;
        *) want=$name ;;
        esac
        case "$TITLE" in
        "$want"*) pass "catalog: '$form' resolves to $id" ;;
        *) fail "catalog: '$form' resolves to $id" "rc $RC, got '$TITLE'; $(echo "$ERR" | head -1)" ;;
        esac
    done
done
check_eq "catalog: the 21 models of issue 28 were tried" "$count" 21

# The catalog's earlier rows got their repo ids too (Meta-Llama-3-8B, Mistral-7B-v0.1, ...).
jq -r '.models[] | select(.hf_repo != null) | "\(.id)=\(.hf_repo)=\(.name)"' "$T/models.json" >"$T/repos"
while IFS='=' read -r id repo name; do
    case " $(echo $NEW) " in *" $id "*) continue ;; esac
    resolve "$repo"
    check_eq "catalog: $repo (an earlier row) resolves to $id" "$TITLE" "$name"
done <"$T/repos"

# The repo ids people copy from the hub, as issue 28 lists them.
for pair in "meta-llama/Llama-3.1-8B-Instruct=Llama 3.1 8B" \
    "Qwen/Qwen3-235B-A22B-Instruct-2507=Qwen3 235B-A22B" \
    "deepseek-ai/DeepSeek-R1-Distill-Llama-70B=DeepSeek-R1-Distill-Llama-70B" \
    "google/gemma-3-27b-it=Gemma 3 27B" "mistralai/Mixtral-8x7B-Instruct-v0.1=Mixtral 8x7B" \
    "openai/gpt-oss-120b=gpt-oss-120b" "microsoft/phi-4=Phi-4" \
    "meta-llama/Llama-4-Scout-17B-16E-Instruct=Llama 4 Scout (17B-16E)" \
    "deepseek-ai/DeepSeek-R1-0528=DeepSeek-R1" "meta-llama/Meta-Llama-3-70B-Instruct=Llama 3 70B"; do
    resolve "${pair%%=*}"
    check_eq "catalog: ${pair%%=*} resolves" "$TITLE" "${pair#*=}"
done
resolve "unsloth/Llama-3.2-1B-Instruct-bnb-4bit"
check_rc "catalog: a bnb-4bit copy decides" 0
check_eq "catalog: a bnb-4bit copy is the model's architecture, the suffix said to be harmless" \
    "$(jqr '.llm.model_text | split(": 1.24B")[0]')" \
    'Llama 3.2 1B (named as its quantized copy unsloth/Llama-3.2-1B-Instruct-bnb-4bit: the same architecture; the figures use model.precision = "amp")'
# A different release is not stripped to the catalog's: Mistral 7B v0.3 has another vocabulary
# (32768) and no sliding window, so it names no row and gets the nearest ones.
resolve "mistralai/Mistral-7B-Instruct-v0.3"
check_rc "catalog: Mistral-7B-Instruct-v0.3 is not v0.1 (exit 65)" 65
check_err "catalog: Mistral-7B-Instruct-v0.3 gets the nearest, Mistral 7B first" \
    "unknown model 'mistralai/Mistral-7B-Instruct-v0.3' (did you mean mistral-7b"
# A distill names its own row, not DeepSeek-R1's.
resolve "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B-AWQ"
check_eq "catalog: a distill's quantized copy is the distill" "${TITLE%% (*}" "DeepSeek-R1-Distill-Qwen-7B"

# ---- the parameters, recomputed from each config.json ----
# param ID FIELD: the catalog's FIELD of model ID.
param() { jq -r --arg id "$1" ".models[] | select(.id == \$id) | .$2" "$T/models.json"; }
# Llama 3.2 1B (tied): embedding 128256 x 2048 = 262,668,288; a layer: q 2048 x 2048 + k, v 2 x
# 2048 x 512 + o 2048 x 2048 = 10,485,760, feed-forward 3 x 2048 x 8192 = 50,331,648, 2 norms
# 4096: 60,821,504; 16 layers 973,144,064; + final norm 2048 = 1,235,814,400 -> 1.236e9.
check_eq "catalog: Llama 3.2 1B has 1.236e9 parameters" "$(param llama-3.2-1b params)" 1236000000
# Qwen3 8B (untied): 2 x 151936 x 4096 = 1,244,659,712; a layer: q 4096 x 4096 + k, v 2 x 4096 x
# 1024 + o 4096 x 4096 + q/k norms 256 = 41,943,296, feed-forward 3 x 4096 x 12288 = 150,994,944,
# norms 8192: 192,946,432; x 36 = 6,946,071,552; + 4096 = 8,190,735,360 -> 8.191e9.
check_eq "catalog: Qwen3 8B has 8.191e9 parameters" "$(param qwen3-8b params)" 8191000000
# Phi-4 (untied): 2 x 100352 x 5120 = 1,027,604,480; a layer: qkv 5120 x (5120 + 2 x 1280) =
# 39,321,600, o 26,214,400, feed-forward 3 x 5120 x 17920 = 275,251,200, norms 10240:
# 340,797,440; x 40 = 13,631,897,600; + 5120 = 14,659,507,200 -> 14.660e9.
check_eq "catalog: Phi-4 has 14.660e9 parameters" "$(param phi-4 params)" 14660000000
# Mixtral 8x22B (untied): 2 x 32000 x 6144 = 393,216,000; a layer's attention 2 x 6144^2 + 2 x
# 6144 x 1024 = 88,080,384, router 6144 x 8 = 49,152, an expert 3 x 6144 x 16384 = 301,989,888,
# norms 12288.  All: 56 x (88,080,384 + 49,152 + 8 x 301,989,888 + 12,288) + 393,216,000 + 6144
# = 140,620,634,112 -> 140.621e9; active: 56 x (88,141,824 + 2 x 301,989,888) + 393,222,144 =
# 39,152,031,744 -> 39.152e9.
check_eq "catalog: Mixtral 8x22B has 140.621e9 parameters, 39.152e9 active" \
    "$(param mixtral-8x22b params) $(param mixtral-8x22b active_params)" "140621000000 39152000000"
# gpt-oss-120b (untied, biases): 2 x 201088 x 2880 = 1,158,266,880; a layer's attention q 2880 x
# 4096 + 4096, k and v 2 x (2880 x 512 + 512), o 4096 x 2880 + 2880, 64 sinks = 26,550,144;
# router 2880 x 128 + 128 = 368,768; an expert 2880 x 5760 + 5760 + 2880 x 2880 + 2880 =
# 24,891,840; norms 5760.  All: 36 x (26,550,144 + 368,768 + 128 x 24,891,840 + 5760) +
# 1,158,266,880 + 2880 = 116,829,156,672 -> 116.829e9 (OpenAI's 116.83B); active: 36 x
# (26,924,672 + 4 x 24,891,840) + 1,158,269,760 = 5,711,982,912 -> 5.712e9.
check_eq "catalog: gpt-oss-120b has 116.829e9 parameters, 5.712e9 active" \
    "$(param gpt-oss-120b params) $(param gpt-oss-120b active_params)" "116829000000 5712000000"
# Llama 4 Scout (untied): 2 x 202048 x 5120 = 2,068,971,520; a layer's attention 2 x 5120^2 + 2 x
# 5120 x 1024 = 62,914,560, router 5120 x 16 = 81,920, an expert (and the shared one) 3 x 5120 x
# 8192 = 125,829,120, norms 10240.  All: 48 x (62,914,560 + 81,920 + 17 x 125,829,120 + 10,240)
# + 2,068,971,520 + 5120 = 107,769,861,120 -> 107.770e9; active (1 routed + the shared expert):
# 48 x (63,006,720 + 2 x 125,829,120) + 2,068,976,640 = 17,172,894,720 -> 17.173e9.
check_eq "catalog: Llama 4 Scout has 107.770e9 parameters, 17.173e9 active" \
    "$(param llama-4-scout params) $(param llama-4-scout active_params)" "107770000000 17173000000"
# GPT-3 175B (tied, biases, learned positions): a layer 12 x 12288^2 + 13 x 12288 =
# 1,812,099,072; x 96 = 173,961,510,912; + 50257 x 12288 = 617,558,016 + 2048 x 12288 =
# 25,165,824 + final norm 24,576 = 174,604,259,328 -> 174.604e9 (the paper: 175.0B).
check_eq "catalog: GPT-3 175B has 174.604e9 parameters" "$(param gpt-3-175b params)" 174604000000
# DeepSeek-R1 is DeepSeek-V3's architecture: every figure the same but the source and note.
check_eq "catalog: DeepSeek-R1's architecture is DeepSeek-V3's, latent attention as 1 x 288" \
    "$(jq -c '[.models[] | select(.id == "deepseek-r1" or .id == "deepseek-v3") | [.params, .active_params, .layers, .hidden, .heads, .kv_heads, .head_dim, .ffn, .vocab, .context, .experts, .experts_active]] | unique | length' "$T/models.json")" 1

# ---- kb models shows the repo id ----
run "$GW" --kb "$KB" kb models
check_out "catalog: kb models shows each model's repo id" "meta-llama/Llama-4-Maverick-17B-128E"
check_eq "catalog: kb models' columns line up (the repo id starts where the header says)" \
    "$(printf '%s\n' "$OUT" | awk 'NR == 1 { at = index($0, "hugging face repo") } /^gpt-oss-20b / { print (substr($0, at) == "openai/gpt-oss-20b") }')" 1
check_out "catalog: a model without a repo id shows a dash" "2048  -"
run "$GW" --kb "$KB" kb models --format csv
check_out "catalog: kb models csv has the repo id" \
    "qwen3-8b,Qwen3 8B,8191000000,,36,8,128,40960,Qwen/Qwen3-8B,hf-qwen3-8b-config"

# ---- a field in the wrong table names where it belongs ----
# wl NAME BODY: a workload file $T/NAME.lua; BODY's fields come on the second line.
wl() {
    printf 'return {\n  %s,\n  hours_per_day = 8, horizon_months = 12, currency = "USD",\n  electricity = { price = 0.1 } }\n' "$2" >"$T/$1.lua"
}
wl toplevel 'model = "llama-3-8b", precision = "bf16"'
run "$GW" --kb "$KB" decide "$T/toplevel.lua"
check_rc "catalog: precision at the top level exits 65" 65
check_err "catalog: precision at the top level belongs in model" \
    "toplevel.lua:2: precision: unknown field at the top level; it belongs in model = { precision = ... }"
wl rank 'task = "finetune", model = "llama-3-8b", rank = 16'
run "$GW" --kb "$KB" decide "$T/rank.lua"
check_err "catalog: rank at the top level belongs in finetune, not 'did you mean task'" \
    "rank.lua:2: rank: unknown field at the top level; it belongs in finetune = { rank = ... }"
wl sharding 'model = { name = "llama-3-8b", sharding = "zero3" }'
run "$GW" --kb "$KB" decide "$T/sharding.lua"
check_err "catalog: sharding in model belongs at the top level" \
    "sharding.lua:2: model.sharding: unknown field in model; it belongs at the top level (sharding = ...)"
wl output 'task = "inference", model = "llama-3-8b", output_tokens = 100'
run "$GW" --kb "$KB" decide "$T/output.lua"
check_err "catalog: output_tokens at the top level belongs in inference" \
    "output.lua:2: output_tokens: unknown field at the top level; it belongs in inference = { output_tokens = ... }"
wl typo 'model = { name = "llama-3-8b", precison = "bf16" }'
run "$GW" --kb "$KB" decide "$T/typo.lua"
check_err "catalog: a typo still gets the nearest name" \
    "model.precison: unknown field (did you mean model.precision?)"
# Another tool's name for a field (vLLM's input_len, Hugging Face's per_device_train_batch_size,
# PEFT's lora_r: workload_fields.c's .also lists) is pointed to gpuwise's field and its table,
# wherever it was written; none of these is within two edits of any field's name.
wl isl 'task = "inference", model = "llama-3-8b", inference = { input_tokens = 1000, output_tokens = 100 }'
run "$GW" --kb "$KB" decide "$T/isl.lua"
check_rc "catalog: vLLM's input_tokens exits 65" 65
check_err "catalog: input_tokens is inference.context" \
    "isl.lua:2: inference.input_tokens: unknown field; gpuwise writes it in inference = { context = ... }"
wl hfbatch 'task = "finetune", model = "llama-3-8b", per_device_train_batch_size = 4'
run "$GW" --kb "$KB" decide "$T/hfbatch.lua"
check_err "catalog: Hugging Face's batch size is batch_per_gpu" \
    "hfbatch.lua:2: per_device_train_batch_size: unknown field; gpuwise writes it at the top level (batch_per_gpu = ...)"
wl lorar 'task = "finetune", model = { name = "llama-3-8b", lora_r = 8 }'
run "$GW" --kb "$KB" decide "$T/lorar.lua"
check_err "catalog: PEFT's lora_r, even inside model, is finetune.rank" \
    "lorar.lua:2: model.lora_r: unknown field; gpuwise writes it in finetune = { rank = ... }"
