#include "run/cardtables.h"

#include <QStringList>
#include <map>
#include <utility>

namespace kvl {

namespace {
QString cell(double score, int n)
{
    return QStringLiteral("%1 (%2)").arg(score, 0, 'f', 2).arg(n);
}

// "| a | b |"
QString row(const QStringList& cells)
{
    return QStringLiteral("| %1 |").arg(cells.join(QStringLiteral(" | ")));
}

// The header row and its "|---|" rule.
QStringList header(const QStringList& names)
{
    return {row(names), QStringLiteral("|%1").arg(QStringLiteral("---|").repeated(names.size()))};
}
} // namespace

QString evaluationTableMarkdown(const std::vector<SuiteEvaluation>& evaluations)
{
    std::map<std::pair<int, int>, int> columns; // bucket -> column index, shortest first
    for (const SuiteEvaluation& e : evaluations)
        for (const LengthBucketScore& b : e.buckets)
            columns.emplace(std::make_pair(b.minTokens, b.maxTokens), 0);
    QStringList names{QStringLiteral("suite")};
    int column = 0;
    for (auto& [range, index] : columns) {
        index = column++;
        names << QStringLiteral("%1-%2").arg(range.first).arg(range.second);
    }
    names << QStringLiteral("all");

    QStringList lines = header(names);
    for (const SuiteEvaluation& e : evaluations) {
        QStringList cells(qsizetype(columns.size()), QStringLiteral("—"));
        for (const LengthBucketScore& b : e.buckets)
            cells[columns.at({b.minTokens, b.maxTokens})] = cell(b.score, b.n);
        lines << row(QStringList{e.suite} + cells + QStringList{cell(e.score, e.n)});
    }
    bool blank = false;
    for (const SuiteEvaluation& e : evaluations) {
        QStringList fields;
        if (e.variants.size() > 1)
            for (const VariantScore& v : e.variants)
                fields << QStringLiteral("%1 %2").arg(v.variant, cell(v.score, v.n));
        for (const auto& [name, value] : e.scorerFields())
            fields << QStringLiteral("%1 %2").arg(name).arg(value, 0, 'f', 2);
        if (e.skipped > 0)
            fields << QStringLiteral("%1 samples too long for the model").arg(e.skipped);
        if (fields.isEmpty())
            continue;
        if (!blank)
            lines << QString();
        blank = true;
        lines << QStringLiteral("- %1: %2").arg(e.suite, fields.join(QStringLiteral(", ")));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString headLiftTableMarkdown(const std::vector<std::vector<double>>& evidenceShare,
                              double uniformShare, int samples)
{
    const size_t heads = evidenceShare.empty() ? 0 : evidenceShare.front().size();
    QStringList names{QStringLiteral("layer")};
    for (size_t h = 0; h < heads; ++h)
        names << QStringLiteral("kv-head %1").arg(h);
    QStringList lines = header(names);
    for (size_t l = 0; l < evidenceShare.size(); ++l) {
        QStringList cells{QString::number(l)};
        for (double share : evidenceShare[l])
            cells << QStringLiteral("%1 (%2)")
                         .arg(uniformShare > 0 ? share / uniformShare : 0.0, 0, 'f', 2)
                         .arg(share, 0, 'f', 2);
        lines << row(cells);
    }
    lines << QString()
          << QStringLiteral("Cells: lift over the uniform share (share of the question's context "
                            "attention on evidence); uniform share |E|/T = %1, %2 samples.")
                 .arg(uniformShare, 0, 'f', 3)
                 .arg(samples);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace kvl
