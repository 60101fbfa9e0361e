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
in plain loops; shares no code with the C++.

Writes expected.json: the ids, the generated tokens and, for every compression, the
positions each (layer, kv-head) keeps and the merges that happened.

usage: cam_reference.py OUTDIR
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_model_fixtures as fx  # noqa: E402  (the HF-formula helpers and weights)

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


class Model:
    def __init__(self, cfg, weights, gen):
        self.cfg = cfg
        self.w = {k: v.to(torch.float64) for k, v in weights.items()}
        self.nh, self.nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
        self.hd = fx.head_dim(cfg)
        self.inv = fx.inv_freq(cfg)
        layers = cfg["num_hidden_layers"]
        # Per layer: keys, values [nkv, n, hd], positions [nkv, n], running attention.
        self.cache = [None] * layers
        self.attn = [None] * layers
        self.steps = [0] * layers
        self.seen = 0
        self.gen = gen

    def lin(self, p, v, name):
        out = v @ self.w[p + name + ".weight"].T
        if p + name + ".bias" in self.w:
            out = out + self.w[p + name + ".bias"]
        return out

    def forward(self, ids, decoding, compressions):
        t, nh, nkv, hd = len(ids), self.nh, self.nkv, self.hd
        positions = torch.arange(self.seen, self.seen + t, dtype=torch.float64)
        freqs = torch.outer(positions, self.inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[None], emb.sin()[None]
        eps = self.cfg["rms_norm_eps"]
        x = self.w["model.embed_tokens.weight"][torch.tensor(ids)]
        record, merges = {}, 0
        for layer in range(self.cfg["num_hidden_layers"]):
            p = f"model.layers.{layer}."
            h = fx.rms_norm(x, self.w[p + "input_layernorm.weight"], eps)
            q = self.lin(p, h, "self_attn.q_proj").view(t, nh, hd).transpose(0, 1)
            k = self.lin(p, h, "self_attn.k_proj").view(t, nkv, hd).transpose(0, 1)
            v = self.lin(p, h, "self_attn.v_proj").view(t, nkv, hd).transpose(0, 1)
            q = q * cos + fx.rotate_half(q) * sin
            k = k * cos + fx.rotate_half(k) * sin
            new_pos = torch.arange(self.seen, self.seen + t).expand(nkv, t)
            if self.cache[layer] is None:
                keys, values, pos = k, v, new_pos.clone()
            else:
                keys = torch.cat([self.cache[layer][0], k], 1)
                values = torch.cat([self.cache[layer][1], v], 1)
                pos = torch.cat([self.cache[layer][2], new_pos], 1)
            n = keys.shape[1]
            mask = torch.zeros(t, n, dtype=torch.float64)
            mask[:, n - t:] = torch.full((t, t), float("-inf"), dtype=torch.float64).triu(1)
            kk = keys.repeat_interleave(nh // nkv, 0)
            vv = values.repeat_interleave(nh // nkv, 0)
            probs = torch.softmax(q @ kk.transpose(1, 2) / math.sqrt(hd) + mask, -1)
            attn = probs @ vv
            x = x + attn.transpose(0, 1).reshape(t, nh * hd) @ self.w[p + "self_attn.o_proj.weight"].T
            hh = fx.rms_norm(x, self.w[p + "post_attention_layernorm.weight"], eps)
            gate = hh @ self.w[p + "mlp.gate_proj.weight"].T
            up = hh @ self.w[p + "mlp.up_proj.weight"].T
            x = x + (gate * torch.sigmoid(gate) * up) @ self.w[p + "mlp.down_proj.weight"].T
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
                    record[layer] = [sorted(int(i) for i in row) for row in pos]
                self.attn[layer] = running
            self.cache[layer] = (keys, values, pos)
        if record:
            compressions.append({"positions_before": self.seen + t, "merged": merges,
                                 "kept": [record[l] for l in sorted(record)]})
        self.seen += t
        x = fx.rms_norm(x, self.w["model.norm.weight"], eps)
        head = (self.w["model.embed_tokens.weight"] if self.cfg["tie_word_embeddings"]
                else self.w["lm_head.weight"])
        return x[-1] @ head.T


def main():
    out = sys.argv[1]
    cfg = fx.families()["qwen2_tied"]
    gen = torch.Generator().manual_seed(8765)
    weights = fx.make_weights(cfg, gen)
    os.makedirs(out, exist_ok=True)
    fx.write_safetensors(os.path.join(out, "model.safetensors"), weights, "F32")
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    context = torch.randint(0, cfg["vocab_size"], (CONTEXT,), generator=gen).tolist()
    question = torch.randint(0, cfg["vocab_size"], (QUESTION,), generator=gen).tolist()

    draws = torch.Generator().manual_seed(fnv_seed([SEED, CONTEXT] + question))
    model = Model(cfg, weights, draws)
    compressions = []
    model.forward(context, False, compressions)  # prefill, left whole
    logits = model.forward(question, True, compressions)
    generated = []
    while True:
        token = int(logits.argmax())
        generated.append(token)
        if len(generated) >= MAX_NEW:
            break
        logits = model.forward([token], True, compressions)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"context": context, "question": question, "interval": INTERVAL,
                   "target": TARGET, "merge_budget": BUDGET, "max_new_tokens": MAX_NEW,
                   "generated": generated, "compressions": compressions}, f)
    print(json.dumps({"generated": len(generated), "compressions": len(compressions),
                      "merged": [c["merged"] for c in compressions]}))


if __name__ == "__main__":
    main()
