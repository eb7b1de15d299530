-- Tests for html-table.lua on small pages written in the usual shapes of price pages.
local page = [[
<html><head><title>Tiny Cloud - Pricing</title><meta name="provider" content="Tiny Cloud"></head><body>
<time datetime="2026-09-15">15 Sep</time>
<table>
  <tr><th>Plan</th><th>GPU type</th><th>GPUs</th><th>Price</th></tr>
  <tr><td>tiny-1</td><td>RTX 4090</td><td>1</td><td>€0.39 per hour</td></tr>
  <tr><td>tiny-2</td><td>RTX 4090</td><td>2</td><td>0.76 CHF</td></tr>
  <tr><td>tiny-x</td><td></td><td>1</td><td>€9</td></tr>
</table></body></html>]]

local per_gpu = [[
<html><head><title>Rent GPUs cheaply | Example GmbH</title></head><body>
<table>
  <tr><th>Instance</th><th>GPU</th><th>GPUs</th><th>Price per GPU/h</th><th>Spot per GPU/h</th></tr>
  <tr><td>x8</td><td>H100 SXM</td><td>8</td><td>EUR 2,19</td><td>EUR 0,99</td></tr>
  <tr><td>x1</td><td>RTX 4090</td><td>1</td><td>1.299,00 €</td><td></td></tr>
</table></body></html>]]

return {
  test_reads_rows_currencies_and_date = function(plugin)
    local offers = plugin.offers({ input = page, input_name = "tiny.html" })
    assert(#offers == 2, "expected 2 offers, got " .. #offers)
    assert(offers[1].provider == "Tiny Cloud")
    assert(offers[1].price_per_hour == 0.39 and offers[1].currency == "EUR")
    assert(offers[2].gpu_count == 2 and offers[2].currency == "CHF")
    assert(offers[1].as_of == "2026-09-15" and offers[1].instance == "tiny-1")
  end,
  test_per_gpu_prices_and_decimal_commas = function(plugin)
    local offers = plugin.offers({ input = per_gpu, input_name = "eu.html", provider = "Example" })
    -- x8: 8 x EUR 2.19 = 17.52 on demand, 8 x 0.99 = 7.92 spot; x1: "1.299,00" on a page of
    -- decimal commas is 1299 (a dot before three digits groups thousands)
    assert(#offers == 3, "expected 3 offers, got " .. #offers)
    assert(math.abs(offers[1].price_per_hour - 17.52) < 1e-9 and offers[1].currency == "EUR")
    assert(math.abs(offers[2].price_per_hour - 7.92) < 1e-9 and offers[2].spot)
    assert(offers[3].price_per_hour == 1299)
    assert(offers[1].provider == "Example")
  end,
  test_no_provider_is_an_error_not_the_title = function(plugin)
    local ok, msg = pcall(plugin.offers, { input = per_gpu, input_name = "eu.html" })
    assert(not ok and msg:find("give %-%-provider"), msg)
  end,
}
