// kvlens --bench-views: the report's shape (no timing is asserted: figures depend on the
// machine), the row count of the run it opened, and a clear error for a missing run.
#include "guirunfixture.h"
#include "viewbenchmark.h"

#include "common/error.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace kvl;

class TestViewBenchmark : public QObject
{
    Q_OBJECT
  private slots:
    void reportsEveryFigure()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        guitest::writeRun(run, {0, 1, 2, 3});
        ViewBenchmarkSize size;
        size.contextTokens = 4096;
        size.layers = 4;
        size.kvHeads = 2;
        size.zoomSteps = 3;
        const QJsonObject r = benchmarkViews(run, size);

        const QJsonObject opened = r["run"].toObject();
        for (const char* key :
             {"open_first_s", "open_first_cpu_s", "open_again_s", "open_again_cpu_s", "overview_s",
              "overview_cpu_s", "overview_draw_s", "overview_draw_cpu_s", "open_and_overview_s",
              "open_and_overview_cpu_s", "aggregates_s", "details_s", "verify_s", "verify_cpu_s"})
            QVERIFY2(opened[QLatin1String(key)].isDouble(), key);
        QCOMPARE(opened["path"].toString(), run);
        QCOMPARE(opened["samples"].toInt(), 4);
        QCOMPARE(opened["rows"].toInt(), 16); // 4 samples x 4 configurations
        // Each stage names its queries (what a slow open is traced to).
        for (const char* stage : {"accuracy_query", "taxonomy", "overlaps", "span_keep"})
            QVERIFY2(opened["overview_stages_ms"].toObject()[QLatin1String(stage)].isDouble(),
                     stage);
        QVERIFY(opened["details_stages_ms"].toObject()["heatmaps_eviction"].isDouble());
        QVERIFY(opened["open_first_stages_ms"].toObject()["verify_checksums"].isDouble());

        const QJsonObject ctx = r["context"].toObject();
        QCOMPARE(ctx["tokens"].toInt(), 4096);
        QCOMPARE(ctx["layers"].toInt(), 4);
        QVERIFY(ctx["views_rss_mib"].isDouble());
        for (const char* key : {"heatmap_zoom", "eviction_zoom"}) {
            const QJsonObject z = r[QLatin1String(key)].toObject();
            QVERIFY2(z["median_ms"].isDouble() && z["max_ms"].isDouble(), key);
            QCOMPARE(z["steps_ms_sorted"].toArray().size(), 3);
        }
        QVERIFY(r["peak_rss_mib"].toDouble() > 0);
    }

    void withoutARunTheRunFiguresAreNull()
    {
        ViewBenchmarkSize size;
        size.contextTokens = 512;
        size.layers = 2;
        size.kvHeads = 1;
        size.zoomSteps = 1;
        const QJsonObject r = benchmarkViews(QString(), size);
        QVERIFY(r["run"].toObject()["open_first_s"].isNull());
        QVERIFY(r["heatmap_zoom"].toObject()["median_ms"].isDouble());
    }

    void missingRunIsNamed()
    {
        const QString path = QStringLiteral("/nonexistent/dir/none.kvl");
        try {
            benchmarkViews(path, ViewBenchmarkSize{512, 2, 1, 1});
            QFAIL("no error for a missing run file");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(path), e.what());
        }
    }
};

QTEST_MAIN(TestViewBenchmark)
#include "tst_viewbenchmark.moc"
