// HotpotQA, distractor setting (hotpot_dev_distractor_v1.json: a JSON array; JSONL
// also read): `_id`, `question`, `answer`, `type`, `level`, `supporting_facts`
// ([title, sentence index] pairs) and `context` ([title, [sentences]] pairs, the gold
// paragraphs among distractor paragraphs).
//
// The context is built as: each paragraph is its title, a newline, then its sentences
// concatenated exactly as given (HotpotQA sentences carry their own leading spaces);
// paragraphs are separated by a blank line. A supporting fact marks its sentence as
// evidence (label: the title); a paragraph without any supporting fact is a distractor
// (its title and sentences). Spans are trimmed of surrounding whitespace.
#include "common/error.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

#include <algorithm>

#include <QSet>

namespace kvl {
namespace {

struct Paragraph
{
    QString title;
    int begin = 0;
    int end = 0;
    std::vector<std::pair<int, int>> sentences;
};

} // namespace

std::vector<Sample> importHotpotQa(const QString& path, const ImportOptions&)
{
    std::vector<Sample> samples;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        Sample s;
        s.id = r.idText(QStringLiteral("_id"));
        r.setId(s.id);
        s.question = importQuestion(r.string(QStringLiteral("question")));
        s.answer = r.string(QStringLiteral("answer"));

        std::vector<Paragraph> paragraphs;
        const QJsonArray context = r.array(QStringLiteral("context"));
        for (qsizetype p = 0; p < context.size(); ++p) {
            const QString at = QStringLiteral("context[%1]").arg(p);
            const QJsonArray pair = r.arrayAt(context.at(p), at);
            if (pair.size() != 2)
                r.fail(
                    at,
                    QStringLiteral("expected [title, [sentences]], got %1 items").arg(pair.size()));
            Paragraph para;
            para.title = r.stringAt(pair.at(0), at + QStringLiteral("[0]"));
            const QJsonArray sentences = r.arrayAt(pair.at(1), at + QStringLiteral("[1]"));
            if (!s.context.isEmpty())
                s.context += QStringLiteral("\n\n");
            para.begin = int(s.context.size());
            s.context += para.title + QLatin1Char('\n');
            for (qsizetype i = 0; i < sentences.size(); ++i) {
                const QString sentence =
                    r.stringAt(sentences.at(i), at + QStringLiteral("[1][%1]").arg(i));
                const int begin = int(s.context.size());
                s.context += sentence;
                para.sentences.push_back({begin, int(s.context.size())});
            }
            para.end = int(s.context.size());
            paragraphs.push_back(std::move(para));
        }

        QSet<QString> supported;
        const QJsonArray facts = r.array(QStringLiteral("supporting_facts"));
        for (qsizetype f = 0; f < facts.size(); ++f) {
            const QString at = QStringLiteral("supporting_facts[%1]").arg(f);
            const QJsonArray fact = r.arrayAt(facts.at(f), at);
            if (fact.size() != 2)
                r.fail(at, QStringLiteral("expected [title, sentence index], got %1 items")
                               .arg(fact.size()));
            const QString title = r.stringAt(fact.at(0), at + QStringLiteral("[0]"));
            const qint64 sentence = r.integerAt(fact.at(1), at + QStringLiteral("[1]"));
            const Paragraph* para = nullptr;
            for (const Paragraph& p : paragraphs)
                if (p.title == title) {
                    para = &p;
                    break;
                }
            if (!para)
                r.fail(at, QStringLiteral("title %1 names no paragraph of the context")
                               .arg(quoteForError(title)));
            if (sentence < 0 || sentence >= qint64(para->sentences.size()))
                r.fail(at, QStringLiteral("sentence %1 of %2 does not exist (it has %3)")
                               .arg(sentence)
                               .arg(quoteForError(title))
                               .arg(para->sentences.size()));
            const auto [b, e] = para->sentences[size_t(sentence)];
            const Span span = contextSpan(s.context, SpanKind::Evidence, b, e, title);
            if (span.begin >= span.end)
                r.fail(at, QStringLiteral("sentence %1 of %2 is blank")
                               .arg(sentence)
                               .arg(quoteForError(title)));
            s.spans.push_back(span);
            supported.insert(title);
        }
        for (const Paragraph& p : paragraphs)
            if (!supported.contains(p.title))
                s.spans.push_back(
                    contextSpan(s.context, SpanKind::Distractor, p.begin, p.end, p.title));
        std::stable_sort(s.spans.begin(), s.spans.end(),
                         [](const Span& a, const Span& b) { return a.begin < b.begin; });

        s.suite = QStringLiteral("hotpotqa");
        s.variant = r.optionalString(QStringLiteral("type"));
        s.meta.insert(QStringLiteral("source"), QStringLiteral("hotpotqa"));
        const QString level = r.optionalString(QStringLiteral("level"));
        if (!level.isEmpty())
            s.meta.insert(QStringLiteral("level"), level);
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
