#include "diagnose/diagnosticfile.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace kvl {

namespace {

QStringList splitCsvRecords(const QString& text)
{
    // Records end at newlines outside quotes.
    QStringList records;
    QString current;
    bool inQuotes = false;
    for (QChar c : text) {
        if (c == QLatin1Char('"'))
            inQuotes = !inQuotes;
        if (!inQuotes && (c == QLatin1Char('\n') || c == QLatin1Char('\r'))) {
            if (!current.trimmed().isEmpty())
                records << current;
            current.clear();
            continue;
        }
        current += c;
    }
    if (!current.trimmed().isEmpty())
        records << current;
    return records;
}
} // namespace

QStringList splitCsvRecord(const QString& line)
{
    QStringList fields;
    QString field;
    bool inQuotes = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (inQuotes) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"'))
                inQuotes = false;
            else
                field += c;
        } else if (c == QLatin1Char('"'))
            inQuotes = true;
        else if (c == QLatin1Char(','))
            fields << std::exchange(field, QString());
        else
            field += c;
    }
    fields << field;
    return fields;
}

std::vector<DiagnosticRow> parseDiagnosticCsv(const QByteArray& bytes, const QString& path)
{
    QString text = QString::fromUtf8(bytes);
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    const QStringList records = splitCsvRecords(text);
    if (records.isEmpty())
        throw Error(path, QStringLiteral("empty CSV file (a header row is needed)"));
    QStringList header = splitCsvRecord(records.front());
    for (QString& h : header)
        h = h.trimmed();
    std::vector<DiagnosticRow> rows;
    for (qsizetype r = 1; r < records.size(); ++r) {
        const QStringList fields = splitCsvRecord(records[r]);
        if (fields.size() != header.size())
            throw Error(path, QStringLiteral("row %1 has %2 fields, the header has %3")
                                  .arg(r - 1)
                                  .arg(fields.size())
                                  .arg(header.size()));
        QJsonObject object;
        for (qsizetype c = 0; c < header.size(); ++c)
            object.insert(header[c], fields[c]);
        try {
            rows.push_back(diagnosticRowFromJson(object));
        } catch (const Error& e) {
            throw Error(path, QStringLiteral("row %1: %2").arg(r - 1).arg(e.message()));
        }
    }
    return rows;
}

std::vector<DiagnosticRow> parseDiagnosticJsonl(const QByteArray& bytes, const QString& path)
{
    std::vector<DiagnosticRow> rows;
    int lineNo = 0;
    for (const QByteArray& raw : bytes.split('\n')) {
        ++lineNo;
        if (raw.trimmed().isEmpty())
            continue;
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(nullifyBareNonFinite(raw), &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            throw Error(path, QStringLiteral("line %1: not a JSON object (%2)")
                                  .arg(lineNo)
                                  .arg(err.error != QJsonParseError::NoError
                                           ? err.errorString()
                                           : QStringLiteral("another JSON value")));
        try {
            rows.push_back(diagnosticRowFromJson(doc.object()));
        } catch (const Error& e) {
            throw Error(path, QStringLiteral("line %1: %2").arg(lineNo).arg(e.message()));
        }
    }
    return rows;
}

std::vector<DiagnosticRow> readDiagnosticFile(const QString& path)
{
    const QByteArray bytes = readFileBytes(path);
    const QByteArray head = bytes.trimmed();
    if (head.startsWith('{'))
        return parseDiagnosticJsonl(bytes, path);
    return parseDiagnosticCsv(bytes, path);
}

} // namespace kvl
