// Retrieval maps in the run file (schema v4, issue 19): written and read back byte for
// byte, a changed blob named with its sample and configuration (on read and by the
// report's verification), copied by merge, and a version-3 file still read as before.
#include "storefixtures.h"

#include "common/error.h"
#include "store/blobcodec.h"
#include "store/runmerge.h"
#include "store/runreader.h"
#include "store/runschema.h"
#include "store/runwriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>
#include <unistd.h>

using namespace kvl;
using namespace kvl::test;

namespace {
void sql(const QString& path, const char* statements)
{
    sqlite3* db = nullptr;
    QCOMPARE_EQ(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, statements, nullptr, nullptr, &err);
    const QString message = err ? QString::fromUtf8(err) : QString();
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

// A map whose every byte depends on (sample, step, position), so a swapped or shifted
// blob reads differently.
RetrievalMap mapOf(int sample, std::int64_t steps, std::int64_t contextLength)
{
    RetrievalMap m;
    m.steps = steps;
    m.contextLength = contextLength;
    m.shares.resize(std::size_t(steps * contextLength));
    for (std::int64_t s = 0; s < steps; ++s)
        for (std::int64_t t = 0; t < contextLength; ++t)
            m.shares[m.index(s, t)] = std::uint8_t((sample * 31 + s * 7 + t * 3) % 256);
    return m;
}

// The hand samples under keys k0..k{n-1}; the TOVA@0.5 and SnapKV@0.75 rows carry a
// retrieval map (sample i: i + 2 steps over the 8 context positions).
SampleRecord retrievalSample(int i)
{
    SampleRecord rec = handSample(i % 4);
    rec.sample.key = QStringLiteral("k%1").arg(i);
    rec.results[2].retrieval = mapOf(i, i + 2, 8);
    rec.results[3].retrieval = mapOf(i + 100, 1, 8);
    return rec;
}

void writeRetrievalRun(const QString& path, const std::vector<int>& samples,
                       const QString& shard = QString())
{
    writeRunOf(path, runInfo(shard), samples, retrievalSample, QStringLiteral("finished"));
}

void expectError(const std::function<void()>& call, const QString& path, const QString& words)
{
    try {
        call();
        QFAIL("no error");
    } catch (const Error& e) {
        QVERIFY2(e.message().contains(path), qPrintable(e.message()));
        QVERIFY2(e.message().contains(words, Qt::CaseInsensitive), qPrintable(e.message()));
    }
}

const StoredResult& rowOf(const std::vector<StoredResult>& rows, const QString& sampleKey,
                          const QString& configKey)
{
    for (const StoredResult& r : rows)
        if (r.sampleKey == sampleKey && r.record.configKey == configKey)
            return r;
    qFatal("no row %s / %s", qPrintable(sampleKey), qPrintable(configKey));
}
} // namespace

class TestRetrievalStore : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

  private slots:
    void roundTrip()
    {
        const QString file = path("rt.kvl");
        writeRetrievalRun(file, {0, 1, 2});
        RunReader reader(file);
        QCOMPARE(reader.schemaVersion(), 4);
        QVERIFY(reader.hasRetrievalTable());
        const std::vector<StoredResult> rows = reader.results();
        QCOMPARE(rows.size(), std::size_t(12));
        int withMap = 0;
        for (const StoredResult& r : rows) {
            const std::optional<RetrievalMap> map = reader.retrieval(r.sampleId, r.configId);
            const bool expected = r.record.configKey == QLatin1String("TOVA@0.5") ||
                                  r.record.configKey == QLatin1String("SnapKV@0.75");
            QCOMPARE(r.hasRetrieval, expected);
            QCOMPARE(map.has_value(), expected);
            if (!map)
                continue;
            ++withMap;
            const int i = r.sampleKey.mid(1).toInt();
            const RetrievalMap want = r.record.configKey == QLatin1String("TOVA@0.5")
                                          ? mapOf(i, i + 2, 8)
                                          : mapOf(i + 100, 1, 8);
            QCOMPARE(map->steps, want.steps);
            QCOMPARE(map->contextLength, want.contextLength);
            QVERIFY(map->shares == want.shares);
        }
        QCOMPARE(withMap, 6);
        // By keys, as the views ask.
        const auto byKey = reader.retrieval(QStringLiteral("k2"), QStringLiteral("TOVA@0.5"));
        QVERIFY(byKey && *byKey == mapOf(2, 4, 8));
        QVERIFY(!reader.retrieval(QStringLiteral("k2"), QStringLiteral("SnapKV@0.5")));
        QVERIFY(!reader.retrieval(QStringLiteral("nope"), QStringLiteral("TOVA@0.5")));
        QCOMPARE(reader.verifyRowChecksums().retrievalVerified, 6);
    }

    // Rewriting a row (a resumed run redoing a configuration) replaces or drops its map.
    void rewrittenRowReplacesItsMap()
    {
        const QString file = path("rewrite.kvl");
        writeRetrievalRun(file, {0});
        {
            RunWriter w(file);
            SampleRecord rec = retrievalSample(0);
            rec.results[2].retrieval = mapOf(9, 3, 8);
            rec.results[3].retrieval.reset();
            w.writeSample(rec);
        }
        RunReader reader(file);
        QVERIFY(*reader.retrieval(QStringLiteral("k0"), QStringLiteral("TOVA@0.5")) ==
                mapOf(9, 3, 8));
        QVERIFY(!reader.retrieval(QStringLiteral("k0"), QStringLiteral("SnapKV@0.75")));
    }

    void inconsistentMapIsRefused()
    {
        const QString file = path("bad.kvl");
        RunWriter w(file);
        for (const ConfigRecord& c : handConfigs())
            w.addConfig(c);
        SampleRecord rec = retrievalSample(0);
        rec.results[2].retrieval->shares.pop_back();
        expectError([&] { w.writeSample(rec); }, file, QStringLiteral("TOVA@0.5"));
        QVERIFY(!w.inSample());
    }

    void changedBlobIsNamed_data()
    {
        QTest::addColumn<bool>("swap"); // another sample's valid blob, else one byte flipped
        QTest::newRow("swapped") << true;
        QTest::newRow("byte") << false;
    }
    void changedBlobIsNamed()
    {
        QFETCH(bool, swap);
        const QString file = path(swap ? "swap.kvl" : "byte.kvl");
        writeRetrievalRun(file, {0, 1, 2, 3});
        if (swap) {
            // Same dimensions (k3's 1-step SnapKV@0.75 map over k1's): decodes fine.
            sql(file, "UPDATE retrieval SET shares = (SELECT t.shares FROM retrieval t JOIN "
                      "sample s ON s.id = t.sample_id JOIN config c ON c.id = t.config_id WHERE "
                      "s.sample_key = 'k3' AND c.config_key = 'SnapKV@0.75') WHERE sample_id = "
                      "(SELECT id FROM sample WHERE sample_key = 'k1') AND config_id = (SELECT id "
                      "FROM config WHERE config_key = 'SnapKV@0.75');");
        } else {
            // The high byte of qCompress's size header: zlib inflates the same bytes.
            sql(file, "UPDATE retrieval SET shares = CAST(X'01' AS BLOB) || substr(shares, 2) "
                      "WHERE sample_id = (SELECT id FROM sample WHERE sample_key = 'k1') AND "
                      "config_id = (SELECT id FROM config WHERE config_key = 'SnapKV@0.75');");
        }
        RunReader reader(file);
        reader.checkIntegrity(); // SQLite sees nothing wrong
        const QString words = QStringLiteral(
            "damaged retrieval blob of sample 'k1' under configuration 'SnapKV@0.75'");
        expectError([&] { reader.verifyRowChecksums(); }, file, words);
        expectError([&] { reader.retrieval(QStringLiteral("k1"), QStringLiteral("SnapKV@0.75")); },
                    file, words);
        // Other maps still read.
        QVERIFY(reader.retrieval(QStringLiteral("k2"), QStringLiteral("SnapKV@0.75")));
    }

    void mergeCopiesMaps()
    {
        const QString a = path("a.kvl"), b = path("b.kvl"), all = path("all.kvl");
        writeRetrievalRun(a, {0, 2}, QStringLiteral("0/2"));
        writeRetrievalRun(b, {1, 3}, QStringLiteral("1/2"));
        mergeRuns({a, b}, all);
        RunReader reader(all);
        const std::vector<StoredResult> rows = reader.results();
        QCOMPARE(rows.size(), std::size_t(16));
        for (int i = 0; i < 4; ++i) {
            const QString key = QStringLiteral("k%1").arg(i);
            const StoredResult& tova = rowOf(rows, key, QStringLiteral("TOVA@0.5"));
            QVERIFY(tova.hasRetrieval);
            QVERIFY(*reader.retrieval(tova.sampleId, tova.configId) == mapOf(i, i + 2, 8));
            QVERIFY(!rowOf(rows, key, QStringLiteral("FullCache@0")).hasRetrieval);
        }
        // Checksums travel with the blobs: every merged map is verified.
        QCOMPARE(reader.verifyRowChecksums().retrievalVerified, 8);
    }

    // A file written by schema v3 (no retrieval table, stamped 3): writable, it is
    // migrated on open and reads as before with no maps; read-only, it is read as it is.
    void versionThreeFileOpens_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("writable") << false;
        QTest::newRow("read-only") << true;
    }
    void versionThreeFileOpens()
    {
        QFETCH(bool, readOnly);
        if (readOnly && geteuid() == 0)
            QSKIP("root can write read-only files");
        const QString file = path(readOnly ? "v3ro.kvl" : "v3.kvl");
        writeHandRun(file, {0, 1, 2, 3});
        sql(file, "DROP TABLE retrieval; PRAGMA user_version = 3;");
        if (readOnly)
            QVERIFY(QFile::setPermissions(file, QFile::ReadOwner));
        {
            RunReader reader(file);
            QCOMPARE(reader.schemaVersion(), readOnly ? 3 : RunSchema::kCurrentVersion);
            QCOMPARE(reader.hasRetrievalTable(), !readOnly);
            const std::vector<StoredResult> rows = reader.results();
            QCOMPARE(rows.size(), std::size_t(16));
            for (const StoredResult& r : rows) {
                QVERIFY(!r.hasRetrieval);
                QVERIFY(!reader.retrieval(r.sampleId, r.configId));
            }
            const RowChecksums checked = reader.verifyRowChecksums();
            QCOMPARE(checked.verified, 16);
            QCOMPARE(checked.retrievalVerified, 0);
            QCOMPARE(rowOf(rows, QStringLiteral("s1"), QStringLiteral("TOVA@0.5")).record.answer,
                     QStringLiteral("wrong"));
        }
        if (readOnly) {
            // A merge of the read-only v3 file with a v4 shard keeps the v4 maps.
            const QString other = path("v4shard.kvl"), all = path("v3v4.kvl");
            writeRetrievalRun(other, {4});
            mergeRuns({file, other}, all);
            RunReader merged(all);
            QCOMPARE(merged.resultCount(), 20);
            QVERIFY(*merged.retrieval(QStringLiteral("k4"), QStringLiteral("TOVA@0.5")) ==
                    mapOf(4, 6, 8));
        } else {
            // The migrated file takes maps.
            {
                RunWriter w(file);
                w.writeSample(retrievalSample(5));
            }
            RunReader reader(file);
            QVERIFY(*reader.retrieval(QStringLiteral("k5"), QStringLiteral("TOVA@0.5")) ==
                    mapOf(5, 7, 8));
        }
    }

    void codecRefusesWrongSize()
    {
        const QByteArray blob = encodeRetrieval(mapOf(1, 3, 5));
        QVERIFY(decodeRetrieval(blob, 3, 5) == mapOf(1, 3, 5));
        try {
            decodeRetrieval(blob, 3, 6);
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(QLatin1String("damaged retrieval blob")),
                     qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestRetrievalStore)
#include "tst_retrievalstore.moc"
