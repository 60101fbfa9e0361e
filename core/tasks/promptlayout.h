#pragma once

#include <QString>
#include <vector>

namespace kvl {

class Tokenizer;
struct Sample;

// The token ids a model sees for a sample, shared by the trainer and the engine so
// that the bundled model is evaluated exactly as it was trained:
//   context  = [bos] + encode(context)          (compressed after prefill)
//   question = encode(question)                  (ends with "Answer:")
//   answer   = encode(" " + answer) + [stop]     (teacher-forced gold / decoded)
// Encoding the parts separately is what a prefill-then-question engine does.
struct PromptIds
{
    std::vector<int> context;
    std::vector<int> question;
    std::vector<int> answer; // gold answer tokens, the stop token last when there is one
    // Index in `context` of the first token of encode(context) (1 after a BOS): add it
    // to the positions mapSpansToTokens(sample, tokenizer) gives for context spans.
    int contextOffset = 0;
};

PromptIds promptIds(const Tokenizer& tokenizer, const Sample& sample);

// The question and answer parts of promptIds() alone, for another question asked on the
// same context (a generator's follow-ups), laid out exactly as the sample's own.
struct QuestionIds
{
    std::vector<int> question;
    std::vector<int> answer;
};
QuestionIds questionIds(const Tokenizer& tokenizer, const QString& question,
                        const QString& answer);

} // namespace kvl
