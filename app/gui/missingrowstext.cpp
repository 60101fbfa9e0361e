#include "missingrowstext.h"

#include <QSet>
#include <QStringList>

namespace kvl {

MissingRowsText MissingRowsText::of(const std::vector<MissingCell>& cells)
{
    qint64 skipped = 0, failed = 0;
    QSet<QString> skipReasons, failedConfigs;
    QString firstSkipReason;
    QStringList lines;
    for (const MissingCell& c : cells) {
        const int n = int(c.samples);
        if (c.compressor.isEmpty()) {
            skipped += c.samples;
            if (skipReasons.isEmpty())
                firstSkipReason = c.reason;
            skipReasons.insert(c.reason);
            lines << tr("%n sample(s) skipped under every configuration: %1", nullptr, n)
                         .arg(c.reason);
        } else {
            failed += c.samples;
            failedConfigs.insert(QStringLiteral("%1 @ %2").arg(c.compressor).arg(c.ratio));
            lines << tr("%1 @ %2: %n sample(s) without a row: %3", nullptr, n)
                         .arg(c.compressor)
                         .arg(c.ratio)
                         .arg(c.reason);
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
        parts << (skipReasons.size() == 1
                      ? tr("%n sample(s) skipped: %1", nullptr, int(skipped)).arg(firstSkipReason)
                      : tr("%n sample(s) skipped for %1 reasons (the tool tip lists them), the "
                           "first: %2",
                           nullptr, int(skipped))
                            .arg(skipReasons.size())
                            .arg(firstSkipReason));
    if (failed > 0)
        parts << (failedConfigs.size() == 1
                      ? tr("%n row(s) failed under %1", nullptr, int(failed))
                            .arg(*failedConfigs.begin())
                      : tr("%n row(s) failed under %1 configurations", nullptr, int(failed))
                            .arg(failedConfigs.size()));
    text.summary = QStringLiteral(" · ") + parts.join(QStringLiteral("; "));
    text.detail = lines.join(QLatin1Char('\n'));
    return text;
}

} // namespace kvl
