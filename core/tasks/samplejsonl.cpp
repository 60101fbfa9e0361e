#include "tasks/samplejsonl.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

namespace kvl {

std::vector<SampleLine> parseSampleLines(const QByteArray& bytes, const QString& path)
{
    std::vector<SampleLine> lines;
    QSet<QString> ids;
    int lineNumber = 0;
    for (const QByteArray& rawLine : bytes.split('\n')) {
        ++lineNumber;
        const QByteArray text = rawLine.trimmed();
        if (text.isEmpty())
            continue;
        const QString where = QStringLiteral("line %1: ").arg(lineNumber);
        // Qt's parser takes a raw NUL inside a string; JSON allows it only as \u0000,
        // and in a text file it means damage.
        if (const qsizetype nul = rawLine.indexOf('\0'); nul >= 0)
            throw Error(path, where + QStringLiteral("a raw NUL byte at column %1 (JSON writes "
                                                     "it as \\u0000 inside a string)")
                                          .arg(nul + 1));
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            throw Error(path, where + QStringLiteral("malformed JSON at column %1: %2")
                                          .arg(parseError.offset + 1)
                                          .arg(parseError.errorString()));
        if (!doc.isObject())
            throw Error(path, where + QStringLiteral("expected a JSON object"));
        SampleLine line;
        line.line = lineNumber;
        line.raw = doc.object();
        try {
            line.sample = sampleFromJson(line.raw);
        } catch (const Error& e) {
            throw Error(path, where + e.message());
        }
        // Results are keyed by sample id downstream; a repeated id would merge rows.
        if (ids.contains(line.sample.id))
            throw Error(
                path,
                where +
                    QStringLiteral("field 'id': '%1' repeats an earlier id").arg(line.sample.id));
        ids.insert(line.sample.id);
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<Sample> readSamples(const QString& path)
{
    std::vector<Sample> samples;
    for (SampleLine& line : parseSampleLines(readFileBytes(path), path))
        samples.push_back(std::move(line.sample));
    return samples;
}

QByteArray samplesToJsonl(const std::vector<Sample>& samples)
{
    QByteArray bytes;
    for (const Sample& s : samples) {
        bytes += toJsonLine(sampleToJson(s));
        bytes += '\n';
    }
    return bytes;
}

void writeSamples(const QString& path, const std::vector<Sample>& samples)
{
    writeFileAtomically(path, samplesToJsonl(samples));
}

} // namespace kvl
