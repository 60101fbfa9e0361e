#pragma once

#include "train/trainer.h"

#include <QString>

namespace kvl::cli {

// Training sequences from the task generators (core/tasks), tokenized as the engine
// will see them at evaluation time: [bos] context question | answer [eos], with the
// answer and end token supervised.
TaskSequenceFn makeTaskSequenceFn(const QString& tokenizerPath);

} // namespace kvl::cli
