// The Offloading views' values (issue 19), read from a hand-made run (offloadrunfixture.h,
// whose table gives every expected number): recall and score curves per method with n
// and intervals, the rows with a retrieval map, and the map with each answer field's
// evidence and the step that wrote it.
#include "offloadrunfixture.h"
#include "retrievalviews.h"
#include "storerunloader.h"

#include "diagnose/wilsoninterval.h"
#include "store/runreader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;
using namespace kvl::offloadtest;

namespace {
const RatioCurve* curveNamed(const RatioCurves& curves, const QString& prefix)
{
    for (const RatioCurve& c : curves.curves)
        if (c.name.startsWith(prefix + QStringLiteral(" · ")))
            return &c;
    return nullptr;
}
} // namespace

class TestRetrievalViews : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString m_path;

  private slots:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("offload.kvl"));
        writeOffloadRun(m_path);
    }

    void recallCurvesPerMethod()
    {
        RunReader reader(m_path);
        const OffloadViews views = loadOffloadViews(reader);
        QCOMPARE(views.recall.curves.size(), 3);
        const RatioCurve* chunk8 = curveNamed(views.recall, QStringLiteral("shadowkv"));
        QVERIFY(chunk8);
        QCOMPARE(chunk8->name, QStringLiteral("shadowkv · low_rank_mean, chunk 8"));
        QCOMPARE(chunk8->ratios, (QVector<double>{0.5, 0.75}));
        QCOMPARE(chunk8->n, (QVector<int>{4, 4}));
        QVERIFY(std::abs(chunk8->values[0] - 0.35) < 1e-12);
        QVERIFY(std::abs(chunk8->values[1] - 0.15) < 1e-12);
        // 0.2..0.5: sd = sqrt(0.05/3), half = 1.96 sd / 2.
        const double half = kZ95 * std::sqrt(0.05 / 3.0) / 2.0;
        QVERIFY(std::abs(chunk8->lo[0] - (0.35 - half)) < 1e-12);
        QVERIFY(std::abs(chunk8->hi[0] - (0.35 + half)) < 1e-12);
        // 0.0..0.3 clipped at 0.
        QCOMPARE(chunk8->lo[1], std::max(0.0, 0.15 - half));
        const RatioCurve* yakv = curveNamed(views.recall, QStringLiteral("yakv"));
        QVERIFY(yakv);
        QCOMPARE(yakv->name, QStringLiteral("yakv · quantized_keys, chunk 1"));
        QVERIFY(std::abs(yakv->values[0] - 0.9) < 1e-12);
        QVERIFY(std::abs(yakv->hi[0] - 0.9) < 1e-12); // no spread
        QVERIFY(std::isnan(views.recall.reference));  // FullCache retrieves everything
        // Nothing is evicted: the x axis names the retrieval budget the ratio sets.
        QVERIFY(views.recall.ratioLabel.contains(QStringLiteral("⌊T(1 − r)⌋")));
        QCOMPARE(views.score.ratioLabel, views.recall.ratioLabel);
    }

    void scoreByLandmarkAndChunk()
    {
        RunReader reader(m_path);
        const OffloadViews views = loadOffloadViews(reader);
        const RatioCurves& score = views.score;
        QCOMPARE(score.curves.size(), 3);
        // Colour = landmark, style = chunk, with a grouped legend.
        QCOMPARE(score.colorNames, (QStringList{"low_rank_mean", "quantized_keys"}));
        QCOMPARE(score.styleNames, (QStringList{"chunk 8", "chunk 1"}));
        const RatioCurve* c8 = curveNamed(score, QStringLiteral("shadowkv"));
        const RatioCurve* c1 = curveNamed(score, QStringLiteral("shadowkv-c1"));
        const RatioCurve* yakv = curveNamed(score, QStringLiteral("yakv"));
        QVERIFY(c8 && c1 && yakv);
        QCOMPARE(c8->colorIndex, 0);
        QCOMPARE(c8->styleIndex, 0);
        QCOMPARE(c1->colorIndex, 0);
        QCOMPARE(c1->styleIndex, 1);
        QCOMPARE(yakv->colorIndex, 1);
        QCOMPARE(yakv->styleIndex, 1);
        // Correctness (no score column) as a rate with Wilson intervals.
        QCOMPARE(c8->values, (QVector<double>{0.5, 0.0}));
        const RateInterval half = wilsonInterval(2, 4);
        QCOMPARE(c8->lo[0], half.lo);
        QCOMPARE(c8->hi[0], half.hi);
        QCOMPARE(c8->lo[1], wilsonInterval(0, 4).lo);
        // yakv's score column: 0.8, 0.9, 1.0, 0.7.
        QVERIFY(std::abs(yakv->values[0] - 0.85) < 1e-12);
        const double h = kZ95 * std::sqrt(0.05 / 3.0) / 2.0;
        QVERIFY(std::abs(yakv->lo[0] - (0.85 - h)) < 1e-12);
        QCOMPARE(yakv->n, QVector<int>{4});
        // FullCache over the same samples: 3 of 4.
        QCOMPARE(score.reference, 0.75);
        QCOMPARE(score.referenceN, 4);
        QCOMPARE(score.referenceLo, wilsonInterval(3, 4).lo);
    }

    void rowsWithMaps()
    {
        RunReader reader(m_path);
        const OffloadViews views = loadOffloadViews(reader);
        QCOMPARE(views.rows.size(), 8);
        QCOMPARE(views.rows[0].sampleKey, QStringLiteral("o0"));
        QCOMPARE(views.rows[0].configKey, QStringLiteral("shadowkv@0.5"));
        QCOMPARE(views.rows[0].label, QStringLiteral("o0 · shadowkv @ 0.5 (evidence recall 0.20)"));
        QCOMPARE(views.rows[7].configKey, QStringLiteral("yakv@0.5"));
        for (const RetrievalRowChoice& r : views.rows)
            QVERIFY(r.configKey != QLatin1String("shadowkv@0.75"));
    }

    void mapWithFieldEvidence()
    {
        RunReader reader(m_path);
        const RetrievalMapData map =
            loadRetrievalMap(reader, QStringLiteral("o2"), QStringLiteral("yakv@0.5"));
        QCOMPARE(map.steps, 6);
        QCOMPARE(map.positions, 40);
        QVERIFY(map.isValid());
        QCOMPARE(map.shares[3 * 40 + 7], double((3 * 40 + 7) % 256) / 255.0);
        // The evidence spans only (the distractor is left out), each with its step.
        QCOMPARE(map.fields.size(), 2);
        QCOMPARE(map.fields[0].label, QStringLiteral("alice.city"));
        QCOMPARE(map.fields[0].begin, 5);
        QCOMPARE(map.fields[0].end, 9);
        QCOMPARE(map.fields[0].step, 2);
        QCOMPARE(map.fields[0].recall, 0.25);
        QCOMPARE(map.fields[1].label, QStringLiteral("bob.age"));
        QCOMPARE(map.fields[1].step, 4);
        QCOMPARE(map.stepRecall, (QVector<double>{1.0, 0.5, 0.25, 0.5, 1.0, 0.0}));
        // A row without a map, and one that does not exist.
        QVERIFY(loadRetrievalMap(reader, QStringLiteral("o2"), QStringLiteral("shadowkv@0.75"))
                    .isEmpty());
        QVERIFY(
            loadRetrievalMap(reader, QStringLiteral("zz"), QStringLiteral("yakv@0.5")).isEmpty());
    }

    // A field_recall entry without a matching span, and a span without an entry.
    void unmatchedFieldsStayUnknown()
    {
        SampleInfo s;
        s.spans = QJsonArray{
            QJsonObject{{"kind", "evidence"}, {"start", 2}, {"end", 4}, {"label", "x.y"}},
            QJsonObject{{"kind", "evidence"}, {"start", 6}, {"end", 99}},
            QJsonObject{{"kind", "evidence"}, {"start", 0}, {"end", 1}, {"field", "question"}}};
        RetrievalMap m;
        m.steps = 2;
        m.contextLength = 8;
        m.shares.assign(16, 255);
        const QJsonObject retrieval{
            {"field_recall",
             QJsonArray{QJsonObject{{"name", "a"}, {"field", "b"}, {"step", 1}, {"recall", 0.5}}}}};
        const RetrievalMapData d = retrievalMapData(m, s, retrieval);
        QCOMPARE(d.fields.size(), 2); // the question span is not a context position
        QCOMPARE(d.fields[0].step, -1);
        QCOMPARE(d.fields[1].label, QStringLiteral("evidence"));
        QCOMPARE(d.fields[1].end, 8); // clipped to the map
        QCOMPARE(d.shares[5], 1.0);
        QVERIFY(d.stepRecall.isEmpty());
    }

    // The app's load carries them (aggregates stage); a run without offloading has none.
    void loadCarriesThemAndOtherRunsHaveNone()
    {
        const RunViewData data = loadRunViewData({m_path, {}, -1.0, {}});
        QCOMPARE(data.offload.recall.curves.size(), 3);
        QCOMPARE(data.offload.rows.size(), 8);
        const QString other = m_dir.filePath(QStringLiteral("plain.kvl"));
        test::writeHandRun(other, {0, 1, 2, 3});
        const RunViewData plain = loadRunViewData({other, {}, -1.0, {}});
        QVERIFY(plain.offload.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRetrievalViews)
#include "tst_retrievalviews.moc"
