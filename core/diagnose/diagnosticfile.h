#pragma once

#include "diagnose/diagnosticrow.h"

#include <QString>
#include <vector>

namespace kvl {

// Reads per-row metrics written by KVDiagnosis or another tool: CSV with a header
// row, or JSONL (one object per line; bare NaN/Infinity as Python writes them are
// read as null). The format is taken from the first non-blank character ('{' =
// JSONL). Columns are matched by KVDiagnosis name; other columns are ignored.
// Throws kvl::Error naming the file, the row and the column for malformed input.
std::vector<DiagnosticRow> readDiagnosticFile(const QString& path);

// The same from bytes already read (path only names the source in errors).
std::vector<DiagnosticRow> parseDiagnosticCsv(const QByteArray& bytes, const QString& path);
std::vector<DiagnosticRow> parseDiagnosticJsonl(const QByteArray& bytes, const QString& path);

} // namespace kvl
