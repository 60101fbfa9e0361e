#pragma once

#include "checkpoint/ggufvocab.h"
#include "checkpoint/modelconfig.h"
#include "checkpoint/tensorview.h"

#include <QString>
#include <cstdint>

namespace kvl {

// Writes a Hugging Face model directory (config.json, model.safetensors) holding the
// weights randomModelWeights(config, seed, scale) gives, stored as `dtype` (F32, F16
// or BF16, rounded to nearest even): test and benchmark checkpoints of real shapes
// without a download. Tensors are drawn and narrowed one at a time, so the writer
// holds the file's bytes, not the float32 model. Throws kvl::Error naming the
// directory or file.
void writeRandomCheckpoint(const QString& dir, const ModelConfig& config, uint64_t seed,
                           DType dtype, double scale = 0.02);

// The same checkpoint as GGUF: config.json as above and model.gguf (llama.cpp's
// conventions, model/ggufmodelwriter.h) in place of model.safetensors, holding the same
// values for the same seed, with `vocab` as its vocabulary. Norms and biases are stored
// F32 (the values `dtype` rounds them to, widened back), as llama.cpp keeps them.
void writeRandomGguf(const QString& dir, const ModelConfig& config, uint64_t seed, DType dtype,
                     const GgufVocab& vocab, double scale = 0.02);

} // namespace kvl
