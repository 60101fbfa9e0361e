#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/<target>/: a few small valid inputs
of each format and a few broken ones. Standard library only.

    make_corpus.py [RUN.kvl]

The valid run-file seeds (run_*) come from a real run file written by KVLens: given
one, it is copied, shrunk to 512-byte pages, and stamped with its own, an older and a
newer schema version; without one, the run_* files already in the corpus stay.
run_v2 is a real schema-2 file (no checksums) kept from before version 3: the migration's seed."""
import json
import os
import shutil
import sqlite3
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
OUT = os.path.join(HERE, "corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def safetensors(header, payload):
    h = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(h)) + h + payload


def corpus_safetensors():
    t = "fuzz_safetensors"
    put(t, "valid_f32", safetensors({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}},
                                    struct.pack("<2f", 1.5, -2)))
    put(t, "valid_mixed", safetensors(
        {"__metadata__": {"format": "pt"},
         "b": {"dtype": "BF16", "shape": [2, 2], "data_offsets": [8, 16]},
         "a": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]},
         "s": {"dtype": "BOOL", "shape": [], "data_offsets": [16, 17]}}, bytes(range(17))))
    put(t, "valid_empty_tensor", safetensors({"e": {"dtype": "F16", "shape": [0, 3],
                                                    "data_offsets": [0, 0]}}, b""))
    put(t, "bad_overlap", safetensors({"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]},
                                       "b": {"dtype": "U8", "shape": [4], "data_offsets": [2, 6]}},
                                      bytes(6)))
    put(t, "bad_outside", safetensors({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}},
                                      bytes(8)))
    put(t, "bad_huge_shape", safetensors(
        {"a": {"dtype": "F64", "shape": [4294967296, 4294967296], "data_offsets": [0, 8]}}, bytes(8)))
    put(t, "bad_header_length", struct.pack("<Q", 2 ** 63 + 5) + b"{}")
    put(t, "bad_truncated", b"\x10\x00\x00")


def corpus_hfconfig():
    t = "fuzz_hfconfig"
    for name in sorted(os.listdir(os.path.join(DATA, "checkpoint", "configs"))):
        shutil.copy(os.path.join(DATA, "checkpoint", "configs", name), os.path.join(OUT, t, name))
    put(t, "bad_divisibility.json", json.dumps({
        "architectures": ["LlamaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 3,
        "vocab_size": 300, "max_position_embeddings": 128, "rms_norm_eps": 1e-5}))
    put(t, "bad_rope.json", json.dumps({
        "architectures": ["Qwen3ForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
        "num_hidden_layers": 1, "num_attention_heads": 2, "head_dim": 0, "vocab_size": 10,
        "rope_scaling": {"rope_type": "yarn", "factor": -1}}))
    put(t, "bad_syntax.json", '{"architectures": [')


def byte_char(b):
    # GPT-2's bytes_to_unicode.
    keep = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    if b in keep:
        return chr(b)
    return chr(256 + sum(1 for x in range(b) if x not in keep))


def added(i, content, special):
    return {"id": i, "content": content, "single_word": False, "lstrip": False,
            "rstrip": False, "normalized": False, "special": special}


def byte_level():
    vocab = {byte_char(b): b for b in range(256)}
    extra = ["he", "ll", "hell", "hello", "\u0120w", "or", "\u0120wor", "ld"]
    vocab.update({s: 256 + i for i, s in enumerate(extra)})
    merges = ["h e", "l l", "he ll", "hell o", "\u0120 w", "o r", "\u0120w or", "l d"]
    bl = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    return {"version": "1.0",
            "added_tokens": [added(264, "<|end|>", True), added(265, "<t>", False)],
            "normalizer": None, "pre_tokenizer": bl, "post_processor": bl, "decoder": bl,
            "model": {"type": "BPE", "vocab": vocab, "merges": merges}}


def metaspace():
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    vocab.update({"<0x%02X>" % b: 3 + b for b in range(256)})
    vocab.update({s: 259 + i for i, s in enumerate(["\u2581", "a", "b", "\u2581a", "ab", "\u2581ab"])})
    return {
        "added_tokens": [added(0, "<unk>", True), added(1, "<s>", True), added(2, "</s>", True)],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first",
                          "split": False},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}}],
                           "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": True, "byte_fallback": True,
                  "vocab": vocab, "merges": ["\u2581 a", "a b", "\u2581a b"]}}


def corpus_tokenizer():
    t = "fuzz_tokenizer"
    put(t, "byte_level.json", json.dumps(byte_level(), ensure_ascii=False))
    put(t, "metaspace.json", json.dumps(metaspace(), ensure_ascii=False))
    bad = byte_level()
    bad["model"]["merges"].append("x nothere")
    put(t, "bad_merge.json", json.dumps(bad, ensure_ascii=False))
    bad = metaspace()
    bad["model"]["vocab"]["a"] = 5000
    put(t, "bad_sparse_ids.json", json.dumps(bad, ensure_ascii=False))
    put(t, "bad_model.json", '{"model": {"type": "WordPiece", "vocab": {}}}')


def corpus_encode():
    t = "fuzz_encode"
    put(t, "ascii", "hello world, hello again! 1234")
    put(t, "unicode", "naïve café — 日本語 🙂\t\n  x")
    put(t, "controls", b"\x00\x01\x7f\r\n\xff\xfe")
    put(t, "utf16_surrogates", "\ud800a\udc00".encode("utf-16-le", "surrogatepass"))


def corpus_samplejsonl():
    t = "fuzz_samplejsonl"
    shutil.copy(os.path.join(DATA, "tasks", "user_example.jsonl"), os.path.join(OUT, t, "user_example.jsonl"))
    with open(os.path.join(DATA, "tasks", "golden_char_seed42.jsonl"), "rb") as f:
        put(t, "golden_first.jsonl", f.readline())
    put(t, "bad_field.jsonl", '{"id": "x", "suite": "retrieval", "context": 5}\n')
    put(t, "bad_line2.jsonl", '\n{"id": "x"\n')


def corpus_experimentspec():
    t = "fuzz_experimentspec"
    put(t, "full.json", json.dumps({
        "model": "bundled",
        "samples": [{"suite": "retrieval", "n": 20, "tokens": "256:512", "seed": 1, "variant": ""},
                    {"jsonl": "data.jsonl"}],
        "compressors": ["snapkv", {"name": "AdaKV", "spec": "adakv(snapkv)"}],
        "ratios": [0.25, 0.5, 0.75],
        "interventions": [{"kind": "boost", "beta": 4, "on": "retained"},
                          {"kind": "sham", "beta": 4, "on": "low_ear"}],
        "seed": 1, "threads": 0, "max_new_tokens": 0,
        "store": {"masks": "all", "attention": "failures"}}))
    put(t, "minimal.json", json.dumps({"model": "bundled", "samples": [{"suite": "multihop", "n": 2}],
                                       "compressors": ["knorm"], "ratios": [0.5], "interventions": []}))
    put(t, "bad_ratio.json", json.dumps({"model": "m", "samples": [{"suite": "retrieval", "n": 1}],
                                         "compressors": ["tova"], "ratios": [1.5]}))
    put(t, "bad_tokens.json", json.dumps({"model": "m", "samples": [{"suite": "retrieval", "n": 1,
                                                                     "tokens": "9:1"}],
                                          "compressors": ["tova"]}))


def corpus_chattemplate():
    t = "fuzz_chattemplate"
    src = os.path.join(DATA, "chattemplate", "constructs")
    for name in sorted(os.listdir(src)):
        if name.endswith(".jinja"):
            shutil.copy(os.path.join(src, name), os.path.join(OUT, t, name))
    put(t, "chatml.jinja",
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] | trim }}<|im_end|>\n"
        "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
    put(t, "raise.jinja", "{% if messages[0].role != 'user' %}{{ raise_exception('user first') }}{% endif %}")
    put(t, "unclosed.jinja", "{% for m in messages %}{{ m.content ")


def corpus_runfile():
    t = "fuzz_runfile"
    d = os.path.join(OUT, t)
    os.makedirs(d, exist_ok=True)
    put(t, "empty", b"")
    put(t, "header_only", b"SQLite format 3\x00" + bytes(84))
    other = os.path.join(d, "other_app")
    if os.path.exists(other):
        os.remove(other)
    c = sqlite3.connect(other)
    c.execute("PRAGMA page_size=512")
    c.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)")
    c.execute("INSERT INTO notes(text) VALUES ('not a run')")
    c.commit()
    c.close()
    if len(sys.argv) > 1:
        src = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
        version = src.execute("PRAGMA user_version").fetchone()[0]
        for name, v in [("run_current", version), ("run_older", version - 1), ("run_newer", version + 1)]:
            path = os.path.join(d, name)
            if os.path.exists(path):
                os.remove(path)
            dst = sqlite3.connect(path)
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            dst.execute("PRAGMA page_size=512")
            dst.execute("VACUUM")
            dst.execute("PRAGMA user_version=%d" % v)
            dst.close()


if __name__ == "__main__":
    for f in [corpus_safetensors, corpus_hfconfig, corpus_tokenizer, corpus_encode,
              corpus_samplejsonl, corpus_experimentspec, corpus_chattemplate, corpus_runfile]:
        os.makedirs(os.path.join(OUT, f.__name__.replace("corpus_", "fuzz_")), exist_ok=True)
        f()
