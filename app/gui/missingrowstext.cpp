#include "missingrowstext.h"

#include "runviewdata.h"

#include <QSet>
#include <QStringList>

namespace kvl {

MissingRowsText MissingRowsText::of(const std::vector<MissingCell>& cells)
{
    // missingRows gives one cell per reason, skipped samples first: the skip reasons are
    // the skipped cells, the first of them the first cell.
    qint64 skipped = 0, failed = 0, unsupported = 0;
    int skipReasons = 0;
    QSet<QString> failedConfigs, unsupportedConfigs;
    QStringList lines;
    for (const MissingCell& c : cells) {
        const int n = int(c.samples);
        if (c.compressor.isEmpty()) {
            skipped += c.samples;
            ++skipReasons;
            lines << tr("%n sample(s) skipped under every configuration: %1", nullptr, n)
                         .arg(c.reason);
        } else if (c.unsupported) {
            // An imported source's planned cell it never ran: not a failure of the method.
            unsupported += c.samples;
            const QString config = ConfigChoice{c.compressor, c.ratio}.label();
            unsupportedConfigs.insert(config);
            lines << tr("%1: %n sample(s) not run (unsupported): %2", nullptr, n)
                         .arg(config, c.reason);
        } else {
            failed += c.samples;
            const QString config = ConfigChoice{c.compressor, c.ratio}.label();
            failedConfigs.insert(config);
            lines << tr("%1: %n sample(s) without a row: %2", nullptr, n).arg(config, c.reason);
        }
    }
    MissingRowsText text;
    if (lines.isEmpty())
        return text;
    // A skip reason names its file and sample before the limit it broke, so reasons seldom
    // repeat and run long: the counts come first (a long line is clipped at its end), then
    // the first reason; the tool tip lists every one.
    QStringList parts;
    if (skipped > 0)
        parts << (skipReasons == 1
                      ? tr("%n sample(s) skipped: %1", nullptr, int(skipped))
                            .arg(cells.front().reason)
                      : tr("%n sample(s) skipped for %1 reasons (the tool tip lists them), the "
                           "first: %2",
                           nullptr, int(skipped))
                            .arg(skipReasons)
                            .arg(cells.front().reason));
    if (failed > 0)
        parts << (failedConfigs.size() == 1
                      ? tr("%n row(s) failed under %1", nullptr, int(failed))
                            .arg(*failedConfigs.begin())
                      : tr("%n row(s) failed under %1 configurations", nullptr, int(failed))
                            .arg(failedConfigs.size()));
    if (unsupported > 0)
        parts << (unsupportedConfigs.size() == 1
                      ? tr("%n cell(s) not run: %1 is unsupported", nullptr, int(unsupported))
                            .arg(*unsupportedConfigs.begin())
                      : tr("%n cell(s) not run under %1 unsupported configurations", nullptr,
                           int(unsupported))
                            .arg(unsupportedConfigs.size()));
    text.summary = QStringLiteral(" · ") + parts.join(QStringLiteral("; "));
    text.detail = lines.join(QLatin1Char('\n'));
    return text;
}

} // namespace kvl
