#pragma once

#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <functional>

class QByteArray;
class QCommandLineParser;

namespace kvl::cli {

// An integer option's value, at least `min`; otherwise kvl::Error "--NAME must be a
// positive integer" (min 1), "... a non-negative integer" (min 0) or "... an integer >=
// MIN".
int intOption(const QCommandLineParser& parser, const char* name, int min);
// A seed option's value (any unsigned 64-bit integer), else kvl::Error naming it.
quint64 seedOption(const QCommandLineParser& parser, const char* name = "seed");

// A --model value as a model directory: "bundled" is the bundled model (found as
// resolveModelDir finds it), anything else a directory, unchanged. Every command that
// takes --model reads it through here, so that each takes "bundled".
QString modelDirOption(const QString& value);

// The --chat-template and --chat-var options of the commands that turn samples into
// prompt ids (run, compress, eval, tokenize --sample).
void addChatTemplateOptions(QCommandLineParser& parser);
// --chat-var NAME=JSON (repeatable) as one object; kvl::Error naming a malformed one.
QJsonObject chatVarsOption(const QCommandLineParser& parser);

// Calls `line` with each non-blank line of a text file (JSONL, corpora) and its place,
// "FILE:N" (1-based), for error messages; kvl::Error naming the file when it cannot be
// read.
void forEachLine(const QString& file,
                 const std::function<void(const QByteArray& line, const QString& where)>& line);

} // namespace kvl::cli
