#pragma once

#include "cache/compressioninput.h"

#include <QString>

namespace kvl {

// What a press that runs the model again after the prefill (KVzip, KVCompose) checks
// first: the model and the context's token ids are given (and the tokenized repeat
// prompts when `needsRepeatPrompts`), and the ids cover the cache. Throws kvl::Error
// naming the press spec; `pressName` says which rule needs them.
void requireModelPass(const CompressionInput& input, const QString& spec, const QString& pressName,
                      bool needsRepeatPrompts);

} // namespace kvl
