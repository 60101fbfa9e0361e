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

// Whether the CSV and text reports print tables that have no rows in this run (a run
// without decoding-time presses has no decoding rows, say). JSON keeps every key.
enum class EmptyTables
{
    Omit, // left out; the text report names them in its last line
    Print // printed, "(no rows)" under the header in the text report
};

// {"run": {...}, "accuracy": [{column: value, ...}, ...], "transitions": [...], ...}
QJsonObject runReportJson(RunReader& reader);
// One CSV block per table: a "# name" line, the header, the rows; blank line between.
QString runReportCsv(RunReader& reader, EmptyTables empty = EmptyTables::Omit);
QString runReportText(RunReader& reader, EmptyTables empty = EmptyTables::Omit);

QJsonObject reportTablesToJson(const std::vector<ReportTable>& tables);
QString reportTablesToCsv(const std::vector<ReportTable>& tables);
QString reportTablesToText(const std::vector<ReportTable>& tables);

} // namespace kvl
