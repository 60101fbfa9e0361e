// LongBench (THUDM/LongBench, data/<dataset>.jsonl): one record per line with `input`
// (the question; empty for summarization tasks), `context`, `answers` (list), `length`,
// `dataset`, `language`, `all_classes`, `_id`. No evidence is annotated, so the only
// spans are answers that occur verbatim in the context (label "answer-match").
#include "common/error.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

#include <algorithm>

#include <QSet>

namespace kvl {
namespace {

// Shorter answers ("2", "No") match anywhere and would mark noise as evidence.
constexpr int kMinMatchedAnswer = 3;

bool isWordChar(const QString& text, int i)
{
    return i >= 0 && i < int(text.size()) && text.at(i).isLetterOrNumber();
}

// Every occurrence of `answer` in `context` that does not start or end inside a word.
std::vector<Span> answerMatches(const QString& context, const QString& answer)
{
    std::vector<Span> spans;
    if (answer.size() < kMinMatchedAnswer)
        return spans;
    const int n = int(answer.size());
    for (int at = int(context.indexOf(answer)); at >= 0;
         at = int(context.indexOf(answer, at + n))) {
        if ((isWordChar(context, at - 1) && isWordChar(answer, 0)) ||
            (isWordChar(context, at + n) && isWordChar(answer, n - 1)))
            continue;
        spans.push_back(
            contextSpan(context, SpanKind::Evidence, at, at + n, QStringLiteral("answer-match")));
    }
    return spans;
}

} // namespace

std::vector<Sample> importLongBench(const QString& path, const ImportOptions&)
{
    std::vector<Sample> samples;
    int index = 0;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        Sample s;
        s.id = r.idText(QStringLiteral("_id"));
        r.setId(s.id);
        s.context = r.string(QStringLiteral("context"));
        const QString input = r.string(QStringLiteral("input"));
        const QStringList answers = r.strings(QStringLiteral("answers"));
        const QString dataset = r.optionalString(QStringLiteral("dataset"));
        s.suite = QStringLiteral("longbench");
        s.variant = dataset;
        s.question = input.isEmpty() ? QStringLiteral("\nAnswer:") : importQuestion(input);
        s.answer = answers.first();

        QSet<QString> seen;
        for (const QString& a : answers) {
            const QString answer = a.trimmed();
            if (seen.contains(answer))
                continue;
            seen.insert(answer);
            for (Span& span : answerMatches(s.context, answer))
                s.spans.push_back(std::move(span));
        }
        std::stable_sort(s.spans.begin(), s.spans.end(),
                         [](const Span& a, const Span& b) { return a.begin < b.begin; });

        s.meta.insert(QStringLiteral("source"), QStringLiteral("longbench"));
        s.meta.insert(QStringLiteral("answers"), QJsonArray::fromStringList(answers));
        // KVDiagnosis names LongBench sources <dataset>_<index as 6 digits>.
        s.meta.insert(QStringLiteral("task"), dataset);
        s.meta.insert(QStringLiteral("index"), index++);
        s.meta.insert(QStringLiteral("evidence"), QStringLiteral("answer-match"));
        copyPresentMembers(record.object, {"length", "language", "all_classes"}, s.meta);
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
