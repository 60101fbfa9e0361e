#!/usr/bin/python3
"""Independent reference for CaM (kvpress cam_press.py, CAMPress) over KeyDiff.

Writes a tiny random-weight Qwen2 checkpoint (make_model_fixtures.py's qwen2_tied: GQA,
q/k/v biases) into OUTDIR and decodes greedily in float64 with a per-layer cache that
really drops entries, following cam_press.py as read: the context is prefilled whole;
every forward after it (the question, then each generated token fed back) adds, per
layer and kv-head, the softmax of its last query over every cached key (its own
included; mean over the GQA group) to each entry's running sum, and counts one step.
When the count reaches INTERVAL while the cache holds more than TARGET entries (or the
forward fed at least TARGET tokens), the layer keeps the TARGET entries with the best
KeyDiff score averaged over its kv-heads; the k = count best-scored evicted entries
(ties: later first) each take the BUDGET kept entries after them as their window, and
with probability clamp(A_m / mean A_window, 0, 1) (0/0 -> 0, x/0 -> 1) per kv-head add
v_m / len(window) to every window value. The draws are torch.rand (float32, one
[kv_heads, candidates] block per layer and compression, candidates in sequence order)
from a generator seeded with FNV-1a over (seed 0, context length, question ids), the
seeding the C++ uses; a merge happens when the draw is below p. Written per candidate
in plain loops; the forward, the checkpoint and the greedy loop are refmodel.py's;
shares no code with the C++.

Writes expected.json: the ids, the generated tokens and, for every compression, the
positions each (layer, kv-head) keeps and the merges that happened.

usage: cam_reference.py OUTDIR
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refmodel  # noqa: E402  (the float64 Qwen2 forward and the random checkpoint)

INTERVAL = 4
TARGET = 24
BUDGET = 3
MAX_NEW = 20
CONTEXT = 40
QUESTION = 3
SEED = 0


def fnv_seed(values):
    seed = 1469598103934665603
    for v in values:
        seed ^= v & 0xFFFFFFFFFFFFFFFF
        seed = (seed * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return seed


def keydiff(keys):
    """kvpress keydiff_press.py: -cos(k, mean of the normalised keys), per kv-head."""
    unit = keys / keys.norm(dim=-1, keepdim=True)
    anchor = unit.mean(1, keepdim=True)
    return -torch.nn.functional.cosine_similarity(keys, anchor, dim=-1)


def cam_compress(keys, values, pos, attn, steps, gen):
    """One layer's CaM compression; returns the new tensors and the merges done."""
    nkv, n, _ = keys.shape
    mean = keydiff(keys).mean(0)
    order = sorted(range(n), key=lambda i: (-float(mean[i]), i))
    kept = sorted(order[:TARGET])
    evicted = sorted(order[TARGET:])
    cands = sorted(sorted(evicted, key=lambda i: (-float(mean[i]), -i))[:steps])
    u = torch.rand((nkv, len(cands)), generator=gen)
    merged_values = values.clone()
    merges = 0
    for h in range(nkv):
        for c, m in enumerate(cands):
            window = [j for j in kept if j > m][:BUDGET]
            if not window:
                continue
            mean_attn = sum(float(attn[h, j]) for j in window) / len(window)
            a = float(attn[h, m])
            if mean_attn == 0.0:
                p = 0.0 if a == 0.0 else 1.0
            else:
                p = min(max(a / mean_attn, 0.0), 1.0)
            if float(u[h, c]) < p:
                merges += 1
                for j in window:
                    merged_values[h, j] += values[h, m] / len(window)
    idx = torch.tensor(kept)
    return keys[:, idx], merged_values[:, idx], pos[:, idx], attn[:, idx], merges


class Model(refmodel.Qwen2):
    """refmodel's forward with a per-layer cache that CaM cuts and merges into."""

    def __init__(self, cfg, weights, gen):
        super().__init__(cfg, weights)
        # Per layer: keys, values [nkv, n, hd], positions [nkv, n], running attention.
        self.cache = [None] * self.layers
        self.attn = [None] * self.layers
        self.steps = [0] * self.layers
        self.seen = 0
        self.gen = gen

    def forward(self, ids, decoding, compressions):
        t, nh, nkv = len(ids), self.nh, self.nkv
        rope = self.rope(self.seen, t)
        x = self.embed(ids)
        record, merges = {}, 0
        for layer in range(self.layers):
            q, k, v = self.qkv(layer, x, rope)
            keys, values, pos = refmodel.extend(self.cache[layer], k, v, self.seen)
            n = keys.shape[1]
            probs, attn = self.attend(q, keys, values)
            x = self.finish(layer, x, attn)
            if decoding:
                # The last row sees every entry; mean over each kv-head's query heads.
                last = probs[:, -1, :].view(nkv, nh // nkv, n).mean(1)
                running = self.attn[layer]
                if running is None:
                    running = last.clone()
                else:
                    running = torch.cat([running, torch.zeros(nkv, n - running.shape[1],
                                                              dtype=running.dtype)], 1) + last
                self.steps[layer] += 1
                if (self.steps[layer] >= INTERVAL and n > TARGET) or t >= TARGET:
                    if n > TARGET:
                        keys, values, pos, running, m = cam_compress(
                            keys, values, pos, running, self.steps[layer], self.gen)
                        merges += m
                    self.steps[layer] = 0
                    record[layer] = refmodel.sorted_positions(pos)
                self.attn[layer] = running
            self.cache[layer] = (keys, values, pos)
        if record:
            compressions.append({"positions_before": self.seen + t, "merged": merges,
                                 "kept": [record[l] for l in sorted(record)]})
        self.seen += t
        return self.last_logits(x)


def main():
    out = sys.argv[1]
    gen = torch.Generator().manual_seed(8765)
    cfg, weights = refmodel.write_random_checkpoint(out, gen)
    context = torch.randint(0, cfg["vocab_size"], (CONTEXT,), generator=gen).tolist()
    question = torch.randint(0, cfg["vocab_size"], (QUESTION,), generator=gen).tolist()

    draws = torch.Generator().manual_seed(fnv_seed([SEED, CONTEXT] + question))
    model = Model(cfg, weights, draws)
    compressions = []
    generated = refmodel.greedy(model.forward, context, question, MAX_NEW, compressions)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"context": context, "question": question, "interval": INTERVAL,
                   "target": TARGET, "merge_budget": BUDGET, "max_new_tokens": MAX_NEW,
                   "generated": generated, "compressions": compressions}, f)
    print(json.dumps({"generated": len(generated), "compressions": len(compressions),
                      "merged": [c["merged"] for c in compressions]}))


if __name__ == "__main__":
    main()
