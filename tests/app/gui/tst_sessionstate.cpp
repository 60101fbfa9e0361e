// Session state: JSON round trip, file round trip, defaults, errors.
#include "common/error.h"
#include "offscreentestmain.h"
#include "sessionstate.h"

#include <QJsonDocument>
#include <QTemporaryDir>

using namespace kvl;

namespace {

SessionState everythingSet()
{
    SessionState s;
    s.openRuns = {QStringLiteral("/runs/ruler.kvl"), QStringLiteral("/runs/ifeval ü.kvl")};
    s.currentRun = QStringLiteral("/runs/ruler.kvl");
    s.currentTab = 3;
    s.theme = QStringLiteral("dark");
    s.heatmapColorMap = QStringLiteral("cividis");
    s.heatmapLogScale = true;
    s.taxonomyShares = true;
    s.selectedCompressor = QStringLiteral("SnapKV");
    s.selectedRatio = 0.75;
    s.selectedSignature = QStringLiteral("low_mapped_coverage");
    s.overlapA = QStringLiteral("SnapKV");
    s.overlapB = QStringLiteral("TOVA");
    s.accuracySuite = QStringLiteral("multihop");
    s.windowGeometry = QByteArray("\x01\x02\x00\xff", 4);
    s.windowState = QByteArray("state");
    return s;
}

} // namespace

class TstSessionState : public QObject
{
    Q_OBJECT
  private slots:
    void jsonRoundTrip()
    {
        const SessionState s = everythingSet();
        QVERIFY(SessionState::fromJson(s.toJson()) == s);
    }

    void fileRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nested/dir/session.json"));
        const SessionState s = everythingSet();
        s.save(path);
        QVERIFY(SessionState::load(path) == s);
    }

    void writtenKeys()
    {
        // The file is meant to be read by people too: check the names by hand.
        const QJsonObject o = everythingSet().toJson();
        QCOMPARE(o.value(QLatin1String("version")).toInt(), 1);
        QCOMPARE(o.value(QLatin1String("current_tab")).toInt(), 3);
        QCOMPARE(o.value(QLatin1String("view")).toObject().value(QLatin1String("theme")).toString(),
                 QStringLiteral("dark"));
        QCOMPARE(
            o.value(QLatin1String("selection")).toObject().value(QLatin1String("ratio")).toDouble(),
            0.75);
        QCOMPARE(o.value(QLatin1String("open_runs")).toArray().size(), 2);
    }

    void missingKeysKeepDefaults()
    {
        const SessionState s = SessionState::fromJson(
            QJsonDocument::fromJson("{\"current_tab\": 2, \"unknown\": {\"x\": 1}}").object());
        QCOMPARE(s.currentTab, 2);
        const SessionState defaults;
        QCOMPARE(s.theme, defaults.theme);
        QCOMPARE(s.heatmapColorMap, defaults.heatmapColorMap);
        QCOMPARE(s.selectedRatio, defaults.selectedRatio);
        QVERIFY(s.openRuns.isEmpty());
    }

    void brokenFileNamesTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("session.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"current_tab\": ");
        f.close();
        try {
            SessionState::load(path);
            QFAIL("no error for a truncated file");
        } catch (const Error& e) {
            QVERIFY2(e.message().contains(path), qPrintable(e.message()));
        }
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstSessionState)
#include "tst_sessionstate.moc"
