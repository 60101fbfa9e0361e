// Qasper (allenai, qasper-{train,dev,test}-v0.3.json): one JSON object mapping paper
// ids to papers; JSONL with one paper per line (its id in `id`) is read too. A paper has
// `title`, `abstract`, `full_text` ([{section_name, paragraphs}]), `qas` ([{question,
// question_id, answers: [{answer: {unanswerable, yes_no, extractive_spans,
// free_form_answer, evidence, highlighted_evidence}}]}]) and `figures_and_tables`
// ([{caption, file}]). One sample per question.
//
// The context is the paper as blocks separated by a blank line: title, abstract, then
// each section's name and each of its non-blank paragraphs, then every figure/table
// caption. The first annotator's answer is the gold (Qasper's order: "Unanswerable",
// "Yes"/"No", extractive spans joined by ", ", else the free-form answer); each of its
// evidence strings is located by exact match in the context ("FLOAT SELECTED: " marks a
// caption and is dropped first) and becomes an evidence span.
#include "common/error.h"
#include "common/jsonio.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

#include <algorithm>

#include <QJsonDocument>
#include <QJsonParseError>

namespace kvl {
namespace {

const QString kFloatSelected = QStringLiteral("FLOAT SELECTED: ");

struct Paper
{
    QString id;
    QString where;
    QJsonObject object;
};

std::vector<Paper> readPapers(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    std::vector<Paper> papers;
    // The release: {"<paper id>": {...}, ...}. (A one-line JSONL paper has `qas` at its
    // top level instead.)
    if (parseError.error == QJsonParseError::NoError && doc.isObject() &&
        !doc.object().contains(QStringLiteral("qas"))) {
        const QJsonObject all = doc.object();
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QString where = QStringLiteral("paper '%1'").arg(it.key());
            if (!it.value().isObject())
                throw Error(path, where + QStringLiteral(": expected a JSON object, got %1")
                                              .arg(jsonTypeName(it.value())));
            papers.push_back({it.key(), where, it.value().toObject()});
        }
        return papers;
    }
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        papers.push_back({r.idText(QStringLiteral("id")), record.where, record.object});
    }
    return papers;
}

QString goldAnswer(const RecordReader& r, const QJsonObject& answer, const QString& at,
                   QString* kind)
{
    if (answer.value(QStringLiteral("unanswerable")).toBool()) {
        *kind = QStringLiteral("none");
        return QStringLiteral("Unanswerable");
    }
    const QJsonValue yesNo = answer.value(QStringLiteral("yes_no"));
    if (yesNo.isBool()) {
        *kind = QStringLiteral("boolean");
        return yesNo.toBool() ? QStringLiteral("Yes") : QStringLiteral("No");
    }
    QStringList spans;
    const QJsonValue extractive = answer.value(QStringLiteral("extractive_spans"));
    if (!extractive.isUndefined() && !extractive.isNull()) {
        const QJsonArray a = r.arrayAt(extractive, at + QStringLiteral(".extractive_spans"));
        for (qsizetype i = 0; i < a.size(); ++i)
            spans << r.stringAt(a.at(i), at + QStringLiteral(".extractive_spans[%1]").arg(i));
    }
    if (!spans.isEmpty()) {
        *kind = QStringLiteral("extractive");
        return spans.join(QStringLiteral(", "));
    }
    *kind = QStringLiteral("abstractive");
    const QString text = r.stringAt(answer.value(QStringLiteral("free_form_answer")),
                                    at + QStringLiteral(".free_form_answer"));
    if (text.trimmed().isEmpty())
        r.fail(at, QStringLiteral("no answer: not unanswerable, no yes_no, no extractive "
                                  "spans and an empty free_form_answer"));
    return text;
}

} // namespace

std::vector<Sample> importQasper(const QString& path, const ImportOptions&)
{
    std::vector<Sample> samples;
    for (const Paper& paper : readPapers(path)) {
        RecordReader r(path, paper.where, paper.object);
        r.setId(paper.id);

        QStringList blocks{r.string(QStringLiteral("title")), r.string(QStringLiteral("abstract"))};
        const QJsonArray sections = r.array(QStringLiteral("full_text"));
        for (qsizetype i = 0; i < sections.size(); ++i) {
            const QString at = QStringLiteral("full_text[%1]").arg(i);
            const QJsonObject section = r.objectAt(sections.at(i), at);
            const QJsonValue name = section.value(QStringLiteral("section_name"));
            if (name.isString() && !name.toString().trimmed().isEmpty())
                blocks << name.toString();
            const QJsonArray paragraphs = r.arrayAt(section.value(QStringLiteral("paragraphs")),
                                                    at + QStringLiteral(".paragraphs"));
            for (qsizetype p = 0; p < paragraphs.size(); ++p) {
                const QString text =
                    r.stringAt(paragraphs.at(p), at + QStringLiteral(".paragraphs[%1]").arg(p));
                if (!text.trimmed().isEmpty())
                    blocks << text;
            }
        }
        const QJsonArray floats = r.object().value(QStringLiteral("figures_and_tables")).toArray();
        for (qsizetype i = 0; i < floats.size(); ++i) {
            const QString caption =
                floats.at(i).toObject().value(QStringLiteral("caption")).toString();
            if (!caption.trimmed().isEmpty())
                blocks << caption;
        }
        const QString context = blocks.join(QStringLiteral("\n\n"));

        const QJsonArray qas = r.array(QStringLiteral("qas"));
        for (qsizetype q = 0; q < qas.size(); ++q) {
            const QString qa = QStringLiteral("qas[%1]").arg(q);
            const QJsonObject question = r.objectAt(qas.at(q), qa);
            Sample s;
            s.id = r.stringAt(question.value(QStringLiteral("question_id")),
                              qa + QStringLiteral(".question_id"));
            RecordReader qr(path, paper.where, paper.object);
            qr.setId(paper.id + QStringLiteral("/") + s.id);
            s.context = context;
            s.question = importQuestion(qr.stringAt(question.value(QStringLiteral("question")),
                                                    qa + QStringLiteral(".question")));
            const QJsonArray answers = qr.arrayAt(question.value(QStringLiteral("answers")),
                                                  qa + QStringLiteral(".answers"));
            if (answers.isEmpty())
                qr.fail(qa + QStringLiteral(".answers"), QStringLiteral("is an empty array"));

            QJsonArray allAnswers;
            QString kind;
            for (qsizetype a = 0; a < answers.size(); ++a) {
                const QString at = qa + QStringLiteral(".answers[%1].answer").arg(a);
                const QJsonObject entry =
                    qr.objectAt(answers.at(a), qa + QStringLiteral(".answers[%1]").arg(a));
                const QJsonObject answer = qr.objectAt(entry.value(QStringLiteral("answer")), at);
                QString thisKind;
                const QString text = goldAnswer(qr, answer, at, &thisKind);
                allAnswers.append(text);
                if (a > 0)
                    continue;
                s.answer = text;
                kind = thisKind;
                const QJsonValue evidence = answer.value(QStringLiteral("evidence"));
                const QJsonArray list =
                    evidence.isUndefined() || evidence.isNull()
                        ? QJsonArray()
                        : qr.arrayAt(evidence, at + QStringLiteral(".evidence"));
                for (qsizetype e = 0; e < list.size(); ++e) {
                    const QString field = at + QStringLiteral(".evidence[%1]").arg(e);
                    QString text = qr.stringAt(list.at(e), field);
                    if (text.startsWith(kFloatSelected))
                        text = text.mid(kFloatSelected.size());
                    text = text.trimmed();
                    if (text.isEmpty())
                        continue;
                    const int begin = int(context.indexOf(text));
                    if (begin < 0)
                        qr.fail(field, QStringLiteral("evidence %1 is not in the paper's text "
                                                      "(title, abstract, paragraphs, captions)")
                                           .arg(quoteForError(text)));
                    const Span span = contextSpan(context, SpanKind::Evidence, begin,
                                                  begin + int(text.size()), QString());
                    if (std::find(s.spans.begin(), s.spans.end(), span) == s.spans.end())
                        s.spans.push_back(span);
                }
            }
            std::stable_sort(s.spans.begin(), s.spans.end(),
                             [](const Span& a, const Span& b) { return a.begin < b.begin; });
            s.suite = QStringLiteral("qasper");
            s.variant = kind;
            s.meta.insert(QStringLiteral("source"), QStringLiteral("qasper"));
            s.meta.insert(QStringLiteral("paper_id"), paper.id);
            s.meta.insert(QStringLiteral("answers"), allAnswers);
            samples.push_back(std::move(s));
        }
    }
    return samples;
}

} // namespace kvl
