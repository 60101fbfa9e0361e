// OutcomeGridView: two annotated heatmap panels over the same rows and ratios. It draws
// hand-made panels (values in the cells, missing ones as "n/a"), exports CSV equal to a
// hand-written expectation and valid PNG/PDF/SVG, hovers with the counts behind a value,
// and draws the outcome grids of the hand-made run of outcomerunfixture.h end to end.
// Development aid: KVLENS_SCREENSHOT_DIR=/some/dir keeps 7-inch PNGs and the CSV of both
// grids (of the run at KVLENS_OUTCOME_RUN when set, e.g. an imported KVDiagnosis release).
#include "common/error.h"
#include "offscreentestmain.h"
#include "outcomegrids.h"
#include "outcomerunfixture.h"
#include "views/figureexporter.h"
#include "views/outcomegridview.h"

#include <QImage>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <cmath>

using namespace kvl;

namespace {

const double nan = std::nan("");

// Rows A, B; ratios 0.5, 0.75. Left: a score with its rows; right: a rate with two counts
// and constant columns. B at 0.75 is missing on both sides.
GridPanels handPanels()
{
    GridPanels p;
    p.title = QStringLiteral("Hand grid");
    p.rowLabel = QStringLiteral("Compressor");
    p.rowColumn = QStringLiteral("compressor");
    p.rows = {QStringLiteral("A"), QStringLiteral("B, Inc")};
    p.ratios = {0.5, 0.75};
    p.left.title = QStringLiteral("Mean task score ↑");
    p.left.valueLabel = QStringLiteral("Mean task score");
    p.left.valueColumn = QStringLiteral("score");
    p.left.countColumns = {QStringLiteral("rows_scored")};
    p.left.countLabels = {QStringLiteral("rows scored")};
    p.left.cells = {{90.25, {40}, {}},
                    {12.5, {40}, {}},
                    {55.0, {8}, {}},
                    {nan, {0}, QStringLiteral("unsupported: no such ratio")}};
    p.right.title = QStringLiteral("C→W rate (%) ↓");
    p.right.valueLabel = QStringLiteral("C→W rate");
    p.right.valueColumn = QStringLiteral("rate");
    p.right.unit = QStringLiteral("%");
    p.right.ramp = GridRamp::YellowOrangeRed;
    p.right.constants = {{QStringLiteral("a"), QStringLiteral("snapkv")}};
    p.right.countColumns = {QStringLiteral("c_to_w_rows"), QStringLiteral("pairs")};
    p.right.countLabels = {QStringLiteral("C→W rows"), QStringLiteral("FullCache-correct pairs")};
    p.right.cells = {{5.0, {2, 40}, {}},
                     {75.0, {30, 40}, {}},
                     {0.0, {0, 8}, {}},
                     {nan, {0, 0}, QStringLiteral("unsupported: no such ratio")}};
    return p;
}

int textItems(const QCustomPlot* plot, const QString& text)
{
    int n = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->text() == text)
            ++n;
    return n;
}

void savePrint(OutcomeGridView& view, const QString& name)
{
    if (!qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR"))
        return;
    FigureExporter::PrintSize size;
    size.heightInches = view.printHeightInches();
    for (const char* format : {"png", "pdf"})
        FigureExporter::savePrintFigure(view.plot(),
                                        qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") +
                                            QLatin1Char('/') + name + QLatin1Char('.') +
                                            QLatin1String(format),
                                        size, view.title(), {}, view.provenance().toText());
    view.exportCsv(qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") + QLatin1Char('/') + name +
                   QStringLiteral(".csv"));
    // As on screen, in the dark palette.
    view.setTheme(Theme::Dark);
    view.exportFigure(qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") + QLatin1Char('/') + name +
                          QStringLiteral("-dark.png"),
                      QSize(900, 440));
    view.setTheme(Theme::Light);
}

} // namespace

class TstOutcomeGridView : public QObject
{
    Q_OBJECT
  private slots:
    void drawsValuesAndMissingCells()
    {
        OutcomeGridView view;
        view.setData(handPanels());
        QVERIFY(view.hasData());
        QCOMPARE(view.title(), QStringLiteral("Hand grid"));
        view.plot()->replot();
        // One decimal as given; the missing cell of each panel reads n/a.
        QCOMPARE(textItems(view.plot(), QStringLiteral("90.3")), 1);
        QCOMPARE(textItems(view.plot(), QStringLiteral("75.0")), 1);
        QCOMPARE(textItems(view.plot(), QStringLiteral("0.0")), 1);
        QCOMPARE(textItems(view.plot(), QStringLiteral("n/a")), 2);
        QCOMPARE(textItems(view.plot(), QStringLiteral("Mean task score ↑")), 1);
        QCOMPARE(textItems(view.plot(), QStringLiteral("C→W rate (%) ↓")), 1);
    }

    void csv()
    {
        OutcomeGridView view;
        view.setData(handPanels());
        // Missing values are empty fields with their reason; a name with a comma is quoted.
        QCOMPARE(view.csv(),
                 QStringLiteral("compressor,ratio,score,rows_scored,score_missing,rate,a,"
                                "c_to_w_rows,pairs,rate_missing\n"
                                "A,0.5,90.25,40,,5,snapkv,2,40,\n"
                                "A,0.75,12.5,40,,75,snapkv,30,40,\n"
                                "\"B, Inc\",0.5,55,8,,0,snapkv,0,8,\n"
                                "\"B, Inc\",0.75,,0,unsupported: no such ratio,,snapkv,0,0,"
                                "unsupported: no such ratio\n"));
    }

    void hoverNamesTheCounts()
    {
        OutcomeGridView view;
        view.resize(900, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(handPanels());
        view.plot()->replot();
        for (int panel = 0; panel < 2; ++panel)
            for (int row = 0; row < 2; ++row)
                for (int column = 0; column < 2; ++column) {
                    const OutcomeGridView::Hit hit =
                        view.cellAt(view.cellCenter(panel, row, column));
                    QCOMPARE(hit.panel, panel);
                    QCOMPARE(hit.row, row);
                    QCOMPARE(hit.column, column);
                }
        // Between the panels and outside: no cell.
        const QPoint gap = (view.cellCenter(0, 0, 1) + view.cellCenter(1, 0, 0)) / 2;
        QCOMPARE(view.cellAt(gap).panel, -1);
        QCOMPARE(view.cellAt(QPoint(2, 2)).panel, -1);
        QCOMPARE(view.describe(1, 0, 1),
                 QStringLiteral("A at ratio 0.75\nC→W rate: 75.00%\nC→W rows: 30 · "
                                "FullCache-correct pairs: 40"));
        QCOMPARE(view.describe(0, 1, 1),
                 QStringLiteral("B, Inc at ratio 0.75\nMean task score: n/a (unsupported: no "
                                "such ratio)"));
    }

    void exports_data()
    {
        QTest::addColumn<QString>("format");
        for (const char* format : {"png", "pdf", "svg"})
            QTest::newRow(format) << QString::fromLatin1(format);
    }
    void exports()
    {
        QFETCH(QString, format);
        OutcomeGridView view;
        view.setData(handPanels());
        Provenance p;
        p.run = QStringLiteral("tiny.kvl");
        p.model = QStringLiteral("tiny-model");
        view.setProvenance(p);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("grid.") + format);
        view.exportFigure(path, QSize(700, 320));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.size() > 500, qPrintable(QString::number(bytes.size())));
        if (format == QLatin1String("png")) {
            const QImage image(path);
            QCOMPARE(image.size(), QSize(1400, 640));
            QCOMPARE(image.text(QStringLiteral("Description")), p.toText());
        } else if (format == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF-"));
        } else {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(QString::fromUtf8(bytes).contains(p.toText()));
        }
        // A print figure at 7 inches: the batch export's path.
        FigureExporter::PrintSize size;
        size.heightInches = view.printHeightInches();
        const QString print = dir.filePath(QStringLiteral("print.") + format);
        FigureExporter::savePrintFigure(view.plot(), print, size, view.title(), {}, p.toText());
        QVERIFY(QFileInfo(print).size() > 500);
    }

    void themesRender()
    {
        OutcomeGridView view;
        view.setData(handPanels());
        view.setTheme(Theme::Dark);
        const QImage dark = view.plot()->toPixmap(600, 300).toImage();
        view.setTheme(Theme::Light);
        const QImage light = view.plot()->toPixmap(600, 300).toImage();
        QCOMPARE(dark.pixelColor(1, 1), ViewPalette::dark().background);
        QCOMPARE(light.pixelColor(1, 1), ViewPalette::light().background);
    }

    void emptyAndInvalidDataDrawNothing()
    {
        OutcomeGridView view(GridFigure::SuiteFailures);
        QVERIFY(!view.hasData());
        QVERIFY(!view.emptyHint().isEmpty());
        const QString baseTitle = view.title();
        GridPanels bad = handPanels();
        bad.right.cells.removeLast(); // not rows × ratios
        view.setData(bad);
        QVERIFY(!view.hasData());
        view.setData(handPanels());
        QVERIFY(view.hasData());
        view.clear();
        QVERIFY(!view.hasData());
        QCOMPARE(view.title(), baseTitle);
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(Error, view.exportFigure(dir.filePath(QStringLiteral("x.png"))));
        QVERIFY_THROWS_EXCEPTION(Error, view.exportCsv(dir.filePath(QStringLiteral("x.csv"))));
        view.setData(GridPanels{});
        QVERIFY(!view.hasData());
    }

    // The grids of a run, from the store to the view.
    void runGridsEndToEnd()
    {
        QTemporaryDir dir;
        QString run = qEnvironmentVariable("KVLENS_OUTCOME_RUN");
        if (run.isEmpty()) {
            run = dir.filePath(QStringLiteral("outcomes.kvl"));
            outcometest::writeOutcomeRun(run);
        }
        const RunOutcomes outcomes = loadRunOutcomes(run);
        Provenance p;
        p.run = QFileInfo(run).fileName();
        OutcomeGridView grid;
        grid.setProvenance(p);
        grid.setData(outcomePanels(outcomeGrid(outcomes)));
        QVERIFY(grid.hasData());
        OutcomeGridView suites(GridFigure::SuiteFailures);
        suites.setProvenance(p);
        suites.setData(suiteFailurePanels(suiteFailureGrid(outcomes)));
        QVERIFY(suites.hasData());
        savePrint(grid, QStringLiteral("outcome-grid"));
        savePrint(suites, QStringLiteral("suite-failure-grid"));
        if (!qEnvironmentVariableIsEmpty("KVLENS_OUTCOME_RUN"))
            return;
        // ThinK@0.75 is unsupported: n/a on both sides, with the reason in the CSV.
        QCOMPARE(textItems(grid.plot(), QStringLiteral("n/a")), 2);
        QVERIFY2(grid.csv().contains(
                     QStringLiteral("ThinK,0.75,,0,unsupported: %1,,0,0,unsupported: %1\n")
                         .arg(outcometest::kThinkUnsupported)),
                 qPrintable(grid.csv()));
        QVERIFY2(grid.csv().startsWith(
                     QStringLiteral("compressor,ratio,mean_score_percent,rows_scored,"
                                    "mean_score_percent_missing,c_to_w_rate_percent,c_to_w_rows,"
                                    "fullcache_correct_pairs,c_to_w_rate_percent_missing\n"
                                    "SnapKV,0.5,53.57142857,7,,50,2,4,\n")),
                 qPrintable(grid.csv()));
        QVERIFY2(suites.csv().contains(QStringLiteral("qa,0.5,75,2,3,4,,0.5,SnapKV,TOVA,1,2,1,\n")),
                 qPrintable(suites.csv()));
        QCOMPARE(textItems(suites.plot(), QStringLiteral("0.50")), 1);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstOutcomeGridView)
#include "tst_outcomegridview.moc"
