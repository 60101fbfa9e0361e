#pragma once

#include "train/trainer.h"

#include <memory>

namespace kvl {

class Tokenizer;

// Training sequences drawn from the task generators (core/tasks), laid out by
// promptIds() — the layout the engine uses at evaluation — with the answer and its
// stop token supervised; then up to TaskDraw::followUps of the generator's follow-up
// questions (a random subset, in random order), each laid out the same way, leaving
// out those that would make the sequence longer than `maxLength` tokens (0: no limit;
// the trainer passes the model's positions).
TaskSequenceFn makeSuiteSequenceFn(std::shared_ptr<const Tokenizer> tokenizer,
                                   int maxLength = 0);

} // namespace kvl
