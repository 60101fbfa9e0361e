#pragma once

#include "checkpoint/modelconfig.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace kvl {

// Reads a Hugging Face config.json into a validated ModelConfig. Throws kvl::Error
// naming the file and the field for: an unknown architecture (the message lists the
// supported ones), a missing or mistyped size, sizes that do not fit together (heads
// not divisible by kv heads, odd head_dim...), an unsupported rope_scaling type or
// activation. Follows the transformers defaults of each family: kv heads = heads,
// rope_theta 10000, tie_word_embeddings false, head_dim hidden / heads, Qwen2 q/k/v
// biases always on, Qwen3 q/k norms always on.
ModelConfig loadModelConfig(const QString& configJsonPath);
// Same, from an already parsed object; `path` only names the source in errors.
ModelConfig parseModelConfig(const QJsonObject& json, const QString& path);

// "LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM".
QStringList supportedArchitectures();
QString architectureClassName(Architecture architecture);
// model_type of the family: "llama", "mistral", "qwen2", "qwen3".
QString architectureFamily(Architecture architecture);

} // namespace kvl
