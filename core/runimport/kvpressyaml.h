#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>

namespace kvl {

// The YAML a kvpress result folder's config.yaml holds: evaluate.py writes it with
// PyYAML's yaml.dump (block style, indent 2), and people edit or write such files by
// hand. This reads the subset those files use: block mappings and sequences, plain
// and quoted scalars (folded over several lines), one-line flow collections ({}, [a,
// b]), comments. Tags (!!python/...) are skipped, block scalars (| >) are refused.
// Scalars resolve as PyYAML's safe loader would: null/~, true/false/yes/no/on/off,
// integers and floats; quoted scalars stay strings.
struct YamlMapping
{
    QJsonObject values;
    QHash<QString, int> lines; // top-level key -> its line (1-based), for errors

    int lineOf(const QString& key) const { return lines.value(key, 0); }
};

// The document's top-level mapping. Anything else (a line that is not `key: value`,
// a tab in the indentation, an unclosed quote or bracket, a key given twice) is a
// kvl::Error naming `path`, the line and the field.
YamlMapping parseYamlMapping(const QByteArray& bytes, const QString& path);

// A \xHH, \uHHHH or \UHHHHHHHH escape (Python's repr and YAML's double-quoted scalars
// share them) with `i` on its letter: appends the character, leaves `i` on the last digit
// and returns true; false for another letter or too few hex digits.
bool appendCodePointEscape(const QString& s, qsizetype& i, QString& out);

} // namespace kvl
