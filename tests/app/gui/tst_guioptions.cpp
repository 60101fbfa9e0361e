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
