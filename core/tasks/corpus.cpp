#include "tasks/corpus.h"

#include "tasks/lexicon.h"
#include "tasks/taskgenerator.h"
#include "tokenizer/tokenizer.h"

namespace kvl {
namespace {

// Counts words and punctuation marks as tokens: close enough to a small BPE for
// sizing corpus contexts, and available before any tokenizer is trained.
class WordCountTokenizer : public Tokenizer
{
  public:
    std::vector<int> encode(const QString& text, bool) const override
    {
        std::vector<int> ids;
        for (const TokenSpan& t : encodeWithOffsets(text, false))
            ids.push_back(t.id);
        return ids;
    }
    std::vector<TokenSpan> encodeWithOffsets(const QString& text, bool) const override
    {
        std::vector<TokenSpan> tokens;
        int i = 0;
        const int n = int(text.size());
        while (i < n) {
            if (text.at(i).isSpace()) {
                ++i;
                continue;
            }
            int j = i + 1;
            if (text.at(i).isLetterOrNumber())
                while (j < n && text.at(j).isLetterOrNumber())
                    ++j;
            tokens.push_back({0, i, j});
            i = j;
        }
        return tokens;
    }
    QString decode(const std::vector<int>&, bool) const override { return {}; }
    int vocabSize() const override { return 1; }
    std::optional<int> bosId() const override { return std::nullopt; }
    std::vector<int> stopIds() const override { return {}; }
    std::optional<int> tokenToId(const QString&) const override { return std::nullopt; }
    QString idToToken(int) const override { return {}; }
};

} // namespace

QStringList taskCorpusLines(int samplesPerSuite, std::uint64_t seed)
{
    QStringList lines;
    for (const QStringList* list :
         {&lexicon::firstNames(), &lexicon::lastNames(), &lexicon::cities(), &lexicon::colours(),
          &lexicon::animals(), &lexicon::jobs(), &lexicon::variables(), &lexicon::secrets(),
          &lexicon::prefixes()})
        lines << list->join(QLatin1Char(' '));
    lines << lexicon::fillerWords().join(QLatin1Char(' '));

    const WordCountTokenizer tokenizer;
    TaskOptions options;
    options.minTokens = 64;
    options.maxTokens = 512;
    for (const auto& generator : makeTaskGenerators())
        for (const Sample& s : generator->generateMany(tokenizer, options, seed, samplesPerSuite))
            lines << s.context.split(QLatin1Char('\n'))
                  << s.question.trimmed().split(QLatin1Char('\n')) << s.answer;
    return lines;
}

} // namespace kvl
