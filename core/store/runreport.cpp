#include "store/runreport.h"

#include "store/runreader.h"
#include "store/chainbreaks.h"

#include <QJsonValue>
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace kvl {

namespace {
QJsonValue opt(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

ReportTable table(const char* name, const char* title, QStringList columns)
{
    return {QLatin1String(name), QLatin1String(title), std::move(columns), {}};
}

// The chain breaks (store/chainbreaks) per compressor x ratio x the gold's link count.
ReportTable chainBreakTable(RunReader& reader)
{
    ReportTable t = table("chains", "Multihop C->W rows: step where the answer left the gold chain",
                          {"compressor", "ratio", "links", "step", "count", "share"});
    using Cell = std::tuple<QString, double, int>; // compressor, ratio, links
    std::map<Cell, std::map<int, int>> counts;     // cell -> step -> rows
    for (const ChainBreak& b : chainBreaks(reader))
        ++counts[{b.result.compressor, b.result.ratio, b.links}][b.step];
    for (const auto& [cell, steps] : counts) {
        int total = 0;
        for (const auto& [step, n] : steps)
            total += n;
        for (const auto& [step, n] : steps)
            t.rows.push_back({std::get<0>(cell), std::get<1>(cell), std::get<2>(cell), step, n,
                              double(n) / total});
    }
    return t;
}

QString cellText(const QJsonValue& v)
{
    if (v.isNull() || v.isUndefined())
        return {};
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d == double(qint64(d)) && std::abs(d) < 1e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 6);
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return v.toString();
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')))
        return s;
    QString quoted = s;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
} // namespace

std::vector<ReportTable> buildRunReport(RunReader& reader)
{
    std::vector<ReportTable> tables;

    ReportTable acc = table("accuracy", "Accuracy per compressor x ratio x suite",
                            {"compressor", "ratio", "suite", "n", "correct", "accuracy"});
    for (const AccuracyCell& c : reader.accuracy())
        acc.rows.push_back({c.compressor, c.ratio, c.suite, c.n, c.correct, c.accuracy});
    tables.push_back(acc);

    ReportTable tr = table("transitions", "Transitions against FullCache",
                           {"compressor", "ratio", "C->C", "C->W", "W->C", "W->W", "cw_rate"});
    for (const TransitionCounts& t : reader.transitions())
        tr.rows.push_back({t.compressor, t.ratio, t.correctToCorrect, t.correctToWrong,
                           t.wrongToCorrect, t.wrongToWrong, opt(t.failureRate())});
    tables.push_back(tr);

    ReportTable sig = table("signatures", "Failure signatures of C->W rows",
                            {"compressor", "ratio", "signature", "count", "share"});
    for (const SignatureCount& s : reader.signatures())
        sig.rows.push_back({s.compressor, s.ratio, s.signature, s.count, s.share});
    tables.push_back(sig);

    ReportTable ov = table("overlap", "Failure-set overlap (C->W) between compressors",
                           {"ratio", "a", "b", "a_only", "b_only", "both", "jaccard"});
    for (const OverlapCell& o : reader.failureOverlaps())
        ov.rows.push_back({o.ratio, o.a, o.b, o.aOnly, o.bOnly, o.both, opt(o.jaccard)});
    tables.push_back(ov);

    ReportTable sp = table("spans", "Instruction span keep rate by order in the prompt",
                           {"compressor", "ratio", "order", "n", "keep_rate"});
    for (const SpanKeepCell& s : reader.spanKeepByOrder())
        sp.rows.push_back({s.compressor, s.ratio, s.order, s.n, s.meanKeepRate});
    tables.push_back(sp);

    ReportTable lk =
        table("leakage", "System-prompt leakage (ROUGE-L recall > 0.3)",
              {"compressor", "ratio", "suite", "n", "mean_recall", "leaks", "leak_rate"});
    for (const LeakageCell& l : reader.leakage())
        lk.rows.push_back({l.compressor, l.ratio, l.suite, l.n, l.meanRecall, l.leaks, l.leakRate});
    tables.push_back(lk);

    ReportTable ger = table("ger", "Global eviction rate and head consensus by layer",
                            {"compressor", "ratio", "layer", "n", "GER", "consensus"});
    for (const LayerCell& l : reader.layerStatsByLayer())
        ger.rows.push_back(
            {l.compressor, l.ratio, l.layer, l.n, opt(l.meanGer), opt(l.meanConsensus)});
    tables.push_back(ger);

    ReportTable iv = table("interventions", "Intervention repair rates (boost vs sham)",
                           {"compressor", "ratio", "kind", "beta", "n", "repaired", "repair_rate"});
    for (const InterventionCell& i : reader.interventionRates())
        iv.rows.push_back(
            {i.compressor, i.ratio, i.kind, opt(i.beta), i.n, i.repaired, i.repairRate});
    tables.push_back(iv);

    // The study's question is asked of the retained group (evidence still in the cache,
    // attention elsewhere); the other groups show what boosting evicted evidence does.
    ReportTable ig =
        table("intervention_groups", "Intervention repair rates by target group",
              {"compressor", "ratio", "group", "kind", "beta", "n", "repaired", "repair_rate"});
    for (const InterventionGroupCell& c : reader.interventionRatesByGroup())
        ig.rows.push_back({c.compressor, c.ratio, interventionGroupName(c.group), c.kind,
                           opt(c.beta), c.n, c.repaired, c.repairRate});
    tables.push_back(ig);

    ReportTable it = table("intervention_targets",
                           "Compressed rows each intervention target of the spec selects",
                           {"target", "rows", "intervened", "note"});
    for (const InterventionTargetCount& c : interventionTargetCounts(
             reader.interventionGroupCounts(), interventionTargetsOfSpec(reader.runInfo().spec)))
        it.rows.push_back({interventionTargetName(c.target), c.rows, c.intervened,
                           c.note().isEmpty() ? QJsonValue() : QJsonValue(c.note())});
    tables.push_back(it);

    tables.push_back(chainBreakTable(reader));
    return tables;
}

QJsonObject reportTablesToJson(const std::vector<ReportTable>& tables)
{
    QJsonObject out;
    for (const ReportTable& t : tables) {
        QJsonArray rows;
        for (const QJsonArray& r : t.rows) {
            QJsonObject row;
            for (qsizetype c = 0; c < t.columns.size(); ++c)
                row.insert(t.columns[c], r[c]);
            rows.append(row);
        }
        out.insert(t.name, rows);
    }
    return out;
}

QString reportTablesToCsv(const std::vector<ReportTable>& tables)
{
    QStringList blocks;
    for (const ReportTable& t : tables) {
        QStringList lines{QStringLiteral("# ") + t.name};
        QStringList header;
        for (const QString& c : t.columns)
            header << csvField(c);
        lines << header.join(QLatin1Char(','));
        for (const QJsonArray& r : t.rows) {
            QStringList fields;
            for (const QJsonValue& v : r)
                fields << csvField(cellText(v));
            lines << fields.join(QLatin1Char(','));
        }
        blocks << lines.join(QLatin1Char('\n'));
    }
    return blocks.join(QLatin1String("\n\n")) + QLatin1Char('\n');
}

QString reportTablesToText(const std::vector<ReportTable>& tables)
{
    QStringList blocks;
    for (const ReportTable& t : tables) {
        std::vector<QStringList> cells{t.columns};
        for (const QJsonArray& r : t.rows) {
            QStringList line;
            for (const QJsonValue& v : r)
                line << (v.isNull() ? QStringLiteral("-") : cellText(v));
            cells.push_back(line);
        }
        std::vector<qsizetype> width(std::size_t(t.columns.size()), 0);
        for (const QStringList& line : cells)
            for (qsizetype c = 0; c < line.size(); ++c)
                width[std::size_t(c)] = std::max(width[std::size_t(c)], line[c].size());
        QStringList lines{t.title, QString(t.title.size(), QLatin1Char('-'))};
        for (const QStringList& line : cells) {
            QStringList padded;
            for (qsizetype c = 0; c < line.size(); ++c)
                padded << line[c].leftJustified(width[std::size_t(c)]);
            lines << padded.join(QLatin1String("  ")).trimmed();
        }
        if (t.rows.empty())
            lines << QStringLiteral("(no rows)");
        blocks << lines.join(QLatin1Char('\n'));
    }
    return blocks.join(QLatin1String("\n\n")) + QLatin1Char('\n');
}

QJsonObject runReportJson(RunReader& reader)
{
    QJsonObject out = reportTablesToJson(buildRunReport(reader));
    const RunInfo info = reader.runInfo();
    out.insert(QStringLiteral("run"),
               QJsonObject{{QStringLiteral("file"), reader.path()},
                           {QStringLiteral("model"), info.modelName},
                           {QStringLiteral("model_hash"), info.modelHash},
                           {QStringLiteral("tool_version"), info.toolVersion},
                           {QStringLiteral("status"), info.status},
                           {QStringLiteral("samples"), reader.sampleCount()},
                           {QStringLiteral("results"), reader.resultCount()}});
    return out;
}

QString runReportCsv(RunReader& reader)
{
    return reportTablesToCsv(buildRunReport(reader));
}

QString runReportText(RunReader& reader)
{
    const RunInfo info = reader.runInfo();
    const QString head =
        QStringLiteral("Run %1 (model %2, %3 samples, %4 rows, %5)\n\n")
            .arg(reader.path(), info.modelName.isEmpty() ? QStringLiteral("?") : info.modelName)
            .arg(reader.sampleCount())
            .arg(reader.resultCount())
            .arg(info.status);
    return head + reportTablesToText(buildRunReport(reader));
}

} // namespace kvl
