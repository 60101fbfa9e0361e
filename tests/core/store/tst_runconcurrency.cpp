// Readers while a writer writes (WAL), and interrupted writes: a sample whose
// transaction is not committed (rolled back, or the process killed with SIGKILL)
// is lost alone; the run resumes from the rest.
#include "storefixtures.h"

#include "common/error.h"
#include "store/runreader.h"
#include "store/runreport.h"
#include "store/runwriter.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace kvl;
using namespace kvl::test;

namespace {
SampleRecord numbered(int i)
{
    SampleRecord rec = handSample(i % 4);
    rec.sample.key = QStringLiteral("n%1").arg(i);
    return rec;
}

RunWriter* startRun(const QString& file)
{
    auto* w = new RunWriter(file);
    w->setRunInfo(runInfo());
    for (const ConfigRecord& c : handConfigs())
        w->addConfig(c);
    return w;
}
} // namespace

class TestRunConcurrency : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QLatin1String(name)); }

  private slots:
    void readerSeesCommittedSamplesOnly()
    {
        const QString file = path("live.kvl");
        std::unique_ptr<RunWriter> w(startRun(file));
        w->writeSample(numbered(0));
        RunReader reader(file);
        QCOMPARE(reader.sampleCount(), 1);
        const qint64 version = reader.dataVersion();
        // A sample in flight: the reader neither blocks nor sees it.
        const SampleRecord next = numbered(1);
        w->beginSample(next.sample);
        for (const ResultRecord& r : next.results)
            w->addResult(r);
        QCOMPARE(reader.sampleCount(), 1);
        QCOMPARE(reader.resultCount(), 4);
        runReportJson(reader);
        QCOMPARE(reader.dataVersion(), version); // nothing committed yet
        w->commitSample();
        QVERIFY(reader.dataVersion() != version);
        QCOMPARE(reader.sampleCount(), 2);
        QCOMPARE(reader.resultCount(), 8);
    }

    void readerThreadWhileWriterWrites()
    {
        const QString file = path("threads.kvl");
        std::unique_ptr<RunWriter> w(startRun(file));
        w->writeSample(numbered(0));
        std::atomic<bool> done{false};
        std::atomic<int> reads{0};
        QString failure;
        qint64 lastCount = 0;
        bool monotonic = true;
        std::thread readerThread([&] {
            try {
                RunReader reader(file);
                while (!done.load()) {
                    const qint64 n = reader.resultCount();
                    monotonic = monotonic && n >= lastCount && n % 4 == 0; // whole samples only
                    lastCount = n;
                    reader.transitions();
                    reads.fetch_add(1);
                }
            } catch (const Error& e) {
                failure = e.message();
            }
        });
        for (int i = 1; i < 200; ++i)
            w->writeSample(numbered(i));
        while (reads.load() < 5 && failure.isEmpty())
            std::this_thread::yield();
        done = true;
        readerThread.join();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(monotonic);
        QVERIFY(reads.load() >= 5);
        QCOMPARE(RunReader(file).resultCount(), 800);
    }

    void rollbackLosesOnlyThatSample()
    {
        const QString file = path("rollback.kvl");
        {
            std::unique_ptr<RunWriter> w(startRun(file));
            for (int i = 0; i < 3; ++i)
                w->writeSample(numbered(i));
            const SampleRecord open = numbered(3);
            w->beginSample(open.sample);
            w->addResult(open.results[0]);
            // The writer goes away with the sample open (an exception in the runner).
        }
        RunReader reader(file);
        QCOMPARE(reader.completedSampleKeys(), (QSet<QString>{"n0", "n1", "n2"}));
        QCOMPARE(reader.sampleCount(), 3); // the open sample's row is gone too
    }

    void killedWriterLosesOnlyTheSampleInFlight()
    {
        const QString file = path("killed.kvl");
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // Child: write 3 samples, start a 4th with large rows, then die hard.
            RunWriter* w = startRun(file);
            for (int i = 0; i < 3; ++i)
                w->writeSample(numbered(i));
            SampleRecord open = numbered(3);
            w->beginSample(open.sample);
            for (ResultRecord& r : open.results) {
                r.mask = KeptMask(8, 8, 4000, true); // enough pages to spill to the WAL
                w->addResult(r);
            }
            ::kill(::getpid(), SIGKILL);
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

        {
            RunReader reader(file);
            QCOMPARE(reader.completedSampleKeys(), (QSet<QString>{"n0", "n1", "n2"}));
            QCOMPARE(reader.resultCount(), 12);
            reader.checkIntegrity();
        }
        // Resume: the writer reopens the file and continues with the lost sample.
        {
            RunWriter w(file);
            const QSet<QString> done = w.completedSampleKeys();
            for (int i = 0; i < 5; ++i)
                if (!done.contains(QStringLiteral("n%1").arg(i)))
                    w.writeSample(numbered(i));
        }
        RunReader reader(file);
        QCOMPARE(reader.sampleCount(), 5);
        QCOMPARE(reader.resultCount(), 20);
    }
};

QTEST_GUILESS_MAIN(TestRunConcurrency)
#include "tst_runconcurrency.moc"
