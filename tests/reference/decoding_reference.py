#!/usr/bin/python3
"""Independent reference for decode-time compression (kvpress DecodingPress over KeyDiff).

Writes a tiny random-weight Qwen2 checkpoint (make_model_fixtures.py's qwen2_tied: GQA,
q/k/v biases) into OUTDIR, then decodes greedily in float64 with a per-layer cache that
really drops entries, following kvpress's decoding_press.py as read: the context is
prefilled whole; every forward after it (the question, then each generated token fed
back) counts one step per layer; after a layer's attention, when its count reaches
`interval` (or the forward fed at least `target` tokens) the layer's cache is cut to
int(n (1 - r)) entries per kv-head, r from _find_target_compression_ratio's bisection,
keeping the best KeyDiff scores (-cos(k, mean of the normalised keys), post-RoPE keys,
kvpress keydiff_press.py) and their original RoPE; the count then restarts. (KeyDiff,
not KNorm: RoPE keeps norms, so KNorm ties exactly on a repeated token in layer 0, and
float32 and float64 break such ties differently.) Writes expected.json: the ids, the
generated tokens and, for every compression, the positions each (layer, kv-head) keeps.
The forward, the checkpoint and the greedy loop are refmodel.py's; shares no code with
the C++.

usage: decoding_reference.py OUTDIR
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refmodel  # noqa: E402  (the float64 Qwen2 forward and the random checkpoint)

INTERVAL = 5
TARGET = 24
MAX_NEW = 20
CONTEXT = 40
QUESTION = 3


def find_ratio(n, target):
    """kvpress DecodingPress._find_target_compression_ratio."""
    if n <= target:
        return 0.0
    ratio = 1.0 - target / n
    low, high = 0.0, 1.0
    for _ in range(20):
        kept = int(n * (1 - ratio))
        if kept == target:
            break
        if kept > target:
            low = ratio
            ratio = (ratio + high) / 2
        else:
            high = ratio
            ratio = (low + ratio) / 2
    return ratio


class Model(refmodel.Qwen2):
    """refmodel's forward with a per-layer cache that DecodingPress cuts."""

    def __init__(self, cfg, weights):
        super().__init__(cfg, weights)
        # Per layer: keys, values [nkv, n, hd] and their positions [nkv, n].
        self.cache = [None] * self.layers
        self.steps = [0] * self.layers
        self.seen = 0  # positions used so far

    def forward(self, ids, decoding, compressions):
        t, hd = len(ids), self.hd
        rope = self.rope(self.seen, t)
        x = self.embed(ids)
        record = {}
        for layer in range(self.layers):
            q, k, v = self.qkv(layer, x, rope)
            keys, values, pos = refmodel.extend(self.cache[layer], k, v, self.seen)
            n = keys.shape[1]
            # New token i sees every cached entry and the new tokens up to itself.
            _, attn = self.attend(q, keys, values)
            x = self.finish(layer, x, attn)
            # The forward hook: decoding steps only.
            if decoding:
                self.steps[layer] += 1
                if self.steps[layer] >= INTERVAL or t >= TARGET:
                    ratio = find_ratio(n, TARGET)
                    if ratio > 0:
                        kept = int(n * (1 - ratio))
                        unit = keys / keys.norm(dim=-1, keepdim=True)
                        anchor = unit.mean(1, keepdim=True)
                        score = -torch.nn.functional.cosine_similarity(keys, anchor, dim=-1)
                        idx = score.topk(kept, dim=-1).indices  # [nkv, kept]
                        keys = keys.gather(1, idx[..., None].expand(-1, -1, hd))
                        values = values.gather(1, idx[..., None].expand(-1, -1, hd))
                        pos = pos.gather(1, idx)
                    self.steps[layer] = 0
                    record[layer] = refmodel.sorted_positions(pos)
            self.cache[layer] = (keys, values, pos)
        if record:
            compressions.append({"positions_before": self.seen + t,
                                 "kept": [record[l] for l in sorted(record)]})
        self.seen += t
        return self.last_logits(x)


def main():
    out = sys.argv[1]
    gen = torch.Generator().manual_seed(4321)
    cfg, weights = refmodel.write_random_checkpoint(out, gen)
    context = torch.randint(0, cfg["vocab_size"], (CONTEXT,), generator=gen).tolist()
    question = torch.randint(0, cfg["vocab_size"], (QUESTION,), generator=gen).tolist()

    model = Model(cfg, weights)
    compressions = []
    generated = refmodel.greedy(model.forward, context, question, MAX_NEW, compressions)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"context": context, "question": question, "interval": INTERVAL,
                   "target": TARGET, "max_new_tokens": MAX_NEW, "generated": generated,
                   "compressions": compressions}, f)
    print(json.dumps({"generated": len(generated), "compressions": len(compressions)}))


if __name__ == "__main__":
    main()
