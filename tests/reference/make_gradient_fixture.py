#!/usr/bin/python3
"""Independent reference for the KVLens trainer's gradients.

For each of two layouts the trainer writes (llama: tied embeddings, GQA; qwen2: q/k/v
biases, untied), writes OUTDIR/LAYOUT/model/ (a tiny checkpoint), OUTDIR/LAYOUT/grads/
(the same layout, but each tensor holds d loss / d that weight) and OUTDIR/LAYOUT/batch.json
(two sequences of different lengths, per-token supervision flags, the pad id and the
loss). The loss is the trainer's: next-token cross-entropy averaged over supervised
targets, padding unsupervised. Forward and backward run in float64 through the Hugging
Face formulas of make_model_fixtures.py (autograd of PyTorch, no KVLens code).

usage: make_gradient_fixture.py OUTDIR
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model_fixtures import make_weights, reference_logits, write_safetensors  # noqa: E402


def configs():
    base = dict(hidden_act="silu", rms_norm_eps=1e-5, bos_token_id=1, eos_token_id=2,
                vocab_size=61, hidden_size=48, intermediate_size=80, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                rope_theta=10000.0, torch_dtype="float32")
    return {
        "llama": dict(base, architectures=["LlamaForCausalLM"], model_type="llama",
                      tie_word_embeddings=True),
        "qwen2": dict(base, architectures=["Qwen2ForCausalLM"], model_type="qwen2",
                      tie_word_embeddings=False),
    }


def main():
    for index, (name, cfg) in enumerate(configs().items()):
        write_case(os.path.join(sys.argv[1], name), cfg, 4321 + index)


def write_case(out, cfg, seed):
    gen = torch.Generator().manual_seed(seed)
    weights = make_weights(cfg, gen)
    for name in ("model", "grads"):
        os.makedirs(os.path.join(out, name), exist_ok=True)
        with open(os.path.join(out, name, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
    write_safetensors(os.path.join(out, "model", "model.safetensors"), weights, "F32")

    pad = 0
    lengths = (30, 21)
    rows, flags = [], []
    for n in lengths:
        rows.append(torch.randint(3, cfg["vocab_size"], (n,), generator=gen).tolist())
        # Position 0 is never a target; supervise about half of the rest.
        flags.append([0] + (torch.rand(n - 1, generator=gen) < 0.5).int().tolist())

    leaves = {k: v.to(torch.float64).requires_grad_(True) for k, v in weights.items()}
    total, count = torch.zeros((), dtype=torch.float64), 0
    for ids, sup in zip(rows, flags):
        logits = reference_logits(cfg, leaves, ids)  # [T, vocab]
        logp = torch.log_softmax(logits[:-1], dim=-1)
        for t in range(1, len(ids)):
            if sup[t]:
                total = total - logp[t - 1, ids[t]]
                count += 1
    loss = total / count
    loss.backward()
    grads = {k: v.grad.to(torch.float32) for k, v in leaves.items()}
    write_safetensors(os.path.join(out, "grads", "model.safetensors"), grads, "F32")
    with open(os.path.join(out, "batch.json"), "w") as f:
        json.dump({"ids": rows, "supervised": flags, "pad": pad, "loss": loss.item()}, f)
    print(json.dumps({"case": out, "loss": loss.item(), "targets": count}))


if __name__ == "__main__":
    main()
