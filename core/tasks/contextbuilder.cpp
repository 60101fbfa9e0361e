#include "tasks/contextbuilder.h"

#include "common/error.h"
#include "tasks/lexicon.h"
#include "tasks/rng.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>

namespace kvl {

Piece Piece::whole(const QString& text, SpanKind kind, const QString& label, InstructionRole role)
{
    Span span;
    span.kind = kind;
    span.role = role;
    span.label = label;
    span.begin = 0;
    span.end = int(text.size());
    return {text, {span}};
}

ContextBuilder::ContextBuilder(const Tokenizer& tokenizer, Rng& rng)
    : m_tokenizer(tokenizer), m_rng(rng)
{}

int ContextBuilder::countTokens(const QString& text) const
{
    return int(m_tokenizer.encode(text, false).size());
}

void ContextBuilder::addHead(Piece piece)
{
    m_head.push_back(std::move(piece));
}
void ContextBuilder::addBody(Piece piece)
{
    m_body.push_back(std::move(piece));
}

QString ContextBuilder::assemble(std::vector<Span>* spans) const
{
    QString text;
    auto append = [&](const Piece& piece, const QString& separator) {
        if (!text.isEmpty())
            text += separator;
        const int offset = int(text.size());
        text += piece.text;
        if (spans)
            for (Span s : piece.spans) {
                s.field = SpanField::Context;
                s.begin += offset;
                s.end += offset;
                spans->push_back(s);
            }
    };
    for (const Piece& p : m_head)
        append(p, QStringLiteral(" "));
    // A newline marks where the system prompt ends and the document begins.
    QString separator = m_head.empty() ? QStringLiteral(" ") : QStringLiteral("\n");
    auto appendBody = [&](const Piece& piece) {
        append(piece, separator);
        separator = QStringLiteral(" ");
    };
    // Fillers are kept sorted by gap (stable), so one pass interleaves them.
    size_t f = 0;
    for (size_t b = 0; b <= m_body.size(); ++b) {
        for (; f < m_fillers.size() && m_fillers[f].gap == int(b); ++f)
            appendBody(Piece{m_fillers[f].text, {}});
        if (b < m_body.size())
            appendBody(m_body[b]);
    }
    return text;
}

int ContextBuilder::addFiller(const QString& text)
{
    Filler filler;
    filler.gap = m_rng.below(int(m_body.size()) + 1);
    filler.text = text;
    filler.estimate = countTokens(QStringLiteral(" ") + text);
    filler.sequence = m_nextSequence++;
    // Insert after the fillers already in this gap, keeping the vector sorted by gap.
    const auto at = std::upper_bound(m_fillers.begin(), m_fillers.end(), filler.gap,
                                     [](int gap, const Filler& x) { return gap < x.gap; });
    m_fillers.insert(at, filler);
    return filler.estimate;
}

int ContextBuilder::removeLatestFiller()
{
    const auto latest =
        std::max_element(m_fillers.begin(), m_fillers.end(),
                         [](const Filler& a, const Filler& b) { return a.sequence < b.sequence; });
    const int estimate = latest->estimate;
    m_fillers.erase(latest);
    return estimate;
}

bool ContextBuilder::addShortFillersSumming(int lo, int hi)
{
    // Unbounded change-making over the short sentences' token counts: the fewest
    // sentences whose estimates sum into [lo, hi] (ties: the smaller sum).
    const QStringList& sentences = lexicon::shortSentences();
    if (m_shortSizes.empty())
        for (const QString& text : sentences)
            m_shortSizes.push_back(countTokens(QStringLiteral(" ") + text));
    constexpr int kUnreachable = 1 << 30;
    std::vector<int> pieces(size_t(hi) + 1, kUnreachable);
    std::vector<int> choice(size_t(hi) + 1, -1);
    pieces[0] = 0;
    for (int v = 1; v <= hi; ++v)
        for (size_t i = 0; i < m_shortSizes.size(); ++i) {
            const int size = m_shortSizes[i];
            if (size > 0 && size <= v && pieces[size_t(v - size)] + 1 < pieces[size_t(v)]) {
                pieces[size_t(v)] = pieces[size_t(v - size)] + 1;
                choice[size_t(v)] = int(i);
            }
        }
    int best = -1;
    for (int v = std::max(lo, 1); v <= hi; ++v)
        if (pieces[size_t(v)] < kUnreachable &&
            (best < 0 || pieces[size_t(v)] < pieces[size_t(best)]))
            best = v;
    if (best < 0)
        return false;
    for (int v = best; v > 0; v -= m_shortSizes[size_t(choice[size_t(v)])])
        addFiller(sentences.at(choice[size_t(v)]));
    return true;
}

QString ContextBuilder::build(int target, int minTokens, int maxTokens, std::vector<Span>& spans)
{
    m_fillers.clear();
    const int bare = countTokens(assemble(nullptr));
    if (bare > maxTokens)
        throw Error(QStringLiteral("the sample needs %1 context tokens without filler, more "
                                   "than the maximum of %2; raise the token range")
                        .arg(bare)
                        .arg(maxTokens));
    target = std::clamp(target, minTokens, maxTokens);

    // Fill by per-sentence estimates first, then correct against the real count:
    // tokens at the joins make the sum of the parts differ slightly from the whole.
    int estimated = bare;
    while (estimated < target)
        estimated += addFiller(lexicon::fillerSentence(m_rng));

    constexpr int kBulkRounds = 4;
    constexpr int kMaxFineGap = 256; // larger gaps take normal sentences first
    for (int round = 0; round < 64; ++round) {
        const int count = countTokens(assemble(nullptr));
        if (count >= minTokens && count <= maxTokens)
            return assemble(&spans);
        int est = count;
        if (count > maxTokens) {
            if (m_fillers.empty())
                break;
            do
                est -= removeLatestFiller();
            while (round < kBulkRounds && !m_fillers.empty() && est > target);
        } else if (round < kBulkRounds || minTokens - count > kMaxFineGap) {
            while (est < target)
                est += addFiller(lexicon::fillerSentence(m_rng));
        } else if (!addShortFillersSumming(minTokens - count,
                                           std::min(maxTokens, minTokens + kMaxFineGap) - count)) {
            // The gap is smaller than any short sentence: free a larger one and refill.
            if (m_fillers.empty())
                addFiller(lexicon::fillerSentence(m_rng));
            else
                removeLatestFiller();
        }
    }
    throw Error(QStringLiteral("cannot fill a context to between %1 and %2 tokens with this "
                               "tokenizer; widen the token range")
                    .arg(minTokens)
                    .arg(maxTokens));
}

} // namespace kvl
