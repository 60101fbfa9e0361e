#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// What `--model bundled` means: the first of
//   $KVLENS_BUNDLED_MODEL (when set, it must be a model directory),
//   <application dir>/../share/kvlens/models/kvlens-tiny (an installed package:
//     /usr/bin/kvlens-cli -> /usr/share/kvlens; a build tree has no such folder),
//   <resourcesDir>/models/kvlens-tiny (the source tree; the CLI passes its
//     KVLENS_SOURCE_RESOURCES compile definition)
// that holds a config.json. The installed copy comes first so that a package built on
// a machine that still has its source tree uses the model it installed.
QStringList bundledModelCandidates(const QString& resourcesDir);
// The same for an executable in `applicationDir` (empty: no installed location).
QStringList bundledModelCandidates(const QString& resourcesDir, const QString& applicationDir);

// `arg` unchanged unless it is "bundled"; then the bundled model directory, or
// kvl::Error saying the bundled model is not built yet and where it was looked for.
QString resolveModelDir(const QString& arg, const QString& resourcesDir);

} // namespace kvl
