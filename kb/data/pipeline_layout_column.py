#!/usr/bin/env python3
"""Adds schema version 16's benchmark column (pipeline_layout) to kb/data/benchmarks.csv where
it is missing, and fills it, with a sentence of the note saying where the layout comes from, for
the Megatron Bridge 25.11 rows whose recipe states an uneven pipeline stage layout.  Run from
the repository root; running it again changes nothing.  Every other row keeps its fields, the
new one empty (the layers split evenly).

The layouts are Megatron's pipeline_model_parallel_layout notation, written from the recipes at
the 25.11 table's commit (00b7660be0254ac6f95f44164ddd0c3e9cc798ed):
- src/megatron/bridge/recipes/deepseek/deepseek_v3.py, pretrain_config's layout_map: for
  (PP, VP) = (16, 1), (8, 2) and (4, 4) the 16 chunks
  [embedding + 4 decoder], 14 x [4 decoder], [1 decoder + mtp x mtp_num_layers + loss];
  scripts/performance/configs/deepseek passes layout=None for B200 and GB200, so that entry
  holds.  mtp_num_layers is 1 unless set; the 25.11 table of the v0.2.1 release labels the
  B200 row "w/ MTP" and the GB200 rows "w/o MTP", whose published FLOPs a token (249 against
  the B200 row's 260) leave the MTP layer out: they ran with none.
- src/megatron/bridge/recipes/llama/llama3.py, llama31_405b_pretrain_config (which
  scripts/performance/configs/llama/llama31_llm_pretrain.py calls for every GPU):
  account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split, so the 126
  layers and the two count as 128 over PP x VP chunks: the first and the last hold one layer
  fewer.

    python3 kb/data/pipeline_layout_column.py
"""
import benchmark_columns

SOURCE = "megatron-bridge-perf-25-11"
RECIPES = ("the Megatron Bridge model recipes (megatron-bridge-recipes-25-11, "
           "src/megatron/bridge/recipes at the table's commit)")
DEEPSEEK = (f"{RECIPES}, deepseek_v3.py's layout_map for ({{pp}}, {{vp}}): the embedding and 4 "
            "layers, 14 chunks of 4 layers, then 1 layer{mtp} and the loss, chunk i on pipeline "
            "stage i mod {pp} (the performance recipe passes layout=None)")
LLAMA405 = (f"{RECIPES}, llama31_405b_pretrain_config: account_for_embedding_in_pipeline_split "
            "and account_for_loss_in_pipeline_split count the embedding and the loss as a layer "
            "each, 128 over the {chunks} chunks of PP{pp} x VP{vp}: the first and the last hold "
            "one of the 126 layers, the others two")

# (gpu, gpu_count, workload, precision): (pipeline_layout, sentence for the note)
ROWS = {
    ("b200", "256", "deepseek-v3", "fp8"): (
        "Etttt|(tttt|)*14tmL",
        "Pipeline layout: " + DEEPSEEK.format(pp=16, vp=1, mtp=", the MTP layer") +
        "; the last stage holds 1 layer, the MTP layer (a layer, its projection and its own "
        "output head) and the output head, more than the others' 4 layers."),
    ("gb200", "256", "deepseek-v3", "bf16"): (
        "Etttt|(tttt|)*14tL",
        "Pipeline layout: " + DEEPSEEK.format(pp=4, vp=4, mtp="") +
        ", without the MTP layer (\"w/o MTP\": mtp_num_layers 0; at the table's commit the "
        "recipe's default is 1, which the published 249 GFLOP a token rule out)."),
    ("gb200", "256", "deepseek-v3", "fp8"): (
        "",
        f"Pipeline layout: not stated; the layout_map of {RECIPES} has no entry for this row's "
        "PP8 x VP4 (its 16-chunk layouts serve PP16, PP8 x VP2 and PP4 x VP4), so the model "
        "splits the layers evenly."),
    ("h100-sxm5", "1024", "llama-3.1-405b", "fp8"): (
        "Et|(tt|)*62tL",
        "Pipeline layout: " + LLAMA405.format(chunks=64, pp=8, vp=8) + "."),
    ("b200", "128", "llama-3.1-405b", "fp8"): (
        "Et|(tt|)*62tL",
        "Pipeline layout: " + LLAMA405.format(chunks=64, pp=8, vp=8) + "."),
}


def main():
    benchmark_columns.fill(SOURCE, ("pipeline_layout",), ROWS)


if __name__ == "__main__":
    main()
