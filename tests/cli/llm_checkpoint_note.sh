#!/bin/sh
# tests/cli/llm_checkpoint_note.sh — a training workload that asks for full activation
# checkpointing while its recommendation would fit without it is told what the setting costs:
# the memory without it and how much faster it would train (the recomputed forward pass).
. "$ROOT/tests/cli/lib.sh"

# llm-pretrain: Llama-3-style 8B (8.030e9 parameters, 32 layers, 32 heads of 128, so attention
# 12 x 32 x 8,192 x 4,096 = 12.885e9 FLOPs a token at 8,192 tokens) on 8 H100 with ZeRO-3.
# With checkpointing a token costs 8 x 8.030e9 + 16 x 32 x 8,192 x 4,096 = 64.240e9 + 17.180e9 =
# 81.420e9 FLOPs; without, 6 x 8.030e9 + 12.885e9 = 61.065e9: 81.420 / 61.065 = 1.33 times as
# fast, 1 - 61.065 / 81.420 = 25% fewer GPU-hours a token.  Its memory without checkpointing,
# 69.4 GB, is under the H100's 85.5 GB (81,559 MiB).  The note is the recommendation's: at 60 days
# nothing is recommended since the workload's calibration reads torchtitan's FSDP rows (8 H100 at
# 35,993 tokens/s miss the 38,580 the deadline needs, and every 16-GPU price is held back:
# examples/README.md), so the pod of 8 H100 is recommended here at 75 days.
sed 's/deadline_days = 60/deadline_days = 75/' "$ROOT/examples/llm-pretrain.lua" >"$T/pretrain.lua"
run "$GW" decide "$T/pretrain.lua" --json
check_rc "checkpoint note: llm-pretrain exit 0" 0
check_eq "checkpoint note: llm-pretrain's memory says what checkpointing costs" \
    "$(jqr '.llm.memory_text | test("; it would fit without activation checkpointing \\(69\\.[0-9] GB\\) and train 1\\.33 times as fast, 25% fewer GPU-hours a token: the workload asks for checkpointing, its memory does not need it$")')" true

# Without checkpointing asked for, nothing is said.
sed 's/activation_checkpointing = true,/activation_checkpointing = false,/' \
    "$T/pretrain.lua" >"$T/pretrain-off.lua"
run "$GW" decide "$T/pretrain-off.lua" --json
check_rc "checkpoint note: without checkpointing, exit 0" 0
check_eq "checkpoint note: without checkpointing, no note" \
    "$(jqr '.llm.memory_text | test("without activation checkpointing")')" false

# Where memory needs it no note is given.  Without checkpointing, 1 sequence a GPU needs 69.4 GB
# = (2.01 + 2.01 + 12.04 + A) x 1.10 + 1, so its activations A = 68.4 / 1.10 - 16.06 = 46.12 GB;
# 2 sequences double them: (16.06 + 92.24) x 1.10 + 1 = 120.1 GB, over the H100's 85.5; with
# checkpointing, 35.5 GB fits.
sed 's/batch_per_gpu = 1,/batch_per_gpu = 2,/' "$T/pretrain.lua" >"$T/pretrain-2.lua"
run "$GW" decide "$T/pretrain-2.lua" --json
check_rc "checkpoint note: 2 sequences a GPU, exit 0" 0
check_eq "checkpoint note: 2 sequences a GPU fit only with checkpointing: no note" \
    "$(jqr '[(.llm.memory_text | test("without activation checkpointing")), (.llm.memory_text | startswith("35.5 GB per GPU"))] | map(tostring) | join(" ")')" "false true"

# Where nothing is recommended, the hint names the checkpointing that keeps the pod of 8 from
# the deadline.  At 60 days every feasible option is held back (examples/README.md); RunPod's
# 8 H100, its price current, need 1,508.0 h of running against 1,440 h: short on time alone.
# Without checkpointing (69.4 GB of 85.5 fits) a token's FLOPs are 61.065 / 81.420 of them:
# 25% fewer (1.3333 times fewer).  Each GPU then computes 1.3333 times the tokens at the same utilisation,
# but the data-parallel exchange of the 8 takes as long as before, so the pod trains 48,272.2 /
# 36,839.7 = 1.3103 times as fast (examples/README.md's llm-pretrain derivation: 48,272 tokens/s
# without checkpointing), 1,508.04 / 1.3103 = 1,150.9 h: about 1,151 h, within 1,440; its bill,
# USD 32,452.94 for the 1,508.04 h at USD 21.52 an hour, / 1.3103 = USD 24,767.
run "$GW" decide "$ROOT/examples/llm-pretrain.lua" --json
check_rc "checkpoint hint: llm-pretrain at 60 days decides, nothing recommended" 0
check_eq "checkpoint hint: the no-recommendation words name the setting and the pod that would make it" \
    "$(jqr '.no_recommendation.text | test("; the workload.s activation checkpointing is what keeps rent 8x NVIDIA H100 SXM5 80GB \\(RunPod\\) from the deadline: without it \\(activation_checkpointing = false; the model puts its memory at 69\\.4 GB per GPU of 85\\.5: check it with a short run\\) a token computes 25% fewer FLOPs, the forward pass no longer recomputed, so at the same utilisation, its data-parallel exchange unchanged, it would train 1\\.31 times as fast and finish in about 1,151 h of the 1,440 available, for about \\$24,767$")')" true
# The pod's own exclusion says its band reaches the deadline: 36,839.7 tokens/s, band +/- 15.71%
# (the Hopper rows' leave-one-out at the 80th percentile), top 36,839.7 x 1.1571 = 42,626; at it
# the run takes 1,508.04 / 1.1571 = 1,303 h, within the 1,440.
check_eq "checkpoint hint: the pod's miss is within its band, said so" \
    "$(jqr '.options[] | select(.id == "rent:RunPod:8x H100 SXM (Community Cloud):8x h100-sxm5") | .excluded_because')" \
    "needs 1,508 h of running; 1,440 h are available (24 h a day for 60 days, the deadline); at its speed band's top it needs 1,303 h: within the model's error, a short run decides"
# Asked for without checkpointing, that pod is recommended and no hint is given.
sed 's/activation_checkpointing = true,/activation_checkpointing = false,/' \
    "$ROOT/examples/llm-pretrain.lua" >"$T/pretrain60-off.lua"
run "$GW" decide "$T/pretrain60-off.lua" --json
check_eq "checkpoint hint: without checkpointing, the pod of 8 is recommended, no hint" \
    "$(jqr '[.recommendation.option, .no_recommendation] | map(tostring) | join("|")')" \
    "rent:RunPod:8x H100 SXM (Community Cloud):8x h100-sxm5|null"
# ... and its hours are the hint's: the hint runs the decision's own speed path.
check_num "checkpoint hint: the decision without checkpointing needs the hint's 1,150.9 h" \
    "$(jqr '.options[] | select(.id == "rent:RunPod:8x H100 SXM (Community Cloud):8x h100-sxm5") | .hours_needed')" 1150.9 0.1
