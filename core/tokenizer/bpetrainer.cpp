#include "tokenizer/bpetrainer.h"

#include "tokenizer/bytelevel.h"
#include "tokenizer/hftokenizer.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <queue>

namespace kvl {

QString BpeTrainerOptions::defaultPattern()
{
    return QStringLiteral(
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)");
}

BpeTrainer::BpeTrainer(BpeTrainerOptions options) : m_options(std::move(options))
{
    m_specials = {QStringLiteral("<|bos|>"), QStringLiteral("<|eos|>"), QStringLiteral("<|pad|>")};
    for (const QString& s : m_options.specialTokens)
        if (!s.isEmpty() && !m_specials.contains(s))
            m_specials << s;
    m_regex = QRegularExpression(m_options.pattern, QRegularExpression::UseUnicodePropertiesOption);
    if (!m_regex.isValid())
        throw Error(QStringLiteral("BPE trainer: pattern '%1' does not compile: %2")
                        .arg(m_options.pattern, m_regex.errorString()));
    m_regex.optimize();
}

void BpeTrainer::addText(const QString& text)
{
    // Cut out special tokens first, as the encoder does, so none is learned from.
    int start = 0;
    auto countPiece = [this](QStringView piece) {
        int prev = 0;
        auto count = [this](QStringView w) {
            if (!w.isEmpty())
                ++m_wordCounts[w.toUtf8().toStdString()];
        };
        auto it = m_regex.globalMatch(piece);
        while (it.hasNext()) {
            const auto m = it.next();
            if (m.capturedLength() == 0)
                continue;
            count(piece.sliced(prev, m.capturedStart() - prev));
            count(m.capturedView());
            prev = int(m.capturedEnd());
        }
        count(piece.sliced(prev));
    };
    for (int i = 0; i < text.size(); ++i) {
        for (const QString& s : m_specials) {
            if (QStringView(text).sliced(i).startsWith(s)) {
                countPiece(QStringView(text).sliced(start, i - start));
                i += int(s.size()) - 1;
                start = i + 1;
                break;
            }
        }
    }
    countPiece(QStringView(text).sliced(start));
}

namespace {
using Pair = std::uint64_t;
Pair makePair(int a, int b)
{
    return (Pair(std::uint32_t(a)) << 32) | std::uint32_t(b);
}
int leftOf(Pair p)
{
    return int(p >> 32);
}
int rightOf(Pair p)
{
    return int(p & 0xFFFFFFFFu);
}

struct Word
{
    std::vector<int> symbols;
    std::int64_t count;
};

struct Candidate
{
    std::int64_t count;
    Pair pair;
    // Max-heap order: higher count first, then the smaller pair.
    bool operator<(const Candidate& o) const
    {
        return count != o.count ? count < o.count : pair > o.pair;
    }
};
} // namespace

void BpeTrainer::train()
{
    const int base = int(m_specials.size());
    if (m_options.vocabSize < base + 256)
        throw Error(
            QStringLiteral("BPE trainer: vocabulary size %1 is below the %2 special tokens + "
                           "256 bytes")
                .arg(m_options.vocabSize)
                .arg(base));
    m_tokens.clear();
    m_merges.clear();
    for (const QString& s : m_specials)
        m_tokens.push_back(s.toUtf8());
    for (int b = 0; b < 256; ++b)
        m_tokens.push_back(QByteArray(1, char(b)));
    std::unordered_map<std::string, int> idOf;
    for (int id = base; id < int(m_tokens.size()); ++id)
        idOf.emplace(m_tokens[size_t(id)].toStdString(), id);

    // Words in a fixed order, so that the result never depends on hashing.
    std::vector<std::pair<std::string, std::int64_t>> sorted(m_wordCounts.begin(),
                                                             m_wordCounts.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<Word> words;
    words.reserve(sorted.size());
    for (const auto& [bytes, count] : sorted) {
        Word w{{}, count};
        for (char c : bytes)
            w.symbols.push_back(base + int(uchar(c)));
        words.push_back(std::move(w));
    }

    std::unordered_map<Pair, std::int64_t> pairCount;
    std::unordered_map<Pair, std::vector<int>> where;
    for (int wi = 0; wi < int(words.size()); ++wi) {
        const Word& w = words[size_t(wi)];
        for (size_t i = 0; i + 1 < w.symbols.size(); ++i) {
            const Pair p = makePair(w.symbols[i], w.symbols[i + 1]);
            pairCount[p] += w.count;
            where[p].push_back(wi);
        }
    }
    std::priority_queue<Candidate> queue;
    for (const auto& [p, c] : pairCount)
        queue.push({c, p});

    std::vector<int> seen(words.size(), -1);
    while (int(m_tokens.size()) < m_options.vocabSize && !queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        const std::int64_t current = pairCount[top.pair];
        if (current != top.count) {
            if (current > 0)
                queue.push({current, top.pair});
            continue;
        }
        if (current < std::max<std::int64_t>(1, m_options.minFrequency))
            break;
        const int a = leftOf(top.pair);
        const int b = rightOf(top.pair);
        const QByteArray merged = m_tokens[size_t(a)] + m_tokens[size_t(b)];
        int newId;
        if (const auto it = idOf.find(merged.toStdString()); it != idOf.end()) {
            newId = it->second; // another merge path already made this string
        } else {
            newId = int(m_tokens.size());
            m_tokens.push_back(merged);
            idOf.emplace(merged.toStdString(), newId);
        }
        m_merges.emplace_back(m_tokens[size_t(a)], m_tokens[size_t(b)]);

        std::vector<Pair> grown;
        const int stamp = int(m_merges.size());
        for (int wi : where[top.pair]) {
            if (seen[size_t(wi)] == stamp)
                continue;
            seen[size_t(wi)] = stamp;
            Word& w = words[size_t(wi)];
            std::vector<int> out;
            out.reserve(w.symbols.size());
            bool changed = false;
            for (size_t i = 0; i < w.symbols.size(); ++i) {
                if (i + 1 < w.symbols.size() && w.symbols[i] == a && w.symbols[i + 1] == b) {
                    out.push_back(newId);
                    ++i;
                    changed = true;
                } else {
                    out.push_back(w.symbols[i]);
                }
            }
            if (!changed)
                continue;
            for (size_t i = 0; i + 1 < w.symbols.size(); ++i)
                pairCount[makePair(w.symbols[i], w.symbols[i + 1])] -= w.count;
            for (size_t i = 0; i + 1 < out.size(); ++i) {
                const Pair p = makePair(out[i], out[i + 1]);
                pairCount[p] += w.count;
                if (out[i] == newId || out[i + 1] == newId) {
                    where[p].push_back(wi);
                    grown.push_back(p);
                }
            }
            w.symbols = std::move(out);
        }
        where.erase(top.pair);
        // Only pairs holding the new token can have grown; the others are fixed
        // lazily when they surface with a stale count.
        std::sort(grown.begin(), grown.end());
        grown.erase(std::unique(grown.begin(), grown.end()), grown.end());
        for (Pair p : grown)
            queue.push({pairCount[p], p});
    }
    m_trained = true;
}

QJsonObject BpeTrainer::toJson() const
{
    if (!m_trained)
        throw Error(QStringLiteral("BPE trainer: toJson() before train()"));
    const int base = int(m_specials.size());
    QJsonObject vocab;
    QJsonArray added;
    for (int id = 0; id < int(m_tokens.size()); ++id) {
        const QString text = id < base ? m_specials[id] : bytelevel::toChars(m_tokens[size_t(id)]);
        vocab.insert(text, id);
        if (id < base)
            added.append(QJsonObject{{QStringLiteral("id"), id},
                                     {QStringLiteral("content"), text},
                                     {QStringLiteral("single_word"), false},
                                     {QStringLiteral("lstrip"), false},
                                     {QStringLiteral("rstrip"), false},
                                     {QStringLiteral("normalized"), false},
                                     {QStringLiteral("special"), true}});
    }
    QJsonArray merges;
    for (const auto& [l, r] : m_merges)
        merges.append(bytelevel::toChars(l) + QLatin1Char(' ') + bytelevel::toChars(r));

    const QJsonObject byteLevel{{QStringLiteral("type"), QStringLiteral("ByteLevel")},
                                {QStringLiteral("add_prefix_space"), false},
                                {QStringLiteral("trim_offsets"), false},
                                {QStringLiteral("use_regex"), false}};
    const QJsonObject split{
        {QStringLiteral("type"), QStringLiteral("Split")},
        {QStringLiteral("pattern"), QJsonObject{{QStringLiteral("Regex"), m_options.pattern}}},
        {QStringLiteral("behavior"), QStringLiteral("Isolated")},
        {QStringLiteral("invert"), false}};
    const QString bos = m_specials.front();
    const auto special = [&](int typeId) {
        return QJsonObject{
            {QStringLiteral("SpecialToken"),
             QJsonObject{{QStringLiteral("id"), bos}, {QStringLiteral("type_id"), typeId}}}};
    };
    const auto sequence = [](const char* id, int typeId) {
        return QJsonObject{
            {QStringLiteral("Sequence"), QJsonObject{{QStringLiteral("id"), QLatin1String(id)},
                                                     {QStringLiteral("type_id"), typeId}}}};
    };
    const QJsonObject post{
        {QStringLiteral("type"), QStringLiteral("TemplateProcessing")},
        {QStringLiteral("single"), QJsonArray{special(0), sequence("A", 0)}},
        {QStringLiteral("pair"),
         QJsonArray{special(0), sequence("A", 0), special(1), sequence("B", 1)}},
        {QStringLiteral("special_tokens"),
         QJsonObject{{bos, QJsonObject{{QStringLiteral("id"), bos},
                                       {QStringLiteral("ids"), QJsonArray{0}},
                                       {QStringLiteral("tokens"), QJsonArray{bos}}}}}}};
    const QJsonObject model{{QStringLiteral("type"), QStringLiteral("BPE")},
                            {QStringLiteral("dropout"), QJsonValue::Null},
                            {QStringLiteral("unk_token"), QJsonValue::Null},
                            {QStringLiteral("continuing_subword_prefix"), QJsonValue::Null},
                            {QStringLiteral("end_of_word_suffix"), QJsonValue::Null},
                            {QStringLiteral("fuse_unk"), false},
                            {QStringLiteral("byte_fallback"), false},
                            {QStringLiteral("ignore_merges"), false},
                            {QStringLiteral("vocab"), vocab},
                            {QStringLiteral("merges"), merges}};
    return QJsonObject{
        {QStringLiteral("version"), QStringLiteral("1.0")},
        {QStringLiteral("truncation"), QJsonValue::Null},
        {QStringLiteral("padding"), QJsonValue::Null},
        {QStringLiteral("added_tokens"), added},
        {QStringLiteral("normalizer"), QJsonValue::Null},
        {QStringLiteral("pre_tokenizer"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("Sequence")},
                     {QStringLiteral("pretokenizers"), QJsonArray{split, byteLevel}}}},
        {QStringLiteral("post_processor"), post},
        {QStringLiteral("decoder"), byteLevel},
        {QStringLiteral("model"), model}};
}

void BpeTrainer::save(const QString& path) const
{
    writeFileAtomically(path, QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
}

std::unique_ptr<HfTokenizer> BpeTrainer::tokenizer() const
{
    return HfTokenizer::fromJson(toJson(), QStringLiteral("<trained tokenizer>"));
}

} // namespace kvl
