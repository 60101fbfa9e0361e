#include "rowqueries.h"

#include "store/chainbreaks.h"
#include "store/runreader.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QSet>
#include <tuple>

namespace kvl {

namespace {

std::vector<StoredResult> failures(RunReader& reader, const QString& compressor, double ratio)
{
    ResultFilter f;
    f.compressor = compressor;
    f.ratio = ratio;
    f.transition = Transition::CorrectToWrong;
    return reader.results(f);
}

// Each row's gold answer and FullCache's answer on its sample, looked up once per sample
// (drill-down lists are short).
QVector<ResultRow> withGold(RunReader& reader, QVector<ResultRow> rows)
{
    QHash<QString, std::pair<QString, QString>> bySample; // gold, FullCache's answer
    for (ResultRow& row : rows) {
        const QString& key = row.result.sampleKey;
        if (!bySample.contains(key)) {
            const std::optional<SampleInfo> sample = reader.sample(key);
            ResultFilter full;
            full.compressor = kFullCacheCompressor;
            full.sampleKey = key;
            const std::vector<StoredResult> fullRows = reader.results(full);
            bySample.insert(key, {sample ? sample->gold : QString(),
                                  fullRows.empty() ? QString() : fullRows.front().record.answer});
        }
        std::tie(row.gold, row.fullCacheAnswer) = bySample.value(key);
    }
    return rows;
}

QString only(const QString& name)
{
    return QCoreApplication::translate("kvl::RowQueries", "%1 only").arg(name);
}

} // namespace

QVector<ResultRow> taxonomyRows(const QString& path, const QString& compressor, double ratio,
                                const QString& signature)
{
    RunReader reader(path);
    QVector<ResultRow> rows;
    const std::optional<Signature> wanted = signatureFromName(signature);
    for (StoredResult& r : failures(reader, compressor, ratio))
        if (r.record.signature && (!wanted || *r.record.signature == *wanted) &&
            (wanted || signatureName(*r.record.signature) == signature))
            rows.push_back({std::move(r), {}});
    return withGold(reader, std::move(rows));
}

QVector<ResultRow> chainBreakRows(const QString& path, const QString& compressor, double ratio,
                                  const QString& category)
{
    RunReader reader(path);
    QVector<ResultRow> rows;
    for (ChainBreak& b : chainBreaks(reader, compressor, ratio))
        if (chainBreakCategory(b.step, b.links) == category)
            rows.push_back({std::move(b.result), {}});
    return withGold(reader, std::move(rows));
}

QVector<ResultRow> overlapRows(const QString& path, double ratio, const QString& a,
                               const QString& b)
{
    RunReader reader(path);
    const std::vector<StoredResult> failA = failures(reader, a, ratio);
    const std::vector<StoredResult> failB = a == b ? failA : failures(reader, b, ratio);
    QSet<QString> keysA, keysB;
    for (const StoredResult& r : failA)
        keysA.insert(r.sampleKey);
    for (const StoredResult& r : failB)
        keysB.insert(r.sampleKey);
    QVector<ResultRow> aOnly, bOnly, both;
    const QString bothLabel = QCoreApplication::translate("kvl::RowQueries", "both");
    for (const StoredResult& r : failA) {
        if (keysB.contains(r.sampleKey))
            both.push_back({r, bothLabel});
        else
            aOnly.push_back({r, only(a)});
    }
    if (a != b)
        for (const StoredResult& r : failB) {
            if (keysA.contains(r.sampleKey))
                both.push_back({r, bothLabel});
            else
                bOnly.push_back({r, only(b)});
        }
    return withGold(reader, aOnly + bOnly + both);
}

QVector<ResultRow> intersectionRows(const QString& path, double ratio, const QStringList& members,
                                    const QStringList& others)
{
    RunReader reader(path);
    if (members.isEmpty())
        return {};
    // Samples failed by every member...
    std::vector<std::vector<StoredResult>> memberRows;
    QHash<QString, int> failedBy;
    for (const QString& m : members) {
        memberRows.push_back(failures(reader, m, ratio));
        QSet<QString> keys;
        for (const StoredResult& r : memberRows.back())
            keys.insert(r.sampleKey);
        for (const QString& k : std::as_const(keys))
            ++failedBy[k];
    }
    QSet<QString> chosen;
    for (auto it = failedBy.cbegin(); it != failedBy.cend(); ++it)
        if (it.value() == members.size())
            chosen.insert(it.key());
    // ...and by no other compressor of the plot.
    for (const QString& o : others)
        for (const StoredResult& r : failures(reader, o, ratio))
            chosen.remove(r.sampleKey);
    const QString label = members.join(QStringLiteral(" & "));
    QMap<QString, QVector<ResultRow>> bySample; // sample key order: stable, readable
    for (const std::vector<StoredResult>& rows : memberRows)
        for (const StoredResult& r : rows)
            if (chosen.contains(r.sampleKey))
                bySample[r.sampleKey].push_back({r, label});
    QVector<ResultRow> out;
    for (const QVector<ResultRow>& rows : std::as_const(bySample))
        out += rows;
    return withGold(reader, std::move(out));
}

} // namespace kvl
