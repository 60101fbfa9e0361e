#include "csvtable.h"

#include <cmath>

namespace kvl {

CsvTable::CsvTable(const QStringList& header)
{
    for (const QString& h : header)
        add(h);
    endRow();
}

CsvTable& CsvTable::add(const QString& field)
{
    if (m_rowStarted)
        m_text += QLatin1Char(',');
    m_text += escape(field);
    m_rowStarted = true;
    return *this;
}

CsvTable& CsvTable::add(double value)
{
    return add(number(value));
}

CsvTable& CsvTable::add(int value)
{
    return add(QString::number(value));
}

CsvTable& CsvTable::endRow()
{
    m_text += QLatin1Char('\n');
    m_rowStarted = false;
    return *this;
}

QString CsvTable::escape(const QString& field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r')))
        return field;
    QString quoted = field;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString CsvTable::number(double value)
{
    if (std::isnan(value))
        return QString();
    return QString::number(value, 'g', 10);
}

} // namespace kvl
