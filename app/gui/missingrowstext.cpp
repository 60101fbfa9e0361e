#include "missingrowstext.h"

#include <QSet>
#include <QStringList>

namespace kvl {

MissingRowsText MissingRowsText::of(const std::vector<MissingCell>& cells)
{
    qint64 skipped = 0, failed = 0;
    QSet<QString> skipReasons, failedConfigs;
    QStringList lines;
    for (const MissingCell& c : cells) {
        const int n = int(c.samples);
        if (c.compressor.isEmpty()) {
            skipped += c.samples;
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
    QStringList parts;
    if (skipped > 0)
        parts << (skipReasons.size() == 1
                      ? tr("%n sample(s) skipped: %1", nullptr, int(skipped))
                            .arg(*skipReasons.begin())
                      : tr("%n sample(s) skipped for %1 reasons", nullptr, int(skipped))
                            .arg(skipReasons.size()));
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
