// LongBench-v2 (THUDM/LongBench, data.json on the Hugging Face hub; a JSON array or
// JSONL): `_id`, `domain`, `sub_domain`, `difficulty`, `length`, `question`,
// `choice_A`..`choice_D`, `answer` (a letter), `context`. Multiple choice: the question
// lists the choices and the gold answer is the letter. No spans are annotated.
#include "common/error.h"
#include "tasks/importformats.h"
#include "tasks/importrecords.h"

namespace kvl {

std::vector<Sample> importLongBenchV2(const QString& path, const ImportOptions&)
{
    static const QStringList kLetters{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"),
                                      QStringLiteral("D")};
    std::vector<Sample> samples;
    for (const ImportRecord& record : readImportRecords(path)) {
        RecordReader r(path, record.where, record.object);
        Sample s;
        s.id = r.idText(QStringLiteral("_id"));
        r.setId(s.id);
        s.context = r.string(QStringLiteral("context"));
        QString question = QStringLiteral("\nQuestion: ") + r.string(QStringLiteral("question")) +
                           QStringLiteral("\nChoices:");
        QJsonObject choices;
        for (const QString& letter : kLetters) {
            const QString choice = r.string(QStringLiteral("choice_") + letter);
            question += QStringLiteral("\n(%1) %2").arg(letter, choice);
            choices.insert(letter, choice);
        }
        s.question = question + QStringLiteral("\nAnswer:");
        s.answer = r.string(QStringLiteral("answer")).trimmed();
        if (!kLetters.contains(s.answer))
            r.fail(
                QStringLiteral("answer"),
                QStringLiteral("expected one of A, B, C, D, got %1").arg(quoteForError(s.answer)));
        s.suite = QStringLiteral("longbench-v2");
        s.variant = r.optionalString(QStringLiteral("domain"));
        s.meta.insert(QStringLiteral("source"), QStringLiteral("longbench-v2"));
        s.meta.insert(QStringLiteral("choices"), choices);
        copyPresentMembers(record.object, {"sub_domain", "difficulty", "length"}, s.meta);
        samples.push_back(std::move(s));
    }
    return samples;
}

} // namespace kvl
