-- Tests for used-card.lua: the shape of its items and what evaluate() says.
local function inspection(checks)
  local list = {}
  for id, c in pairs(checks) do
    list[#list + 1] = { id = id, status = c[1], message = c[2] }
  end
  return { source = "test.xml", gpus = { { name = "NVIDIA GeForce RTX 3090", checks = list } } }
end

local function find(answers, id)
  for _, a in ipairs(answers) do
    if a.id == id then return a end
  end
end

return {
  test_items_are_complete_and_unique = function(p)
    -- 3 ask + 5 look + 11 automatic + 4 run, each in a section
    gw.test.checklist_items(p, 23, { "section" })
  end,

  test_automatic_items_name_inspect_checks = function(p)
    local checks = {
      ["identity.name"] = true, ["identity.memory_total"] = true, ["memory.ecc_errors"] = true,
      ["memory.retired_pages"] = true, ["memory.remapped_rows"] = true,
      ["thermal.temperature"] = true, ["thermal.clock_reasons"] = true,
      ["thermal.power_limit"] = true, ["thermal.fan"] = true, ["bus.pcie_link"] = true,
      ["software.vbios"] = true,
    }
    local automatic = 0
    for _, item in ipairs(p.items) do
      if item.auto then
        assert(checks[item.auto], item.id .. ": no inspect check " .. item.auto)
        automatic = automatic + 1
      end
    end
    assert(automatic == 11, "expected 11 automatic items, got " .. automatic)
  end,

  test_mining_signs_together_fail = function(p)
    local answers = p.evaluate(inspection({
      ["thermal.power_limit"] = { "WARN", "the power limit was lowered from its default 350 W to 250 W" },
      ["thermal.fan"] = { "WARN", "fan at 100% while the card is idle" },
      ["bus.pcie_link"] = { "PASS", "gen 4 x16" },
    }))
    local a = find(answers, "look-mining-signs")
    assert(a, "no answer for look-mining-signs")
    assert(a.status == "FAIL", "two signs should FAIL, got " .. a.status)
    assert(a.answer:find("power limit lowered", 1, true), a.answer)
    assert(a.answer:find("fan high at idle", 1, true), a.answer)
  end,

  test_one_sign_warns = function(p)
    local answers = p.evaluate(inspection({
      ["thermal.power_limit"] = { "PASS", "limit 350 W, at its default" },
      ["bus.pcie_link"] = { "WARN", "the link runs x4 of x16 under load" },
    }))
    local a = find(answers, "look-mining-signs")
    assert(a and a.status == "WARN", "one sign should WARN")
  end,

  test_a_raised_limit_is_not_a_mining_sign = function(p)
    local answers = p.evaluate(inspection({
      ["thermal.power_limit"] = { "WARN", "the power limit was raised from its default 320 W to 336 W" },
    }))
    assert(#answers == 0, "a raised limit gave " .. #answers .. " answers")
  end,

  test_healthy_card_gives_no_answers = function(p)
    local answers = p.evaluate(inspection({
      ["thermal.power_limit"] = { "PASS", "limit 350 W" }, ["thermal.fan"] = { "PASS", "fan at 30%" },
    }))
    assert(#answers == 0)
    assert(#p.evaluate({ gpus = {} }) == 0, "an empty inspection gives no answers")
  end,
}
