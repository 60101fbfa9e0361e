// The kvlens command line: each option reaches GuiOptions, and --session-file survives
// QApplication's own argv processing (QGuiApplication takes -session/--session for X11
// session management, which is why the option has its longer name).
#include "guioptions.h"
#include "sessionstate.h"

#include <QApplication>
#include <QtTest>

using namespace kvl;

class TestGuiOptions : public QObject
{
    Q_OBJECT
  private slots:
    void sessionFileSurvivesQApplication()
    {
        // main() built the QApplication from argv below; parse what it left.
        const GuiOptions options = parseGuiOptions(QApplication::arguments());
        QCOMPARE(options.sessionPath, QStringLiteral("chosen-session.json"));
        QCOMPARE(options.run, QStringLiteral("run.kvl"));
        QVERIFY(!QApplication::arguments().contains(QStringLiteral("taken-by-qt")));
    }

    void defaultsToTheUsersSession()
    {
        const GuiOptions options = parseGuiOptions({QStringLiteral("kvlens")});
        QCOMPARE(options.sessionPath, SessionState::defaultPath());
        QVERIFY(options.run.isEmpty());
        QVERIFY(options.theme.isEmpty());
        QVERIFY(options.demoScreenshot.isEmpty());
    }

    void noSessionAndDemoUseNone()
    {
        QVERIFY(parseGuiOptions({QStringLiteral("kvlens"), QStringLiteral("--no-session")})
                    .sessionPath.isEmpty());
        const GuiOptions demo = parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--demo-screenshot"),
             QStringLiteral("shot.png"), QStringLiteral("--tab"), QStringLiteral("3"),
             QStringLiteral("--session-file"), QStringLiteral("s.json")});
        QVERIFY(demo.sessionPath.isEmpty()); // a screenshot never touches a session
        QCOMPARE(demo.demoScreenshot, QStringLiteral("shot.png"));
        QCOMPARE(demo.tab, 3);
    }

    void themeAndLocale()
    {
        const GuiOptions options = parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--theme"), QStringLiteral("dark"),
             QStringLiteral("--locale"), QStringLiteral("ja")});
        QCOMPARE(options.theme, QStringLiteral("dark"));
        QCOMPARE(options.locale.language(), QLocale::Japanese);
    }

    void batchExportOptions()
    {
        const GuiOptions options = parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--export-figures"), QStringLiteral("r.kvl"),
             QStringLiteral("--out"), QStringLiteral("figs"), QStringLiteral("--format"),
             QStringLiteral("PDF, csv,pdf"), QStringLiteral("--size"), QStringLiteral("single"),
             QStringLiteral("--dpi"), QStringLiteral("600"), QStringLiteral("--no-footer")});
        QVERIFY2(options.error.isEmpty(), qPrintable(options.error));
        QCOMPARE(options.exportRun, QStringLiteral("r.kvl"));
        QCOMPARE(options.exportDir, QStringLiteral("figs"));
        QCOMPARE(options.exportFormats, QStringList({"pdf", "csv"}));
        QCOMPARE(options.exportSize, QStringLiteral("single"));
        QCOMPARE(options.exportDpi, 600);
        QVERIFY(!options.exportFooter);
        QVERIFY(options.sessionPath.isEmpty()); // a batch export never touches a session

        const GuiOptions defaults = parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--export-figures"), QStringLiteral("r.kvl"),
             QStringLiteral("--out"), QStringLiteral("figs")});
        QVERIFY(defaults.error.isEmpty());
        QCOMPARE(defaults.exportFormats, QStringList({"png", "pdf", "svg", "csv"}));
        QCOMPARE(defaults.exportSize, QStringLiteral("double"));
        QCOMPARE(defaults.exportDpi, 300);
        QVERIFY(defaults.exportFooter);
        QVERIFY(parseGuiOptions({QStringLiteral("kvlens")}).exportRun.isEmpty());
    }

    void badBatchExportOptions_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("named"); // what the message must name
        const QStringList base{QStringLiteral("kvlens"), QStringLiteral("--export-figures"),
                               QStringLiteral("r.kvl"), QStringLiteral("--out"),
                               QStringLiteral("figs")};
        QTest::newRow("format") << base + QStringList{"--format", "png,tiff"} << "tiff";
        QTest::newRow("no format") << base + QStringList{"--format", ","} << "--format";
        QTest::newRow("size") << base + QStringList{"--size", "triple"} << "triple";
        QTest::newRow("dpi zero") << base + QStringList{"--dpi", "0"} << "--dpi";
        QTest::newRow("dpi text") << base + QStringList{"--dpi", "high"} << "high";
        QTest::newRow("no out") << QStringList{"kvlens", "--export-figures", "r.kvl"} << "--out";
        QTest::newRow("out alone") << QStringList{"kvlens", "--out", "figs"} << "--out";
        QTest::newRow("dpi alone") << QStringList{"kvlens", "--dpi", "300"} << "--dpi";
    }
    void badBatchExportOptions()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, named);
        const GuiOptions options = parseGuiOptions(arguments);
        QVERIFY2(options.error.contains(named), qPrintable(options.error));
    }

    void benchViewsOptions()
    {
        GuiOptions o = parseGuiOptions({"kvlens", "--bench-views", "big.kvl", "--json"});
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QVERIFY(o.benchViews);
        QVERIFY(o.benchJson);
        QCOMPARE(o.run, QStringLiteral("big.kvl"));
        QVERIFY(o.sessionPath.isEmpty()); // a benchmark never touches a session
        o = parseGuiOptions({"kvlens", "--json"});
        QVERIFY2(o.error.contains("--bench-views"), qPrintable(o.error));
        const char* argv[] = {"kvlens", "--bench-views"};
        QVERIFY(wantsViewBenchmark(2, argv));
        QVERIFY(!wantsBatchExport(2, argv));
    }

    void batchExportIsSeenBeforeQApplication_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("batch");
        QTest::newRow("plain") << QStringList{"kvlens", "run.kvl"} << false;
        QTest::newRow("option") << QStringList{"kvlens", "--export-figures", "r.kvl"} << true;
        QTest::newRow("with =") << QStringList{"kvlens", "--export-figures=r.kvl"} << true;
        QTest::newRow("after --") << QStringList{"kvlens", "--", "--export-figures"} << false;
        QTest::newRow("a file named so") << QStringList{"kvlens", "export-figures"} << false;
    }
    void batchExportIsSeenBeforeQApplication()
    {
        QFETCH(QStringList, arguments);
        QFETCH(bool, batch);
        std::vector<QByteArray> bytes;
        for (const QString& a : arguments)
            bytes.push_back(a.toLocal8Bit());
        std::vector<const char*> argv;
        for (const QByteArray& b : bytes)
            argv.push_back(b.constData());
        QCOMPARE(wantsBatchExport(int(argv.size()), argv.data()), batch);
    }
};

// A main of its own: the test needs a QApplication built from a chosen argv.
int main(int argc, char** argv)
{
    Q_UNUSED(argc);
    std::vector<char*> args{argv[0],
                            const_cast<char*>("--session-file"),
                            const_cast<char*>("chosen-session.json"),
                            const_cast<char*>("-session"),
                            const_cast<char*>("taken-by-qt"),
                            const_cast<char*>("run.kvl"),
                            nullptr};
    int count = int(args.size()) - 1;
    QApplication app(count, args.data());
    TestGuiOptions test;
    return QTest::qExec(&test, QStringList{QString::fromLocal8Bit(argv[0])});
}

#include "tst_guioptions.moc"
