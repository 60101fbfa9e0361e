#pragma once

#include "checkpoint/modelconfig.h"
#include "checkpoint/tensorview.h"

#include <QString>
#include <memory>

namespace kvl {

// A Hugging Face model directory: config.json, model.safetensors or sharded
// model.safetensors.index.json, tokenizer.json (optional). Opens every shard
// memory-mapped; tensor() looks a name up across shards.
class CheckpointDir
{
public:
    static std::unique_ptr<CheckpointDir> open(const QString& dir);
    ~CheckpointDir();

    const QString& dir() const;
    const ModelConfig& config() const;
    QStringList tensorNames() const;
    bool contains(const QString& name) const;
    // Throws kvl::Error naming the file, the tensor and the problem, e.g. a missing
    // tensor or a shape other than `expectedShape` (when given).
    const TensorView& tensor(const QString& name, const std::vector<int64_t>& expectedShape = {}) const;
    QString tokenizerPath() const; // empty when the directory has no tokenizer.json
    // A stable identity of the weights (hash of the safetensors headers and sizes)
    // recorded in run files.
    QString identityHash() const;

private:
    CheckpointDir();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace kvl
