#pragma once

#include "checkpoint/modelconfig.h"
#include "checkpoint/tensorview.h"

#include <QString>
#include <memory>

namespace kvl {

// A Hugging Face model directory: config.json, model.safetensors or sharded
// model.safetensors.index.json, tokenizer.json (optional). Opens every shard
// memory-mapped; tensor() looks a name up across shards. open() throws kvl::Error
// naming the file for: no such directory, missing config.json (or a bad one, see
// loadModelConfig), no weights, a shard listed in the index that is missing, a tensor
// the index places in a shard that lacks it, a tensor stored in two files, and every
// safetensors problem SafetensorsFile::open reports.
class CheckpointDir
{
  public:
    static std::unique_ptr<CheckpointDir> open(const QString& dir);
    ~CheckpointDir();

    const QString& dir() const;
    QString configPath() const;
    const ModelConfig& config() const;
    // The safetensors files, relative to dir(), sorted.
    QStringList files() const;
    QStringList tensorNames() const; // sorted
    bool contains(const QString& name) const;
    // Throws kvl::Error naming the file, the tensor and the problem, e.g. a missing
    // tensor or a shape other than `expectedShape` (when given).
    const TensorView& tensor(const QString& name,
                             const std::vector<int64_t>& expectedShape = {}) const;
    QString tokenizerPath() const; // empty when the directory has no tokenizer.json
    // `chosen` when given (a --tokenizer option), else the directory's tokenizer.json;
    // throws kvl::Error naming the directory when there is neither.
    QString requireTokenizerPath(const QString& chosen = {}) const;
    // A stable identity of the weights (hash of the safetensors headers and sizes)
    // recorded in run files.
    QString identityHash() const;
    // Sum of the element counts of all tensors; with tie_word_embeddings an
    // lm_head.weight stored next to model.embed_tokens.weight is counted once.
    int64_t parameterCount() const;

  private:
    CheckpointDir();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace kvl
