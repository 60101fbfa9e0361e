"""The float64 Qwen2 forward the press references share (decoding_reference.py,
cam_reference.py, kvzip_reference.py and, through kvzip's, kvcompose_reference.py).

Written from the transformers modelling code (make_model_fixtures.py's helpers: RMSNorm,
rotate_half RoPE, repeat_kv, eager attention, SwiGLU MLP), cut into the per-layer pieces
a press reference needs between them: the rotated q/k/v at given positions, eager
attention of those queries over any keys (the fed tokens causal among themselves, every
earlier entry visible), the layer's output given the attention output, and the head.
Each reference keeps its own cache and its own press around these. Also the random
checkpoint they all decode: make_model_fixtures.py's qwen2_tied (GQA, q/k/v biases) with
weights from a seeded generator, written to disk for the C++. Shares no code with the
C++.
"""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_model_fixtures as fx  # noqa: E402  (the HF-formula helpers and weights)


def write_random_checkpoint(out, gen):
    """Writes qwen2_tied with weights drawn from gen into out (model.safetensors, F32, and
    config.json); returns (cfg, float32 weights). gen is left after the weights' draws:
    the caller draws its ids from it next."""
    cfg = fx.families()["qwen2_tied"]
    weights = fx.make_weights(cfg, gen)
    os.makedirs(out, exist_ok=True)
    fx.write_safetensors(os.path.join(out, "model.safetensors"), weights, "F32")
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    return cfg, weights


class Qwen2:
    """The weights in float64 and the forward's pieces; holds no cache."""

    def __init__(self, cfg, weights):
        self.cfg = cfg
        self.w = {k: v.to(torch.float64) for k, v in weights.items()}
        self.nh, self.nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
        self.hd = fx.head_dim(cfg)
        self.inv = fx.inv_freq(cfg)
        self.eps = cfg["rms_norm_eps"]
        self.layers = cfg["num_hidden_layers"]

    def rope(self, start, t):
        """cos, sin [1, t, hd] for positions start .. start + t - 1."""
        positions = torch.arange(start, start + t, dtype=torch.float64)
        freqs = torch.outer(positions, self.inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[None], emb.sin()[None]

    def embed(self, ids):
        return self.w["model.embed_tokens.weight"][torch.tensor(ids)]

    def lin(self, p, v, name):
        out = v @ self.w[p + name + ".weight"].T
        if p + name + ".bias" in self.w:
            out = out + self.w[p + name + ".bias"]
        return out

    def qkv(self, layer, x, rope):
        """The layer's q [nh, t, hd] and k, v [nkv, t, hd] for hidden states x [t, hidden],
        q and k rotated by rope = self.rope(start, t)."""
        t, nh, nkv, hd = x.shape[0], self.nh, self.nkv, self.hd
        cos, sin = rope
        p = f"model.layers.{layer}."
        h = fx.rms_norm(x, self.w[p + "input_layernorm.weight"], self.eps)
        q = self.lin(p, h, "self_attn.q_proj").view(t, nh, hd).transpose(0, 1)
        k = self.lin(p, h, "self_attn.k_proj").view(t, nkv, hd).transpose(0, 1)
        v = self.lin(p, h, "self_attn.v_proj").view(t, nkv, hd).transpose(0, 1)
        q = q * cos + fx.rotate_half(q) * sin
        k = k * cos + fx.rotate_half(k) * sin
        return q, k, v

    def attend(self, q, keys, values):
        """Eager attention of q [nh, t, hd] over keys, values [nkv, n, hd] whose last t
        entries are the queries' own tokens (causal among them; every earlier entry
        visible). Returns the probabilities [nh, t, n] and the output [nh, t, hd]."""
        nh, nkv, hd = self.nh, self.nkv, self.hd
        t, n = q.shape[1], keys.shape[1]
        mask = torch.zeros(t, n, dtype=torch.float64)
        mask[:, n - t:] = torch.full((t, t), float("-inf"), dtype=torch.float64).triu(1)
        kk = keys.repeat_interleave(nh // nkv, 0)
        vv = values.repeat_interleave(nh // nkv, 0)
        probs = torch.softmax(q @ kk.transpose(1, 2) / math.sqrt(hd) + mask, -1)
        return probs, probs @ vv

    def finish(self, layer, x, attn):
        """The layer's output: x plus o_proj of the attention output [nh, t, hd], then the
        post-attention norm and the SwiGLU MLP's residual."""
        t, nh, hd = x.shape[0], self.nh, self.hd
        p = f"model.layers.{layer}."
        x = x + attn.transpose(0, 1).reshape(t, nh * hd) @ self.w[p + "self_attn.o_proj.weight"].T
        hh = fx.rms_norm(x, self.w[p + "post_attention_layernorm.weight"], self.eps)
        gate = hh @ self.w[p + "mlp.gate_proj.weight"].T
        up = hh @ self.w[p + "mlp.up_proj.weight"].T
        return x + (gate * torch.sigmoid(gate) * up) @ self.w[p + "mlp.down_proj.weight"].T

    def last_logits(self, x):
        """The final norm and the head (tied or not) on the last row of x."""
        x = fx.rms_norm(x, self.w["model.norm.weight"], self.eps)
        head = (self.w["model.embed_tokens.weight"] if self.cfg["tie_word_embeddings"]
                else self.w["lm_head.weight"])
        return x[-1] @ head.T


def extend(entry, k, v, start):
    """A layer's cache (keys, values [nkv, n, hd], positions [nkv, n]; None when empty)
    with k, v of the tokens at start .. appended."""
    nkv, t = k.shape[0], k.shape[1]
    new_pos = torch.arange(start, start + t).expand(nkv, t)
    if entry is None:
        return k, v, new_pos.clone()
    return (torch.cat([entry[0], k], 1), torch.cat([entry[1], v], 1),
            torch.cat([entry[2], new_pos], 1))


def sorted_positions(pos):
    """The positions [nkv, n] a layer keeps, each kv-head's in order, as lists."""
    return [sorted(int(i) for i in row) for row in pos]


def greedy(forward, context, question, max_new, compressions):
    """Greedy decoding: the context prefilled whole (forward(ids, False, ...)), then the
    question and each generated token fed back as decoding steps; returns the tokens."""
    forward(context, False, compressions)
    logits = forward(question, True, compressions)
    generated = []
    while True:
        token = int(logits.argmax())
        generated.append(token)
        if len(generated) >= max_new:
            return generated
        logits = forward([token], True, compressions)
