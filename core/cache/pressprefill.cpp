#include "cache/pressprefill.h"

#include "cache/press.h"
#include "model/transformer.h"

#include <algorithm>

namespace kvl {

PrefillOptions prefillOptionsFor(const std::vector<const Press*>& presses, int64_t length)
{
    int64_t window = 1;
    bool received = false;
    bool inputs = false;
    for (const Press* press : presses) {
        window = std::max(window, press->queryWindow(length));
        received = received || press->needsReceivedAttention();
        inputs = inputs || press->needsAttentionInputs();
    }
    PrefillOptions options;
    options.window = int(std::clamp<int64_t>(window, 1, std::max<int64_t>(length, 1)));
    options.receivedAttention = received;
    options.keepAttentionInputs = inputs;
    return options;
}

CompressionInput compressionInputFor(const Transformer& model, const ContextCache& cache,
                                     const std::vector<int>* contextIds,
                                     const RepeatPrompts* repeatPrompts)
{
    CompressionInput input;
    input.cache = &cache;
    input.config = &model.config();
    input.weights = &model.weights();
    input.rope = &model.rope();
    input.model = &model;
    input.contextIds = contextIds;
    input.repeatPrompts = repeatPrompts;
    return input;
}

} // namespace kvl
