/* test_pipeline_layout.c — a training row's pipeline stage layout: Megatron's notation read
 * into stages (repeats, groups, commas, virtual chunks folded onto physical stages), each
 * malformed layout refused with where and why, and what the model charges for one (the heaviest
 * stage over the mean, an MTP layer's FLOPs) against hand calculations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kb/kb_layout.h"
#include "model/model.h"

/* The catalog's figures (kb/data/models.csv): params, active, layers, hidden, heads, KV heads,
 * head size, vocabulary, feed-forward width, experts, the attention products' width and a
 * decode step's (NaN: the head size), the experts a token is routed to. */
static const model_llm llama3_8b = {8.030261248e9, 8.030261248e9, 32, 4096, 32, 8, 128, 128256,
                                    14336, NAN, NAN, NAN, NAN};
static const model_llm deepseek_v3 = {671e9, 37e9, 61, 7168, 128, 1, 288, 129280, 2048, 256,
                                      160, 544, 8};

static void stage_is(const kb_layout_stage *s, int embedding, int layers, int mtp, int loss)
{
    assert_int_equal(s->embedding, embedding);
    assert_int_equal(s->layers, layers);
    assert_int_equal(s->mtp, mtp);
    assert_int_equal(s->loss, loss);
}

static void reads_megatron_notation(void **state)
{
    (void)state;
    kb_layout *l = calloc(1, sizeof *l);
    char why[300];
    /* DeepSeek-V3's (16, 1) layout of its recipe: E + 4 layers, 14 x 4 layers, 1 layer + MTP +
     * loss: 16 stages, 61 layers. */
    assert_int_equal(kb_layout_parse("Etttt|(tttt|)*14tmL", l, why, sizeof why), 0);
    assert_int_equal(l->stages, 16);
    stage_is(&l->stage[0], 1, 4, 0, 0);
    for (int i = 1; i < 15; i++)
        stage_is(&l->stage[i], 0, 4, 0, 0);
    stage_is(&l->stage[15], 0, 1, 1, 1);
    /* "t*4" is "tttt": the same layout. */
    assert_int_equal(kb_layout_parse("Et*4|(t*4|)*14tmL", l, why, sizeof why), 0);
    assert_int_equal(l->stages, 16);
    stage_is(&l->stage[15], 0, 1, 1, 1);
    /* Nested groups: Et, then (tt|) x 2 x 3 = 6 stages of 2, then tL: 8 stages. */
    assert_int_equal(kb_layout_parse("Et|((tt|)*2)*3tL", l, why, sizeof why), 0);
    assert_int_equal(l->stages, 8);
    stage_is(&l->stage[0], 1, 1, 0, 0);
    stage_is(&l->stage[6], 0, 2, 0, 0);
    stage_is(&l->stage[7], 0, 1, 0, 1);
    /* Megatron's own example, commas dropped: Ettt, 29 x tt, m, L: 32 stages. */
    assert_int_equal(kb_layout_parse("Ettt|(tt|)*29,m|L", l, why, sizeof why), 0);
    assert_int_equal(l->stages, 32);
    stage_is(&l->stage[30], 0, 0, 1, 0);
    stage_is(&l->stage[31], 0, 0, 0, 1);
    /* Only whether it reads, out NULL. */
    assert_int_equal(kb_layout_parse("Et|tL", NULL, NULL, 0), 0);
    free(l);
}

static void folds_virtual_chunks(void **state)
{
    (void)state;
    kb_layout *l = calloc(1, sizeof *l);
    kb_layout_stage physical[4];
    /* The GB200 rows' PP4 x VP4 without MTP: chunk i on stage i mod 4.  Stage 0 holds chunks
     * 0, 4, 8, 12: E + 4 + 4 + 4 + 4 = E + 16 layers; stages 1 and 2 16 layers; stage 3 chunks
     * 3, 7, 11, 15: 4 + 4 + 4 + (1 + L) = 13 layers and the loss. */
    assert_int_equal(kb_layout_parse("Etttt|(tttt|)*14tL", l, NULL, 0), 0);
    kb_layout_fold(l, 4, physical);
    stage_is(&physical[0], 1, 16, 0, 0);
    stage_is(&physical[1], 0, 16, 0, 0);
    stage_is(&physical[2], 0, 16, 0, 0);
    stage_is(&physical[3], 0, 13, 0, 1);
    free(l);
}

/* text is refused with a message that contains `part`. */
static void refused(const char *text, const char *part)
{
    char why[300] = "";
    assert_int_equal(kb_layout_parse(text, NULL, why, sizeof why), -1);
    if (!strstr(why, part))
        fail_msg("'%s': \"%s\" lacks \"%s\"", text, why, part);
}

static void refuses_malformed_layouts(void **state)
{
    (void)state;
    refused("Etx|L", "'x' is not a stage symbol");
    refused("Etx|L", "at character 3");
    refused("E(t|", "a '(' never closed at character 2");
    refused("Et)*2", "a ')' without its '(' at character 3");
    refused("E(t|)L", "without its repeat '*N'");
    refused("Et*", "'*' without a count at character 3");
    refused("Et*0", "a repeat of 0");
    refused("Et*10000", "a repeat above 9999");
    refused("Et||tL", "an empty stage (stage 2)");
    refused("Et|tL|", "an empty stage (stage 3)");
    refused("tE|L", "E (the embedding) not at the start of the first stage");
    refused("Et|L|t", "L (the loss) before the last stage (stage 2)");
    refused("EtLt", "a symbol after L");
    refused("m|L", "no transformer layer");
    refused("", "an empty layout");
    refused("Et t", "' ' is not a stage symbol");
    /* 9,999 x 9,999 symbols are refused, not written out. */
    refused("(t*9999|)*9999", "expands past 8192 symbols");
    refused("((((((((((t|)*2)*2)*2)*2)*2)*2)*2)*2)*2)*2", "nested more than 8 deep");
}

static void charges_the_heaviest_stage(void **state)
{
    (void)state;
    /* Llama 3 8B at 256 tokens a sequence, in model_llm_train_flops_per_token's units:
     *   a layer: (6 x (8,030,261,248 - 2 x 128,256 x 4,096) + 3 x 4 x 32 x 256 x 32 x 128) / 32
     *          = (41,877,528,576 + 402,653,184) / 32 = 1,321,255,680;
     *   the output head: 6 x 128,256 x 4,096 = 3,152,019,456;
     *   an MTP layer: a layer + 6 x 2 x 4,096^2 (201,326,592) + a head = 4,674,601,728.
     * "Et*16|t*16L": 16 layers = 21,140,090,880 against 16 layers and the head =
     * 24,292,110,336; mean 22,716,100,608: imbalance 1.0693785. */
    kb_layout_stage two[2] = {{1, 16, 0, 0}, {0, 16, 0, 1}};
    assert_float_equal(model_llm_stage_flops(&llama3_8b, &two[0], 256), 21140090880.0, 1);
    assert_float_equal(model_llm_stage_flops(&llama3_8b, &two[1], 256), 24292110336.0, 1);
    assert_float_equal(model_llm_mtp_flops(&llama3_8b, 256), 4674601728.0, 1);
    assert_float_equal(model_llm_stage_imbalance(&llama3_8b, two, 2, 256), 1.0693785, 1e-6);
    /* An even split: 1; stages holding nothing: NaN. */
    kb_layout_stage even[2] = {{1, 16, 0, 0}, {0, 16, 0, 0}};
    assert_float_equal(model_llm_stage_imbalance(&llama3_8b, even, 2, 256), 1, 1e-12);
    kb_layout_stage none[1] = {{1, 0, 0, 0}};
    assert_true(isnan(model_llm_stage_imbalance(&llama3_8b, none, 1, 256)));
    /* DeepSeek-V3 at 4,096 tokens (multi-head latent attention written as 128 heads of 288 for
     * its cache; its attention's products run over (192 + 128) / 2 = 160 a head, the catalog's
     * attention_head_dim: before it the layer counted 4 x 288, 1.8 times the work, which made
     * the last stage's head and MTP layer look lighter beside four layers, 1.0531334):
     *   a layer: (6 x (37e9 - 2 x 129,280 x 7,168) + 3 x 4 x 61 x 4,096 x 128 x 160) / 61
     *          = (210,879,851,520 + 61,404,610,560) / 61 = 4,463,679,706.2;
     *   the head 6 x 129,280 x 7,168 = 5,560,074,240; MTP: + 6 x 2 x 7,168^2 (616,562,688)
     *   = 10,640,316,634.2.
     * The B200 row's PP16 (Etttt|(tttt|)*14tmL): 15 stages of 4 layers (17,854,718,824.9) and
     * the last, 1 layer + MTP + head = 20,664,070,580.5; mean (15 x 17,854,718,824.9 +
     * 20,664,070,580.5) / 16 = 18,030,303,309.6: imbalance 1.1460745. */
    kb_layout_stage b200[16];
    for (int i = 0; i < 15; i++)
        b200[i] = (kb_layout_stage){i == 0, 4, 0, 0};
    b200[15] = (kb_layout_stage){0, 1, 1, 1};
    assert_float_equal(model_llm_stage_imbalance(&deepseek_v3, b200, 16, 4096), 1.1460745, 1e-6);
    assert_float_equal(model_llm_mtp_flops(&deepseek_v3, 4096), 10640316634.2, 1);
    /* GB200's PP4 x VP4 without MTP, folded: 16, 16, 16 layers (71,418,875,299.7) and 13 + the
     * head (63,587,910,421.0): imbalance 71.419 / 69.461 = 1.0281847 (1.0313391 at 288: the
     * head now stands for more of the 13-layer stage's gap). */
    kb_layout_stage gb200[4] = {{1, 16, 0, 0}, {0, 16, 0, 0}, {0, 16, 0, 0}, {0, 13, 0, 1}};
    assert_float_equal(model_llm_stage_imbalance(&deepseek_v3, gb200, 4, 4096), 1.0281847, 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_megatron_notation),
        cmocka_unit_test(folds_virtual_chunks),
        cmocka_unit_test(refuses_malformed_layouts),
        cmocka_unit_test(charges_the_heaviest_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
