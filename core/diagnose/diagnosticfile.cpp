#include "diagnose/diagnosticfile.h"

#include "common/csvtable.h"
#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace kvl {

std::vector<DiagnosticRow> parseDiagnosticCsv(const QByteArray& bytes, const QString& path)
{
    const CsvTable table = parseCsvTable(bytes, path);
    QStringList header = table.header;
    for (QString& h : header)
        h = h.trimmed();
    std::vector<DiagnosticRow> rows;
    rows.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const QStringList& fields = table.rows[r];
        QJsonObject object;
        for (qsizetype c = 0; c < header.size(); ++c)
            object.insert(header[c], fields[c]);
        try {
            rows.push_back(diagnosticRowFromJson(object));
        } catch (const Error& e) {
            throw Error(recordPlace(path, table.lines[r]), e.message());
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
