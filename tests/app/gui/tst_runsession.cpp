// RunSession: an open run loaded in stages. The overview is read once per state of the
// file, a focus change reads the details only, a superseded request's result is never
// delivered, and a row changed after it was written withdraws the run after the overview.
// RunSessions: one session per open run, each keeping its focus, selection and data.
#include "guirunfixture.h"
#include "runsession.h"
#include "runsessions.h"

#include "store/sqlitedatabase.h"

#include <QAtomicInt>
#include <QFile>
#include <QPointer>
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

    // Each open run has a session of its own: switching between them keeps each one's
    // focus and selection; a run shown for the first time takes over the selection of the
    // run before it, but not its overlap ratio; a run closed and opened again starts
    // afresh.
    void eachRunKeepsItsSelection()
    {
        const QString a = m_dir.filePath(QStringLiteral("keep-a.kvl"));
        const QString b = m_dir.filePath(QStringLiteral("keep-b.kvl"));
        guitest::writeRun(a, {0, 1, 2, 3});
        guitest::writeRun(b, {0, 1});
        RunSessions sessions;
        sessions.setStages(storeRunStages());
        QSignalSpy current(&sessions, &RunSessions::currentChanged);
        RunSession* sa = sessions.open({a, {}, -1.0, {}});
        QCOMPARE(current.count(), 1);
        QCOMPARE(sessions.current(), sa);
        QSignalSpy loadedA(sa, &RunSession::loaded);
        QSignalSpy details(sa, &RunSession::detailsAvailable);
        QVERIFY(loadedA.wait(5000));
        const ConfigChoice defaultFocus = sa->data().focus;
        const ConfigChoice tova{QStringLiteral("TOVA"), 0.5};
        QVERIFY(defaultFocus != tova);
        sa->setFocusConfiguration(tova.compressor, tova.ratio);
        QVERIFY(details.wait(5000));
        sa->setFocusSample(QStringLiteral("s3"));
        QVERIFY(details.wait(5000));
        const HeadSelection oneHead{HeadSelection::Mode::OneHead, 1, 0};
        sa->setHeads(oneHead);
        sa->setSignature(QStringLiteral("ambiguous"));
        sa->setOverlapRatio(sa->data().overlapRatios.constLast());
        QVERIFY(sa->selection().overlapRatio >= 0);

        RunSession* sb = sessions.open({b, {}, -1.0, {}});
        QVERIFY(sb != sa);
        QCOMPARE(sessions.current(), sb);
        QCOMPARE(current.count(), 2);
        QCOMPARE(current.last().at(1).value<RunSession*>(), sa);
        // Taken over from a, except the overlap ratio, which is b's own.
        QCOMPARE(sb->selection().heads, oneHead);
        QCOMPARE(sb->selection().signature, QStringLiteral("ambiguous"));
        QCOMPARE(sb->selection().overlapRatio, -1.0);
        QSignalSpy loadedB(sb, &RunSession::loaded);
        QVERIFY(loadedB.wait(5000));
        QCOMPARE(sb->path(), b);
        sb->setHeads({}); // b's own choice

        QCOMPARE(sessions.open({a, {}, -1.0, {}}), sa);
        QVERIFY(loadedA.wait(5000));
        QCOMPARE(sa->data().focus, tova);
        QCOMPARE(sa->request().sampleKey, QStringLiteral("s3"));
        QCOMPARE(sa->selection().heads, oneHead);
        QCOMPARE(sa->selection().signature, QStringLiteral("ambiguous"));
        // b was left with its own heads.
        QCOMPARE(sessions.open({b, {}, -1.0, {}}), sb);
        QVERIFY(loadedB.wait(5000));
        QCOMPARE(sb->selection().heads, HeadSelection{});

        // Closed, then opened again: a new session, at the default focus.
        sessions.open({a, {}, -1.0, {}});
        QVERIFY(loadedA.wait(5000));
        QPointer<RunSession> closed = sa;
        sessions.closeCurrent();
        QVERIFY(sessions.current()->path().isEmpty());
        QVERIFY(!sessions.find(a));
        QTRY_VERIFY(!closed);
        sa = sessions.open({a, {}, -1.0, {}});
        QSignalSpy loadedAgain(sa, &RunSession::loaded);
        QVERIFY(loadedAgain.wait(5000));
        QCOMPARE(sa->data().focus, defaultFocus);
        QVERIFY(sa->request().sampleKey.isEmpty());
        QCOMPARE(sessions.find(b), sb); // b stays open beside it
    }

    void switchingBackReusesWhatWasRead()
    {
        const QString a = m_dir.filePath(QStringLiteral("reuse-a.kvl"));
        const QString b = m_dir.filePath(QStringLiteral("reuse-b.kvl"));
        guitest::writeRun(a, {0, 1, 2, 3});
        guitest::writeRun(b, {0, 1});
        CountedStages counted;
        RunSessions sessions;
        sessions.setStages(counted.stages());
        RunSession* sa = sessions.open({a, {}, -1.0, {}});
        QSignalSpy loadedA(sa, &RunSession::loaded);
        QSignalSpy verifiedA(sa, &RunSession::verificationAvailable);
        QVERIFY(loadedA.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(sa->isVerified(), 5000);
        const RunViewData first = sa->data();
        QCOMPARE(counted.overviews.loadAcquire(), 1);
        RunSession* sb = sessions.open({b, {}, -1.0, {}});
        QSignalSpy loadedB(sb, &RunSession::loaded);
        QVERIFY(loadedB.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(sb->isVerified(), 5000);
        const int details = counted.details.loadAcquire();
        const int verifies = counted.verifies.loadAcquire();

        // Back to a, unchanged on disk: what was read of it comes back, from the event
        // loop, without reading the file again; still verified.
        loadedA.clear();
        verifiedA.clear();
        sessions.open({a, {}, -1.0, {}});
        QCOMPARE(loadedA.count(), 0); // not delivered inside open()
        QVERIFY(loadedA.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), 2);
        QCOMPARE(counted.aggregates.loadAcquire(), 2);
        QCOMPARE(counted.details.loadAcquire(), details);
        QCOMPARE(counted.verifies.loadAcquire(), verifies);
        QVERIFY(sa->isVerified());
        QCOMPARE(verifiedA.count(), 1);
        QCOMPARE(sa->data().path, a);
        QCOMPARE(sa->data().focus, first.focus);
        QCOMPARE(sa->data().configs, first.configs);
        QCOMPARE(sa->data().sampleKeys, first.sampleKeys);

        // Back with a focus of its own: the overview is reused, the details are read.
        sessions.open({b, {}, -1.0, {}});
        QVERIFY(loadedB.wait(5000));
        const ConfigChoice tova{QStringLiteral("TOVA"), 0.5};
        QVERIFY(first.focus != tova);
        const int overviews = counted.overviews.loadAcquire();
        const int detailsBefore = counted.details.loadAcquire();
        sessions.open({a, tova.compressor, tova.ratio, {}});
        QVERIFY(loadedA.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), overviews);
        QCOMPARE(counted.details.loadAcquire(), detailsBefore + 1);
        QCOMPARE(sa->data().focus, tova);

        // a changed on disk while b was shown: read again.
        sessions.open({b, {}, -1.0, {}});
        QVERIFY(loadedB.wait(5000));
        QThread::msleep(20); // a later modification time, whatever the file system's grain
        QFile::remove(a);
        guitest::writeRun(a, {0, 1, 2});
        sessions.open({a, {}, -1.0, {}});
        QVERIFY(loadedA.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), overviews + 1); // b came from memory
        QCOMPARE(sa->data().sampleKeys.size(), 3);

        // A switch superseded before its delivery delivers nothing of it.
        sessions.open({b, {}, -1.0, {}});
        QVERIFY(loadedB.wait(5000));
        loadedA.clear();
        loadedB.clear();
        sessions.open({a, {}, -1.0, {}});
        sessions.open({b, {}, -1.0, {}});
        QVERIFY(loadedB.wait(5000));
        QTest::qWait(50);
        QCOMPARE(loadedA.count(), 0);
        loadedB.clear();
        sessions.open({a, {}, -1.0, {}});
        sessions.closeCurrent();
        QTest::qWait(50);
        QCOMPARE(loadedA.count(), 0);
        QVERIFY(sessions.current()->data().path.isEmpty());
    }

    // A run whose open is refused goes; the run shown before it is shown again, from
    // what was read of it.
    void refusedOpenGoesBackToTheRunBefore()
    {
        const QString a = m_dir.filePath(QStringLiteral("before-a.kvl"));
        const QString broken = m_dir.filePath(QStringLiteral("before-broken.kvl"));
        guitest::writeRun(a, {0, 1});
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a run file, not SQLite at all");
        f.close();
        CountedStages counted;
        RunSessions sessions;
        sessions.setStages(counted.stages());
        RunSession* sa = sessions.open({a, {}, -1.0, {}});
        QSignalSpy loadedA(sa, &RunSession::loaded);
        QVERIFY(loadedA.wait(5000));
        RunSession* refused = sessions.open({broken, {}, -1.0, {}});
        QSignalSpy failed(refused, &RunSession::loadFailed);
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().at(2).toBool(), false);
        sessions.discard(broken);
        QCOMPARE(sessions.current(), sa);
        QVERIFY(!sessions.find(broken));
        QVERIFY(loadedA.wait(5000));
        QCOMPARE(counted.overviews.loadAcquire(), 2); // a's came from memory
        QCOMPARE(sa->data().path, a);
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
