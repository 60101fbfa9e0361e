// Shards + merge equal one run; merging runs of different experiments is refused.
#include "storefixtures.h"

#include "common/error.h"
#include "store/runmerge.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/runwriter.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

using namespace kvl;
using namespace kvl::test;

namespace {
// Six samples: the hand samples s0..s3 again under keys k0..k5, with masks.
SampleRecord sixSample(int i)
{
    SampleRecord rec = handSample(i % 4);
    rec.sample.key = QStringLiteral("k%1").arg(i);
    for (ResultRecord& r : rec.results) {
        KeptMask m(2, 2, 8, true);
        m.set(i % 2, 1, i, false);
        r.mask = m;
    }
    return rec;
}

void writeSix(const QString& path, const std::vector<int>& samples, const QString& shard,
              const QJsonObject& chatTemplateUsed = {})
{
    RunWriter w(path);
    RunInfo info = runInfo(shard);
    if (!chatTemplateUsed.isEmpty())
        info.spec.insert(QStringLiteral("chat_template_used"), chatTemplateUsed);
    w.setRunInfo(info);
    for (const ConfigRecord& c : handConfigs())
        w.addConfig(c);
    for (int s : samples)
        w.writeSample(sixSample(s));
    w.setStatus(QStringLiteral("finished"));
}

qint64 countOf(const QString& path, const char* query)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    qint64 n = -1;
    if (sqlite3_prepare_v2(db, query, -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

// Everything a reader can say about a run, keyed by names (ids may differ).
QJsonObject content(const QString& path)
{
    RunReader reader(path);
    QJsonObject report = runReportJson(reader);
    report.remove(QStringLiteral("run"));
    QJsonObject rows;
    for (const StoredResult& r : reader.results()) {
        QJsonObject row = diagnosticRowToJson(r.record.metrics);
        row.insert(QStringLiteral("answer"), r.record.answer);
        row.insert(QStringLiteral("correct"), r.record.correct);
        row.insert(QStringLiteral("transition"),
                   r.record.transition ? transitionName(*r.record.transition) : QString());
        row.insert(QStringLiteral("signature"),
                   r.record.signature ? signatureName(*r.record.signature) : QString());
        row.insert(QStringLiteral("mask"),
                   QString::fromLatin1(reader.mask(r.sampleId, r.configId)->packBits().toHex()));
        row.insert(QStringLiteral("spans"),
                   qint64(reader.spanKeeps(r.sampleId, r.configId).size()));
        row.insert(QStringLiteral("layers"),
                   qint64(reader.layerStats(r.sampleId, r.configId).size()));
        row.insert(QStringLiteral("interventions"),
                   qint64(reader.interventions(r.sampleId, r.configId).size()));
        rows.insert(r.sampleKey + QLatin1Char('|') + r.record.configKey, row);
    }
    QJsonObject samples;
    for (const SampleInfo& s : reader.samples())
        samples.insert(s.key, QJsonObject{{QStringLiteral("suite"), s.suite},
                                          {QStringLiteral("gold"), s.gold},
                                          {QStringLiteral("spans"), s.spans}});
    return {{QStringLiteral("report"), report},
            {QStringLiteral("rows"), rows},
            {QStringLiteral("samples"), samples},
            {QStringLiteral("spec"), reader.runInfo().spec},
            {QStringLiteral("status"), reader.runInfo().status}};
}
} // namespace

class TestRunMerge : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

  private slots:
    void shardsMergeToOneRun()
    {
        writeSix(path("one.kvl"), {0, 1, 2, 3, 4, 5}, QString());
        writeSix(path("a.kvl"), {0, 2, 4}, QStringLiteral("1/2"));
        writeSix(path("b.kvl"), {1, 3, 5}, QStringLiteral("2/2"));
        mergeRuns({path("a.kvl"), path("b.kvl")}, path("all.kvl"));
        const QJsonObject one = content(path("one.kvl"));
        const QJsonObject all = content(path("all.kvl"));
        QCOMPARE(all.value(QLatin1String("rows")).toObject().size(), 24);
        QCOMPARE(all, one);
        QCOMPARE(RunReader(path("all.kvl")).runInfo().status, QStringLiteral("finished"));
        // The shards' checksums travel with their rows and blobs (issue 18).
        const RowChecksums checked = RunReader(path("all.kvl")).verifyRowChecksums();
        QCOMPARE(checked.verified, 24);
        QCOMPARE(checked.unverified, 0);
        QCOMPARE(countOf(path("all.kvl"), "SELECT COUNT(*) FROM mask WHERE checksum IS NULL"), 0);
        QCOMPARE(countOf(path("all.kvl"), "SELECT COUNT(*) FROM mask"), 24);
    }

    void overlappingShardsKeepEachRowOnce()
    {
        writeSix(path("c.kvl"), {0, 1, 2}, QStringLiteral("1/2"));
        writeSix(path("d.kvl"), {2, 3, 4, 5}, QStringLiteral("2/2"));
        writeSix(path("one2.kvl"), {0, 1, 2, 3, 4, 5}, QString());
        mergeRuns({path("c.kvl"), path("d.kvl")}, path("all2.kvl"));
        QCOMPARE(content(path("all2.kvl")), content(path("one2.kvl")));
    }

    // A shard written before chat templates existed (no chat_template_used) used the
    // base layout; a newer shard of the same experiment records {"template": "none"}.
    void shardWithoutTemplateRecordMergesWithTemplateNone()
    {
        const QJsonObject none{{QStringLiteral("template"), QStringLiteral("none")}};
        writeSix(path("old.kvl"), {0, 2, 4}, QStringLiteral("1/2"));
        writeSix(path("new.kvl"), {1, 3, 5}, QStringLiteral("2/2"), none);
        writeSix(path("one3.kvl"), {0, 1, 2, 3, 4, 5}, QString());
        // The merged spec is the first input's (without its shard).
        mergeRuns({path("old.kvl"), path("new.kvl")}, path("all3.kvl"));
        QCOMPARE(content(path("all3.kvl")), content(path("one3.kvl")));
        // A real template is another experiment.
        writeSix(path("qwen.kvl"), {1, 3, 5}, QStringLiteral("2/2"),
                 QJsonObject{{QStringLiteral("template"), QStringLiteral("tokenizer_config.json")},
                             {QStringLiteral("sha256"), QStringLiteral("00ff")}});
        try {
            mergeRuns({path("old.kvl"), path("qwen.kvl")}, path("bad3.kvl"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(path("qwen.kvl")), qPrintable(e.message()));
        }
        QVERIFY(!QFileInfo::exists(path("bad3.kvl")));
    }

    void differentExperimentsAreRefused()
    {
        writeSix(path("e.kvl"), {0}, QStringLiteral("1/2"));
        {
            RunWriter w(path("f.kvl"));
            RunInfo info = runInfo(QStringLiteral("2/2"));
            info.spec.insert(QStringLiteral("ratios"), QJsonArray{0.9});
            w.setRunInfo(info);
        }
        try {
            mergeRuns({path("e.kvl"), path("f.kvl")}, path("bad.kvl"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(path("f.kvl")) &&
                         e.message().contains(QLatin1String("spec")),
                     qPrintable(e.message()));
        }
        {
            RunWriter w(path("g.kvl"));
            w.setRunInfo(runInfo(QStringLiteral("2/2")));
            w.addConfig(config(QStringLiteral("FullCache"), 0.0));
        }
        try {
            mergeRuns({path("e.kvl"), path("g.kvl")}, path("bad.kvl"));
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("configurations")),
                     qPrintable(e.message()));
        }
        QVERIFY(!QFileInfo::exists(path("bad.kvl")));
        // The output must be new.
        QVERIFY_THROWS_EXCEPTION(Error, mergeRuns({path("e.kvl")}, path("e.kvl")));
        QVERIFY_THROWS_EXCEPTION(Error, mergeRuns({path("e.kvl")}, path("f.kvl")));
    }
};

QTEST_GUILESS_MAIN(TestRunMerge)
#include "tst_runmerge.moc"
