#include "diagnose/retrievalrecall.h"

#include <QRegularExpression>
#include <algorithm>

namespace kvl {

std::optional<double> evidenceRecall(const std::vector<double>& shares, int64_t contextLength,
                                     int64_t step, const Positions& evidence)
{
    const size_t row = size_t(step) * size_t(contextLength);
    if (step < 0 || contextLength <= 0 || row + size_t(contextLength) > shares.size())
        return std::nullopt;
    double sum = 0.0;
    int64_t count = 0;
    for (const int p : evidence)
        if (p >= 0 && p < contextLength) {
            sum += shares[row + size_t(p)];
            ++count;
        }
    if (count == 0)
        return std::nullopt;
    return sum / double(count);
}

std::vector<double> evidenceRecallPerStep(const std::vector<double>& shares, int64_t contextLength,
                                          const Positions& evidence)
{
    std::vector<double> out;
    if (contextLength <= 0)
        return out;
    const int64_t steps = int64_t(shares.size()) / contextLength;
    for (int64_t s = 0; s < steps; ++s) {
        const std::optional<double> r = evidenceRecall(shares, contextLength, s, evidence);
        if (!r)
            return {};
        out.push_back(*r);
    }
    return out;
}

std::vector<AnswerField> text2jsonAnswerFields(const QString& answer)
{
    // "key" : "value, the value's opening quote included; values may run unterminated to
    // the end of a cut-off answer.
    static const QRegularExpression member(
        QStringLiteral(R"re("((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*))re"));
    std::vector<AnswerField> out;
    QString name;
    int scanned = 0;
    for (QRegularExpressionMatchIterator it = member.globalMatch(answer); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (answer.mid(scanned, m.capturedStart(0) - scanned).contains(QLatin1Char('{')))
            name.clear(); // a new object since the last member
        scanned = int(m.capturedEnd(0));
        const QString key = m.captured(1);
        if (key == QLatin1String("name")) {
            name = m.captured(2);
            continue;
        }
        if (!name.isEmpty())
            out.push_back({name, key, int(m.capturedStart(2))});
    }
    return out;
}

std::optional<int64_t> tokenAtOffset(const std::vector<int>& tokenEnds, int offset)
{
    const auto it = std::upper_bound(tokenEnds.begin(), tokenEnds.end(), offset);
    if (it == tokenEnds.end())
        return std::nullopt;
    return int64_t(it - tokenEnds.begin());
}

std::vector<FieldRecall> fieldRecalls(const std::vector<AnswerField>& fields,
                                      const std::vector<int>& tokenEnds,
                                      const std::vector<LabelledPositions>& evidenceSpans,
                                      const std::vector<double>& shares, int64_t contextLength)
{
    std::vector<FieldRecall> out;
    for (const AnswerField& f : fields) {
        const std::optional<int64_t> step = tokenAtOffset(tokenEnds, f.valueOffset);
        if (!step)
            continue;
        const QString label = f.name + QLatin1Char('.') + f.field;
        const auto span =
            std::find_if(evidenceSpans.begin(), evidenceSpans.end(),
                         [&](const LabelledPositions& s) { return s.label == label; });
        if (span == evidenceSpans.end())
            continue;
        const std::optional<double> recall =
            evidenceRecall(shares, contextLength, *step, span->positions);
        if (recall)
            out.push_back({f.name, f.field, *step, *recall});
    }
    return out;
}

} // namespace kvl
