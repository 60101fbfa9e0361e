#pragma once

#include "tasks/span.h"

#include <QString>
#include <vector>

namespace kvl {

class Rng;
class Tokenizer;

// A sentence (or a few) of a context with the spans it carries, offsets relative to
// the start of `text`; ContextBuilder shifts them to context offsets.
struct Piece
{
    QString text;
    std::vector<Span> spans;

    // A piece whose one span covers all of it.
    static Piece whole(const QString& text, SpanKind kind, const QString& label,
                       InstructionRole role = InstructionRole::None);
};

// Assembles a context of a requested token length: head pieces first (in order, no
// filler between them: a system prompt), then body pieces in order with filler
// sentences interleaved at random gaps, adding or removing filler until the
// tokenizer counts a length within [minTokens, maxTokens]. Pieces are joined by one
// space; the head ends with a newline.
class ContextBuilder
{
  public:
    ContextBuilder(const Tokenizer& tokenizer, Rng& rng);

    // Context tokens of `text` as the length rule counts them (no special tokens).
    int countTokens(const QString& text) const;

    void addHead(Piece piece);
    void addBody(Piece piece);

    // Builds the context aiming at `target` tokens, never outside [minTokens,
    // maxTokens]. Appends the context's spans to `spans`. Throws kvl::Error when the
    // pieces alone exceed maxTokens or no filler combination fits the range.
    QString build(int target, int minTokens, int maxTokens, std::vector<Span>& spans);

  private:
    struct Filler
    {
        int gap = 0; // filler goes before body piece `gap` (== body size: at the end)
        QString text;
        int estimate = 0;
        int sequence = 0; // insertion order, so the latest filler is removed first
    };
    QString assemble(std::vector<Span>* spans) const;
    // Each returns the filler's estimated token count.
    int addFiller(const QString& text);
    int removeLatestFiller();
    // Adds short sentences whose estimated tokens sum into [lo, hi]; false if none do.
    bool addShortFillersSumming(int lo, int hi);

    const Tokenizer& m_tokenizer;
    Rng& m_rng;
    std::vector<Piece> m_head;
    std::vector<Piece> m_body;
    std::vector<Filler> m_fillers; // sorted by gap
    int m_nextSequence = 0;
    std::vector<int> m_shortSizes; // estimated tokens of lexicon::shortSentences()
};

} // namespace kvl
