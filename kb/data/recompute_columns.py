#!/usr/bin/env python3
"""Adds schema version 15's benchmark columns (recompute, recompute_layers) to
kb/data/benchmarks.csv where they are missing, and fills them, with a sentence of the note
saying where each figure comes from, for the Megatron Bridge 25.11 rows whose performance recipe
states its activation recomputation.  Run from the repository root; running it again changes
nothing.  Every other row keeps its fields, the two new ones empty (not stated).

    python3 kb/data/recompute_columns.py
"""
import benchmark_columns

SOURCE = "megatron-bridge-perf-25-11"
RECIPES = ("Megatron Bridge performance recipes (megatron-bridge-perf-recipes-25-11, "
           "scripts/performance/configs at the table's commit)")

# (gpu, gpu_count, workload, precision): (recompute, recompute_layers, sentence for the note)
ROWS = {
    ("h100-sxm5", "8", "llama-3-8b", "fp8"): (
        "full", "5",
        f"Recomputation: the {RECIPES}, LLAMA3_8B_PRETRAIN_CONFIG_H100_FP8_CS_BASE_CONFIG, "
        "recompute_num_layers=5: 5 of the 32 layers recomputed in full (block method, one "
        "pipeline stage); the table's FSDP=1 is not in that recipe."),
    ("h100-sxm5", "64", "llama-3-70b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES} (H100 FP8-CS: TP4 PP8 VP5, the table's layout)."),
    ("h100-sxm5", "1024", "llama-3.1-405b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES} (H100 FP8-CS: TP8 PP8 CP2 VP8, the table's layout)."),
    ("b200", "8", "llama-3-8b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES} (B200 FP8-CS: MBS 2, CUDA graphs over the full "
        "iteration)."),
    ("b200", "128", "llama-3.1-405b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES} (B200 FP8-CS: TP4 PP8 CP2 VP8, the table's layout)."),
    ("gb200", "8", "llama-3-8b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES} (GB200 FP8-CS: MBS 2, CUDA graphs over the full "
        "iteration)."),
    ("gb200", "64", "llama-3-70b", "fp8"): (
        "none", "",
        f"Recomputation: none in the {RECIPES}; GB200 FP8-CS runs Megatron FSDP and offloads the "
        "activations of 40 layers to host memory (cpu_offloading_num_layers=40), which the "
        "model does not charge."),
    ("b200", "256", "deepseek-v3", "fp8"): (
        "selective", "",
        f"Recomputation: selective, the MLA up-projections (recompute_modules mla_up_proj) in the "
        f"{RECIPES}; the same recipe runs no CUDA graphs, the default all-to-all token "
        "dispatcher (the GB200 rows' recipe: HybridEP and CUDA graphs of the router) and no "
        "interleaved pipeline (VP 1 over 16 stages). The table of the v0.2.1 release "
        "(megatron-bridge-perf-25-11-v0-2-1) labels this row \"w/ MTP\": one multi-token "
        "prediction layer and its output head, which its published model TFLOP/s count (557 / "
        "2,139 = 260 GFLOP a token against 249 for the GB200 rows, \"w/o MTP\") and the model "
        "does not."),
    ("gb200", "256", "deepseek-v3", "bf16"): (
        "selective", "",
        f"Recomputation: selective, the MLA up-projections (recompute_modules mla_up_proj) in the "
        f"{RECIPES}, with the HybridEP token dispatcher and CUDA graphs of the MoE router; "
        "labelled \"w/o MTP\" in the v0.2.1 release's table."),
    ("gb200", "256", "deepseek-v3", "fp8"): (
        "selective", "",
        f"Recomputation: selective (every DeepSeek-V3 recipe sets recompute_granularity "
        f"selective, modules mla_up_proj) in the {RECIPES}, whose GB200 layout is PP4 EP64 "
        "where this row ran PP8 EP32; labelled \"w/o MTP\" in the v0.2.1 release's table."),
}


def main():
    benchmark_columns.fill(SOURCE, ("recompute", "recompute_layers"), ROWS)


if __name__ == "__main__":
    main()
