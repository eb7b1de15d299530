-- used-card.lua — what to check before paying for a used GPU, above all an ex-mining card.
-- Items marked `auto` name the `gpuwise inspect` check that answers them from an
-- `nvidia-smi -q -x` dump; evaluate() adds what only the checks together can say.
local items = {
  -- ask the seller
  { id = "ask-history", section = "Ask the seller", severity = "high",
    question = "What was the card used for, for how long and how many hours a day? Was it used for mining?",
    how_to_check = "Ask directly and ask for the original invoice. A mining card usually ran day and night for months, often with a lowered power limit and a raised memory clock; that wears fans and thermal pads more than the chip." },
  { id = "ask-warranty", section = "Ask the seller", severity = "medium",
    question = "Is there an invoice, and is any maker's warranty left? Does it transfer to you?",
    how_to_check = "Look the serial number up on the board maker's warranty page and read its transfer terms; a sticker or serial that has been removed is a warning." },
  { id = "ask-repairs", section = "Ask the seller", severity = "high",
    question = "Has the card been opened, repaired, re-pasted or re-padded, or its VBIOS flashed?",
    how_to_check = "Ask who did the work and with which pad thicknesses. Compare the VBIOS version (nvidia-smi -q, 'VBIOS Version') with the board maker's published versions." },

  -- look at it
  { id = "look-board", section = "Look at it", severity = "high",
    question = "Is the board free of burn marks, corrosion, cracked or missing components, and is it straight?",
    how_to_check = "With the card out of the machine and a torch, look around the power stages and connectors and along the PCIe edge; sight along the board for a bend from sagging." },
  { id = "look-connectors", section = "Look at it", severity = "high",
    question = "Are the power connectors and the PCIe contacts clean, straight and free of melting or discolouration?",
    how_to_check = "Inspect every 8-pin or 12VHPWR / 12V-2x6 socket for browned or deformed plastic and the gold edge contacts for scratches or burns. A melted 12-pin socket rules the card out." },
  { id = "look-fans", section = "Look at it", severity = "medium",
    question = "Do all fans spin freely and quietly, without wobble, clicking or grinding?",
    how_to_check = "Spin each fan by hand with the power off, then listen under load. Fans are replaceable, but a worn set is a sign of long, hard use and a point for the price." },
  { id = "look-mining-signs", section = "Look at it", severity = "medium",
    question = "Does the card show signs of mining: a heatsink packed with dust, discoloured thermal pads, a seller with many identical cards?",
    how_to_check = "Look through the backplate and fins; several identical cards from one seller usually come from a mining rig. `--dump` answers part of this from the power limit, fan and link readings." },
  { id = "look-pads-paste", section = "Look at it", severity = "medium",
    question = "Are the thermal paste and pads in good shape (or replaced with the right thicknesses)?",
    how_to_check = "Memory running hot under load is the usual symptom of worn pads (see the load test). Pads of the wrong thickness leave the GPU die or the memory without contact." },

  -- answered by `gpuwise inspect`
  { id = "auto-name", section = "Read from nvidia-smi", severity = "high", auto = "identity.name",
    question = "Does the driver report the product the seller named?",
    how_to_check = "nvidia-smi -q -x > dump.xml on the seller's machine, then gpuwise inspect dump.xml." },
  { id = "auto-memory", section = "Read from nvidia-smi", severity = "high", auto = "identity.memory_total",
    question = "Does the memory total match the card's specification (a 24 GB RTX 3090 reports 24576 MiB)?",
    how_to_check = "gpuwise inspect compares 'FB Memory Usage / Total' with the knowledge base; much less memory means a different or modified card." },
  { id = "auto-ecc", section = "Read from nvidia-smi", severity = "high", auto = "memory.ecc_errors",
    question = "Has the memory recorded ECC errors (cards with ECC only)?",
    how_to_check = "nvidia-smi -q -d ECC; gpuwise inspect reads the volatile and aggregate counts." },
  { id = "auto-retired", section = "Read from nvidia-smi", severity = "high", auto = "memory.retired_pages",
    question = "Have memory pages been retired, or is a retirement pending?",
    how_to_check = "nvidia-smi -q -d PAGE_RETIREMENT (data-centre cards before Ampere)." },
  { id = "auto-remapped", section = "Read from nvidia-smi", severity = "high", auto = "memory.remapped_rows",
    question = "Have memory rows been remapped after uncorrectable errors, or has remapping failed?",
    how_to_check = "nvidia-smi -q -d ROW_REMAPPER (A100 and other Ampere-and-later data-centre cards)." },
  { id = "auto-temperature", section = "Read from nvidia-smi", severity = "medium", auto = "thermal.temperature",
    question = "Is the GPU temperature well below its slowdown threshold?",
    how_to_check = "nvidia-smi -q -d TEMPERATURE; take the dump during the load test as well as at idle." },
  { id = "auto-throttle", section = "Read from nvidia-smi", severity = "high", auto = "thermal.clock_reasons",
    question = "Is the card slowing its clocks for heat or power trouble (HW slowdown, thermal slowdown, power brake)?",
    how_to_check = "nvidia-smi -q -d PERFORMANCE during load shows the active clock-event (throttle) reasons." },
  { id = "auto-power-limit", section = "Read from nvidia-smi", severity = "medium", auto = "thermal.power_limit",
    question = "Is the power limit at its default?",
    how_to_check = "nvidia-smi -q -d POWER: 'Current Power Limit' against 'Default Power Limit'. A lowered limit is typical of mining; ask why it was changed." },
  { id = "auto-fan", section = "Read from nvidia-smi", severity = "medium", auto = "thermal.fan",
    question = "Is the fan quiet at idle?",
    how_to_check = "nvidia-smi -q: 'Fan Speed' with the card idle; a fan at 60 % or more with nothing running points at heat trouble or a hand-set curve." },
  { id = "auto-pcie", section = "Read from nvidia-smi", severity = "medium", auto = "bus.pcie_link",
    question = "Does the card train its full PCIe link (for example gen 4 x16) under load?",
    how_to_check = "nvidia-smi -q -d PCI shows the current and maximum link; read it during load, since links slow down at idle." },
  { id = "auto-vbios", section = "Read from nvidia-smi", severity = "low", auto = "software.vbios",
    question = "Is the VBIOS a version the board maker published?",
    how_to_check = "Compare 'VBIOS Version' with the maker's downloads; a mining or cross-flashed VBIOS is worth a question." },

  -- run it
  { id = "run-vram-test", section = "Run it", severity = "high",
    question = "Does a full memory test pass without a single error?",
    how_to_check = "Run a GPU memory tester that writes and verifies all free memory (for example memtest_vulkan, or OCCT's VRAM test) for at least 30 minutes; any error fails the card." },
  { id = "run-load-test", section = "Run it", severity = "high",
    question = "Does a sustained full load run for 30 to 60 minutes without crashes, artefacts or throttling?",
    how_to_check = "Run a stress test or a real training job and watch it with `nvidia-smi dmon` (power, temperature, clocks) and `nvidia-smi -q -d PERFORMANCE` (clock-event reasons); clocks should settle, not keep falling." },
  { id = "run-vram-temperature", section = "Run it", severity = "medium",
    question = "Does the memory stay cool enough under that load?",
    how_to_check = "On GDDR6X cards (RTX 3080 and 3090) the memory junction temperature shows in HWiNFO on Windows; nvidia-smi shows memory temperature only on cards that report it. Readings near 100 C or above under load point at worn or badly fitted thermal pads." },
  { id = "run-inspect-loaded", section = "Run it", severity = "medium",
    question = "Does `gpuwise inspect` still pass with a dump taken during the load test?",
    how_to_check = "nvidia-smi -q -x > loaded.xml while the load runs, then gpuwise inspect loaded.xml: under load the link width, throttle reasons and temperatures mean more than at idle." },
}

-- The worst status of one check over every GPU of the inspection, or nil when absent.
local rank = { PASS = 1, UNKNOWN = 2, WARN = 3, FAIL = 4 }
local function worst(inspection, check_id)
  local found
  for _, gpu in ipairs(inspection.gpus or {}) do
    for _, check in ipairs(gpu.checks or {}) do
      if check.id == check_id and (not found or rank[check.status] > rank[found.status]) then
        found = check
      end
    end
  end
  return found
end

-- Mining leaves several small marks that mean more together than alone: a lowered power
-- limit, a fan working hard at idle, and a narrow PCIe link (risers).
local function mining_signs(inspection)
  local signs = {}
  local power = worst(inspection, "thermal.power_limit")
  if power and power.status == "WARN" and power.message:find("lowered", 1, true) then
    signs[#signs + 1] = "power limit lowered"
  end
  local fan = worst(inspection, "thermal.fan")
  if fan and fan.status == "WARN" then signs[#signs + 1] = "fan high at idle" end
  local link = worst(inspection, "bus.pcie_link")
  if link and link.status == "WARN" then signs[#signs + 1] = "narrow PCIe link (a riser?)" end
  if #signs == 0 then return nil end
  return {
    id = "look-mining-signs",
    status = #signs >= 2 and "FAIL" or "WARN",
    answer = "the dump shows " .. table.concat(signs, ", ") ..
      (#signs >= 2 and ": together these look like a mining card; price it as one" or
       ": one sign alone proves nothing; ask about it"),
  }
end

return {
  name = "used-card",
  kind = "checklist",
  version = "1.0",
  description = "Inspecting a used GPU before you pay",
  items = items,
  evaluate = function(inspection)
    local answers = {}
    local signs = mining_signs(inspection)
    if signs then answers[#answers + 1] = signs end
    return answers
  end,
}
