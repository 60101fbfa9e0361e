#pragma once

#include "tasks/sample.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <vector>

namespace kvl {

// One parsed JSONL line: the sample and the raw object it came from (so callers can
// read extra keys such as a `prediction`), with its 1-based line number.
struct SampleLine
{
    int line = 0;
    Sample sample;
    QJsonObject raw;
};

// Parses JSONL text: one sample object per line; blank lines are skipped. A bad line
// throws kvl::Error(path, "line N: field 'x': problem"); `path` only names the source.
std::vector<SampleLine> parseSampleLines(const QByteArray& bytes, const QString& path);

// Reads and validates a JSONL file of samples (errors as parseSampleLines).
std::vector<Sample> readSamples(const QString& path);

// One compact JSON object per line, each ending in '\n'; keys sorted, so the same
// samples always give the same bytes.
QByteArray samplesToJsonl(const std::vector<Sample>& samples);
void writeSamples(const QString& path, const std::vector<Sample>& samples);

} // namespace kvl
