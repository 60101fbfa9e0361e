// Every figure `kvlens --export-figures` writes, laid out at both paper sizes (single
// column 3.5 in with 7 pt text, double 7 in with 8 pt) with its provenance footer, has
// no text cut by the canvas or its plot area and no two texts on top of each other
// (views/figurelayoutcheck.h measures them from QCustomPlot's layout). Two runs: the
// demo sweep on the bundled model (three suites, three presses at three ratios, real
// attention and masks over hundreds of tokens; made by kvlens-cli, skipped where it is
// not built), the hand-made run of guirunfixture.h (four samples, sparse cells) and, where
// ../shared holds it, the KVDiagnosis release imported (eight presses, four suites).
#include "batchfigures.h"
#include "guirunfixture.h"
#include "offscreentestmain.h"
#include "pages/pageregistry.h"
#include "paperfont.h"
#include "storerunloader.h"
#include "views/figureexporter.h"
#include "views/plotview.h"

#include "runimport/runimportformats.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

using namespace kvl;

class TstFigureLayout : public QObject
{
    Q_OBJECT
  private:
    QTemporaryDir m_dir;

    // The problems of each figure of `run` at `widthInches`, by the figure's file name.
    QMap<QString, QStringList> problemsOf(const QString& run, double widthInches)
    {
        const PaperFont font(PaperFont::pointSizeFor(widthInches));
        const RunViewData data = loadRunViewData(RunRequest{run, {}, -1.0, {}});
        Provenance base;
        base.run = QFileInfo(run).fileName();
        base.model = data.provenanceModel();
        base.runHash = QStringLiteral("0123456789abcdef0123456789abcdef");
        BatchFigures figures(data, base);
        const PageRegistry registry = PageRegistry::standard();
        for (const PageEntry& page : registry.entries())
            if (page.exportFigures)
                page.exportFigures(figures);
        QMap<QString, QStringList> problems;
        for (const BatchFigures::Figure& f : figures.figures()) {
            FigureExporter::PrintSize size;
            size.widthInches = widthInches;
            size.heightInches = f.heightAt(widthInches);
            problems[f.name] = FigureExporter::printLayoutProblems(f.view->plot(), size,
                                                                   f.view->provenance().toText());
        }
        return problems;
    }

    // Every figure is clean but the known ones, whose problems are printed marked
    // "(known)" (whether one shows depends on the run: nine bars or fewer).
    void checkFigures(const QString& run, double widthInches,
                      const QSet<QString>& knownInSingleColumn = {})
    {
        const QMap<QString, QStringList> problems = problemsOf(run, widthInches);
        QVERIFY(!problems.isEmpty());
        QStringList unexpected;
        for (auto it = problems.begin(); it != problems.end(); ++it) {
            const bool known = widthInches < 5.0 && knownInSingleColumn.contains(it.key());
            for (const QString& p : it.value()) // every one, where a failure message is cut
                qInfo("%s at %g in: %s%s", qPrintable(it.key()), widthInches, qPrintable(p),
                      known ? " (known)" : "");
            if (!known)
                for (const QString& p : it.value())
                    unexpected << QStringLiteral("%1: %2").arg(it.key(), p);
        }
        QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(QLatin1Char('\n'))));
    }

  private slots:
    void handMadeRun_data()
    {
        QTest::addColumn<double>("width");
        QTest::newRow("single column") << 3.5;
        QTest::newRow("double column") << 7.0;
    }
    void handMadeRun()
    {
        QFETCH(double, width);
        const QString run = m_dir.filePath(QStringLiteral("hand.kvl"));
        if (!QFileInfo::exists(run))
            test::writeRunOf(run, test::runInfo(), {0, 1, 2, 3}, guitest::sample,
                             QStringLiteral("finished"));
        checkFigures(run, width);
    }

    void demoRun_data() { handMadeRun_data(); }
    void demoRun()
    {
        QFETCH(double, width);
        const QString cli = QStringLiteral(KVLENS_BUILD_DIR "/app/cli/kvlens-cli");
        if (!QFileInfo(cli).isExecutable())
            QSKIP("kvlens-cli is not built here (a sanitizer build leaves the engine out)");
        const QString run = m_dir.filePath(QStringLiteral("demo.kvl"));
        if (!QFileInfo::exists(run)) {
            QProcess demo;
            demo.start(cli, {QStringLiteral("demo"), QStringLiteral("--n"), QStringLiteral("2"),
                             QStringLiteral("--out"), run, QStringLiteral("--format"),
                             QStringLiteral("json")});
            QVERIFY(demo.waitForFinished(300000));
            QVERIFY2(demo.exitCode() == 0, demo.readAllStandardError().constData());
        }
        // The signature bars' legend moves under them at 3.5 in (kPrintLegendBelow);
        // beside them it left the bars a third of the width and their labels collided.
        checkFigures(run, width);
    }

    // Eight presses at three ratios over four suites: the shared copy of the KVDiagnosis
    // release, imported (62,400 rows; skipped where ../shared does not hold it). The
    // figures many presses make: 24 signature bars, 8 x 8 overlaps, 83-column UpSets,
    // nine accuracy curves.
    void kvdiagnosisRelease_data() { handMadeRun_data(); }
    void kvdiagnosisRelease()
    {
        QFETCH(double, width);
        const QString root = QDir::cleanPath(
            QStringLiteral(KVLENS_SOURCE_DIR "/../shared/data/kvdiagnosis-release"));
        if (!QFileInfo(root).isDir())
            QSKIP(qPrintable(QStringLiteral("no shared copy of the release at %1").arg(root)));
        const QString run = m_dir.filePath(QStringLiteral("release.kvl"));
        if (!QFileInfo::exists(run))
            writeImportedRun(importKvDiagnosisRelease({root}), run, QStringLiteral("test"));
        checkFigures(run, width);
    }

    // Any run file named by KVLENS_LAYOUT_RUN (a long-context or imported run one looks
    // at by hand): the same check. Skipped when unset.
    void namedRun_data() { handMadeRun_data(); }
    void namedRun()
    {
        QFETCH(double, width);
        const QString run = qEnvironmentVariable("KVLENS_LAYOUT_RUN");
        if (run.isEmpty())
            QSKIP("KVLENS_LAYOUT_RUN names no run file");
        checkFigures(run, width);
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstFigureLayout)
#include "tst_figurelayout.moc"
