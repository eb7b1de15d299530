-- Tests for buy-vs-rent.lua.
return {
  test_items_are_complete_and_unique = function(p)
    gw.test.checklist_items(p, 11)
  end,

  test_asks_the_deciding_questions = function(p)
    local ids = {}
    for _, item in ipairs(p.items) do ids[item.id] = true end
    for _, id in ipairs({ "daily-hours", "project-length", "staff", "data-rules" }) do
      assert(ids[id], "no item " .. id)
    end
  end,
}
