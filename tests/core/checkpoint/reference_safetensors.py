#!/usr/bin/python3
"""Independent safetensors writer/reader for tst_safetensorsreference (numpy only, no
safetensors package): follows the format spec byte by byte.

  reference_safetensors.py write OUT.safetensors   writes the reference tensors
  reference_safetensors.py check IN.safetensors    checks a file kvlens wrote; prints OK
"""
import json
import struct
import sys

import numpy as np

DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2", "I64": "<i8", "I32": "<i4",
          "I16": "<i2", "I8": "i1", "U8": "u1", "BOOL": "?"}


def reference_tensors():
    """(name, dtype, shape, numpy array) in the order they are laid out."""
    t = [
        ("u8", "U8", [1, 3], np.array([0, 255, 128], dtype=np.uint8)),  # 3 bytes: misaligns the rest
        ("f32", "F32", [2, 3], np.arange(6, dtype=np.float32) * 0.5 - 1.25),
        ("f64", "F64", [3], np.array([1.0 / 3.0, -2.5e300, 1e-300], dtype=np.float64)),
        ("i64", "I64", [4], np.array([-(2**40) - 3, 0, 2**62 + 1, -1], dtype=np.int64)),
        ("i32", "I32", [2, 2], np.array([-2**31, 2**31 - 1, 7, -7], dtype=np.int32)),
        ("i16", "I16", [3], np.array([-32768, 32767, -2], dtype=np.int16)),
        ("i8", "I8", [3], np.array([-128, 127, -1], dtype=np.int8)),
        ("bool", "BOOL", [4], np.array([True, False, False, True])),
        ("scalar", "F32", [], np.array(3.5, dtype=np.float32)),
        ("empty", "F32", [0, 4], np.zeros((0, 4), dtype=np.float32)),
        ("f16", "F16", [4], np.array([1.0, -2.0, 65504.0, 2.0**-24], dtype=np.float16)),
        ("bf16", "BF16", [3], np.array([0x3F80, 0xC040, 0x4049], dtype=np.uint16)),
    ]
    # Every half and bfloat16 bit pattern with numpy's float32 widening of it.
    every = np.arange(65536, dtype=np.uint32)
    t.append(("f16_all", "F16", [65536], every.astype(np.uint16).view(np.float16)))
    t.append(("f16_all_as_f32", "F32", [65536], every.astype(np.uint16).view(np.float16).astype(np.float32)))
    t.append(("bf16_all", "BF16", [65536], every.astype(np.uint16)))
    t.append(("bf16_all_as_f32", "F32", [65536], (every << 16).view(np.float32)))
    # float32 values across the half range (subnormal to overflow), with numpy's
    # round-to-nearest-even narrowing as the reference.
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(4096) * np.exp2(rng.integers(-30, 20, 4096))).astype(np.float32)
    x[:8] = np.array([1 + 2**-11, 1 + 3 * 2**-11, 65519, 65520, 2**-25, 3 * 2**-25, -0.0, 1e-10], dtype=np.float32)
    t.append(("f32_random", "F32", [4096], x))
    with np.errstate(over="ignore"):  # overflow to infinity is part of the test
        t.append(("f32_random_as_f16", "F16", [4096], x.astype(np.float16)))
    try:  # torch's bfloat16 narrowing, when available, as an independent reference
        import torch
        bf = torch.from_numpy(x.copy()).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
        t.append(("f32_random_as_bf16", "BF16", [4096], bf))
    except ImportError:
        pass
    return t


def write(path):
    header = {"__metadata__": {"format": "pt", "writer": "numpy"}}
    data = b""
    for name, dtype, shape, array in reference_tensors():
        assert array.dtype == np.dtype(DTYPES[dtype]), name
        raw = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    if len(text) % 2 == 0:  # odd length on purpose: the data starts misaligned
        text += b" "
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def check(path):
    """What tst_safetensorsreference::writerMatchesPython writes."""
    blob = open(path, "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    assert n % 8 == 0, "header length %d not padded to 8" % n
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    assert header.pop("__metadata__") == {"origin": "kvlens"}
    spans = []
    for name, info in header.items():
        begin, end = info["data_offsets"]
        item = np.dtype(DTYPES[info["dtype"]]).itemsize
        assert begin % item == 0, name + " misaligned"
        assert end - begin == int(np.prod(info["shape"], dtype=np.int64)) * item, name + " size"
        spans.append((begin, end))
    spans.sort()
    assert spans[0][0] == 0 and spans[-1][1] == len(data), "data not fully covered"
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), "holes or overlaps"

    def get(name, dtype, shape):
        info = header[name]
        assert info["dtype"] == dtype and info["shape"] == shape, name
        begin, end = info["data_offsets"]
        return np.frombuffer(data[begin:end], dtype=DTYPES[dtype]).reshape(shape)

    assert (get("f32", "F32", [2, 3]).ravel() == np.arange(6, dtype=np.float32) * 0.5 - 1.25).all()
    assert (get("i64", "I64", [2]) == np.array([-(2**40) - 3, 2**62 + 1])).all()
    assert (get("u8", "U8", [3]) == np.array([0, 255, 128])).all()
    assert (get("f16", "F16", [2]) == np.array([1.5, -65504.0], dtype=np.float16)).all()
    assert (get("bf16", "BF16", [2]) == np.array([0x3F80, 0xC040])).all()
    assert (get("bool", "BOOL", [3]) == np.array([True, False, True])).all()
    print("OK")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
