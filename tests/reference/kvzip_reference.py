#!/usr/bin/python3
"""Independent reference for KVzip (kvpress kvzip_press.py, Kim et al. 2025).

Writes a tiny random-weight Qwen2 checkpoint (make_model_fixtures.py's qwen2_tied: GQA,
q/k/v biases) into OUTDIR, prefills a random context in float64 and scores it the way
kvpress's KVzipPress does, as read: the context after the template prefix is cut into
CHUNK-token chunks; each is fed after the prefilled cache (never after another chunk) as
first-prompt + suffix + chunk, or later-prompt + the previous chunk's last 8 ids +
suffix + chunk; in every layer the fed tokens' post-RoPE queries attend, softmax over
[the first min(n_sink, start) keys, the chunk's cached keys, the fed tokens' own keys
(causal)]; an entry's score is the max over the GQA group and the fed rows; scores start
at 0 with the first n_sink set to 1. Then compress_post: a global threshold (the
max(int(N r) - 1, 0)-th smallest score; a layer drops every entry at or below it) or,
layerwise, int(kv T r) per layer, the lowest across the layer's heads dropped. Writes
expected.json: ids, prompts, scores [layers][kv][T] and kept positions per (layer, head)
for each case. The forward and the checkpoint are refmodel.py's; shares no code with
the C++.

usage: kvzip_reference.py OUTDIR
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refmodel  # noqa: E402  (the float64 Qwen2 forward and the random checkpoint)

CONTEXT = 45
CHUNK = 16
N_SINK = 4
PREFIX = 3
PREV_TAIL = 8


class Model(refmodel.Qwen2):
    """refmodel's forward over a given cache, with a hook on each layer's queries."""

    def forward(self, ids, start, cache, hook=None):
        """Feeds ids at positions start.. after `cache` (per layer (k, v) or None); returns
        the new (k, v) per layer. hook(layer, q, k_all) sees the post-RoPE queries and the
        keys the layer attends to (cache then new)."""
        rope = self.rope(start, len(ids))
        x = self.embed(ids)
        new = []
        for layer in range(self.layers):
            q, k, v = self.qkv(layer, x, rope)
            new.append((k, v))
            if cache is None:
                keys, values = k, v
            else:
                keys = torch.cat([cache[layer][0], k], 1)
                values = torch.cat([cache[layer][1], v], 1)
            if hook is not None:
                hook(layer, q, keys)
            _, attn = self.attend(q, keys, values)
            x = self.finish(layer, x, attn)
        return new


def kvzip_scores(model, context, first, later, suffix):
    cfg = model.cfg
    layers, nkv, nh, hd = cfg["num_hidden_layers"], model.nkv, model.nh, model.hd
    t = len(context)
    cache = model.forward(context, 0, None)
    score = torch.zeros(layers, nkv, t, dtype=torch.float64)
    score[..., :N_SINK] = 1.0
    body = context[PREFIX:]
    chunks = [body[i:i + CHUNK] for i in range(0, len(body), CHUNK)]
    start = PREFIX
    for i, chunk in enumerate(chunks):
        prompt = list(first) if i == 0 else list(later) + chunks[i - 1][-PREV_TAIL:]
        fed = prompt + list(suffix) + chunk
        end = start + len(chunk)
        sink = min(N_SINK, start)
        q_len = len(fed)

        def hook(layer, q, keys, start=start, end=end, sink=sink, q_len=q_len):
            sub = torch.cat([keys[:, :sink], keys[:, start:end], keys[:, -q_len:]], 1)
            qg = q.view(nkv, nh // nkv, q_len, hd)
            logits = qg @ sub[:, None].transpose(-1, -2) / math.sqrt(hd)
            logits[..., -q_len:] += torch.full((q_len, q_len), float("-inf"),
                                               dtype=torch.float64).triu(1)
            a = torch.softmax(logits, -1)[..., sink:sink + (end - start)]
            score[layer, :, start:end] = a.amax(dim=(1, 2))

        model.forward(fed, t, cache, hook)
        start = end
    return score


def select(score, ratio, layerwise):
    layers, nkv, t = score.shape
    if layerwise:
        pruned = [int(nkv * t * ratio)] * layers
    else:
        flat = torch.sort(score.reshape(-1)).values
        n = max(int(flat.numel() * ratio) - 1, 0)
        thres = flat[n].item()
        pruned = [int((score[l] <= thres).sum()) for l in range(layers)]
    kept = []
    for l in range(layers):
        order = torch.argsort(score[l].reshape(-1), stable=True)
        drop = set(int(i) for i in order[:pruned[l]])
        kept.append([[j for j in range(t) if h * t + j not in drop] for h in range(nkv)])
    return kept


def main():
    out = sys.argv[1]
    gen = torch.Generator().manual_seed(2505)
    cfg, weights = refmodel.write_random_checkpoint(out, gen)
    vocab = cfg["vocab_size"]
    context = torch.randint(0, vocab, (CONTEXT,), generator=gen).tolist()
    first = torch.randint(0, vocab, (5,), generator=gen).tolist()
    later = torch.randint(0, vocab, (7,), generator=gen).tolist()
    suffix = torch.randint(0, vocab, (2,), generator=gen).tolist()
    model = Model(cfg, weights)
    score = kvzip_scores(model, context, first, later, suffix)
    cases = []
    for ratio in (0.3, 0.6):
        for layerwise in (False, True):
            cases.append({"ratio": ratio, "layerwise": layerwise,
                          "kept": select(score, ratio, layerwise)})
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump({"context": context, "first": first, "later": later, "suffix": suffix,
                   "prefix": PREFIX, "chunk_size": CHUNK, "n_sink": N_SINK,
                   "scores": score.tolist(), "cases": cases}, f)
    print(json.dumps({"chunks": math.ceil((CONTEXT - PREFIX) / CHUNK)}))


if __name__ == "__main__":
    main()
