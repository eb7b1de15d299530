-- Tests for html-table.lua on a small page written in the usual shape of price pages.
local page = [[
<html><head><title>Tiny Cloud - Pricing</title></head><body>
<time datetime="2026-09-15">15 Sep</time>
<table>
  <tr><th>Plan</th><th>GPU type</th><th>GPUs</th><th>Price</th></tr>
  <tr><td>tiny-1</td><td>RTX 4090</td><td>1</td><td>€0.39 per hour</td></tr>
  <tr><td>tiny-2</td><td>RTX 4090</td><td>2</td><td>0.76 CHF</td></tr>
  <tr><td>tiny-x</td><td></td><td>1</td><td>€9</td></tr>
</table></body></html>]]

return {
  test_reads_rows_currencies_and_date = function(plugin)
    local offers = plugin.offers({ input = page, input_name = "tiny.html" })
    assert(#offers == 2, "expected 2 offers, got " .. #offers)
    assert(offers[1].provider == "Tiny Cloud - Pricing")
    assert(offers[1].price_per_hour == 0.39 and offers[1].currency == "EUR")
    assert(offers[2].gpu_count == 2 and offers[2].currency == "CHF")
    assert(offers[1].as_of == "2026-09-15" and offers[1].instance == "tiny-1")
  end,
}
