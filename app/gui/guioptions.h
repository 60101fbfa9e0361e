#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

namespace kvl {

// What the kvlens command line asks for. Kept apart from main() so that a test can
// check the options survive QApplication, which takes some (-session, -style, ...) out
// of argv for itself before any parser runs.
struct GuiOptions
{
    QLocale locale;
    QString sessionPath;    // session file to restore and save; empty: none
    QString run;            // run file to open at start; empty: none
    QString theme;          // "light", "dark", or empty for the default
    QString demoScreenshot; // development aid: render synthetic data, save, exit
    int tab = 0;            // with demoScreenshot: the tab to show
    // --export-figures RUN.kvl --out DIR: write every view's figure and data, no window.
    QString exportRun;
    QString exportDir;
    QStringList exportFormats; // of png, pdf, svg, csv (default: all four)
    QString exportSize;        // "single" (3.5 in) or "double" (7 in, the default)
    int exportDpi = 300;       // PNG pixels per inch
    bool exportFooter = true;  // the provenance line under each figure
    // --bench-views [RUN.kvl] [--json]: time opening the run and drawing the views, no window.
    bool benchViews = false;
    bool benchJson = false;
    // A bad value of an export option, as a message for stderr (main exits 1); empty: fine.
    QString error;
};

// Whether argv asks for the batch export. main() checks this before QApplication
// exists, to choose the offscreen platform (no display needed, no window shown).
bool wantsBatchExport(int argc, const char* const* argv);
// Whether argv asks for the view benchmark (--bench-views): drawn offscreen, like the export.
bool wantsViewBenchmark(int argc, const char* const* argv);

// Parses `arguments` (program name first). --help and --version print and exit, a
// bad option prints the error and exits 1, as QCommandLineParser::process does.
// Without --session-file the session is SessionState::defaultPath(); --no-session and
// the demo screenshot use none.
GuiOptions parseGuiOptions(const QStringList& arguments);

} // namespace kvl
