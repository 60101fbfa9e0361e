#!/usr/bin/python3
"""Independent reference for the KVLens transformer engine.

Writes tiny random-weight Hugging Face checkpoints of each supported family into
OUTDIR/<name>/ (config.json + model.safetensors, the safetensors bytes written by
hand), two broken checkpoints (broken_missing: a tensor left out; broken_shape: a
mis-shaped k_proj) and the logits the Hugging Face formulas give for a fixed id sequence
(expected.json + expected_logits.f32, float32 little-endian [T, vocab]).

The forward below is written from the transformers modelling code (LlamaRMSNorm,
rotate_half RoPE, _compute_llama3_parameters, repeat_kv, eager attention, SwiGLU
MLP), in float64, with a full [T, T] causal mask: it shares no code with the C++.

usage: make_model_fixtures.py OUTDIR
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

T = 40  # tokens in the fixed sequence


def families():
    base = dict(hidden_act="silu", rms_norm_eps=1e-6, bos_token_id=1, eos_token_id=2,
                initializer_range=0.02, use_cache=True)
    return {
        # Llama 3 style: llama3 rope scaling with all three frequency bands in play.
        "llama3": dict(base, architectures=["LlamaForCausalLM"], model_type="llama",
                       vocab_size=101, hidden_size=64, intermediate_size=96,
                       num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                       max_position_embeddings=128, rope_theta=10000.0,
                       rope_scaling={"rope_type": "llama3", "factor": 8.0,
                                     "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                     "original_max_position_embeddings": 32},
                       tie_word_embeddings=False, torch_dtype="float32"),
        # Mistral, stored in BF16.
        "mistral_bf16": dict(base, architectures=["MistralForCausalLM"], model_type="mistral",
                             vocab_size=89, hidden_size=64, intermediate_size=112,
                             num_hidden_layers=2, num_attention_heads=4,
                             num_key_value_heads=1, max_position_embeddings=256,
                             sliding_window=64, rope_theta=1000000.0,
                             tie_word_embeddings=False, torch_dtype="bfloat16"),
        # Qwen2: q/k/v biases, tied embeddings.
        "qwen2_tied": dict(base, architectures=["Qwen2ForCausalLM"], model_type="qwen2",
                           vocab_size=97, hidden_size=48, intermediate_size=80,
                           num_hidden_layers=3, num_attention_heads=6, num_key_value_heads=2,
                           max_position_embeddings=512, rope_theta=1000000.0,
                           use_sliding_window=False, sliding_window=4096,
                           tie_word_embeddings=True, torch_dtype="float32"),
        # Qwen3: per-head q/k RMSNorm, explicit head_dim (heads * head_dim != hidden),
        # linear rope scaling.
        "qwen3": dict(base, architectures=["Qwen3ForCausalLM"], model_type="qwen3",
                      vocab_size=103, hidden_size=64, intermediate_size=96, head_dim=32,
                      num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                      max_position_embeddings=512, rope_theta=1000000.0,
                      rope_scaling={"rope_type": "linear", "factor": 2.0},
                      attention_bias=False, tie_word_embeddings=False,
                      torch_dtype="float32"),
    }


def head_dim(cfg):
    return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]


def make_weights(cfg, gen):
    """HF-named float32 tensors."""
    h, i = cfg["hidden_size"], cfg["intermediate_size"]
    hd = head_dim(cfg)
    nq, nkv = cfg["num_attention_heads"] * hd, cfg["num_key_value_heads"] * hd
    arch = cfg["architectures"][0]

    def mat(*shape, std=0.15):
        return torch.randn(*shape, generator=gen, dtype=torch.float32) * std

    def norm(n):
        return 1.0 + 0.1 * torch.randn(n, generator=gen, dtype=torch.float32)

    w = {"model.embed_tokens.weight": mat(cfg["vocab_size"], h, std=0.5)}
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        w[p + "input_layernorm.weight"] = norm(h)
        w[p + "self_attn.q_proj.weight"] = mat(nq, h)
        w[p + "self_attn.k_proj.weight"] = mat(nkv, h)
        w[p + "self_attn.v_proj.weight"] = mat(nkv, h)
        if arch == "Qwen2ForCausalLM":
            w[p + "self_attn.q_proj.bias"] = mat(nq, std=0.3)
            w[p + "self_attn.k_proj.bias"] = mat(nkv, std=0.3)
            w[p + "self_attn.v_proj.bias"] = mat(nkv, std=0.3)
        w[p + "self_attn.o_proj.weight"] = mat(h, nq)
        if arch == "Qwen3ForCausalLM":
            w[p + "self_attn.q_norm.weight"] = norm(hd)
            w[p + "self_attn.k_norm.weight"] = norm(hd)
        w[p + "post_attention_layernorm.weight"] = norm(h)
        w[p + "mlp.gate_proj.weight"] = mat(i, h)
        w[p + "mlp.up_proj.weight"] = mat(i, h)
        w[p + "mlp.down_proj.weight"] = mat(h, i)
    w["model.norm.weight"] = norm(h)
    if not cfg["tie_word_embeddings"]:
        w["lm_head.weight"] = mat(cfg["vocab_size"], h, std=0.5)
    return w


def write_safetensors(path, tensors, dtype):
    """The format by hand: u64 LE header size, JSON header, raw LE data."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        if dtype == "BF16":
            data = t.to(torch.bfloat16).view(torch.int16).numpy().astype("<i2").tobytes()
        else:
            data = t.numpy().astype("<f4").tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def inv_freq(cfg):
    """transformers.modeling_rope_utils: default, linear and llama3."""
    dim = head_dim(cfg)
    base = cfg["rope_theta"]
    inv = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    scaling = cfg.get("rope_scaling")
    if not scaling:
        return inv
    kind = scaling.get("rope_type", scaling.get("type"))
    if kind == "linear":
        return inv / scaling["factor"]
    assert kind == "llama3"
    factor = scaling["factor"]
    low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
    old = scaling["original_max_position_embeddings"]
    low_wavelen, high_wavelen = old / low, old / high
    wavelen = 2 * math.pi / inv
    inv_l = torch.where(wavelen > low_wavelen, inv / factor, inv)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * inv_l / factor + smooth * inv_l
    medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
    return torch.where(medium, smoothed, inv_l)


def rms_norm(x, w, eps):
    return w * (x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def reference_logits(cfg, w, ids):
    """Eager HF forward in float64. Returns [T, vocab]."""
    w = {k: v.to(torch.float64) for k, v in w.items()}
    t = len(ids)
    nh, nkv, hd = cfg["num_attention_heads"], cfg["num_key_value_heads"], head_dim(cfg)
    eps = cfg["rms_norm_eps"]
    arch = cfg["architectures"][0]
    freqs = torch.outer(torch.arange(t, dtype=torch.float64), inv_freq(cfg))
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[None], emb.sin()[None]  # [1, T, hd]
    mask = torch.full((t, t), float("-inf"), dtype=torch.float64).triu(1)

    x = w["model.embed_tokens.weight"][torch.tensor(ids)]
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."

        def lin(v, name):
            out = v @ w[p + name + ".weight"].T
            if p + name + ".bias" in w:
                out = out + w[p + name + ".bias"]
            return out

        h = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = lin(h, "self_attn.q_proj").view(t, nh, hd).transpose(0, 1)   # [nh, T, hd]
        k = lin(h, "self_attn.k_proj").view(t, nkv, hd).transpose(0, 1)  # [nkv, T, hd]
        v = lin(h, "self_attn.v_proj").view(t, nkv, hd).transpose(0, 1)
        if arch == "Qwen3ForCausalLM":
            q = rms_norm(q, w[p + "self_attn.q_norm.weight"], eps)
            k = rms_norm(k, w[p + "self_attn.k_norm.weight"], eps)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(nh // nkv, dim=0)  # repeat_kv
        v = v.repeat_interleave(nh // nkv, dim=0)
        scores = q @ k.transpose(1, 2) / math.sqrt(hd) + mask
        attn = torch.softmax(scores, dim=-1) @ v  # [nh, T, hd]
        x = x + attn.transpose(0, 1).reshape(t, nh * hd) @ w[p + "self_attn.o_proj.weight"].T
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        gate = h @ w[p + "mlp.gate_proj.weight"].T
        up = h @ w[p + "mlp.up_proj.weight"].T
        act = gate * torch.sigmoid(gate)  # silu
        x = x + (act * up) @ w[p + "mlp.down_proj.weight"].T
    x = rms_norm(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else w["lm_head.weight"]
    return x @ head.T


def main():
    out = sys.argv[1]
    for index, (name, cfg) in enumerate(families().items()):
        gen = torch.Generator().manual_seed(1234 + index)
        directory = os.path.join(out, name)
        os.makedirs(directory, exist_ok=True)
        weights = make_weights(cfg, gen)
        dtype = "BF16" if cfg["torch_dtype"] == "bfloat16" else "F32"
        write_safetensors(os.path.join(directory, "model.safetensors"), weights, dtype)
        with open(os.path.join(directory, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
        if dtype == "BF16":  # the reference sees exactly the stored values
            weights = {k: v.to(torch.bfloat16).to(torch.float32) for k, v in weights.items()}
        ids = torch.randint(0, cfg["vocab_size"], (T,), generator=gen).tolist()
        logits = reference_logits(cfg, weights, ids)
        np.asarray(logits.numpy(), dtype="<f4").tofile(os.path.join(directory,
                                                                    "expected_logits.f32"))
        with open(os.path.join(directory, "expected.json"), "w") as f:
            json.dump({"ids": ids, "shape": list(logits.shape),
                       "logits": "expected_logits.f32"}, f)
    write_broken(out)
    print(json.dumps({"families": list(families().keys())}))


def write_broken(out):
    """Checkpoints the loader must reject with an error naming file and tensor."""
    cfg = families()["llama3"]
    for name in ("broken_missing", "broken_shape"):
        weights = make_weights(cfg, torch.Generator().manual_seed(7))
        if name == "broken_missing":
            del weights["model.layers.1.mlp.up_proj.weight"]
        else:
            weights["model.layers.0.self_attn.k_proj.weight"] = torch.zeros(64, 32)
        directory = os.path.join(out, name)
        os.makedirs(directory, exist_ok=True)
        write_safetensors(os.path.join(directory, "model.safetensors"), weights, "F32")
        with open(os.path.join(directory, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)


if __name__ == "__main__":
    main()
