#pragma once

#include "tasks/sample.h"

#include <QJsonObject>
#include <QString>

namespace kvl {

// What a sweep runs every sample with: hashes of the model's identity, its
// tokenizer.json and the chat template as resolved.
struct RunInputHashes
{
    QString model;
    QString tokenizer;
    QString chatTemplate;
};

// The kSampleInputs record of one sample (store/runmetakeys.h): a hash per field of
// store/sampleinputs.h, so that a resume or a merge can name the field that changed.
QJsonObject sampleInputRecord(const Sample& sample, const RunInputHashes& run);

} // namespace kvl
