-- Tests for a100-rental.lua: its items, and that it states the facts right.
local function text_of(p)
  local parts = {}
  for _, item in ipairs(p.items) do
    parts[#parts + 1] = item.question .. " " .. item.how_to_check
  end
  return table.concat(parts, "\n")
end

return {
  test_items_are_complete_and_unique = function(p)
    gw.test.checklist_items(p, 12)
  end,

  test_covers_the_switches = function(p)
    local text = text_of(p)
    for _, needle in ipairs({ "torch.backends.cuda.matmul.allow_tf32", "CUDA Graphs",
                              "nvidia-smi topo -m", "pin_memory=True", "num_workers",
                              "MIG Mode", "1g.10gb" }) do
      assert(text:find(needle, 1, true), "no mention of " .. needle)
    end
  end,

  test_repeats_no_wrong_claim = function(p)
    local text = text_of(p)
    -- NVLink is not an IP network, and `nvidia-smi ccs` shares nothing
    assert(not text:find("UDP", 1, true), "mentions UDP ports")
    assert(not text:find("30000", 1, true), "mentions port 30000")
    assert(not text:find("smi ccs", 1, true), "mentions nvidia-smi ccs")
    -- the smallest A100 80GB MIG profile is 1g.10gb, not 1g.5gb for the 80GB card
    assert(text:find("A100 80GB the smallest profile is 1g.10gb", 1, true))
    -- TORCH_CUDA_ARCH_LIST is mentioned only to say it does not pick the wheel
    assert(text:find("does not change which prebuilt wheel", 1, true))
  end,

  test_has_no_evaluate = function(p)
    assert(p.evaluate == nil, "automatic items are answered from `auto`")
  end,
}
