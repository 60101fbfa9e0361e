#pragma once

#include <QString>
#include <optional>
#include <vector>

namespace kvl {

// Transformer families the engine runs. They share one layout (pre-norm decoder,
// RMSNorm, RoPE, GQA, SwiGLU) and differ in a few switches below.
enum class Architecture { Llama, Mistral, Qwen2, Qwen3 };

struct RopeScaling
{
    enum class Type { None, Linear, Llama3 };
    Type type = Type::None;
    double factor = 1.0;
    double lowFreqFactor = 1.0;              // llama3
    double highFreqFactor = 4.0;             // llama3
    int originalMaxPositionEmbeddings = 8192; // llama3
};

// What config.json says about a model, validated. Parsed by loadModelConfig()
// (hfconfigreader.h), which throws kvl::Error naming config.json and the field.
struct ModelConfig
{
    Architecture architecture = Architecture::Llama;
    QString architectureName; // as written in config.json, e.g. "Qwen3ForCausalLM"
    int vocabSize = 0;
    int hiddenSize = 0;
    int intermediateSize = 0;
    int numLayers = 0;
    int numHeads = 0;
    int numKvHeads = 0;
    int headDim = 0; // head_dim when given, else hidden / heads
    int maxPositionEmbeddings = 0;
    double rmsNormEps = 1e-6;
    double ropeTheta = 10000.0;
    RopeScaling ropeScaling;
    bool tieWordEmbeddings = false;
    bool attentionBias = false; // q/k/v biases (Qwen2)
    bool qkNorm = false;        // RMSNorm on q and k per head (Qwen3)
    std::optional<int> slidingWindow; // recorded (Mistral); contexts longer than it are rejected
    std::optional<int> bosTokenId;
    std::vector<int> eosTokenIds;
    QString torchDtype; // as written; products run in float32 unless --dtype asks otherwise
};

} // namespace kvl
