#!/usr/bin/python3
"""Independent reference for KVCompose (kvpress kvcompose_press.py, arXiv:2509.05165).

Writes a tiny random-weight Qwen2 checkpoint (make_model_fixtures.py's qwen2_tied) into
OUTDIR, prefills a random context in float64 and follows kvpress's KVComposePress as
read: the context ids are fed again after the prefilled cache (eager attention over the
cache and their own keys, causal); every query head aggregates the attention of those
rows on the cached entries (agg_task: max or mean over rows); each kv-head takes the
agg_group of its query heads; the layer's mean over kv-heads is added. Composite curves:
each head's scores sorted descending, their agg_head over a layer's kv-heads, layer 0
replaced by the max over layers; the top max(1, int(numel (1 - r))) composite values are
counted per layer (structured, at least 1) or per head (unstructured); each head keeps
its best scores. Ties go to the earlier index (stable sorts; kvpress's topk leaves them
unspecified). Writes expected.json with each case's scores and kept positions. Shares no
code with the C++ (the float64 forward is kvzip_reference.py's).

usage: kvcompose_reference.py OUTDIR
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_model_fixtures as fx  # noqa: E402
from kvzip_reference import Model  # noqa: E402  (the float64 forward with a layer hook)

CONTEXT = 37


def reread_attention(model, context):
    """Per layer [heads, t_rows, T]: the re-read rows' attention on the cached entries."""
    nh, nkv, hd = model.nh, model.nkv, model.hd
    t = len(context)
    cache = model.forward(context, 0, None)
    out = {}

    def hook(layer, q, keys):
        n = keys.shape[1]
        kk = keys.repeat_interleave(nh // nkv, 0)
        logits = q @ kk.transpose(1, 2) / math.sqrt(hd)
        logits[:, :, t:] += torch.full((t, t), float("-inf"), dtype=torch.float64).triu(1)
        assert n == 2 * t
        out[layer] = torch.softmax(logits, -1)[:, :, :t]

    model.forward(context, t, cache, hook)
    return [out[l] for l in range(len(out))], cache


def aggregate(x, how, dim):
    return x.amax(dim) if how == "max" else x.mean(dim)


def kvcompose(model, attn, cache, ratio, structured, agg_task="max", agg_group="mean",
              agg_head="mean", add_v_norm=False, add_mean=True):
    nh, nkv = model.nh, model.nkv
    layers = len(attn)
    t = attn[0].shape[-1]
    scores = torch.zeros(layers, nkv, t, dtype=torch.float64)
    for l in range(layers):
        per_head = aggregate(attn[l], agg_task, 1)  # [heads, T]
        s = aggregate(per_head.view(nkv, nh // nkv, t), agg_group, 1)
        if add_v_norm:
            s = s * cache[l][1].norm(dim=-1)
        if add_mean:
            s = s + s.mean(0, keepdim=True)
        scores[l] = s
    per_head = torch.sort(scores, dim=-1, descending=True).values
    per_layer = aggregate(per_head, agg_head, 1)
    per_layer[0] = per_layer.max(0).values
    budget = per_layer if structured else per_head
    n = max(1, int(budget.numel() * (1 - ratio)))
    order = torch.sort(budget.reshape(-1), descending=True, stable=True).indices[:n]
    counts = torch.bincount(order // t, minlength=budget.numel() // t)
    if structured:
        counts = counts.clamp(min=1)[:, None].expand(layers, nkv)
    counts = counts.reshape(layers, nkv)
    kept = []
    for l in range(layers):
        heads = []
        for h in range(nkv):
            best = torch.sort(scores[l, h], descending=True, stable=True).indices
            heads.append(sorted(int(i) for i in best[:int(counts[l, h])]))
        kept.append(heads)
    return scores, kept


def main():
    out = sys.argv[1]
    cfg = fx.families()["qwen2_tied"]
    gen = torch.Generator().manual_seed(2509)
    weights = fx.make_weights(cfg, gen)
    os.makedirs(out, exist_ok=True)
    fx.write_safetensors(os.path.join(out, "model.safetensors"), weights, "F32")
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    context = torch.randint(0, cfg["vocab_size"], (CONTEXT,), generator=gen).tolist()
    model = Model(cfg, weights)
    attn, cache = reread_attention(model, context)
    cases = []
    for spec, kwargs in [("kvcompose", {}),
                         ("kvcompose:structured=false", {"structured": False}),
                         ("kvcompose:agg_task=mean,agg_group=max,add_v_norm=true",
                          {"agg_task": "mean", "agg_group": "max", "add_v_norm": True})]:
        for ratio in (0.3, 0.7):
            args = dict({"structured": True}, **kwargs)
            scores, kept = kvcompose(model, attn, cache, ratio, **args)
            cases.append({"spec": spec, "ratio": ratio, "scores": scores.tolist(),
                          "kept": kept})
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"context": context, "cases": cases}, f)
    print(json.dumps({"cases": len(cases)}))


if __name__ == "__main__":
    main()
