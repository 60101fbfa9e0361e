#include "store/retrievalreport.h"

#include "store/retrievalrows.h"
#include "store/runreader.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonValue>
#include <map>
#include <tuple>

namespace kvl {

namespace {

// A mean over the values that were there: a key missing from some rows (no evidence,
// an older writer) is not counted as zero.
struct Mean
{
    double sum = 0.0;
    int n = 0;

    void add(const QJsonValue& v)
    {
        if (v.isDouble())
            add(v.toDouble());
    }
    void add(double v)
    {
        sum += v;
        ++n;
    }
    QJsonValue value() const { return n > 0 ? QJsonValue(sum / n) : QJsonValue(); }
};

// One value the rows of a cell should share (landmark kind, chunk): null when they differ.
struct Common
{
    QJsonValue value;
    bool seen = false;

    void add(const QJsonValue& v)
    {
        if (!seen)
            value = v;
        else if (value != v)
            value = QJsonValue();
        seen = true;
    }
};

struct Cell
{
    int n = 0;
    Mean score, fullCacheScore, evidence, attended, fetched, landmarkBytes, budget;
    Common landmark, chunk;
};

using CellKey = std::tuple<QString, QString, double>;           // suite, compressor, ratio
using FieldKey = std::tuple<QString, QString, double, QString>; // ... , field

} // namespace

std::vector<ReportTable> retrievalReportTables(RunReader& reader)
{
    ReportTable cells{QStringLiteral("retrieval"),
                      QStringLiteral("Offloaded decoding: score, evidence recall and cost per "
                                     "suite x compressor x ratio"),
                      {QStringLiteral("suite"), QStringLiteral("compressor"),
                       QStringLiteral("ratio"), QStringLiteral("landmark"), QStringLiteral("chunk"),
                       QStringLiteral("budget_tokens"), QStringLiteral("n"),
                       QStringLiteral("score"), QStringLiteral("fullcache_score"),
                       QStringLiteral("evidence_recall"), QStringLiteral("attended_share"),
                       QStringLiteral("fetched_bytes_per_step"), QStringLiteral("landmark_bytes")},
                      {}};
    ReportTable fields{QStringLiteral("retrieval_fields"),
                       QStringLiteral("Offloaded decoding: evidence recall of the step that "
                                      "wrote each answer field (text2json)"),
                       {QStringLiteral("suite"), QStringLiteral("compressor"),
                        QStringLiteral("ratio"), QStringLiteral("field"), QStringLiteral("n"),
                        QStringLiteral("recall")},
                       {}};

    const std::vector<RetrievalRow> rows = reader.retrievalRows();
    QHash<QString, double> fullCache; // sample key -> FullCache task score
    for (const RetrievalRow& r : rows)
        if (r.isFullCache())
            fullCache.insert(r.sampleKey, r.taskScore());

    std::map<CellKey, Cell> byCell;
    std::map<FieldKey, Mean> byField;
    for (const RetrievalRow& r : rows) {
        if (r.isFullCache())
            continue;
        const QJsonObject& x = r.retrieval;
        Cell& c = byCell[{r.suite, r.compressor, r.ratio}];
        ++c.n;
        c.score.add(r.taskScore());
        if (const auto it = fullCache.constFind(r.sampleKey); it != fullCache.cend())
            c.fullCacheScore.add(*it);
        c.evidence.add(x.value(QStringLiteral("mean_evidence_recall")));
        c.attended.add(x.value(QStringLiteral("attended_share")));
        c.fetched.add(x.value(QStringLiteral("fetched_bytes_per_step")));
        c.landmarkBytes.add(x.value(QStringLiteral("landmark_bytes")));
        c.budget.add(x.value(QStringLiteral("budget_tokens")));
        c.landmark.add(x.value(QStringLiteral("landmark")));
        c.chunk.add(x.value(QStringLiteral("chunk")));
        for (const QJsonValue& v : x.value(QStringLiteral("field_recall")).toArray()) {
            const QJsonObject f = v.toObject();
            const QString field = f.value(QStringLiteral("field")).toString();
            if (!field.isEmpty())
                byField[{r.suite, r.compressor, r.ratio, field}].add(
                    f.value(QStringLiteral("recall")));
        }
    }

    for (const auto& [key, c] : byCell)
        cells.rows.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key),
                              c.landmark.value, c.chunk.value, c.budget.value(), c.n,
                              c.score.value(), c.fullCacheScore.value(), c.evidence.value(),
                              c.attended.value(), c.fetched.value(), c.landmarkBytes.value()});
    for (const auto& [key, m] : byField)
        fields.rows.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key),
                               std::get<3>(key), m.n, m.value()});
    return {cells, fields};
}

} // namespace kvl
