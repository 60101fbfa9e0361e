// Session state: JSON round trip, file round trip, defaults, errors.
#include "common/error.h"
#include "offscreentestmain.h"
#include "sessionstate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

using namespace kvl;

namespace {

SessionState everythingSet()
{
    SessionState s;
    s.openRuns = {QStringLiteral("/runs/ruler.kvl"), QStringLiteral("/runs/ifeval ü.kvl")};
    s.currentRun = QStringLiteral("/runs/ruler.kvl");
    s.currentPage = QStringLiteral("eviction");
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
    s.selectedSample = QStringLiteral("niah-07");
    s.overlapRatio = 0.5;
    s.heads = {HeadSelection::Mode::OneHead, 5, 2};
    s.attentionZoom = {120, 380};
    s.evictionZoom = {8, 64};
    s.inspectedSample = QStringLiteral("niah-03");
    s.inspectedCompressor = QStringLiteral("TOVA");
    s.inspectedRatio = 0.5;
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
        // Each field set differs from its default, so the comparison covers every one.
        const SessionState defaults;
        QVERIFY(s.currentPage != defaults.currentPage);
        QVERIFY(s.heads != defaults.heads);
        QVERIFY(s.attentionZoom != defaults.attentionZoom);
    }

    void everyHeadModeRoundTrips_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("layers mean") << int(HeadSelection::Mode::LayersMean);
        QTest::newRow("layer heads") << int(HeadSelection::Mode::LayerHeads);
        QTest::newRow("one head") << int(HeadSelection::Mode::OneHead);
        QTest::newRow("every head") << int(HeadSelection::Mode::EveryHead);
    }
    void everyHeadModeRoundTrips()
    {
        QFETCH(int, mode);
        SessionState s;
        s.heads = {HeadSelection::Mode(mode), 3, 1};
        QCOMPARE(SessionState::fromJson(s.toJson()).heads, s.heads);
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
        QCOMPARE(o.value(QLatin1String("current_page")).toString(), QStringLiteral("eviction"));
        const QJsonObject selection = o.value(QLatin1String("selection")).toObject();
        QCOMPARE(selection.value(QLatin1String("sample")).toString(), QStringLiteral("niah-07"));
        QCOMPARE(selection.value(QLatin1String("heads")).toObject().value("mode").toString(),
                 QStringLiteral("one_head"));
        QCOMPARE(selection.value(QLatin1String("attention_zoom")).toArray(),
                 (QJsonArray{120, 380}));
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
            QJsonDocument::fromJson("{\"current_page\": \"ger\", \"unknown\": {\"x\": 1}}")
                .object());
        QCOMPARE(s.currentPage, QStringLiteral("ger"));
        const SessionState defaults;
        QCOMPARE(s.theme, defaults.theme);
        QCOMPARE(s.heatmapColorMap, defaults.heatmapColorMap);
        QCOMPARE(s.selectedRatio, defaults.selectedRatio);
        QVERIFY(s.openRuns.isEmpty());
        QCOMPARE(s.heads, defaults.heads);
        QCOMPARE(s.attentionZoom, defaults.attentionZoom);
    }

    void tabOfTheTabbedWindowMapsToItsPage_data()
    {
        QTest::addColumn<int>("tab");
        QTest::addColumn<QString>("page");
        // The tab order before the navigator: 0 Accuracy, 2 Chain breaks, 5 Attention,
        // 11 Compare (its Samples page first), 12 Sample; past the end: the default.
        QTest::newRow("accuracy") << 0 << "accuracy";
        QTest::newRow("chain breaks") << 2 << "chain-breaks";
        QTest::newRow("attention") << 5 << "attention";
        QTest::newRow("compare") << 11 << "compare-samples";
        QTest::newRow("sample") << 12 << "sample";
        QTest::newRow("out of range") << 13 << "accuracy";
        QTest::newRow("negative") << -1 << "accuracy";
    }
    void tabOfTheTabbedWindowMapsToItsPage()
    {
        QFETCH(int, tab);
        QFETCH(QString, page);
        QJsonObject o;
        o[QLatin1String("current_tab")] = tab;
        QCOMPARE(SessionState::fromJson(o).currentPage, page);
    }

    void malformedZoomIsNoZoom_data()
    {
        QTest::addColumn<QByteArray>("zoom");
        QTest::newRow("one number") << QByteArray("[3]");
        QTest::newRow("reversed") << QByteArray("[9, 3]");
        QTest::newRow("negative") << QByteArray("[-4, 3]");
        QTest::newRow("text") << QByteArray("[\"a\", 3]");
    }
    void malformedZoomIsNoZoom()
    {
        QFETCH(QByteArray, zoom);
        const QByteArray json = "{\"selection\": {\"attention_zoom\": " + zoom + "}}";
        const SessionState s = SessionState::fromJson(QJsonDocument::fromJson(json).object());
        QCOMPARE(s.attentionZoom, (std::pair{-1, -1}));
    }

    void brokenFileNamesTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("session.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"current_page\": ");
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
