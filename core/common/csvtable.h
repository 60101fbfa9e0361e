#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {

// The one CSV reader of the core: import-run's result rows and kvpress predictions, and
// classify's per-row metrics. Rows remember the line they start on, so every error names
// the file and the line a person opens in an editor.

// A CSV table (RFC 4180: quoted fields may hold commas, quotes as "" and line breaks).
struct CsvTable
{
    QStringList header;
    std::vector<QStringList> rows;
    std::vector<int> lines; // the line each row starts on (the header is line 1)

    // The column's index, or -1.
    int column(const QString& name) const { return int(header.indexOf(name)); }
};

// Parses `bytes` (UTF-8, optional BOM; LF or CRLF line ends; blank lines skipped). A row
// with another number of fields than the header, an unterminated quote or a file without
// a header row is a kvl::Error naming `path` and the line.
CsvTable parseCsvTable(const QByteArray& bytes, const QString& path);

// "path:line N", the place errors name.
QString recordPlace(const QString& path, int line);

} // namespace kvl
