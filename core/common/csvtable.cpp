#include "common/csvtable.h"

#include "common/error.h"

namespace kvl {

QString recordPlace(const QString& path, int line)
{
    return QStringLiteral("%1:line %2").arg(path).arg(line);
}

CsvTable parseCsvTable(const QByteArray& input, const QString& path)
{
    QByteArray bytes = input;
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    const QString text = QString::fromUtf8(bytes);
    CsvTable table;
    QStringList fields;
    QString field;
    bool quoted = false;      // inside a quoted field
    bool fieldQuoted = false; // the current field started with a quote
    int line = 1, recordLine = 1;
    const auto endRecord = [&] {
        fields << field;
        field.clear();
        fieldQuoted = false;
        const bool blank = fields.size() == 1 && fields.front().isEmpty();
        if (!blank) {
            if (table.header.isEmpty()) {
                table.header = fields;
            } else {
                if (fields.size() != table.header.size())
                    throw Error(recordPlace(path, recordLine),
                                QStringLiteral("%1 fields where the header has %2")
                                    .arg(fields.size())
                                    .arg(table.header.size()));
                table.rows.push_back(fields);
                table.lines.push_back(recordLine);
            }
        }
        fields.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == QLatin1Char('\n'))
                    ++line;
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && field.isEmpty() && !fieldQuoted) {
            quoted = fieldQuoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << field;
            field.clear();
            fieldQuoted = false;
        } else if (c == QLatin1Char('\n')) {
            if (field.endsWith(QLatin1Char('\r')) && !fieldQuoted)
                field.chop(1);
            endRecord();
            ++line;
            recordLine = line;
        } else if (c == QLatin1Char('\r') && fieldQuoted) {
            // CR of a CRLF after a quoted field
        } else {
            field += c;
        }
    }
    if (quoted)
        throw Error(recordPlace(path, recordLine), QStringLiteral("a quoted field never closes"));
    if (!field.isEmpty() || !fields.isEmpty())
        endRecord();
    if (table.header.isEmpty())
        throw Error(path, QStringLiteral("empty CSV: no header row"));
    return table;
}

} // namespace kvl
