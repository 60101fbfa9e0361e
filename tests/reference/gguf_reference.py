#!/usr/bin/python3
"""An independent reader of the GGUF files KVLens writes (tst_ggufexport, tst_clillamacpp).

    gguf_reference.py MODEL.gguf MODEL_DIR

MODEL_DIR holds config.json, model.safetensors and tokenizer.json of the same model (the
same seed). Reads the GGUF by hand from the format's description (magic, version,
counts, typed metadata, tensor table, aligned data), with struct and array only, and
checks it against the safetensors file read the same way: llama.cpp's names for every
tensor and no other, the shapes in GGML order, the dtypes (matrices as stored, vectors
F32), offsets aligned and packed, every value equal (after the Q/K row interleaving
llama.cpp's rope layout needs for the llama architecture, and the llama3 rope divisors
recomputed here), the hyperparameters against config.json and the vocabulary against
tokenizer.json. Prints one JSON line with what it checked; exits 1 with the first
mismatch.
"""
import array
import json
import math
import struct
import sys


def fail(message):
    sys.stderr.write("gguf_reference: " + message + "\n")
    sys.exit(1)


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        value = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return value[0] if len(value) == 1 else value

    def string(self):
        n = self.take("Q")
        s = self.data[self.pos:self.pos + n].decode("utf-8")
        self.pos += n
        return s

    SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q",
               11: "q", 12: "d"}

    def value(self, kind):
        if kind in self.SCALARS:
            return self.take(self.SCALARS[kind])
        if kind == 8:
            return self.string()
        if kind == 9:
            inner, n = self.take("I"), self.take("Q")
            return [self.value(inner) for _ in range(n)]
        fail("unknown metadata type %d at byte %d" % (kind, self.pos))


def read_gguf(path):
    data = open(path, "rb").read()
    r = Reader(data)
    if data[:4] != b"GGUF":
        fail("%s: no GGUF magic" % path)
    r.pos = 4
    version, n_tensors, n_kv = r.take("I"), r.take("Q"), r.take("Q")
    meta, kinds = {}, {}
    for _ in range(n_kv):
        key = r.string()
        kind = r.take("I")
        if key in meta:
            fail("metadata key %s twice" % key)
        meta[key] = r.value(kind)
        kinds[key] = kind
    tensors = []
    for _ in range(n_tensors):
        name = r.string()
        n_dims = r.take("I")
        dims = [r.take("Q") for _ in range(n_dims)]
        tensors.append({"name": name, "dims": dims, "type": r.take("I"), "offset": r.take("Q")})
    alignment = meta.get("general.alignment", 32)
    data_start = (r.pos + alignment - 1) // alignment * alignment
    if any(data[r.pos:data_start]):
        fail("non-zero padding before the data section")
    return data, version, meta, kinds, tensors, alignment, data_start


GGML = {0: ("F32", 4), 1: ("F16", 2), 30: ("BF16", 2)}


def floats(raw, dtype):
    """Values of raw little-endian bytes as a list of Python floats."""
    if dtype == "F32":
        return array.array("f", raw).tolist()
    if dtype == "F16":
        return list(struct.unpack("<%de" % (len(raw) // 2), raw))
    if dtype == "BF16":
        high = array.array("H", raw)
        widened = array.array("I", (h << 16 for h in high))
        return array.array("f", widened.tobytes()).tolist()
    fail("dtype %s" % dtype)


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<Q", data, 0)[0]
    header = json.loads(data[8:8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, t in header.items():
        begin, end = t["data_offsets"]
        out[name] = (t["dtype"], t["shape"], floats(data[8 + n + begin:8 + n + end], t["dtype"]))
    return out


LAYER_PARTS = {
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight", "self_attn.q_proj.bias": "attn_q.bias",
    "self_attn.k_proj.weight": "attn_k.weight", "self_attn.k_proj.bias": "attn_k.bias",
    "self_attn.v_proj.weight": "attn_v.weight", "self_attn.v_proj.bias": "attn_v.bias",
    "self_attn.o_proj.weight": "attn_output.weight",
    "self_attn.q_norm.weight": "attn_q_norm.weight",
    "self_attn.k_norm.weight": "attn_k_norm.weight",
    "post_attention_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight", "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
}


def gguf_name(hf):
    top = {"model.embed_tokens.weight": "token_embd.weight",
           "model.norm.weight": "output_norm.weight", "lm_head.weight": "output.weight"}
    if hf in top:
        return top[hf]
    parts = hf.split(".", 3)
    if parts[0] != "model" or parts[1] != "layers" or parts[3] not in LAYER_PARTS:
        fail("unexpected safetensors tensor %s" % hf)
    return "blk.%s.%s" % (parts[2], LAYER_PARTS[parts[3]])


def interleave(values, rows, cols, heads):
    """Rows of each head from [first half; second half] to pairs (i, i + half)."""
    head_dim = rows // heads
    half = head_dim // 2
    out = []
    for h in range(heads):
        for j in range(half):
            for part in (0, 1):
                row = h * head_dim + part * half + j
                out.extend(values[row * cols:(row + 1) * cols])
    return out


def llama3_divisors(config):
    """llama.cpp's rope_freqs: base frequency over the llama3-scaled one."""
    s = config["rope_scaling"]
    dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    factor, low, high = s["factor"], s.get("low_freq_factor", 1.0), s.get("high_freq_factor", 4.0)
    old = s.get("original_max_position_embeddings", 8192)
    out = []
    for i in range(0, dim, 2):
        wavelen = 2 * math.pi * config.get("rope_theta", 10000.0) ** (i / dim)
        if wavelen < old / high:
            out.append(1.0)
        elif wavelen > old / low:
            out.append(factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            out.append(1.0 / ((1 - smooth) / factor + smooth))
    return out


def main():
    gguf_path, model_dir = sys.argv[1], sys.argv[2]
    config = json.load(open(model_dir + "/config.json"))
    tokenizer = json.load(open(model_dir + "/tokenizer.json"))
    data, version, meta, kinds, tensors, alignment, data_start = read_gguf(gguf_path)
    if version != 3:
        fail("version %d" % version)
    if alignment != 32:
        fail("alignment %d" % alignment)

    model_type = config["model_type"]
    arch = {"llama": "llama", "mistral": "llama", "qwen2": "qwen2", "qwen3": "qwen3"}[model_type]
    if meta.get("general.architecture") != arch:
        fail("architecture %r, expected %s" % (meta.get("general.architecture"), arch))
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    expected = {
        "context_length": config["max_position_embeddings"],
        "embedding_length": config["hidden_size"],
        "block_count": config["num_hidden_layers"],
        "feed_forward_length": config["intermediate_size"],
        "attention.head_count": config["num_attention_heads"],
        "attention.head_count_kv": config["num_key_value_heads"],
        "attention.key_length": head_dim,
        "rope.dimension_count": head_dim,
        "vocab_size": config["vocab_size"],
    }
    for key, value in expected.items():
        if meta.get(arch + "." + key) != value or kinds[arch + "." + key] != 4:
            fail("%s.%s = %r, expected uint32 %r" % (arch, key, meta.get(arch + "." + key), value))
    for key, value in (("attention.layer_norm_rms_epsilon", config["rms_norm_eps"]),
                       ("rope.freq_base", config.get("rope_theta", 10000.0))):
        got = meta.get(arch + "." + key)
        if kinds.get(arch + "." + key) != 6 or abs(got - value) > 1e-6 * abs(value):
            fail("%s.%s = %r, expected float32 %r" % (arch, key, got, value))

    # The vocabulary: one token per embedding row, tokenizer.json's where it has one.
    tokens, types = meta["tokenizer.ggml.tokens"], meta["tokenizer.ggml.token_type"]
    if meta["tokenizer.ggml.model"] != "gpt2":
        fail("tokenizer model %r" % meta["tokenizer.ggml.model"])
    if len(tokens) != config["vocab_size"] or len(types) != len(tokens):
        fail("%d tokens, %d types for %d rows" % (len(tokens), len(types), config["vocab_size"]))
    if len(set(tokens)) != len(tokens):
        fail("token names are not unique")
    vocab = dict(tokenizer["model"]["vocab"])
    for t in tokenizer.get("added_tokens", []):
        vocab[t["content"]] = t["id"]
        if types[t["id"]] != (3 if t.get("special") else 4):
            fail("added token %r has type %d" % (t["content"], types[t["id"]]))
    for text, i in vocab.items():
        if tokens[i] != text:
            fail("token %d is %r, tokenizer.json says %r" % (i, tokens[i], text))
    unused = [i for i in range(len(tokens)) if i not in set(vocab.values())]
    if any(types[i] != 5 or not tokens[i].startswith("[PAD") for i in unused):
        fail("an unused row is not an unused [PAD] token")
    if len(meta["tokenizer.ggml.merges"]) != len(tokenizer["model"]["merges"]):
        fail("merges")

    # The tensor table: aligned, packed in order, inside the file.
    end = 0
    for t in tensors:
        dtype, size = GGML.get(t["type"], (None, 0))
        if dtype is None:
            fail("%s has GGML type %d" % (t["name"], t["type"]))
        t["dtype"] = dtype
        t["bytes"] = size * math.prod(t["dims"])
        if t["offset"] % alignment or t["offset"] != (end + alignment - 1) // alignment * alignment:
            fail("%s at offset %d (previous tensor ended at %d)" % (t["name"], t["offset"], end))
        end = t["offset"] + t["bytes"]
    if data_start + (end + alignment - 1) // alignment * alignment != len(data):
        fail("file size %d, tensors end at %d" % (len(data), data_start + end))

    by_name = {t["name"]: t for t in tensors}
    safetensors = read_safetensors(model_dir + "/model.safetensors")
    wanted = {gguf_name(n) for n in safetensors}
    scaling = config.get("rope_scaling") or {}
    if scaling.get("rope_type", scaling.get("type")) == "llama3":
        wanted.add("rope_freqs.weight")
        t = by_name.get("rope_freqs.weight")
        got = floats(data[data_start + t["offset"]:data_start + t["offset"] + t["bytes"]], "F32")
        if any(abs(a - b) > 1e-5 * abs(b) for a, b in zip(got, llama3_divisors(config))):
            fail("rope_freqs.weight %r" % got)
    if set(by_name) != wanted:
        fail("tensors %s, expected %s" % (sorted(set(by_name) ^ wanted), "none of them"))

    compared = 0
    for hf, (dtype, shape, values) in safetensors.items():
        t = by_name[gguf_name(hf)]
        if t["dims"] != list(reversed(shape)):
            fail("%s dims %s for shape %s" % (t["name"], t["dims"], shape))
        want_dtype = dtype if len(shape) >= 2 else "F32"
        if t["dtype"] != want_dtype:
            fail("%s is %s, expected %s" % (t["name"], t["dtype"], want_dtype))
        got = floats(data[data_start + t["offset"]:data_start + t["offset"] + t["bytes"]], t["dtype"])
        if arch == "llama" and (".q_proj." in hf or ".k_proj." in hf):
            heads = config["num_attention_heads"] if ".q_proj." in hf else config["num_key_value_heads"]
            cols = shape[1] if len(shape) == 2 else 1
            values = interleave(values, shape[0], cols, heads)
        if got != values:
            i = next(i for i, (a, b) in enumerate(zip(got, values)) if a != b)
            fail("%s differs at element %d: %r, safetensors %r" % (t["name"], i, got[i], values[i]))
        compared += len(values)
    print(json.dumps({"ok": True, "architecture": arch, "tensors": len(tensors),
                      "values": compared, "tokens": len(tokens), "keys": len(meta)}))


main()
