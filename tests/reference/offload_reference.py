#!/usr/bin/python3
"""Independent reference for ShadowKV retrieval (issue 19), written from the offloading
study's ShadowKVCache (yandex-research/context-intensive-kv-offloading,
shadowkv-models/shadowkv_models/kv_cache.py) as read: prefill_kv_cache and
get_retrieval_position_ids, one layer, batch 1, in float64.

Context of T tokens split as [chunks * CHUNK | local]: the last LOCAL tokens are always
attended; the rest is cut in chunks of CHUNK tokens; landmark = mean post-RoPE key per
chunk; the OUTLIERS // CHUNK chunks per kv-head with the lowest minimum cosine similarity
between their keys and their landmark are always attended and leave the ranking; each
query head scores the remaining chunks softmax(q . landmark / sqrt(d)), summed over the
step's query rows (one row per decoding step here), max over the kv-head's GQA group;
the SPARSE // CHUNK best chunks are retrieved. KVLens counts local and outliers inside
its budget, so its budget is LOCAL + OUTLIERS + SPARSE.

Writes into OUTDIR: keys.npy [kv, T, d] (post-RoPE), queries.npy [heads, rows, d] and
expected.json with, per kv-head and query row, the attended context positions. Shares no
code with the C++.

usage: offload_reference.py OUTDIR
"""
import json
import math
import os
import sys

import numpy as np
import torch

KV, HEADS, T, D, ROWS = 2, 4, 200, 8, 3
CHUNK, LOCAL, OUTLIERS, SPARSE = 8, 32, 16, 48


def selection(keys, queries):
    group = HEADS // KV
    chunks = T // CHUNK - LOCAL // CHUNK
    ctx = keys[:, : chunks * CHUNK].reshape(KV, chunks, CHUNK, D)
    landmarks = ctx.mean(dim=2)  # [kv, chunks, d]
    cos = torch.nn.functional.cosine_similarity(
        landmarks.unsqueeze(2).expand(-1, -1, CHUNK, -1), ctx, dim=-1
    )  # [kv, chunks, CHUNK]
    outlier_idx = cos.min(dim=-1).values.topk(OUTLIERS // CHUNK, largest=False).indices
    keep = torch.ones(KV, chunks, dtype=torch.bool)
    keep.scatter_(1, outlier_idx, False)
    rest = [torch.arange(chunks)[keep[h]] for h in range(KV)]
    out = []
    for h in range(KV):
        lm = landmarks[h, rest[h]]  # [rest, d]
        per_row = []
        for r in range(ROWS):
            q = queries[h * group : (h + 1) * group, r]  # [group, d]
            attn = torch.softmax(q @ lm.T / math.sqrt(D), dim=-1)  # [group, rest]
            score = attn.max(dim=0).values  # one row: the sum over rows is the row
            best = rest[h][score.topk(SPARSE // CHUNK).indices]
            positions = set(range(chunks * CHUNK, T))
            for c in outlier_idx[h].tolist() + best.tolist():
                positions.update(range(c * CHUNK, (c + 1) * CHUNK))
            per_row.append(sorted(positions))
        out.append(per_row)
    return out


def main():
    outdir = sys.argv[1]
    gen = torch.Generator().manual_seed(20261201)
    keys = torch.randn(KV, T, D, generator=gen, dtype=torch.float64)
    # A few chunks with one stray key, so the outlier rule has something to find.
    for h, c in ((0, 3), (0, 11), (1, 5), (1, 17)):
        keys[h, c * CHUNK + 2] *= -4.0
    queries = torch.randn(HEADS, ROWS, D, generator=gen, dtype=torch.float64)
    keys32 = keys.float().double()  # the C++ side reads float32
    queries32 = queries.float().double()
    np.save(os.path.join(outdir, "keys.npy"), keys32.numpy())
    np.save(os.path.join(outdir, "queries.npy"), queries32.numpy())
    expected = {
        "chunk": CHUNK,
        "local": LOCAL,
        "outliers": OUTLIERS,
        "budget": LOCAL + OUTLIERS + SPARSE,
        "selected": selection(keys32, queries32),
    }
    with open(os.path.join(outdir, "expected.json"), "w") as f:
        json.dump(expected, f)


if __name__ == "__main__":
    main()
