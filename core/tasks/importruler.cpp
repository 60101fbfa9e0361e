// RULER (NVIDIA/RULER, scripts/data/synthetic/niah.py writes <task>/<subset>.jsonl):
// `index`, `input` (the prompt up to the answer prefix), `outputs` (the values asked
// for), `length`, `answer_prefix`. Only the niah tasks have needles: each is the
// sentence "One of the special magic <type> for <key> is: <value>." (RULER's needle
// template). A needle whose value is an output is evidence; every other needle
// (multikey's and the needle haystack's) is a distractor.
#include "common/error.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace kvl {
namespace {

struct Needle
{
    int begin = 0;
    int end = 0;
    QString key;
    QString value;
};

std::vector<Needle> findNeedles(const QString& text)
{
    static const QRegularExpression needle(
        QStringLiteral(R"(One of the special magic \S+ for (.+?) is: (\S+?)\.(?=\s|$))"));
    std::vector<Needle> needles;
    auto it = needle.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        needles.push_back(
            {int(m.capturedStart()), int(m.capturedEnd()), m.captured(1), m.captured(2)});
    }
    return needles;
}

} // namespace

std::vector<Sample> importRuler(const QString& path, const ImportOptions&)
{
    // RULER names the folder after the task (niah_single_1, niah_multikey_2, ...).
    const QString folder = QFileInfo(path).absoluteDir().dirName();
    const QString task =
        folder.startsWith(QLatin1String("niah")) ? folder : QStringLiteral("ruler");

    std::vector<Sample> samples;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        const qint64 index = r.integer(QStringLiteral("index"));
        Sample s;
        // KVDiagnosis names RULER sources the same way: niah_single_1_000003.
        s.id = QStringLiteral("%1_%2").arg(task).arg(index, 6, 10, QLatin1Char('0'));
        r.setId(s.id);
        const QString input = r.string(QStringLiteral("input"));
        const QStringList outputs = r.strings(QStringLiteral("outputs"));
        const QString answerPrefix = r.optionalString(QStringLiteral("answer_prefix"));

        const std::vector<Needle> needles = findNeedles(input);
        std::vector<int> evidenceOf(needles.size(), -1);
        QStringList askedKeys;
        int lastEvidenceEnd = 0;
        for (qsizetype i = 0; i < outputs.size(); ++i) {
            bool found = false;
            for (size_t n = 0; n < needles.size(); ++n)
                if (needles[n].value == outputs[i]) {
                    found = true;
                    evidenceOf[n] = int(i);
                    lastEvidenceEnd = std::max(lastEvidenceEnd, needles[n].end);
                    if (!askedKeys.contains(needles[n].key))
                        askedKeys << needles[n].key;
                }
            if (!found)
                r.fail(QStringLiteral("outputs[%1]").arg(i),
                       QStringLiteral("value %1 is in no needle sentence \"One of the special "
                                      "magic ... is: %2.\" of the input (only RULER's niah "
                                      "tasks have needles)")
                           .arg(quoteForError(outputs[i]), outputs[i]));
        }

        // The question is the line holding the last mention of an asked key; the prompt
        // before it (with the haystack and every needle) is the context.
        int split = -1;
        const int keyAt = int(input.lastIndexOf(askedKeys.last()));
        if (keyAt >= lastEvidenceEnd)
            split = int(input.lastIndexOf(QLatin1Char('\n'), keyAt));
        if (split < lastEvidenceEnd) {
            // No line of its own (remove_newline_tab): the whole input is context.
            s.context = input;
            s.question = answerPrefix.isEmpty() ? QStringLiteral("\nAnswer:") : answerPrefix;
        } else {
            s.context = input.left(split);
            s.question = input.mid(split) + answerPrefix;
        }

        int distractors = 0;
        for (size_t n = 0; n < needles.size(); ++n) {
            if (needles[n].end > int(s.context.size()))
                continue; // a needle-like sentence in the question is not context
            const bool evidence = evidenceOf[n] >= 0;
            distractors += evidence ? 0 : 1;
            s.spans.push_back(contextSpan(s.context,
                                          evidence ? SpanKind::Evidence : SpanKind::Distractor,
                                          needles[n].begin, needles[n].end, needles[n].key));
        }

        // Variant from the needles (RULER's task names say the same when present):
        // several asked keys = multiquery, several values of one key = multivalue,
        // other needles around = multikey.
        if (askedKeys.size() > 1)
            s.variant = QStringLiteral("multiquery");
        else if (outputs.size() > 1)
            s.variant = QStringLiteral("multivalue");
        else if (distractors > 0)
            s.variant = QStringLiteral("multikey");
        else
            s.variant = QStringLiteral("single");
        // The retrieval suite's scorer: the numbers stated, in order (any order for
        // multivalue); non-numeric values fall back to exact match.
        s.suite = QStringLiteral("retrieval");
        s.answer = outputs.join(QStringLiteral(", "));
        s.meta.insert(QStringLiteral("source"), QStringLiteral("ruler"));
        s.meta.insert(QStringLiteral("task"), task);
        s.meta.insert(QStringLiteral("index"), index);
        s.meta.insert(QStringLiteral("keys"), QJsonArray::fromStringList(askedKeys));
        s.meta.insert(QStringLiteral("values"), QJsonArray::fromStringList(outputs));
        const QJsonValue length = record.object.value(QStringLiteral("length"));
        if (length.isDouble())
            s.meta.insert(QStringLiteral("length"), length);
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
