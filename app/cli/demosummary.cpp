#include "demosummary.h"

#include "diagnose/signature.h"
#include "store/runreader.h"

#include <QHash>
#include <QMap>
#include <algorithm>

namespace kvl::cli {
namespace {

QString percent(double ratio)
{
    return QStringLiteral("%1%").arg(qRound(ratio * 100.0));
}

// One line of a stored answer: newlines folded, long answers cut.
QString shortText(QString text, int width = 32)
{
    text = text.simplified();
    if (text.size() > width)
        text = text.left(width - 3) + QStringLiteral("...");
    return QLatin1Char('"') + text + QLatin1Char('"');
}

struct Pooled
{
    qint64 n = 0;
    qint64 correct = 0;
    QString text() const
    {
        return n == 0 ? QStringLiteral("-") : QString::number(double(correct) / double(n), 'f', 2);
    }
};

QStringList accuracySection(RunReader& reader, const DemoFacts& facts)
{
    // Suites pooled: a newcomer's first question is "how much does each press lose".
    Pooled full;
    QMap<QString, QMap<int, Pooled>> byPress; // press -> ratio in percent -> cell
    for (const AccuracyCell& c : reader.accuracy()) {
        Pooled& p = c.compressor == kFullCacheCompressor
                        ? full
                        : byPress[c.compressor][qRound(c.ratio * 100.0)];
        p.n += c.n;
        p.correct += c.correct;
    }
    qsizetype nameWidth = QStringLiteral("FullCache").size();
    for (const QString& press : facts.presses)
        nameWidth = std::max(nameWidth, press.size());
    QStringList lines{QStringLiteral("Accuracy by compression ratio (suites pooled; FullCache "
                                     "keeps the whole cache)")};
    QString header(nameWidth + 2, QLatin1Char(' '));
    for (double r : facts.ratios)
        header += percent(r).rightJustified(7);
    lines << header;
    lines << QStringLiteral("FullCache").leftJustified(nameWidth + 2) +
                 full.text().rightJustified(7) + QStringLiteral("  (at every ratio)");
    for (const QString& press : facts.presses) {
        QString line = press.leftJustified(nameWidth + 2);
        for (double r : facts.ratios)
            line += byPress.value(press).value(qRound(r * 100.0)).text().rightJustified(7);
        lines << line;
    }
    return lines;
}

QStringList failureSection(RunReader& reader)
{
    qint64 cw = 0, fullCorrect = 0;
    for (const TransitionCounts& t : reader.transitions()) {
        cw += t.correctToWrong;
        fullCorrect += t.correctToWrong + t.correctToCorrect;
    }
    QStringList lines;
    if (cw == 0) {
        lines << QStringLiteral("No C->W rows: no press turned a FullCache-correct answer wrong.");
        return lines;
    }
    lines << QStringLiteral(
                 "Why compressed runs failed: %1 of %2 compressed answers turned wrong where "
                 "FullCache's was correct (C->W)")
                 .arg(cw)
                 .arg(fullCorrect);
    std::vector<SignatureCount> totals = reader.signatureTotals();
    std::stable_sort(
        totals.begin(), totals.end(),
        [](const SignatureCount& a, const SignatureCount& b) { return a.count > b.count; });
    int shown = 0;
    for (const SignatureCount& s : totals) {
        const std::optional<Signature> signature = signatureFromName(s.signature);
        if (!signature || s.count == 0)
            continue;
        lines << QStringLiteral("%1  %2: %3")
                     .arg(s.count, 5)
                     .arg(s.signature, signatureGist(*signature));
        ResultFilter example;
        example.signature = signature;
        example.limit = 1;
        const std::vector<StoredResult> rows = reader.results(example);
        if (!rows.empty()) {
            const StoredResult& row = rows.front();
            const std::optional<SampleInfo> sample = reader.sample(row.sampleKey);
            lines << QStringLiteral("       e.g. %1 under %2 at %3: answered %4, gold %5")
                         .arg(row.sampleKey, row.compressor, percent(row.ratio),
                              shortText(row.record.answer),
                              shortText(sample ? sample->gold : QString()));
        }
        if (++shown == 3)
            break;
    }
    return lines;
}

} // namespace

QString demoSummaryText(RunReader& reader, const DemoFacts& facts)
{
    QStringList ratios;
    for (double r : facts.ratios)
        ratios << percent(r);
    QStringList lines;
    lines << QStringLiteral("KVLens demo: %1, %2 samples (%3; %4 each), FullCache + %5 at %6 "
                            "compression, %7 s")
                 .arg(facts.model)
                 .arg(reader.sampleCount())
                 .arg(facts.suites.join(QStringLiteral(", ")))
                 .arg(facts.perSuite)
                 .arg(facts.presses.join(QStringLiteral(", ")), ratios.join(QLatin1Char('/')))
                 .arg(facts.seconds, 0, 'f', 1);
    if (facts.skipped > 0)
        lines << QStringLiteral("%1 samples skipped (longer than the model's context)")
                     .arg(facts.skipped);
    lines << QString();
    lines << accuracySection(reader, facts);
    lines << QString();
    lines << failureSection(reader);
    lines << QString();
    const QString run = facts.runFile;
    lines << QStringLiteral("Next") << QStringLiteral("  kvlens %1").arg(run)
          << QStringLiteral("      the run in the app: Accuracy, Failures, and each Sample's "
                            "evicted evidence")
          << QStringLiteral("  kvlens-cli report %1 [--format csv|json]").arg(run)
          << QStringLiteral("      every table: transitions, signatures, overlap, spans, "
                            "leakage, interventions, chains")
          << QStringLiteral("  kvlens --export-figures %1 --out figures").arg(run)
          << QStringLiteral("      every figure as PNG, PDF and SVG, with its CSV");
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace kvl::cli
