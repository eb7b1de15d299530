-- Tests for buy-vs-rent.lua.
return {
  test_items_are_complete_and_unique = function(p)
    local seen = {}
    for i, item in ipairs(p.items) do
      assert(not seen[item.id], "duplicate id " .. item.id)
      seen[item.id] = true
      for _, f in ipairs({ "id", "question", "how_to_check", "severity" }) do
        assert(type(item[f]) == "string" and #item[f] > 0, "item " .. i .. " lacks " .. f)
      end
    end
    assert(#p.items == 11, "expected 11 items, got " .. #p.items)
  end,

  test_asks_the_deciding_questions = function(p)
    local ids = {}
    for _, item in ipairs(p.items) do ids[item.id] = true end
    for _, id in ipairs({ "daily-hours", "project-length", "staff", "data-rules" }) do
      assert(ids[id], "no item " .. id)
    end
  end,
}
