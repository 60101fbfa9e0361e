// kvlens: the desktop app (views over run files; runs happen in kvlens-cli).
#include "demodata.h"
#include "mainwindow.h"
#include "storerunloader.h"
#include "views/plotview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTabWidget>
#include <QTimer>
#include <QTranslator>

namespace {

// Loads the app's translation for the locale (compiled into the binary under
// :/i18n) and Qt's own, so standard dialogs speak the same language.
void installTranslations(QApplication& app, const QLocale& locale)
{
    auto* qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
    auto* own = new QTranslator(&app);
    if (own->load(locale, QStringLiteral("kvlens"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(own);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("KVLens"));
    QApplication::setOrganizationName(QStringLiteral("KVLens"));
    QApplication::setApplicationVersion(QStringLiteral(KVLENS_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/kvlens.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Visual analysis of KV-cache compression (runs happen in kvlens-cli)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("run"), QStringLiteral("Run file to open."),
                                 QStringLiteral("[run.kvl]"));
    QCommandLineOption localeOption(QStringLiteral("locale"),
                                    QStringLiteral("User-interface language, e.g. ja."),
                                    QStringLiteral("name"));
    // Not "--session": QGuiApplication takes -session/--session (X11 session management)
    // out of argv before the parser sees it.
    QCommandLineOption sessionOption(QStringLiteral("session-file"),
                                     QStringLiteral("Session file to restore and save."),
                                     QStringLiteral("file"));
    QCommandLineOption noSessionOption(QStringLiteral("no-session"),
                                       QStringLiteral("Do not restore or save the session."));
    // Development aid: renders the window over synthetic data labelled DEMO and exits.
    QCommandLineOption demoOption(QStringLiteral("demo-screenshot"),
                                  QStringLiteral("Save a screenshot over synthetic data."),
                                  QStringLiteral("file.png"));
    demoOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption tabOption(QStringLiteral("tab"), QStringLiteral("Tab to show."),
                                 QStringLiteral("index"));
    tabOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption themeOption(QStringLiteral("theme"), QStringLiteral("light or dark."),
                                   QStringLiteral("name"));
    parser.addOptions(
        {localeOption, sessionOption, noSessionOption, demoOption, tabOption, themeOption});
    parser.process(app);

    const QLocale locale =
        parser.isSet(localeOption) ? QLocale(parser.value(localeOption)) : QLocale::system();
    installTranslations(app, locale);

    const bool demo = parser.isSet(demoOption);
    QString sessionPath;
    if (!demo && !parser.isSet(noSessionOption))
        sessionPath = parser.isSet(sessionOption) ? parser.value(sessionOption)
                                                  : kvl::SessionState::defaultPath();
    kvl::MainWindow window(sessionPath);
    window.setRunLoader(&kvl::loadRunViewData);
    if (parser.isSet(themeOption))
        window.setTheme(parser.value(themeOption));
    if (!parser.positionalArguments().isEmpty())
        window.openRun(parser.positionalArguments().constFirst());

    if (demo) {
        window.resize(1400, 860);
        window.showRun(kvl::makeDemoData());
        window.tabs()->setCurrentIndex(parser.value(tabOption).toInt());
        window.show();
        const QString file = parser.value(demoOption);
        QTimer::singleShot(1500, &window, [&window, file] {
            const bool ok = window.grab().save(file);
            QApplication::exit(ok ? 0 : 1);
        });
        return app.exec();
    }
    window.show();
    return app.exec();
}
