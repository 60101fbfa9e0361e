#pragma once

#include "chattemplate/jinjavalue.h"

#include <QString>
#include <optional>
#include <string>

// Python's string and number formatting, as the values of a Jinja template print in
// Python: str() and repr() of every type, float repr, str.strip/split by code point.
namespace kvl::jinja::py {

std::u32string codePoints(const QString& s);
QString fromCodePoints(const std::u32string& s);
qint64 length(const QString& s); // in code points, as Python's len()

bool isSpace(char32_t c); // str.isspace()

// str.strip / lstrip / rstrip: whitespace when chars is empty-optional.
QString strip(const QString& s, const std::optional<QString>& chars, bool left, bool right);
// str.split(sep, maxsplit): runs of whitespace when sep is not given.
List split(const QString& s, const std::optional<QString>& sep, qint64 maxsplit);

QString floatRepr(double v);
QString str(const Value& v);  // what {{ v }} prints
QString repr(const Value& v); // inside a printed list or dict

} // namespace kvl::jinja::py
