// The two ends of the progress-line protocol (common/runprogress.h): what the sweep writes
// after each sample (SweepProgress::toJson, one compact JSON line) is what the desktop app
// reads back (RunProgress::parse), with unknown figures as NaN.
#include "common/runprogress.h"
#include "run/sweepprogress.h"

#include <QJsonDocument>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {
QByteArray lineOf(const SweepProgress& p)
{
    return QJsonDocument(p.toJson()).toJson(QJsonDocument::Compact);
}
} // namespace

class TstProgressProtocol : public QObject
{
    Q_OBJECT
  private slots:
    void writtenLineReadsBack()
    {
        SweepProgress p;
        p.done = 12;
        p.total = 40;
        p.elapsedS = 30.25;
        p.etaS = 70.5;
        p.fullAccuracy = 0.8;
        p.compressedAccuracy = 0.625;
        p.sampleKey = QStringLiteral("retrieval-12");
        const std::optional<RunProgress> read = RunProgress::parse(lineOf(p));
        QVERIFY(read);
        QCOMPARE(read->done, 12);
        QCOMPARE(read->total, 40);
        QCOMPARE(read->elapsedS, 30.25);
        QCOMPARE(read->etaS, 70.5);
        QCOMPARE(read->accuracy, 0.625); // the compressed rows' accuracy when there are any
    }

    void unknownFiguresReadAsNaN()
    {
        SweepProgress p;
        p.done = 0;
        p.total = 3;
        p.sampleKey = QStringLiteral("s0");
        p.skipReason = QStringLiteral("longer than the model's context");
        const std::optional<RunProgress> read = RunProgress::parse(lineOf(p));
        QVERIFY(read);
        QCOMPARE(read->total, 3);
        QVERIFY(std::isnan(read->etaS));
        QVERIFY(std::isnan(read->accuracy));
    }

    void fullCacheAccuracyWhenNoCompressedRow()
    {
        SweepProgress p;
        p.done = 1;
        p.total = 2;
        p.fullAccuracy = 1.0;
        const std::optional<RunProgress> read = RunProgress::parse(lineOf(p));
        QVERIFY(read);
        QCOMPARE(read->accuracy, 1.0);
    }

    void everyWrittenKeyIsAProtocolKey()
    {
        SweepProgress p;
        p.etaS = 1.0;
        p.fullAccuracy = 0.5;
        p.compressedAccuracy = 0.5;
        p.skipReason = QStringLiteral("x");
        using namespace progresskeys;
        const QStringList protocol{kDone,     kTotal,        kElapsedS,           kEtaS,
                                   kAccuracy, kAccuracyFull, kAccuracyCompressed, kSample,
                                   kSkipped};
        for (const QString& key : p.toJson().keys())
            QVERIFY2(protocol.contains(key), qPrintable(key));
        QCOMPARE(p.toJson().size(), protocol.size());
    }
};

QTEST_GUILESS_MAIN(TstProgressProtocol)
#include "tst_progressprotocol.moc"
