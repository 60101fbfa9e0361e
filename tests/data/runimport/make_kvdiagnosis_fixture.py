#!/usr/bin/python3
"""Writes tests/data/runimport/kvdiagnosis: a three-sample release in the layout of
ChosenQC/KVDiagnosis (docs/data_format.md), small enough to work out by hand
(tst_runimport checks every row). Run it again to regenerate the gzipped files
byte for byte (gzip mtime 0)."""
import gzip, json, os

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kvdiagnosis")
MODEL = {"model_id": "Qwen/Qwen3-8B", "model_revision": "b968826d9c46dd6066d109eabc6255188de91218"}
THINK_NA = ("N/A: ThinKPress prunes key channels but not values, so overall KV compression_ratio "
            "above 0.5 is not defined in kvpress 0.5.3")


def full(dataset, sid, correct, score, answer, reference, context):
    return dict(MODEL, dataset=dataset, sample_id=sid, fullcache_key=f"{dataset}::{sid}",
                full_correct=correct, full_score=score, extracted_answer_full=answer,
                raw_output_full=answer + "\nOkay, let me think.", reference_answer=reference,
                context_length_tokens=context, full_gold_NLL=1.5, prompt_hash="ab12",
                full_run_id=f"{sid}::FullCache::0.00", task_key="t", official_task_name=dataset,
                schema_version="kvcachebench.fullcache_run.v1")


def run(dataset, sid, method, ratio, full_correct, correct=None, answer=None, dnll=None,
        gpr=None, supported=True):
    row = dict(MODEL, dataset=dataset, sample_id=sid, fullcache_key=f"{dataset}::{sid}",
               method_name=method, method_display=method.replace("Press", ""),
               method_family="family", compression_ratio=ratio, retained_budget=1 - ratio,
               compressed_run_id=f"{sid}::{method}::{1 - ratio:.2f}",
               support_status="supported" if supported else "unsupported",
               unsupported_reason=None if supported else THINK_NA,
               compressed_correct=correct, compressed_score=None if correct is None else float(correct),
               extracted_answer_compressed=answer, raw_output_compressed=answer,
               delta_NLL=dnll, GPR=gpr, compressed_gold_NLL=None if dnll is None else 1.5 + dnll,
               outcome_transition=None if correct is None else
               ("C" if full_correct else "W") + "->" + ("C" if correct else "W"),
               schema_version="kvcachebench.compressed_run.v1")
    return row


def write_gz(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    with open(path, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(data)


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


fp = os.path.join(root, "data/processed/full_population")
write_gz(os.path.join(fp, "fullcache.jsonl.gz"), [
    full("hotpotqa", "hotpotqa_000000", True, 1.0, "Paris", ["Paris"], 1200),
    full("hotpotqa", "hotpotqa_000001", False, 0.0, "Milan", ["Rome"], 1300),
    full("ruler8k", "niah_multivalue_000000", True, 1.0, "1234 5678", ["1234", "5678"], 8000),
])
write_gz(os.path.join(fp, "compressed_runs/hotpotqa.jsonl.gz"), [
    run("hotpotqa", "hotpotqa_000000", "SnapKVPress", 0.25, True, True, "Paris", 0.01, 0.99),
    run("hotpotqa", "hotpotqa_000000", "SnapKVPress", 0.75, True, False, "Lyon", 2.5, 0.08),
    run("hotpotqa", "hotpotqa_000000", "ThinKPress", 0.25, True, True, "Paris", None, None),
    run("hotpotqa", "hotpotqa_000000", "ThinKPress", 0.75, True, supported=False),
    run("hotpotqa", "hotpotqa_000001", "SnapKVPress", 0.25, False, True, "Rome", -0.5, 1.6),
    run("hotpotqa", "hotpotqa_000001", "SnapKVPress", 0.75, False, False, "Milan", 0.2, 0.8),
    run("hotpotqa", "hotpotqa_000001", "ThinKPress", 0.75, False, supported=False),
])
write_gz(os.path.join(fp, "compressed_runs/ruler8k.jsonl.gz"), [
    run("ruler8k", "niah_multivalue_000000", "SnapKVPress", 0.25, True, True, "1234 5678", 0.0, 1.0),
    run("ruler8k", "niah_multivalue_000000", "SnapKVPress", 0.75, True, False, "1234", 1.2, 0.3),
    run("ruler8k", "niah_multivalue_000000", "ThinKPress", 0.75, True, supported=False),
])
# The diagnosed C->W row of hotpotqa (ruler8k's file is absent, as in the shared copy).
diagnosed = run("hotpotqa", "hotpotqa_000000", "SnapKVPress", 0.75, True, False, "Lyon", 2.5, 0.08)
diagnosed.update(full_correct=True, ERR_slot=0.2, ECov_slot=0.3, ECov_slot_threshold=0.5,
                 ERR_slot_status="available", ECov_slot_status="available", KL=None, TopK=None,
                 EAR=None, gold_rank_shift=None, coverage_type="measured_token_coverage",
                 failure_signature="low_mapped_coverage", primitive_flags=["low_mapped_coverage"],
                 attention_available=False, topk_available=False)
write_jsonl(os.path.join(root, "data/processed/selected_failures/hotpotqa.jsonl"), [diagnosed])
