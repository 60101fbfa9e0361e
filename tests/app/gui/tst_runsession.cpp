// RunSession: the open run loaded in stages. The overview is read once per state of the
// file, a focus change reads the details only, a superseded request's result is never
// delivered, and a row changed after it was written withdraws the run after the overview.
#include "guirunfixture.h"
#include "runsession.h"

#include "store/sqlitedatabase.h"

#include <QAtomicInt>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace kvl;

namespace {

// The store's stages, counting how often each runs (on worker threads) and making the
// details of one configuration slow, so a later request overtakes them.
struct CountedStages
{
    QAtomicInt overviews; // summaries
    QAtomicInt aggregates;
    QAtomicInt details;
    QAtomicInt verifies;
    QString slowCompressor;
    double slowRatio = -1.0;

    RunStages stages()
    {
        const RunStages store = storeRunStages();
        RunStages s;
        s.summary = [this, store](const QString& path) {
            overviews.fetchAndAddOrdered(1);
            return store.summary(path);
        };
        s.aggregates = [this, store](const QString& path, const RunViewData& summary) {
            aggregates.fetchAndAddOrdered(1);
            return store.aggregates(path, summary);
        };
        s.details = [this, store](const RunRequest& request, const RunViewData& overview) {
            details.fetchAndAddOrdered(1);
            if (request.compressor == slowCompressor && request.ratio == slowRatio)
                QThread::msleep(400);
            return store.details(request, overview);
        };
        s.verify = [this, store](const QString& path) {
            verifies.fetchAndAddOrdered(1);
            return store.verify(path);
        };
        return s;
    }
};

} // namespace

class TstRunSession : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void openDeliversOverviewOnceThenDetails()
    {
        const QString path = m_dir.filePath(QStringLiteral("open.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        CountedStages counted;
        RunSession session;
        session.setStages(counted.stages());
        QSignalSpy summary(&session, &RunSession::summaryAvailable);
        QSignalSpy overview(&session, &RunSession::overviewAvailable);
        QSignalSpy details(&session, &RunSession::detailsAvailable);
        QSignalSpy loaded(&session, &RunSession::loaded);
        QSignalSpy verified(&session, &RunSession::verificationAvailable);
        session.open({path, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(summary.count(), 1);
        QCOMPARE(overview.count(), 1);
        QCOMPARE(details.count(), 1);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(counted.overviews.loadAcquire(), 1);
        QCOMPARE(counted.aggregates.loadAcquire(), 1);
        QCOMPARE(counted.details.loadAcquire(), 1);
        // The summary came first: the first page's accuracy, no aggregates or details yet.
        const RunViewData first = summary.first().at(0).value<RunViewData>();
        QCOMPARE(first.sampleCount, 4);
        QVERIFY(!first.accuracy.curves.isEmpty());
        QVERIFY(first.overlapRatios.isEmpty());
        QVERIFY(first.heatmap.isEmpty());
        QVERIFY(!first.defaultFocus.compressor.isEmpty());
        // Then the aggregates (SnapKV and TOVA overlap at 0.5).
        QVERIFY(!overview.first().at(0).value<RunViewData>().overlapRatios.isEmpty());
        // The details are the default focus's.
        const RunViewData shown = details.first().at(0).value<RunViewData>();
        QCOMPARE(shown.focus, first.defaultFocus);
        QVERIFY(!shown.heatmap.isEmpty() || !shown.heatmapMissing.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(verified.count(), 1, 5000);
        QVERIFY(session.isVerified());
    }

    void focusChangeReadsDetailsOnly()
    {
        const QString path = m_dir.filePath(QStringLiteral("focus.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        CountedStages counted;
        RunSession session;
        session.setStages(counted.stages());
        QSignalSpy overview(&session, &RunSession::overviewAvailable);
        QSignalSpy details(&session, &RunSession::detailsAvailable);
        QSignalSpy loaded(&session, &RunSession::loaded);
        session.open({path, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        session.setFocusConfiguration(QStringLiteral("TOVA"), 0.5);
        QVERIFY(details.wait(5000));
        session.setFocusSample(QStringLiteral("s3"));
        QVERIFY(details.wait(5000));
        QCOMPARE(details.count(), 3);
        QCOMPARE(counted.details.loadAcquire(), 3);
        // Two focus changes, no overview read again.
        QCOMPARE(overview.count(), 1);
        QCOMPARE(counted.overviews.loadAcquire(), 1);
        QCOMPARE(counted.aggregates.loadAcquire(), 1);
        QCOMPARE(session.data().focus, (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
        QCOMPARE(session.request().sampleKey, QStringLiteral("s3"));
        // A refresh (the file changed) reads the overview again, then the details.
        loaded.clear();
        session.refresh();
        QVERIFY(loaded.wait(5000));
        QCOMPARE(overview.count(), 2);
        QCOMPARE(counted.overviews.loadAcquire(), 2);
        QCOMPARE(counted.aggregates.loadAcquire(), 2);
        QCOMPARE(counted.details.loadAcquire(), 4);
    }

    // Switching between open runs keeps each one's focus and selection; a run closed and
    // opened again starts afresh.
    void eachRunKeepsItsSelection()
    {
        const QString a = m_dir.filePath(QStringLiteral("keep-a.kvl"));
        const QString b = m_dir.filePath(QStringLiteral("keep-b.kvl"));
        guitest::writeRun(a, {0, 1, 2, 3});
        guitest::writeRun(b, {0, 1});
        RunSession session;
        session.setStages(storeRunStages());
        QSignalSpy loaded(&session, &RunSession::loaded);
        QSignalSpy details(&session, &RunSession::detailsAvailable);
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        const ConfigChoice defaultFocus = session.data().focus;
        const ConfigChoice tova{QStringLiteral("TOVA"), 0.5};
        QVERIFY(defaultFocus != tova);
        session.setFocusConfiguration(tova.compressor, tova.ratio);
        QVERIFY(details.wait(5000));
        session.setFocusSample(QStringLiteral("s3"));
        QVERIFY(details.wait(5000));
        const HeadSelection oneHead{HeadSelection::Mode::OneHead, 1, 0};
        session.setHeads(oneHead);
        session.setSignature(QStringLiteral("ambiguous"));

        loaded.clear();
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(session.path(), b);
        session.setHeads({}); // b's own choice

        loaded.clear();
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(session.data().focus, tova);
        QCOMPARE(session.request().sampleKey, QStringLiteral("s3"));
        QCOMPARE(session.selection().heads, oneHead);
        QCOMPARE(session.selection().signature, QStringLiteral("ambiguous"));
        // b was left with its own heads.
        loaded.clear();
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(session.selection().heads, HeadSelection{});

        // Closed, then opened again: the default focus.
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        session.close();
        loaded.clear();
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(session.data().focus, defaultFocus);
        QVERIFY(session.request().sampleKey.isEmpty());
    }

    void switchingBackReusesWhatWasRead()
    {
        const QString a = m_dir.filePath(QStringLiteral("reuse-a.kvl"));
        const QString b = m_dir.filePath(QStringLiteral("reuse-b.kvl"));
        guitest::writeRun(a, {0, 1, 2, 3});
        guitest::writeRun(b, {0, 1});
        CountedStages counted;
        RunSession session;
        session.setStages(counted.stages());
        QSignalSpy loaded(&session, &RunSession::loaded);
        QSignalSpy verified(&session, &RunSession::verificationAvailable);
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(session.isVerified(), 5000);
        const RunViewData first = session.data();
        QCOMPARE(counted.overviews.loadAcquire(), 1);
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(session.isVerified(), 5000);
        const int details = counted.details.loadAcquire();
        const int verifies = counted.verifies.loadAcquire();

        // Back to a, unchanged on disk: what was read of it comes back, from the event
        // loop, without reading the file again; still verified.
        loaded.clear();
        verified.clear();
        session.open({a, {}, -1.0, {}});
        QCOMPARE(loaded.count(), 0); // not delivered inside open()
        QVERIFY(loaded.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), 2);
        QCOMPARE(counted.aggregates.loadAcquire(), 2);
        QCOMPARE(counted.details.loadAcquire(), details);
        QCOMPARE(counted.verifies.loadAcquire(), verifies);
        QVERIFY(session.isVerified());
        QCOMPARE(verified.count(), 1);
        QCOMPARE(session.data().path, a);
        QCOMPARE(session.data().focus, first.focus);
        QCOMPARE(session.data().configs, first.configs);
        QCOMPARE(session.data().sampleKeys, first.sampleKeys);

        // Back with a focus of its own: the overview is reused, the details are read.
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        const ConfigChoice tova{QStringLiteral("TOVA"), 0.5};
        QVERIFY(first.focus != tova);
        const int overviews = counted.overviews.loadAcquire();
        const int detailsBefore = counted.details.loadAcquire();
        session.open({a, tova.compressor, tova.ratio, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), overviews);
        QCOMPARE(counted.details.loadAcquire(), detailsBefore + 1);
        QCOMPARE(session.data().focus, tova);

        // a changed on disk while b was shown: read again.
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QThread::msleep(20); // a later modification time, whatever the file system's grain
        QFile::remove(a);
        guitest::writeRun(a, {0, 1, 2});
        session.open({a, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), overviews + 1); // b came from memory
        QCOMPARE(session.data().sampleKeys.size(), 3);

        // A switch superseded before its delivery delivers nothing of it.
        session.open({b, {}, -1.0, {}});
        QVERIFY(loaded.wait(5000));
        loaded.clear();
        session.open({a, {}, -1.0, {}});
        session.close();
        QTest::qWait(50);
        QCOMPARE(loaded.count(), 0);
        QVERIFY(session.data().path.isEmpty());
    }

    void staleDetailsAreDropped()
    {
        const QString path = m_dir.filePath(QStringLiteral("stale.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        CountedStages counted;
        counted.slowCompressor = QStringLiteral("SnapKV");
        counted.slowRatio = 0.75;
        RunSession session;
        session.setStages(counted.stages());
        QSignalSpy details(&session, &RunSession::detailsAvailable);
        session.open({path, QStringLiteral("TOVA"), 0.5, {}});
        QVERIFY(details.wait(5000));
        // The slow request, then one that supersedes it while it runs.
        session.setFocusConfiguration(QStringLiteral("SnapKV"), 0.75);
        session.setFocusConfiguration(QStringLiteral("TOVA"), 0.5);
        QVERIFY(details.wait(5000));
        QCOMPARE(details.last().at(0).value<RunViewData>().focus,
                 (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
        // The slow one finishes later and is never delivered.
        QTRY_COMPARE_WITH_TIMEOUT(counted.details.loadAcquire(), 3, 5000);
        QTest::qWait(600);
        QCOMPARE(details.count(), 2);
        QCOMPARE(session.data().focus, (ConfigChoice{QStringLiteral("TOVA"), 0.5}));
    }

    // The overview is shown before the checksums are checked; a row changed after it was
    // written is then refused naming the file, the sample and the configuration.
    void changedRowIsRefusedAfterTheOverview()
    {
        const QString path = m_dir.filePath(QStringLiteral("changed.kvl"));
        guitest::writeRun(path, {0, 1, 2, 3});
        SqliteDatabase(path, SqliteDatabase::Mode::ReadWriteCreate)
            .exec(QStringLiteral("UPDATE result SET correct = 1 - correct WHERE sample_id = "
                                 "(SELECT MAX(sample_id) FROM result) AND config_id = "
                                 "(SELECT MAX(config_id) FROM result)"));
        RunSession session;
        session.setStages(storeRunStages());
        QSignalSpy overview(&session, &RunSession::overviewAvailable);
        QSignalSpy failed(&session, &RunSession::verificationFailed);
        QSignalSpy verified(&session, &RunSession::verificationAvailable);
        session.open({path, {}, -1.0, {}});
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(overview.count(), 1);
        QCOMPARE(verified.count(), 0);
        QVERIFY(!session.isVerified());
        const QString message = failed.first().at(1).toString();
        QCOMPARE(failed.first().at(0).toString(), path);
        QVERIFY2(message.contains(path) && message.contains(QStringLiteral("damaged result row")) &&
                     message.contains(QStringLiteral("sample '")),
                 qPrintable(message));
    }

    void withoutStagesOpenFailsNamingTheFile()
    {
        RunSession session;
        QSignalSpy failed(&session, &RunSession::loadFailed);
        session.open({QStringLiteral("/nowhere/run.kvl"), {}, -1.0, {}});
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("/nowhere/run.kvl")));
    }
};

QTEST_GUILESS_MAIN(TstRunSession)
#include "tst_runsession.moc"
