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
    QCommandLineOption exportOption(
        QStringLiteral("export-figures"),
        QStringLiteral("Write every view's figure and data for the run file, without a window."),
        QStringLiteral("run.kvl"));
    QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("Folder for --export-figures (created if missing)."),
        QStringLiteral("dir"));
    QCommandLineOption formatOption(
        QStringLiteral("format"), QStringLiteral("Comma-separated: png,pdf,svg,csv (default all)."),
        QStringLiteral("list"));
    QCommandLineOption sizeOption(
        QStringLiteral("size"),
        QStringLiteral("Figure width: single (3.5 in) or double (7 in) column (default double)."),
        QStringLiteral("preset"));
    QCommandLineOption dpiOption(QStringLiteral("dpi"),
                                 QStringLiteral("PNG resolution in pixels per inch (default 300)."),
                                 QStringLiteral("n"));
    QCommandLineOption noFooterOption(QStringLiteral("no-footer"),
                                      QStringLiteral("No provenance line under the figures (the "
                                                     "file's metadata still carries it)."));
    QCommandLineOption benchOption(
        QStringLiteral("bench-views"),
        QStringLiteral("Time opening the run file and drawing the views (overview, a 32k-token "
                       "heatmap and eviction map zoomed), print the figures and exit."));
    QCommandLineOption jsonOption(QStringLiteral("json"),
                                  QStringLiteral("With --bench-views: print the figures as JSON."));
    parser.addOptions({localeOption, sessionOption, noSessionOption, demoOption, tabOption,
                       themeOption, exportOption, outOption, formatOption, sizeOption, dpiOption,
                       noFooterOption, benchOption, jsonOption});
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

    options.benchViews = parser.isSet(benchOption);
    options.benchJson = parser.isSet(jsonOption);
    if (options.benchViews)
        options.sessionPath.clear(); // a benchmark never touches a session
    else if (options.benchJson)
        options.error = QStringLiteral("--json is an option of --bench-views");

    options.exportRun = parser.value(exportOption);
    options.exportDir = parser.value(outOption);
    options.exportFooter = !parser.isSet(noFooterOption);
    const bool exportAsked = parser.isSet(exportOption);
    if (exportAsked) {
        options.sessionPath.clear(); // a batch export never touches a session
        if (options.exportRun.isEmpty())
            options.error = QStringLiteral("--export-figures needs a run file");
        else if (options.exportDir.isEmpty())
            options.error = QStringLiteral("--export-figures needs --out DIR");
    } else {
        for (const QCommandLineOption* o : {&outOption, &formatOption, &sizeOption, &dpiOption})
            if (parser.isSet(*o))
                options.error = QStringLiteral("--%1 is an option of --export-figures")
                                    .arg(o->names().constFirst());
    }
    const QStringList known{QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg"),
                            QStringLiteral("csv")};
    if (parser.isSet(formatOption)) {
        for (const QString& f :
             parser.value(formatOption).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString format = f.trimmed().toLower();
            if (!known.contains(format))
                options.error =
                    QStringLiteral("--format: unknown format '%1' (use png, pdf, svg, csv)")
                        .arg(f.trimmed());
            else if (!options.exportFormats.contains(format))
                options.exportFormats << format;
        }
        if (options.exportFormats.isEmpty() && options.error.isEmpty())
            options.error = QStringLiteral("--format: no format given (use png, pdf, svg, csv)");
    } else {
        options.exportFormats = known;
    }
    options.exportSize =
        parser.isSet(sizeOption) ? parser.value(sizeOption).toLower() : QStringLiteral("double");
    if (options.exportSize != QLatin1String("single") &&
        options.exportSize != QLatin1String("double"))
        options.error =
            QStringLiteral("--size: '%1' is not single or double").arg(parser.value(sizeOption));
    if (parser.isSet(dpiOption)) {
        bool ok = false;
        options.exportDpi = parser.value(dpiOption).toInt(&ok);
        // 2400 dpi at 7 in is 16800 pixels across: past that an image runs out of memory.
        if (!ok || options.exportDpi < 30 || options.exportDpi > 2400)
            options.error = QStringLiteral("--dpi: '%1' is not a whole number from 30 to 2400")
                                .arg(parser.value(dpiOption));
    }
    return options;
}

namespace {

bool hasOption(int argc, const char* const* argv, const QByteArray& name)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == name || arg.startsWith(name + '='))
            return true;
        if (arg == "--")
            break;
    }
    return false;
}

} // namespace

bool wantsBatchExport(int argc, const char* const* argv)
{
    return hasOption(argc, argv, "--export-figures");
}

bool wantsViewBenchmark(int argc, const char* const* argv)
{
    return hasOption(argc, argv, "--bench-views");
}

} // namespace kvl
