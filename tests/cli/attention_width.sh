#!/bin/sh
# tests/cli/attention_width.sh — a model's attention width where it is not its cache's (model
# attention_head_dim, schema 16): DeepSeek-V3 and R1's latent attention is written as 1 KV head
# of 288 values for its cache, while its products run over 192 (q.k) and 128 (scores.v) values a
# head, 160 on average.  Training and prompts count attention over 160; a decode step runs the
# absorbed form (model decode_attention_head_dim: q.k over the cached 512 + 64, scores.v over
# the 512-value latent, 544 on average) and reads the cache's 576 values; a model without the
# columns counts head_dim as before.  The columns are checked at import (one line naming the
# file, line and problem, exit 65, the KB unchanged), survive export and import, and an upgraded
# KB has them.
. "$ROOT/tests/cli/lib.sh"

# ---- the catalog: only the two latent-attention models state it ----
run "$GW" --json kb models
check_rc "kb models --json" 0
check_eq "DeepSeek-V3 and R1 state 160 (config.json: (128 + 64 + 128) / 2); every other model none" \
    "$(jqr '[.models[] | select(.attention_head_dim != null) | "\(.id)=\(.attention_head_dim)"] | sort | join(" ")')" \
    "deepseek-r1=160 deepseek-v3=160"
check_eq "DeepSeek-V3 and R1 state a decode width of 544 ((512 + 64 + 512) / 2); every other model none" \
    "$(jqr '[.models[] | select(.decode_attention_head_dim != null) | "\(.id)=\(.decode_attention_head_dim)"] | sort | join(" ")')" \
    "deepseek-r1=544 deepseek-v3=544"

# ---- training: 6 x active + 3 x 4 x layers x sequence x heads x 160 ----
# DeepSeek-V3 at 4,096 tokens: 6 x 37e9 = 222e9; attention 3 x 4 x 61 x 4,096 x 128 x 160 =
# 61,404,610,560; 283,404,610,560 a token (over the cache's 288 it counted 110,528,299,008 of
# attention: 332,528,299,008).  Its training state does not fit one machine's GPUs: no option is
# feasible (exit 3), the figures are still computed.
wl dstrain 'task = "train", model = { name = "deepseek-v3", precision = "bf16", optimizer = "adamw" }, sequence_length = 4096, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
run "$GW" decide "$T/dstrain.lua" --json
check_rc "DeepSeek-V3 pre-training: no option holds its state (exit 3)" 3
check_eq "DeepSeek-V3 pre-training: attention 3 x 4 x 61 x 4096 x 128 x 160" \
    "$(jqr '.llm.speed_terms.attention_flops_per_token')" 61404610560
check_eq "DeepSeek-V3 pre-training: 6 x 37e9 + attention = 283,404,610,560 FLOPs a token" \
    "$(jqr '.llm.speed_terms.flops_per_token')" 283404610560
check_eq "the method's attention line names both widths" \
    "$(jqr '.method.llm_terms[0] | test("head size: 160, the mean width a head.s q.k and scores.v run over; not 288, the cache.s")')" true

# ---- a prompt at 160, a decode step at the cache's 288 ----
# 1,000 tokens in: 2 x 37e9 x 1,000 = 74 TFLOP + 1,000 x 4 x 61 x 1,000 x 128 x 160 = 4.99712
# TFLOP of attention: 78.99712 TFLOP (over 288: 8.99482 of attention, 82.99482).
wl dsserve 'task = "inference", model = { name = "deepseek-v3", precision = "fp4" }, inference = { context = 1000, output_tokens = 2000, concurrency = 1 }, candidates = { "rent:b200" }'
run "$GW" decide "$T/dsserve.lua" --json
check_rc "DeepSeek-V3 serving decides" 0
check_eq "DeepSeek-V3 prompt: attention 1000 x 4 x 61 x 1000 x 128 x 160" \
    "$(jqr '.llm.speed_terms.prefill_attention_flops')" 4997120000000
check_eq "DeepSeek-V3 prompt: 74 + 4.99712 TFLOP" "$(jqr '.llm.speed_terms.prefill_flops')" 78997120000000
check_eq "the serving method says the prompt's, a decode step's and the cache's widths" \
    "$(jqr '.method.llm_terms[0] | test("the prompt.s 160, .*; a decode step.s 544, the absorbed form.s over the cached latent \\(deepseek-v2-paper\\); 288, the cache.s")')" true
check_eq "the absorbed form's source is cited" \
    "$(jqr '[.citations[] | select(.id == "deepseek-v2-paper")] | length')" 1
# A decode step at concurrency 1 attends to 1,000 + 2,000 / 2 = 2,000 positions on average:
# 2 x 37e9 + 4 x 61 x 2,000 x 128 x 544 = 74e9 + 33,980,416,000 = 107.98 GFLOP (over the
# cache's 288: 74e9 + 17,989,632,000 = 91.99); its bytes are the cache's as before.
check_eq "a decode step's attention over 544: 33,980,416,000 a sequence" \
    "$(jqr '.llm.speed_terms.decode_attention_flops_per_token')" 33980416000
check_out "a decode step's FLOPs over 544: 107.98, said as 108 GFLOP" "108 GFLOP at"
wl dsserve288 'task = "inference", model = { name = "deepseek-v3", precision = "fp4", decode_attention_head_dim = 288 }, inference = { context = 1000, output_tokens = 2000, concurrency = 1 }, candidates = { "rent:b200" }'
run "$GW" decide "$T/dsserve288.lua" --json
check_eq "a decode width given in the workload replaces the catalog's: 17,989,632,000" \
    "$(jqr '.llm.speed_terms.decode_attention_flops_per_token')" 17989632000
check_out "a decode step's FLOPs over 288: 91.99, said as 92 GFLOP" "92 GFLOP at"
check_eq "a decode width equal to the cache's is not said" \
    "$(jqr '.method.llm_terms[0] | test("absorbed")')" false
wl dsbad 'task = "inference", model = { name = "deepseek-v3", decode_attention_head_dim = -1 }, inference = { context = 1000, output_tokens = 2000, concurrency = 1 }, candidates = { "rent:b200" }'
run "$GW" decide "$T/dsbad.lua"
check_rc "a negative decode width in the workload: exit 65" 65
check_err "a negative decode width names the field" "model.decode_attention_head_dim"

# ---- a model without the column, and a width given by hand ----
# Llama 3 8B at 4,096: 3 x 4 x 32 x 4,096 x 32 x 128 = 6,442,450,944, as before; given
# model.attention_head_dim = 64, half: 3,221,225,472.
wl l8 'task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw" }, sequence_length = 4096, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
run "$GW" decide "$T/l8.lua" --json
check_eq "Llama 3 8B: attention over head_dim, 6,442,450,944" \
    "$(jqr '.llm.speed_terms.attention_flops_per_token')" 6442450944
check_out_not "Llama 3 8B: no second width in the method" "the mean width a head"
# serving, a model without the decode column: 1,000 tokens in and 2,000 out attend to 2,000
# positions on average, 4 x 32 x 2,000 x 32 x 128 = 1,048,576,000 a sequence, over head_dim
wl l8serve 'task = "inference", model = { name = "llama-3-8b", precision = "bf16" }, inference = { context = 1000, output_tokens = 2000, concurrency = 1 }, candidates = { "rent:h100-sxm5" }'
run "$GW" decide "$T/l8serve.lua" --json
check_eq "Llama 3 8B: a decode step over head_dim, 1,048,576,000" \
    "$(jqr '.llm.speed_terms.decode_attention_flops_per_token')" 1048576000
check_out_not "Llama 3 8B serving: no decode width in the method" "absorbed form"
wl l8w 'task = "train", model = { name = "llama-3-8b", precision = "bf16", optimizer = "adamw", attention_head_dim = 64 }, sequence_length = 4096, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
run "$GW" decide "$T/l8w.lua" --json
check_eq "a width given in the workload replaces the catalog's: 3,221,225,472" \
    "$(jqr '.llm.speed_terms.attention_flops_per_token')" 3221225472
wl l8bad 'task = "train", model = { name = "llama-3-8b", attention_head_dim = 0 }, sequence_length = 4096, work = { tokens = 1e9 }, candidates = { "rent:h100-sxm5" }'
run "$GW" decide "$T/l8bad.lua"
check_rc "a width of 0 in the workload: exit 65" 65
check_err "a width of 0 names the field" "model.attention_head_dim"

# ---- import: a width that is not a positive number is one line naming the file, line and problem
HEADER=$(head -1 "$ROOT/kb/data/models.csv")
model_row() {   # WIDTH [DECODE_WIDTH]: a small latent-attention model with those widths
    printf '%s\n%s\n' "$HEADER" "tiny-mla,Tiny MLA,Test,1e9,,4,1024,8,1,96,4096,32000,4096,,,deepseek-v3-paper,an attention width test,,$1,${2:-}"
}
KB=$(fresh_kb import)
before=$("$GW" --kb "$KB" kb export | cksum)
refused() {   # NAME WIDTH DECODE_WIDTH COLUMN MESSAGE
    model_row "$2" "$3" >"$T/bad.csv"
    run "$GW" --kb "$KB" kb import "$T/bad.csv"
    check_rc "$1: exit 65" 65
    check_eq "$1: one line naming the file, line and problem" "$ERR" \
        "gpuwise kb import: $T/bad.csv:2: $4: $5"
    check_eq "$1: the KB unchanged" "$("$GW" --kb "$KB" kb export | cksum)" "$before"
}
refused "a negative width" -160 "" attention_head_dim "must not be negative"
refused "a width of 0" 0 "" attention_head_dim "must be greater than 0"
refused "a width that is no number" wide "" attention_head_dim "'wide' is not a number"
refused "a negative decode width" 80 -544 decode_attention_head_dim "must not be negative"
refused "a decode width of 0" 80 0 decode_attention_head_dim "must be greater than 0"
refused "a decode width that is no number" 80 wide decode_attention_head_dim "'wide' is not a number"

# ---- export and import round-trip it ----
model_row 80 272 >"$T/good.csv"
run "$GW" --kb "$KB" kb import "$T/good.csv"
check_rc "positive widths import" 0
run "$GW" --kb "$KB" kb export
check_out "export writes them after hf_repo" "deepseek-v3-paper,an attention width test,,80,272"
printf '%s\n' "$OUT" >"$T/export.txt"
KB2=$(fresh_kb import2)
sqlite3 "$KB2" "UPDATE model SET attention_head_dim = NULL, decode_attention_head_dim = NULL"
run "$GW" --kb "$KB2" kb import "$T/export.txt"
check_rc "the export imports" 0
check_eq "the export imports to the same KB" "$("$GW" --kb "$KB2" kb export | cksum)" \
    "$(cksum <"$T/export.txt")"

# ---- an upgraded KB has the column (version 16), empty until the catalog is imported ----
sqlite3 "$T/v2.db" <"$FIX/kb/v2.sql"
run "$GW" --kb "$T/v2.db" kb upgrade
check_rc "a version 2 KB upgrades" 0
check_eq "the upgraded KB exports the model's version 12 and 16 columns" \
    "$("$GW" --kb "$T/v2.db" kb export | sed -n '/^# models.csv$/{n;p;}')" \
    "id,name,family,params,active_params,layers,hidden,heads,kv_heads,head_dim,ffn,vocab,context,experts,experts_active,source,note,hf_repo,attention_head_dim,decode_attention_head_dim"
