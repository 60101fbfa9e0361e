#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// What `--model bundled` means: the first of
//   $KVLENS_BUNDLED_MODEL (when set, it must be a model directory),
//   <resourcesDir>/models/kvlens-tiny (the source tree; the CLI passes its
//     KVLENS_SOURCE_RESOURCES compile definition),
//   <application dir>/../share/kvlens/models/kvlens-tiny (an installed package)
// that holds a config.json.
QStringList bundledModelCandidates(const QString& resourcesDir);

// `arg` unchanged unless it is "bundled"; then the bundled model directory, or
// kvl::Error saying the bundled model is not built yet and where it was looked for.
QString resolveModelDir(const QString& arg, const QString& resourcesDir);

} // namespace kvl
