#pragma once

#include "checkpoint/modelconfig.h"
#include "model/contextcache.h"

#include <QString>
#include <cstdint>
#include <map>
#include <vector>

namespace kvl {

class Rope;
class Transformer;
struct ModelWeights;
struct RepeatPrompts;

// A token range [begin, end) of the context (positions of the prefilled sequence,
// BOS included) with the role the runner gives it ("system_rule", "evidence", ...).
struct ContextSpan
{
    int64_t begin = 0;
    int64_t end = 0;
    QString role;
};

// Everything a press may read: the one prefill and the model it came from. Only
// `cache` and `config` are required; presses that need more (CriticalKV: weights,
// KeyRerotation: rope, whitelisting / fair eviction: spans, KVzip: the model, the ids
// and the repeat prompts) say so in their error.
// Scores already computed on this input, by scorer spec (Scorer::usesRatio() false):
// the ratios of one press in a sweep share one scoring.
using ScoreMemo = std::map<QString, at::Tensor>;

struct CompressionInput
{
    const ContextCache* cache = nullptr;
    const ModelConfig* config = nullptr;
    const ModelWeights* weights = nullptr;
    const Rope* rope = nullptr;
    std::vector<ContextSpan> spans;
    // Optional. A press that scores a derived input (a sub-cache, a stage's remainder)
    // passes nullptr there: the memo holds scores of this input only.
    ScoreMemo* scoreMemo = nullptr;
    // Optional, for presses that run the model again after the prefill (KVzip re-reads the
    // context): the model, the context's token ids and the tokenized repeat prompts.
    const Transformer* model = nullptr;
    const std::vector<int>* contextIds = nullptr;
    const RepeatPrompts* repeatPrompts = nullptr;

    int64_t length() const { return cache->length; }
    int layers() const { return int(cache->layers.size()); }
    int kvHeads() const { return config->numKvHeads; }
    int heads() const { return config->numHeads; }
    int headDim() const { return config->headDim; }
};

} // namespace kvl
