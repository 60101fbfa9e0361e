#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// A comma-separated list of press specs, as `--press` takes it. Press parameters are
// comma-separated too, so a piece that is only key=value (no ':' or '(') continues the
// previous spec: "snapkv:window=64,kernel=5,tova" -> "snapkv:window=64,kernel=5", "tova".
// Torch-free, so the desktop app's New run dialog splits lists by the CLI's own rule.
QStringList splitPressList(const QString& text);

} // namespace kvl
