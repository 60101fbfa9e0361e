#include "tokenizer/pretokenizer.h"

#include "common/error.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvl {

QString PreTokenizer::gpt2Pattern()
{
    return QStringLiteral(
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)");
}

QRegularExpression PreTokenizer::compile(const QString& pattern, const QString& path)
{
    // PCRE2 with Unicode properties: \s, \p{L}, \p{N} and (?i:...) behave as in the
    // Oniguruma regexes HF tokenizers run.
    QRegularExpression re(pattern, QRegularExpression::UseUnicodePropertiesOption);
    if (!re.isValid())
        throw Error(path, QStringLiteral("pre-tokenizer regex '%1' does not compile: %2")
                              .arg(pattern, re.errorString()));
    re.optimize();
    return re;
}

PreTokenizer PreTokenizer::fromJson(const QJsonValue& json, const QString& path)
{
    PreTokenizer p;
    if (!json.isNull() && !json.isUndefined())
        parse(json, path, p.m_steps);
    for (const Step& s : p.m_steps)
        p.m_byteLevel = p.m_byteLevel || s.kind == Step::ByteLevel;
    return p;
}

void PreTokenizer::parse(const QJsonValue& json, const QString& path, std::vector<Step>& steps)
{
    const QJsonObject o = json.toObject();
    const QString type = o.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("Sequence")) {
        for (const QJsonValue& v : o.value(QStringLiteral("pretokenizers")).toArray())
            parse(v, path, steps);
        return;
    }
    Step s{Step::Split};
    if (type == QLatin1String("Split")) {
        const QJsonObject pattern = o.value(QStringLiteral("pattern")).toObject();
        if (pattern.contains(QStringLiteral("Regex")))
            s.regex = compile(pattern.value(QStringLiteral("Regex")).toString(), path);
        else if (pattern.contains(QStringLiteral("String")))
            s.regex = compile(
                QRegularExpression::escape(pattern.value(QStringLiteral("String")).toString()),
                path);
        else
            throw Error(path,
                        QStringLiteral("Split pre-tokenizer without a Regex or String pattern"));
        const QString b = o.value(QStringLiteral("behavior")).toString();
        if (b == QLatin1String("Isolated"))
            s.behavior = Behavior::Isolated;
        else if (b == QLatin1String("Removed"))
            s.behavior = Behavior::Removed;
        else if (b == QLatin1String("MergedWithPrevious"))
            s.behavior = Behavior::MergedWithPrevious;
        else if (b == QLatin1String("MergedWithNext"))
            s.behavior = Behavior::MergedWithNext;
        else if (b == QLatin1String("Contiguous"))
            s.behavior = Behavior::Contiguous;
        else
            throw Error(path, QStringLiteral("unsupported Split behavior '%1'").arg(b));
        s.invert = o.value(QStringLiteral("invert")).toBool(false);
    } else if (type == QLatin1String("ByteLevel")) {
        s.kind = Step::ByteLevel;
        s.prefixSpace = o.value(QStringLiteral("add_prefix_space")).toBool(false);
        if (o.value(QStringLiteral("use_regex")).toBool(true))
            s.regex = compile(gpt2Pattern(), path);
    } else if (type == QLatin1String("Metaspace")) {
        s.kind = Step::Metaspace;
        s.replacement = o.value(QStringLiteral("replacement")).toString(QStringLiteral("\u2581"));
        const QString scheme = o.value(QStringLiteral("prepend_scheme")).toString();
        if (scheme == QLatin1String("first"))
            s.prepend = Step::First;
        else if (scheme == QLatin1String("never"))
            s.prepend = Step::Never;
        else if (scheme.isEmpty() && !o.value(QStringLiteral("add_prefix_space")).toBool(true))
            s.prepend = Step::Never; // the format before prepend_scheme existed
        s.splitWords = o.value(QStringLiteral("split")).toBool(true);
    } else if (type == QLatin1String("Digits")) {
        s.kind = Step::Digits;
        s.regex = compile(o.value(QStringLiteral("individual_digits")).toBool(false)
                              ? QStringLiteral(R"(\p{Nd})")
                              : QStringLiteral(R"(\p{Nd}+)"),
                          path);
    } else {
        throw Error(path, QStringLiteral("unsupported pre-tokenizer type '%1'").arg(type));
    }
    steps.push_back(s);
}

void PreTokenizer::splitByRegex(const NormalizedText& t, const QRegularExpression& re,
                                Behavior behavior, bool invert, std::vector<NormalizedText>& out)
{
    struct Segment
    {
        int begin, end;
        bool match;
    };
    std::vector<Segment> segs;
    int prev = 0;
    auto it = re.globalMatch(t.text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const int b = int(m.capturedStart());
        const int e = int(m.capturedEnd());
        if (b == e)
            continue; // empty matches split nothing, as in HF tokenizers
        if (b > prev)
            segs.push_back({prev, b, invert});
        segs.push_back({b, e, !invert});
        prev = e;
    }
    if (prev < t.text.size())
        segs.push_back({prev, int(t.text.size()), invert});

    std::vector<Segment> merged;
    for (size_t i = 0; i < segs.size(); ++i) {
        const Segment& s = segs[i];
        switch (behavior) {
        case Behavior::Isolated:
            merged.push_back(s);
            break;
        case Behavior::Removed:
            if (!s.match)
                merged.push_back(s);
            break;
        case Behavior::MergedWithPrevious:
            if (s.match && !merged.empty())
                merged.back().end = s.end;
            else
                merged.push_back({s.begin, s.end, false});
            break;
        case Behavior::MergedWithNext:
            if (!merged.empty() && merged.back().match)
                merged.back() = {merged.back().begin, s.end, s.match};
            else
                merged.push_back(s);
            break;
        case Behavior::Contiguous:
            if (s.match && !merged.empty() && merged.back().match)
                merged.back().end = s.end;
            else
                merged.push_back(s);
            break;
        }
    }
    for (const Segment& s : merged)
        out.push_back(t.mid(s.begin, s.end - s.begin));
}

void PreTokenizer::applyStep(const Step& s, const NormalizedText& t,
                             std::vector<NormalizedText>& out)
{
    switch (s.kind) {
    case Step::Split:
        splitByRegex(t, s.regex, s.behavior, s.invert, out);
        return;
    case Step::Digits:
        splitByRegex(t, s.regex, Behavior::Isolated, false, out);
        return;
    case Step::ByteLevel: {
        NormalizedText p = t;
        if (s.prefixSpace && !p.text.startsWith(QLatin1Char(' ')))
            p.prepend(QStringLiteral(" "));
        if (s.regex.isValid() && !s.regex.pattern().isEmpty())
            splitByRegex(p, s.regex, Behavior::Isolated, false, out);
        else
            out.push_back(p);
        return;
    }
    case Step::Metaspace: {
        NormalizedText p = t;
        p.replaceAll(QStringLiteral(" "), s.replacement);
        const bool atStart = p.align.empty() || p.align.front().first == 0;
        if (!p.text.startsWith(s.replacement) &&
            (s.prepend == Step::Always || (s.prepend == Step::First && atStart)))
            p.prepend(s.replacement);
        if (!s.splitWords) {
            out.push_back(p);
            return;
        }
        int start = 0;
        for (int i = 1; i <= p.text.size(); ++i) {
            if (i == p.text.size() || p.text.mid(i, s.replacement.size()) == s.replacement) {
                if (i > start)
                    out.push_back(p.mid(start, i - start));
                start = i;
            }
        }
        return;
    }
    }
}

std::vector<NormalizedText> PreTokenizer::split(const NormalizedText& text) const
{
    std::vector<NormalizedText> pieces{text};
    for (const Step& s : m_steps) {
        std::vector<NormalizedText> next;
        next.reserve(pieces.size());
        for (const NormalizedText& p : pieces)
            applyStep(s, p, next);
        pieces = std::move(next);
    }
    std::erase_if(pieces, [](const NormalizedText& p) { return p.text.isEmpty(); });
    return pieces;
}

} // namespace kvl
