#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {

class RunReader;

// The report of a run without the GUI (`kvlens-cli report`): one table per question
// of SCIENCE.md, built once and rendered as JSON, CSV or aligned text.
struct ReportTable
{
    QString name; // accuracy, transitions, signatures, overlap, spans, leakage, ger, interventions,
                  // intervention_groups, intervention_targets, chains, decoding,
                  // retrieval, retrieval_fields, missing
    QString title;
    QStringList columns;
    std::vector<QJsonArray> rows; // one value per column; null for a missing value
};

std::vector<ReportTable> buildRunReport(RunReader& reader);

// {"run": {...}, "accuracy": [{column: value, ...}, ...], "transitions": [...], ...}
QJsonObject runReportJson(RunReader& reader);
// One CSV block per table: a "# name" line, the header, the rows; blank line between.
QString runReportCsv(RunReader& reader);
QString runReportText(RunReader& reader);

QJsonObject reportTablesToJson(const std::vector<ReportTable>& tables);
QString reportTablesToCsv(const std::vector<ReportTable>& tables);
QString reportTablesToText(const std::vector<ReportTable>& tables);

} // namespace kvl
