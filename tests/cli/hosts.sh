#!/bin/sh
# tests/cli/hosts.sh — hosts sized to their cards (issue 27): each purchase of cards goes into the
# smallest of the KB's hosts that takes its cards per machine, at that host's price and its own
# draw, named in --json (option.host) and the report; the workload's host_cost, host_power_w and
# cards_per_host override them.  Over a fixture KB (tests/fixtures/hosts), on a pinned today.
. "$ROOT/tests/cli/lib.sh"
FX="$FIX/hosts"
export SOURCE_DATE_EPOCH=1796083200   # 2026-12-01T00:00:00Z

K="$T/hosts.db"
run "$GW" --kb "$K" kb import "$FX/sources.csv" "$FX/gpus.csv" "$FX/benchmarks.csv" \
    "$FX/rates.csv" "$FX/prices.csv" "$FX/assumptions.csv" "$FX/hosts.csv"
check_rc "hosts: the fixture KB imports" 0
check_out "hosts: three host rows" "hosts      3 added"

# own.lua: a data-centre card of USD 10,000 and 300 W, 10 h a day for 12 months at USD 0.10/kWh,
# support 10% of the hardware a year (the fixture's support_fraction), resale 30% of the cards.
# 1 card: the desktop (1 card, USD 1,000, 150 W): up front 11,000; 450 W x 10 h x 30 / 1000 x
#   0.10 = 13.50 a month; support 1,100 a year = 91.67 a month; resale 3,000;
#   total = 11,000 + (13.50 + 91.67) x 12 - 3,000 = 9,262.
# 3 cards: the workstation (up to 4, USD 3,000, 400 W): up front 33,000; 1,300 W: 39 a month;
#   support 3,300 a year = 275 a month; resale 9,000: 33,000 + 314 x 12 - 9,000 = 27,768.
# 8 cards: the server (up to 8, USD 20,000, 1,500 W): up front 100,000; 3,900 W: 117 a month;
#   support 10,000 a year = 833.33 a month; resale 24,000: 100,000 + 950.33 x 12 - 24,000 =
#   87,404.
run "$GW" --kb "$K" decide "$FX/own.lua" --json
check_rc "hosts: decide exits 0" 0
jq_all _j1 '[.options[] | select(.id == "buy-new:1x dc-card")][0] | "\(.host.id) \(.host.kind) \(.host.cards) \(.host.cost) \(.host.power_w) \(.host.source) \(.host.basis)"' \
    _j2 '[.options[] | select(.id == "buy-new:1x dc-card")][0].cost.total' \
    _j3 '[.options[] | select(.id == "buy-new:3x dc-card")][0] | "\(.host.id) \(.host.cards) \(.host.cost) \(.power_w)"' \
    _j4 '[.options[] | select(.id == "buy-new:3x dc-card")][0].cost.total' \
    _j5 '[.options[] | select(.id == "buy-new:8x dc-card")][0] | "\(.host.id) \(.host.cards) \(.host.cost) \(.power_w) \(.hosts)"' \
    _j6 '[.options[] | select(.id == "buy-new:8x dc-card")][0].cost.total' \
    _j7 '[.options[] | select(.id == "buy-new:8x dc-card")][0].cost.upfront'
check_eq "hosts: 1 card goes into the desktop, cited" "$_j1" "fx-desktop desktop 1 1000 150 fx-hosts kb"
check_num "hosts: 1 card, total 9,262 by hand" "$_j2" 9262 0.01
check_eq "hosts: 3 cards go into the workstation (1,300 W: 900 + 400)" "$_j3" "fx-workstation 3 3000 1300"
check_num "hosts: 3 cards, total 27,768 by hand" "$_j4" 27768 0.01
check_eq "hosts: 8 cards go into the server (3,900 W: 2,400 + 1,500)" "$_j5" "fx-server 8 20000 3900 1"
check_num "hosts: 8 cards, total 87,404 by hand" "$_j6" 87404 0.01
check_num "hosts: 8 cards, up front 80,000 + 20,000" "$_j7" 100000 0.01

# The report names the hosts it assumed, each with the cards it takes, its price and its own
# draw, in the assumptions (cited), and the support each purchase adds in the appendix's cost
# table: the 3-card workstation's 275 a month (0.1 x 33,000 / 12).
run "$GW" --kb "$K" report "$FX/own.lua" -o "$T/own.md"
check_rc "hosts: report exits 0" 0
# (each KB host price with its kind and date, as every price)
OUT=$(cat "$T/own.md")
check_out "hosts: the report names the hosts it assumed" \
    "Hosts, the smallest for a machine's cards (cards; W besides them): desktop (1) \$1,000 (list, 2026-11), 150 W; workstation (4) \$3,000 (list, 2026-11), 400 W; server (8) \$20,000 (list, 2026-11), 1500 W."
check_out "hosts: the cost table adds the workstation's support" \
    "| \$33,000 | \$39.00 | \$275 | \$27,768 |"

# The workload's host_cost and host_power_w stand for every machine: 8 cards with a USD 2,500,
# 250 W host: up front 82,500; 2,650 W: 79.50 a month; support 8,250 a year = 687.50 a month;
#   total = 82,500 + 767 x 12 - 24,000 = 67,704.
sed 's/^return {/return { host_cost = 2500, host_power_w = 250,/' "$FX/own.lua" >"$T/stated.lua"
run "$GW" --kb "$K" decide "$T/stated.lua" --json
jq_all _j1 '[.options[] | select(.id == "buy-new:8x dc-card")][0] | "\(.host.id) \(.host.cost) \(.host.power_w) \(.host.basis)"' \
    _j2 '[.options[] | select(.id == "buy-new:8x dc-card")][0].cost.total' \
    _j3 '[.assumptions[].text | select(test("the workload.s host_cost and host_power_w"))] | length'
check_eq "hosts: the workload's host_cost and host_power_w override the host" "$_j1" "null 2500 250 workload"
check_num "hosts: 8 cards in the workload's host, total 67,704 by hand" "$_j2" 67704 0.01
check_eq "hosts: the assumptions say the host is the workload's" "$_j3" "1"

# cards_per_host = 4: 8 cards are two machines of 4, each the workstation: up front 80,000 +
#   2 x 3,000 = 86,000; 2,400 + 2 x 400 = 3,200 W: 96 a month; support 8,600 a year = 716.67 a
#   month: 86,000 + 812.67 x 12 - 24,000 = 71,752.
sed 's/^return {/return { cards_per_host = 4,/' "$FX/own.lua" >"$T/four.lua"
run "$GW" --kb "$K" decide "$T/four.lua" --json
jq_all _j1 '[.options[] | select(.id == "buy-new:8x dc-card")][0] | "\(.hosts) \(.host.id) \(.host.cards) \(.power_w)"' \
    _j2 '[.options[] | select(.id == "buy-new:8x dc-card")][0].cost.total'
check_eq "hosts: cards_per_host 4 makes 8 cards two workstations" "$_j1" "2 fx-workstation 4 3200"
check_num "hosts: two workstations, total 71,752 by hand" "$_j2" 71752 0.01

# A KB without host rows (one upgraded, not yet given kb/data/hosts.csv) costs every machine at
# its assumed host: USD 500 and 100 W, said and cited.  1 card: up front 10,500; 400 W: 12 a
#   month; support 1,050 a year = 87.50 a month: 10,500 + 99.50 x 12 - 3,000 = 8,694.
K2="$T/nohosts.db"
run "$GW" --kb "$K2" kb import "$FX/sources.csv" "$FX/gpus.csv" "$FX/benchmarks.csv" \
    "$FX/rates.csv" "$FX/prices.csv" "$FX/assumptions.csv"
run "$GW" --kb "$K2" decide "$FX/own.lua" --json
jq_all _j1 '[.options[] | select(.id == "buy-new:1x dc-card")][0] | "\(.host.basis) \(.host.cost) \(.host.power_w) \(.host.source)"' \
    _j2 '[.options[] | select(.id == "buy-new:1x dc-card")][0].cost.total' \
    _j3 '[.assumptions[].text | select(test("none in the KB .gpuwise kb import kb/data/hosts.csv.: the KB.s assumed [$]500 and 100 W"))] | length'
check_eq "hosts: without host rows, the assumed host" "$_j1" "assumed 500 100 fx-assumptions"
check_num "hosts: the assumed host, total 8,694 by hand" "$_j2" 8694 0.01
check_eq "hosts: the assumptions say the KB has no host table" "$_j3" "1"

# A host row is checked like any: a kind outside desktop, workstation, server is refused.
printf 'id,name,kind,max_cards,power_w,price,currency,quality,as_of,source,note\nfx-rack,Rack,rack,8,1000,1,USD,list,2026-11,fx-hosts,\n' >"$T/bad-host.csv"
run "$GW" --kb "$K" kb import "$T/bad-host.csv"
check_rc "hosts: a host of an unknown kind is refused (65)" 65
check_err "hosts: the refusal names file, line and column" "bad-host.csv:2: kind: 'rack' is not one of: desktop, workstation, server"
