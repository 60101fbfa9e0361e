#include "run/sampleinputrecord.h"

#include "store/sampleinputs.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace kvl {

QJsonObject sampleInputRecord(const Sample& sample, const RunInputHashes& run)
{
    // The spans as the sample file states them (field, kind, offsets), compact.
    const QJsonArray spans = sampleToJson(sample).value(QStringLiteral("spans")).toArray();
    return {
        {QStringLiteral("context"), inputHash(sample.context.toUtf8())},
        {QStringLiteral("question"), inputHash(sample.question.toUtf8())},
        {QStringLiteral("answer"), inputHash(sample.answer.toUtf8())},
        {QStringLiteral("spans"), inputHash(QJsonDocument(spans).toJson(QJsonDocument::Compact))},
        {QStringLiteral("system"), inputHash(sample.system.toUtf8())},
        {QStringLiteral("model"), run.model},
        {QStringLiteral("tokenizer"), run.tokenizer},
        {QStringLiteral("chat_template"), run.chatTemplate}};
}

} // namespace kvl
