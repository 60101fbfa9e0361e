#!/usr/bin/python3
"""Independent reference for the `hqq` press's quantizer (tests/core/compressors/tst_hqqquantizer).

Re-implements, in float32 torch on the CPU, HQQ's published zero-point optimiser as
mobiusml/hqq ships it as its default (hqq/core/optimize.py: optimize_weights_proximal =
optimize_weights_proximal_legacy, opt_params lp_norm 0.7, beta 10, kappa 1.01, 20
iterations) and the call around it in hqq/core/quantize.py Quantizer.quantize with
axis=1 (transformers' QuantizedCache(backend="hqq") recommends axis 1 for keys and
values): rows of `group` consecutive values, inverse scale (2^bits - 1) / (max - min)
clamped at 2e4, zero -min * scale; then the scale is inverted and scale and zero are
stored in fp16, and the tensor dequantizes as (W_q - zero) * scale, here in float32.
Shares no code with the C++.

usage: hqq_reference.py INPUT.npy BITS GROUP OUTPUT.npy OUTPUT.json
  INPUT.npy   float32 array whose size is a multiple of GROUP
  OUTPUT.npy  the dequantized array, same shape, float32
  OUTPUT.json {"iterations": loop passes run, "step": [fp16 step of each row]}
"""
import json
import sys

import numpy as np
import torch


def shrink(x, beta, p):
    # Generalised soft threshold of the l_p proximal operator.
    mag = torch.abs(x)
    if p == 1:
        return torch.sign(x) * torch.relu(mag - 1.0 / beta)
    return torch.sign(x) * torch.relu(mag - torch.pow(mag, p - 1) / beta)


def optimise_zero(w, scale, zero, top, p=0.7, beta=10.0, kappa=1.01, iters=20):
    best = 1e4
    passes = 0
    for _ in range(iters):
        codes = torch.clamp(torch.round(w * scale + zero), 0, top)
        back = (codes - zero) / scale
        err = shrink(w - back, beta, p)
        zero = torch.mean(codes - (w - err) * scale, dim=1, keepdim=True)
        beta *= kappa
        passes += 1
        now = float(torch.mean(torch.abs(w - back)))
        if now < best:
            best = now
        else:
            break
    return zero, passes


def main():
    src, bits, group, out_npy, out_json = sys.argv[1:6]
    bits, group = int(bits), int(group)
    x = np.load(src).astype(np.float32)
    w = torch.from_numpy(x).reshape(-1, group)
    top = float(2**bits - 1)
    lo = w.min(dim=1, keepdim=True).values
    hi = w.max(dim=1, keepdim=True).values
    scale = torch.clamp(top / (hi - lo), max=2e4)
    zero = -lo * scale
    zero, passes = optimise_zero(w, scale, zero, top)
    codes = torch.clamp(torch.round(w * scale + zero), 0, top)
    step16 = (1.0 / scale).half().float()
    zero16 = zero.half().float()
    deq = ((codes - zero16) * step16).reshape(x.shape)
    np.save(out_npy, deq.numpy().astype(np.float32))
    with open(out_json, "w") as f:
        json.dump({"iterations": passes, "step": step16.flatten().tolist()}, f)


if __name__ == "__main__":
    main()
