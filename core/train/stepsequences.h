#pragma once

#include "tasks/rng.h"
#include "train/recallsequences.h"
#include "train/trainer.h"
#include "train/trainsequence.h"
#include "train/trainspec.h"

#include <vector>

namespace kvl {

class Tokenizer;

// The dense-recall source of a tokenizer: keys and values are ordinary tokens (never
// BOS, a stop token or another special "<|...|>" token), values spelled by its
// single-digit tokens when a stage asks for digit values.
RecallSequences recallSequencesFor(const Tokenizer& tokenizer, quint64 seed);

// The sequences of one training step of `stage`: each one dense recall (with the stage's
// recall share, or always when it has no suites or `tasks` is empty) or a task sequence
// of a suite drawn by the stage's shares, until the stage's sequence count or token
// budget is reached. The trainer and `kvlens-cli bench --train` draw the same batches.
std::vector<TrainSequence> drawStepSequences(const TrainStage& stage,
                                             const RecallSequences& recall,
                                             const TaskSequenceFn& tasks, Rng& rng);

} // namespace kvl
