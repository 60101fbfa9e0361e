#!/usr/bin/python3
"""KVLens's figures of an imported KVDiagnosis release beside the paper's generated tables
(paper_artifacts/generated/*.csv), as Markdown: every cell of each table, the two values and
whether they agree (to 1e-9 relative). Reads the reports kvdiagnosis_release.sh wrote.

    kvdiagnosis_compare.py STUDY_DIR PAPER_TABLES_DIR
"""
import csv, json, os, sys

study, paper = sys.argv[1], sys.argv[2]
DATASETS = ["ruler8k", "ruler16k", "qasper", "hotpotqa"]
PRESS = {"StreamingLLMPress": "streamingllm", "SnapKVPress": "snapkv", "TOVAPress": "tova",
         "KeyDiffPress": "keydiff", "ThinKPress": "think", "ChunkKVPress_Knorm": "chunkkv",
         "AdaKVPress": "adakv", "QuantizedCache": "quantized"}
reports = {d: json.load(open(os.path.join(study, d + ".json"))) for d in DATASETS}
pooled = json.load(open(os.path.join(study, "report.json")))
agree = disagree = 0


def same(a, b):
    global agree, disagree
    if a is None or b is None:
        ok = a is None and b is None
    else:
        ok = abs(a - b) <= 1e-9 * max(1.0, abs(b))
    agree += ok
    disagree += not ok
    return ok


def num(text):
    return None if text in ("", None) else float(text)


def fmt(v, digits=4):
    return "–" if v is None else (f"{v:.{digits}f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v))


def cell(table, compressor, ratio, **extra):
    for row in table:
        if row["compressor"] == compressor and abs(row["ratio"] - ratio) < 1e-9 and \
                all(row.get(k) == v for k, v in extra.items()):
            return row
    return None


def rows(name):
    return list(csv.DictReader(open(os.path.join(paper, name + ".csv"))))


def pair(ours, theirs, digits=4):
    return f"{fmt(theirs, digits)} / {fmt(ours, digits)}" + ("" if same(ours, theirs) else " **≠**")


def scaled(v):
    return None if v is None else 100.0 * v


print("# KVLens beside the paper's tables\n")
print("Each cell: paper / KVLens; **≠** marks a disagreement. Percentages as the paper gives them.\n")

print("## full_evaluation_results.csv\n")
print("| dataset | method | budget | FullCache score | FullCache acc. | score | acc. | C->W | C->W rate |")
print("|---|---|---|---|---|---|---|---|---|")
cw_rates = {}
for r in rows("full_evaluation_results"):
    d, ratio = r["dataset"], 1 - float(r["retained_budget"])
    rep = reports[d]
    full = cell(rep["accuracy"], "FullCache", 0.0)
    comp = cell(rep["accuracy"], PRESS[r["method_name"]], ratio)
    tr = cell(rep["transitions"], PRESS[r["method_name"]], ratio)
    supported = r["support_status"] == "supported"
    ours_cw = tr["C->W"] if tr else 0
    ours_rate = scaled(tr["cw_rate"]) if tr else None
    if supported:
        cw_rates.setdefault((d, r["retained_budget"]), []).append(ours_rate)
    print(f"| {d} | {r['method_display']} | {r['retained_budget']} | "
          f"{pair(scaled(full['mean_score']), num(r['fullcache_task_score']))} | "
          f"{pair(scaled(full['accuracy']), num(r['fullcache_binary_accuracy']))} | "
          f"{pair(scaled(comp['mean_score']) if comp else None, num(r['compressed_task_score']))} | "
          f"{pair(scaled(comp['accuracy']) if comp else None, num(r['compressed_binary_accuracy']))} | "
          f"{pair(ours_cw, int(r['C_to_W_rows']))} | {pair(ours_rate, num(r['C_to_W_rate_given_fullcache_correct']))} |")

print("\n## pooled_population_outcomes.csv\n")
print("| method | budget | score | FullCache-correct pairs | C->W | C->W rate |")
print("|---|---|---|---|---|---|")
for r in rows("pooled_population_outcomes"):
    ratio = 1 - float(r["retained_budget"])
    press = PRESS[r["method_name"]]
    cells = [cell(pooled["accuracy"], press, ratio, suite=d) for d in DATASETS]
    cells = [c for c in cells if c]
    score = scaled(sum(c["mean_score"] * c["n"] for c in cells) / sum(c["n"] for c in cells)) if cells else None
    tr = cell(pooled["transitions"], press, ratio)
    pairs = (tr["C->C"] + tr["C->W"]) if tr else 0
    print(f"| {r['method_display']} | {r['retained_budget']} | {pair(score, num(r['compressed_task_score']))} | "
          f"{pair(pairs, int(r['fullcache_correct_pairs']))} | {pair(tr['C->W'] if tr else 0, int(r['C_to_W_rows']))} | "
          f"{pair(scaled(tr['cw_rate']) if tr else None, num(r['C_to_W_rate_given_fullcache_correct']))} |")

print("\n## failure_views.csv\n")
print("| dataset | budget | mean C->W rate | SnapKV–TOVA failure Jaccard |")
print("|---|---|---|---|")
for r in rows("failure_views"):
    d, ratio = r["dataset"], 1 - float(r["retained_budget"])
    rates = cw_rates[(d, r["retained_budget"])]
    overlap = cell([dict(o, compressor=o["a"]) for o in reports[d]["overlap"]], "snapkv", ratio, b="tova")
    print(f"| {d} | {r['retained_budget']} | {pair(sum(rates) / len(rates), num(r['mean_C_to_W_rate']))} | "
          f"{pair(overlap['jaccard'] if overlap else None, num(r['SnapKV_TOVA_failure_Jaccard']))} |")

print("\n## diagnostic_profiles.csv\n")
print("Pooled over the four datasets. The shared copy holds the diagnosed rows of qasper and hotpotqa "
      "only, so ECov_slot and EAR (which only diagnosed rows carry) are means over those; "
      "delta_NLL and GPR come with every compressed run.\n")
print("| method | budget | C->W rows | ECov_slot | delta_NLL | GPR | EAR |")
print("|---|---|---|---|---|---|---|")
for r in rows("diagnostic_profiles"):
    ratio = 1 - float(r["retained_budget"])
    c = cell(pooled["diagnostics"], PRESS[r["method_name"]], ratio)
    get = (lambda k: c.get(k + "_mean")) if c else (lambda k: None)
    print(f"| {r['method_display']} | {r['retained_budget']} | {pair(c['failure_rows'] if c else 0, int(r['failure_rows']))} | "
          f"{pair(get('ECov_slot'), num(r['ECov_slot_mean']))} | {pair(get('delta_NLL'), num(r['delta_NLL_mean']))} | "
          f"{pair(get('GPR'), num(r['GPR_mean']))} | {pair(get('EAR'), num(r['EAR_mean']))} |")

print("\n## qa_signature_counts.csv\n")
print("| dataset | signature | rows | share % |")
print("|---|---|---|---|")
for r in rows("qa_signature_counts"):
    sigs = reports[r["dataset"]]["signatures"]
    total = sum(s["count"] for s in sigs)
    count = sum(s["count"] for s in sigs if s["signature"] == r["failure_signature"])
    print(f"| {r['dataset']} | {r['failure_signature']} | {pair(count, int(r['rows']))} | "
          f"{pair(100.0 * count / total if total else None, num(r['share_percent']))} |")

print(f"\n{agree} values agree, {disagree} differ.")
