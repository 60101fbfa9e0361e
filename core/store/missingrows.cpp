#include "store/runmetakeys.h"
#include "store/runreader.h"
#include "store/sqlitedatabase.h"
#include "store/sqlitestatement.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>
#include <tuple>

namespace kvl {

std::vector<MissingCell> RunReader::missingRows()
{
    // Only the samples' meta, and only of those that name either key: reading every
    // sample (contexts and spans) to find a few skipped ones would cost a long-context
    // run's overview seconds.
    QHash<QString, std::pair<QString, double>> byKey; // config key -> compressor, ratio
    for (const ConfigRecord& c : configs())
        byKey.insert(c.key, {c.compressor, c.ratio});
    SqliteStatement st = m_db->prepare(
        QStringLiteral("SELECT meta_json FROM sample WHERE meta_json LIKE '%\"%1\"%' OR "
                       "meta_json LIKE '%\"%2\"%' OR meta_json LIKE '%\"%3\"%'")
            .arg(kSkippedSample, kFailedConfigs, kUnsupportedConfigs));
    // (not skipped, compressor, ratio, unsupported, reason): skipped samples first.
    std::map<std::tuple<bool, QString, double, bool, QString>, qint64> counts;
    while (st.step()) {
        const QJsonObject meta = QJsonDocument::fromJson(st.columnText(0).toUtf8()).object();
        const QString skipped = meta.value(kSkippedSample).toString();
        if (!skipped.isEmpty())
            ++counts[{false, QString(), 0.0, false, skipped}];
        for (const bool unsupported : {false, true}) {
            const QJsonObject cellsOfKind =
                meta.value(unsupported ? kUnsupportedConfigs : kFailedConfigs).toObject();
            for (auto it = cellsOfKind.begin(); it != cellsOfKind.end(); ++it) {
                // A key the config table lacks (a run cut before it was written) is named as is.
                const auto config = byKey.value(it.key(), {it.key(), 0.0});
                ++counts[{true, config.first, config.second, unsupported, it.value().toString()}];
            }
        }
    }
    std::vector<MissingCell> cells;
    for (const auto& [cell, n] : counts)
        cells.push_back({std::get<1>(cell), std::get<2>(cell), std::get<4>(cell), n,
                         std::get<3>(cell)});
    return cells;
}

} // namespace kvl
