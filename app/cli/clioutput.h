#pragma once

#include <QJsonObject>
#include <QString>

namespace kvl::cli {

// One compact JSON object on its own line on stdout.
void printJson(const QJsonObject& object);
// Plain text on stdout / stderr (a newline is added).
void printLine(const QString& text);
void printError(const QString& text);

} // namespace kvl::cli
