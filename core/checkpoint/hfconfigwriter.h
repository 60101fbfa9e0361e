#pragma once

#include "checkpoint/modelconfig.h"

#include <QJsonObject>
#include <QString>

namespace kvl {

// The config.json a Hugging Face loader (and loadModelConfig) reads back as `config`:
// for the trainer writing the bundled model and for tests building fixture models.
QJsonObject toHfConfigJson(const ModelConfig& config);
// Writes it atomically (pretty-printed); throws kvl::Error naming the file.
void writeModelConfig(const QString& configJsonPath, const ModelConfig& config);

} // namespace kvl
