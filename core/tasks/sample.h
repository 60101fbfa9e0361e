#pragma once

#include "tasks/span.h"

#include <QJsonObject>
#include <QString>
#include <vector>

namespace kvl {

// One task sample (schema in SCHEMA.md). The prompt a model sees is `context`
// followed by `question`; the compressed part is the context only. `system` is a
// system turn for instruct models (chat templates): compressed with the context. `answer` is the
// gold string; `meta` holds what a scorer needs beyond it (rules to check, gold
// objects, the asked key, the hop chain).
struct Sample
{
    QString id;
    QString suite;
    QString variant;
    QString system; // empty: no system turn
    QString context;
    QString question;
    QString answer;
    std::vector<Span> spans;
    QJsonObject meta;

    // The text of a field (context, question or system).
    const QString& fieldText(SpanField field) const;
    // The text a span covers, from the field it indexes.
    QString spanText(const Span& span) const;

    bool operator==(const Sample&) const = default;
};

QJsonObject sampleToJson(const Sample& sample);

// Validates and converts one JSON object. Throws kvl::Error whose message names the
// field ("field 'spans[2].end': ..."); the JSONL reader adds the file and line.
// Keys the schema does not know (a `prediction`, say) are ignored.
Sample sampleFromJson(const QJsonObject& object);

} // namespace kvl
