// kvlens: the desktop app (views over run files; runs happen in kvlens-cli).
#include "batchexport.h"
#include "demodata.h"
#include "displaymenu.h"
#include "guioptions.h"
#include "mainwindow.h"
#include "storerunloader.h"
#include "viewbenchmark.h"
#include "viewnavigator.h"
#include "views/plotview.h"

#include <QApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <cstdio>

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
    // The batch export draws without a window: no display needed (a server, a CI job).
    // The platform is chosen when QApplication is built, so before it.
    if (kvl::wantsBatchExport(argc, argv) || kvl::wantsViewBenchmark(argc, argv))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("KVLens"));
    QApplication::setOrganizationName(QStringLiteral("KVLens"));
    QApplication::setApplicationVersion(QStringLiteral(KVLENS_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/kvlens.svg")));

    const kvl::GuiOptions options = kvl::parseGuiOptions(QApplication::arguments());
    installTranslations(app, options.locale);
    QTextStream out(stdout), err(stderr);
    if (!options.error.isEmpty()) {
        err << "kvlens: error: " << options.error << '\n';
        return 1;
    }
    if (!options.exportRun.isEmpty())
        return kvl::runBatchExport(options, out, err);
    if (options.benchViews)
        return kvl::runViewBenchmark(options, out, err);

    const bool demo = !options.demoScreenshot.isEmpty();
    kvl::MainWindow window(options.sessionPath);
    window.setRunStages(kvl::storeRunStages());
    if (!options.theme.isEmpty())
        window.displayMenu()->setTheme(options.theme);
    if (!options.run.isEmpty())
        window.openRun(options.run);

    if (demo) {
        window.resize(1400, 860);
        window.showRun(kvl::makeDemoData());
        window.showPage(kvl::PageId::fromString(window.navigator()->pageIds().value(options.tab)));
        window.show();
        const QString file = options.demoScreenshot;
        QTimer::singleShot(1500, &window, [&window, file] {
            const bool ok = window.grab().save(file);
            QApplication::exit(ok ? 0 : 1);
        });
        return app.exec();
    }
    window.show();
    return app.exec();
}
