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
float32 and float64 break such ties differently.) Writes expected.json: the ids, the generated tokens and, for every
compression, the positions each (layer, kv-head) keeps. Shares no code with the C++.

usage: decoding_reference.py OUTDIR
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_model_fixtures as fx  # noqa: E402  (the HF-formula helpers and weights)

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


class Model:
    def __init__(self, cfg, weights):
        self.cfg = cfg
        self.w = {k: v.to(torch.float64) for k, v in weights.items()}
        self.nh, self.nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
        self.hd = fx.head_dim(cfg)
        self.inv = fx.inv_freq(cfg)
        # Per layer: keys, values [nkv, n, hd] and their positions [nkv, n].
        self.cache = [None] * cfg["num_hidden_layers"]
        self.steps = [0] * cfg["num_hidden_layers"]
        self.seen = 0  # positions used so far

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
        record = {}
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
            # New token i sees every cached entry and the new tokens up to itself.
            mask = torch.zeros(t, n, dtype=torch.float64)
            mask[:, n - t:] = torch.full((t, t), float("-inf"), dtype=torch.float64).triu(1)
            kk = keys.repeat_interleave(nh // nkv, 0)
            vv = values.repeat_interleave(nh // nkv, 0)
            scores = q @ kk.transpose(1, 2) / math.sqrt(hd) + mask
            attn = torch.softmax(scores, -1) @ vv
            x = x + attn.transpose(0, 1).reshape(t, nh * hd) @ self.w[p + "self_attn.o_proj.weight"].T
            hh = fx.rms_norm(x, self.w[p + "post_attention_layernorm.weight"], eps)
            gate = hh @ self.w[p + "mlp.gate_proj.weight"].T
            up = hh @ self.w[p + "mlp.up_proj.weight"].T
            x = x + (gate * torch.sigmoid(gate) * up) @ self.w[p + "mlp.down_proj.weight"].T
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
                    record[layer] = sorted_positions(pos)
            self.cache[layer] = (keys, values, pos)
        if record:
            compressions.append({"positions_before": self.seen + t,
                                 "kept": [record[l] for l in sorted(record)]})
        self.seen += t
        x = fx.rms_norm(x, self.w["model.norm.weight"], eps)
        head = (self.w["model.embed_tokens.weight"] if self.cfg["tie_word_embeddings"]
                else self.w["lm_head.weight"])
        return x[-1] @ head.T


def sorted_positions(pos):
    return [sorted(int(i) for i in row) for row in pos]


def main():
    out = sys.argv[1]
    cfg = fx.families()["qwen2_tied"]
    gen = torch.Generator().manual_seed(4321)
    weights = fx.make_weights(cfg, gen)
    os.makedirs(out, exist_ok=True)
    fx.write_safetensors(os.path.join(out, "model.safetensors"), weights, "F32")
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    context = torch.randint(0, cfg["vocab_size"], (CONTEXT,), generator=gen).tolist()
    question = torch.randint(0, cfg["vocab_size"], (QUESTION,), generator=gen).tolist()

    model = Model(cfg, weights)
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
                   "target": TARGET, "max_new_tokens": MAX_NEW, "generated": generated,
                   "compressions": compressions}, f)
    print(json.dumps({"generated": len(generated), "compressions": len(compressions)}))


if __name__ == "__main__":
    main()
