#pragma once

#include <QString>
#include <QStringList>

namespace kvl {

// Builds RFC 4180 CSV text: comma separated, "\n" line ends, fields quoted only
// when they hold a comma, quote or line break. Numbers are written with up to
// 10 significant digits; NaN becomes an empty field (missing, never imputed).
class CsvTable
{
  public:
    explicit CsvTable(const QStringList& header);

    CsvTable& add(const QString& field);
    CsvTable& add(double value);
    CsvTable& add(int value);
    CsvTable& endRow();

    QString text() const { return m_text; }

    static QString escape(const QString& field);
    static QString number(double value);

  private:
    QString m_text;
    bool m_rowStarted = false;
};

} // namespace kvl
