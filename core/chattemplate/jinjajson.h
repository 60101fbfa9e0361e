#pragma once

#include "chattemplate/jinjavalue.h"

#include <QByteArray>
#include <QString>
#include <optional>

// JSON in and out as Python's json module does it: objects keep their key order
// (json.load), and tojson is json.dumps (transformers' override of Jinja's tojson).
namespace kvl::jinja {

// Parses UTF-8 JSON as json.loads does (common/jsonloads.h); integers without fraction
// or exponent become Int, as in Python (Float past 64 bits).
// A syntax error throws kvl::Error naming `origin` and the line and column.
Value parseJson(const QByteArray& bytes, const QString& origin);

struct DumpOptions
{
    bool ensureAscii = false;
    std::optional<QString> indent; // None: one line
    // Python's defaults when not given: ", " (or "," with an indent) and ": ".
    std::optional<QString> itemSeparator;
    std::optional<QString> keySeparator;
    bool sortKeys = false;
};

// json.dumps; Undefined, functions and namespaces are not serializable (kvl::Error).
QString dumpJson(const Value& v, const DumpOptions& options);

} // namespace kvl::jinja
