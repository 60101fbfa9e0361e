#!/usr/bin/python3
"""Why chunk-8 mean landmarks lose the single needle on the bundled model
(docs/offloading-study.md, "Why chunk-8 landmarks lose the needle here").

A chunk's mean-key landmark scores q . mean(k_j) = mean(q . k_j): by linearity it is the
mean of the chunk's exact token logits, whatever RoPE does to the keys. So a needle's
chunk is retrieved when the mean of its logits beats the other chunks' means, and a
one-token peak of margin D over its neighbours is worth about D / 8 there. Quest's page
bound is at least the page's largest logit. This script measures, on FullCache prefills
of the study's single-needle samples, where the needle's chunk ranks under each rule,
in the head that attends to the evidence most (the retrieval head), from the query of
the last question token (the one that writes the first answer token).

    /usr/bin/python3 packaging/studies/landmark_dilution.py SAMPLES.jsonl MODEL_DIR CLI [N]

MODEL_DIR: the bundled model or any Llama / Qwen2-family checkpoint (F32, F16 or BF16
safetensors in one file) with its tokenizer.json.

SAMPLES.jsonl from `kvlens-cli tasks generate --suite retrieval --variant single ...`;
CLI is kvlens-cli (its `tokenize` gives the ids and offsets the engine uses). Float64,
the reference forward of tests/reference/refmodel.py.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "reference"))
import refmodel  # noqa: E402

CHUNK = 8


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        blob = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[info["dtype"]]
        b, e = info["data_offsets"]
        out[name] = torch.frombuffer(bytearray(blob[b:e]), dtype=dtype).view(info["shape"])
    return out


def tokenize_file(cli, model, text, special=False):
    # Through a file: `tokenize --text-file` encodes its whole text, newlines included.
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(text)
        f.flush()
        r = subprocess.run([cli, "tokenize", "--model", model, "--offsets", "--text-file", f.name]
                           + (["--add-special"] if special else []),
                           capture_output=True, text=True, check=True)
    j = json.loads(r.stdout)
    return j["ids"], j["offsets"]


def rank_of(scores, index):
    """0-based rank of scores[index] (ties count against it)."""
    return int((scores > scores[index]).sum())


def main():
    samples_path, model_dir, cli = sys.argv[1:4]
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    cfg = json.load(open(os.path.join(model_dir, "config.json")))
    m = refmodel.Qwen2(cfg, read_safetensors(os.path.join(model_dir, "model.safetensors")))
    group = m.nh // m.nkv
    rows = []
    for line in open(samples_path).read().splitlines()[:limit]:
        s = json.loads(line)
        # promptlayout.h: the context with the model's special tokens (its BOS), then the
        # question encoded alone.
        ctx_ids, offsets = tokenize_file(cli, model_dir, s["context"], special=True)
        q_ids, _ = tokenize_file(cli, model_dir, s["question"])
        ids = ctx_ids + q_ids
        tc = len(ctx_ids)
        ev = [sp for sp in s["spans"] if sp["kind"] == "evidence" and sp.get("field", "context") == "context"]
        evidence = [i for i, (b, e) in enumerate(offsets)
                    if e > b and any(b < sp["end"] and e > sp["begin"] for sp in ev)]
        x = m.embed(ids)
        rope = m.rope(0, len(ids))
        best = None
        for layer in range(m.layers):
            q, k, v = m.qkv(layer, x, rope)
            probs, out = m.attend(q, k, v)
            last = probs[:, -1, :tc]  # [nh, tc]
            logits = (q[:, -1:, :] @ k.repeat_interleave(group, 0)[:, :tc, :].transpose(1, 2))[:, 0] \
                / math.sqrt(m.hd)  # [nh, tc]
            for h in range(m.nh):
                mass = float(last[h, evidence].sum())
                if best is None or mass > best[0]:
                    best = (mass, layer, h, logits[h].clone())
            x = m.finish(layer, x, out)
        mass, layer, h, lg = best
        # Chunks over the context after the BOS sink (position 0 is kept by every rule).
        body = lg[1:]
        n = (body.shape[0] // CHUNK) * CHUNK
        chunks = body[:n].view(-1, CHUNK)
        top = max(evidence, key=lambda i: float(lg[i]))  # the evidence token peaking most
        c = (top - 1) // CHUNK
        if c >= chunks.shape[0]:
            continue
        means, maxes = chunks.mean(1), chunks.max(1).values
        others = torch.cat([body[:top - 1], body[top:]])
        rows.append({
            "id": s["id"], "layer": layer, "head": h, "evidence_mass": mass,
            "chunks": int(chunks.shape[0]),
            "token_rank": rank_of(body, top - 1),
            "mean_rank": rank_of(means, c),
            "max_rank": rank_of(maxes, c),
            "peak_margin": float(lg[top] - others.median()),
            "peak_over_next": float(lg[top] - others.max()),
            "chunk_mean_margin": float(means[c] - torch.cat([means[:c], means[c + 1:]]).max()),
            "evidence_in_chunk": sum(1 for i in evidence if (i - 1) // CHUNK == c),
            "spread_of_means": float(means.std()),
        })
        r = rows[-1]
        print(json.dumps(r), flush=True)
    if not rows:
        return
    def med(key):
        vals = sorted(r[key] for r in rows)
        return vals[len(vals) // 2]
    for top_share in (0.1, 0.25):
        def share(key):
            return sum(1 for r in rows if r[key] < max(1, int(top_share * r["chunks"]))) / len(rows)
        print(json.dumps({"samples": len(rows), "top_share": top_share,
                          "token_in_top": share("token_rank"), "mean_chunk_in_top": share("mean_rank"),
                          "max_chunk_in_top": share("max_rank")}))
    print(json.dumps({"median_peak_margin": med("peak_margin"), "median_peak_over_next": med("peak_over_next"),
                      "median_chunk_mean_margin": med("chunk_mean_margin"),
                      "median_spread_of_means": med("spread_of_means"),
                      "median_evidence_mass": med("evidence_mass"),
                      "median_mean_rank": med("mean_rank"), "median_max_rank": med("max_rank"),
                      "median_token_rank": med("token_rank")}))


if __name__ == "__main__":
    main()
