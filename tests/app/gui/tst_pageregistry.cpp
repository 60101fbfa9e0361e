// The window's pages come from one list: a page registered here, by the test, appears in
// the navigator under its group, in the View menu with the shortcut of its place, in the
// batch export, and in the session file; it draws from the session when a run is shown
// and clears when it closes, with no line of MainWindow written for it.
#include "batchexport.h"
#include "batchfigures.h"
#include "guioptions.h"
#include "guirunfixture.h"
#include "mainwindow.h"
#include "pagehost.h"
#include "runpage.h"
#include "viewnavigator.h"
#include "views/accuracyratioview.h"

#include <QMenuBar>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>

using namespace kvl;

namespace {

const PageId kProbe{"probe"};

// A page the app does not ship: the run's accuracy, drawn again.
class ProbePage : public RunPage
{
    Q_OBJECT
  public:
    explicit ProbePage(PageHost& host) : RunPage(host), m_view(new AccuracyRatioView)
    {
        auto* layout = new QVBoxLayout(this);
        layout->addWidget(m_view);
    }
    PlotView* exportedView() const override { return m_view; }
    void clear() override { m_view->clear(); }
    AccuracyRatioView* view() const { return m_view; }

    static void exportFigures(BatchFigures& figures)
    {
        auto* view = figures.make(new AccuracyRatioView);
        view->setData(figures.data().accuracy);
        figures.add(QStringLiteral("probe"), view, 0.62, QStringLiteral("no accuracy"));
    }

  protected:
    void connectSession(RunSession* session) override
    {
        connect(session, &RunSession::summaryAvailable, this,
                [this](const RunViewData& data) { m_view->setData(data.accuracy); });
    }

  private:
    AccuracyRatioView* m_view;
};

PageRegistry withProbe()
{
    PageRegistry registry = PageRegistry::standard();
    // Second in the list: the View menu gives it Ctrl+2.
    registry.insert(1,
                    PageEntry::of<ProbePage>(kProbe, PageGroup::Overview, QStringLiteral("Probe")));
    return registry;
}

QAction* viewMenuAction(MainWindow& window, const QString& text)
{
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TstPageRegistry : public QObject
{
    Q_OBJECT
  private slots:
    void registeredPageIsEverywhere()
    {
        MainWindow window({}, nullptr, withProbe());
        // Navigator: in its group, in its place.
        const QStringList ids = window.navigator()->pageIds();
        QCOMPARE(ids.value(1), kProbe.toString());
        QCOMPARE(window.navigator()->groupTitle(kProbe.toString()), QStringLiteral("Overview"));
        QCOMPARE(window.navigator()->pageTitle(kProbe.toString()), QStringLiteral("Probe"));
        // View menu: its action with the shortcut of its place shows it.
        QAction* action = viewMenuAction(window, QStringLiteral("Probe"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+2")));
        action->trigger();
        QCOMPARE(window.currentPage(), kProbe);
        // The pages after it moved down one shortcut.
        QCOMPARE(viewMenuAction(window, QStringLiteral("Outcome grid"))->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+3")));

        // It draws from the session, exports from File › Export, and clears on close.
        auto* probe = qobject_cast<ProbePage*>(window.page(kProbe));
        QVERIFY(probe);
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        guitest::writeRun(run, {0, 1, 2, 3});
        window.setRunStages(storeRunStages());
        QSignalSpy loaded(&window, &MainWindow::runLoaded);
        window.openRun(run);
        QVERIFY(loaded.wait(10000));
        QVERIFY(probe->view()->hasData());
        QCOMPARE(window.currentView(), probe->view());
        QVERIFY(window.selectionTitle().startsWith(QStringLiteral("Overview › Probe")));

        // Session file: the page shown is saved and restored by its id.
        const SessionState saved = window.sessionState();
        QCOMPARE(saved.currentPage, kProbe.toString());
        window.closeRun();
        QVERIFY(!probe->view()->hasData());
        MainWindow restored({}, nullptr, withProbe());
        restored.applySessionState(saved);
        QCOMPARE(restored.currentPage(), kProbe);
        // A window without the page falls back to the first page, as for any unknown id.
        MainWindow plain;
        plain.applySessionState(saved);
        QCOMPARE(plain.currentPage(), pages::Accuracy);

        // Batch export: the registry's pages write their figures, the probe's among them.
        const QString out = dir.filePath(QStringLiteral("figs"));
        const GuiOptions options = parseGuiOptions(
            {QStringLiteral("kvlens"), QStringLiteral("--export-figures"), run,
             QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("csv")});
        const BatchExportReport report = exportRunFigures(options, withProbe());
        QVERIFY2(report.written.contains(QDir(out).filePath(QStringLiteral("probe.csv"))),
                 qPrintable(report.written.join(QLatin1Char('\n'))));
        QCOMPARE(contents(QDir(out).filePath(QStringLiteral("probe.csv"))).isEmpty(), false);
        // ... and a registry without it does not.
        const BatchExportReport standard = exportRunFigures(options);
        QCOMPARE(standard.written.size(), report.written.size() - 1);
    }

  private:
    static QByteArray contents(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

QTEST_MAIN(TstPageRegistry)
#include "tst_pageregistry.moc"
