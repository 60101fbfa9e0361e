#include "guioptions.h"

#include "sessionstate.h"

#include <QCommandLineParser>

namespace kvl {

GuiOptions parseGuiOptions(const QStringList& arguments)
{
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
    parser.process(arguments);

    GuiOptions options;
    options.locale =
        parser.isSet(localeOption) ? QLocale(parser.value(localeOption)) : QLocale::system();
    options.demoScreenshot = parser.value(demoOption);
    options.tab = parser.value(tabOption).toInt();
    options.theme = parser.value(themeOption);
    if (!parser.positionalArguments().isEmpty())
        options.run = parser.positionalArguments().constFirst();
    if (options.demoScreenshot.isEmpty() && !parser.isSet(noSessionOption))
        options.sessionPath =
            parser.isSet(sessionOption) ? parser.value(sessionOption) : SessionState::defaultPath();
    return options;
}

} // namespace kvl
