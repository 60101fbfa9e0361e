// kvlens --export-figures on the hand-made run (guirunfixture.h), with its samples s2
// and s3 moved to a second suite "qa" so that the per-suite accuracy figures exist.
// What the run holds, worked out there: overlap only at 0.5 (at 0.75 SnapKV is alone);
// the focus configuration is the first with the most C→W rows (SnapKV@0.5, two rows,
// tied with the others, which come later); SnapKV@0.5 stores attention (s1), masks
// and layer stats; span keep, leakage and interventions are measured; no multihop
// sample, so no chain breaks.
#include "attentionpage.h"
#include "batchexport.h"
#include "batchfigures.h"
#include "guioptions.h"
#include "guirunfixture.h"
#include "pageexport.h"
#include "storerunloader.h"
#include "views/heatmapview.h"

#include <QCryptographicHash>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kvl;

namespace {

const QString kModelHash = QStringLiteral("modelhash-0123456789abcdef");

void writeTwoSuiteRun(const QString& path)
{
    RunInfo info;
    info.modelName = QStringLiteral("tiny");
    info.modelHash = kModelHash;
    info.toolVersion = QStringLiteral("0.0.test");
    test::writeRunOf(
        path, info, {0, 1, 2, 3},
        [](int s) {
            SampleRecord rec = guitest::sample(s);
            if (s >= 2)
                rec.sample.suite = QStringLiteral("qa");
            return rec;
        },
        QStringLiteral("finished"));
}

QString sha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(
        QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

GuiOptions exportOptions(const QString& run, const QString& out, const QString& extra = {})
{
    QStringList args{QStringLiteral("kvlens"), QStringLiteral("--export-figures"), run,
                     QStringLiteral("--out"), out};
    if (!extra.isEmpty())
        args << extra.split(QLatin1Char(' '));
    return parseGuiOptions(args);
}

const QStringList kViews{QStringLiteral("accuracy"),
                         QStringLiteral("accuracy-niah"),
                         QStringLiteral("accuracy-qa"),
                         QStringLiteral("taxonomy"),
                         QStringLiteral("overlap-r0.5"),
                         QStringLiteral("failure-sets-r0.5"),
                         QStringLiteral("heatmap-fullcache"),
                         QStringLiteral("heatmap-snapkv-r0.5"),
                         QStringLiteral("eviction-snapkv-r0.5"),
                         QStringLiteral("ger-consensus-snapkv"),
                         QStringLiteral("span-keep"),
                         QStringLiteral("leakage"),
                         QStringLiteral("interventions"),
                         QStringLiteral("outcome-grid"),
                         QStringLiteral("suite-failure-grid")};

} // namespace

class TstBatchExport : public QObject
{
    Q_OBJECT
  private slots:
    void windowExportOffersThePaperSizes()
    {
        // File › Export figure offers the batch export's widths and names the file after
        // the view and what it shows, without spaces or "·".
        HeatmapView view;
        view.setTitle(QStringLiteral("Question attention — SnapKV @ 0.5 · sample s1"));
        QCOMPARE(defaultFigureName(&view),
                 QStringLiteral("question-attention-snapkv-0.5-sample-s1"));
        const FigureExporter::PrintSize single = presetSize(FigurePreset::SingleColumn, 0.5);
        QCOMPARE(single.widthInches, 3.5);
        QCOMPARE(single.heightInches, 1.75);
        QCOMPARE(presetSize(FigurePreset::DoubleColumn, 0.5).widthInches, 7.0);
        // A window-shaped view (15 x 7 in on screen) is not exported as a strip.
        QCOMPARE(presetSize(FigurePreset::DoubleColumn, 0.1).heightInches, 7.0 * 0.4);
        QCOMPARE(presetSize(FigurePreset::AsOnScreen, 0.5).widthInches, 0.0);
    }

    void heatmapPairSharesOneScale()
    {
        // The two attention files of a batch export are drawn on one colour range, as the
        // window's pair: equal colours mean equal attention across the two figures.
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const RunViewData data = loadRunViewData(RunRequest{run, {}, -1.0, {}});
        BatchFigures figures(data, Provenance{});
        AttentionPage::exportFigures(figures);
        QCOMPARE(figures.figures().size(), std::size_t(2));
        auto* reference = qobject_cast<HeatmapView*>(figures.figures()[0].view);
        auto* compressed = qobject_cast<HeatmapView*>(figures.figures()[1].view);
        QVERIFY(reference && compressed);
        QVERIFY(reference->colorRange().second > 0);
        QCOMPARE(reference->colorRange(), compressed->colorRange());
    }

    void writesEveryViewInEveryFormat()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const QString hash = sha256(run);
        QVERIFY(!hash.isEmpty());
        const QString out = dir.filePath(QStringLiteral("figures/new")); // created
        const BatchExportReport report =
            exportRunFigures(exportOptions(run, out, QStringLiteral("--size single --dpi 150")));
        QCOMPARE(report.runHash, hash);

        QStringList expected;
        for (const QString& view : kViews)
            for (const char* format : {"png", "pdf", "svg", "csv"})
                expected << QDir(out).filePath(view + QLatin1Char('.') + QLatin1String(format));
        // Only as CSV: every suite's accuracy with the suite as a column.
        expected << QDir(out).filePath(QStringLiteral("accuracy-by-suite.csv"));
        QStringList written = report.written;
        written.sort();
        expected.sort();
        QCOMPARE(written, expected);
        QStringList onDisk = QDir(out).entryList(QDir::Files);
        QCOMPARE(onDisk.size(), expected.size()); // no probe file left behind
        // No multihop, no offloading (tst_offloadviews exports an offloading run), no
        // compression during decoding.
        QCOMPARE(report.skipped.size(), 4);
        QVERIFY2(report.skipped.constFirst().startsWith(QStringLiteral("chain-breaks: ")),
                 qPrintable(report.skipped.join(QLatin1Char('\n'))));
        QCOMPARE(report.skipped.filter(QStringLiteral(": no offloading in the run")).size(), 2);
        QCOMPARE(report.skipped.filter(QStringLiteral("decoding-evidence: ")).size(), 1);

        for (const QString& view : kViews) {
            const QString base = QDir(out).filePath(view);
            // PNG: 3.5 in at 150 dpi = 525 pixels across, the DPI recorded, the
            // provenance in the text keys.
            const QImage png(base + QStringLiteral(".png"));
            QVERIFY2(!png.isNull(), qPrintable(base));
            QCOMPARE(png.width(), 525);
            // At most 3.6 in tall (540 px, one more from rounding): the signature bars,
            // whose legend goes under them in a single column.
            QVERIFY2(png.height() > 100 && png.height() <= 541, qPrintable(view));
            QCOMPARE(png.dotsPerMeterX(), qRound(150 / 0.0254));
            QVERIFY2(png.text(QStringLiteral("Description")).contains(hash), qPrintable(view));
            QVERIFY(png.text(QStringLiteral("Description")).contains(kModelHash));
            QVERIFY(png.text(QStringLiteral("Description")).contains(QStringLiteral("0.0.test")));
            QVERIFY(png.text(QStringLiteral("Software")).startsWith(QStringLiteral("KVLens")));
            QVERIFY(!png.text(QStringLiteral("Creation Time")).isEmpty());
            QVERIFY(!png.text(QStringLiteral("Title")).isEmpty());
            // PDF: a 252 pt (3.5 in) wide page, the hash in its XMP metadata.
            const QByteArray pdf = contents(base + QStringLiteral(".pdf"));
            QVERIFY(pdf.startsWith("%PDF"));
            QVERIFY2(pdf.contains(hash.toLatin1()), qPrintable(view));
            QVERIFY2(pdf.contains("/MediaBox [0 0 252"), qPrintable(view));
            // SVG: 88.9 mm (3.5 in) wide, the hash in its description.
            const QByteArray svg = contents(base + QStringLiteral(".svg"));
            QVERIFY2(svg.contains("width=\"88.9mm\""), svg.left(400).constData());
            QVERIFY(svg.contains(hash.toLatin1()));
            QVERIFY(svg.contains(kModelHash.toLatin1()));
            // CSV: '#' lines with the identity, then the data's header line.
            const QStringList lines = QString::fromUtf8(contents(base + QStringLiteral(".csv")))
                                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY(lines.size() > 6);
            QVERIFY(lines[0].startsWith(QStringLiteral("# KVLens")));
            QVERIFY(lines.contains(QStringLiteral("# run sha256: ") + hash));
            QVERIFY(lines.contains(QStringLiteral("# model hash: ") + kModelHash));
            QVERIFY(lines.contains(QStringLiteral("# run written by: KVLens 0.0.test")));
            int comments = 0;
            while (lines[comments].startsWith(QLatin1Char('#')))
                ++comments;
            QVERIFY(lines.value(comments).contains(QLatin1Char(',')));
        }
        // The accuracy CSV carries every key column.
        const QString accuracyHeader =
            QString::fromUtf8(contents(QDir(out).filePath(QStringLiteral("accuracy.csv"))))
                .split(QLatin1Char('\n'))
                .filter(QRegularExpression(QStringLiteral("^[^#]")))
                .value(0);
        for (const char* column : {"compressor", "ratio", "n"})
            QVERIFY2(accuracyHeader.split(QLatin1Char(',')).contains(QLatin1String(column)),
                     qPrintable(accuracyHeader));
        // By suite: niah (s0, s1) and qa (s2, s3); FullCache is right on s0, s1, s3, so
        // 2/2 on niah and 1/2 on qa (guirunfixture.h).
        const QStringList bySuite =
            QString::fromUtf8(contents(QDir(out).filePath(QStringLiteral("accuracy-by-suite.csv"))))
                .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                .filter(QRegularExpression(QStringLiteral("^[^#]")));
        QVERIFY(bySuite.value(0).startsWith(QStringLiteral("suite,compressor,ratio,accuracy,n")));
        QVERIFY2(
            bySuite.filter(QRegularExpression(QStringLiteral("^niah,FullCache,0,1,2,"))).size() ==
                1,
            qPrintable(bySuite.join(QLatin1Char('\n'))));
        QCOMPARE(
            bySuite.filter(QRegularExpression(QStringLiteral("^qa,FullCache,0,0.5,2,"))).size(), 1);
    }

    void doubleColumnPngOnly()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const QString out = dir.filePath(QStringLiteral("out"));
        const BatchExportReport report =
            exportRunFigures(exportOptions(run, out, QStringLiteral("--format png")));
        QCOMPARE(report.written.size(), kViews.size());
        QCOMPARE(QDir(out).entryList({QStringLiteral("*.png")}, QDir::Files).size(), kViews.size());
        QVERIFY(QDir(out).entryList({QStringLiteral("*.csv"), QStringLiteral("*.pdf")}).isEmpty());
        // Default: double column (7 in) at 300 dpi.
        const QImage png(QDir(out).filePath(QStringLiteral("accuracy.png")));
        QCOMPARE(png.width(), 2100);
        QCOMPARE(png.dotsPerMeterX(), qRound(300 / 0.0254));
    }

    // The footer is drawn text in the SVG besides the description; --no-footer drops
    // the drawing only.
    void noFooterKeepsTheMetadata()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const QString with = dir.filePath(QStringLiteral("with"));
        const QString without = dir.filePath(QStringLiteral("without"));
        exportRunFigures(exportOptions(run, with, QStringLiteral("--format svg")));
        exportRunFigures(exportOptions(run, without, QStringLiteral("--format svg --no-footer")));
        const QByteArray a = contents(QDir(with).filePath(QStringLiteral("accuracy.svg")));
        const QByteArray b = contents(QDir(without).filePath(QStringLiteral("accuracy.svg")));
        QCOMPARE(a.count("model: tiny"), 2); // <desc> and the footer
        QCOMPARE(b.count("model: tiny"), 1); // <desc> only
        QCOMPARE(b.count(sha256(run).toLatin1()), 1);
    }

    void badRunFileNamesIt_data()
    {
        QTest::addColumn<QByteArray>("content"); // empty: no file at all
        QTest::newRow("missing") << QByteArray();
        QTest::newRow("text") << QByteArray("not a run file\n");
        QTest::newRow("empty sqlite header") << QByteArray("SQLite format 3\0", 16);
    }
    void badRunFileNamesIt()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("broken.kvl"));
        if (!content.isEmpty()) {
            QFile f(run);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        QString outText, errText;
        QTextStream out(&outText), err(&errText);
        const int code =
            runBatchExport(exportOptions(run, dir.filePath(QStringLiteral("out"))), out, err);
        QCOMPARE(code, 1);
        QVERIFY2(errText.contains(run), qPrintable(errText));
        QVERIFY(outText.isEmpty());
    }

    void unwritableOutputFolderNamesIt_data()
    {
        QTest::addColumn<QString>("sub"); // relative to a regular file
        QTest::newRow("a file") << QString();
        QTest::newRow("under a file") << QStringLiteral("/figures");
    }
    void unwritableOutputFolderNamesIt()
    {
        QFETCH(QString, sub);
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const QString file = dir.filePath(QStringLiteral("occupied"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const QString outDir = file + sub;
        QString outText, errText;
        QTextStream out(&outText), err(&errText);
        QCOMPARE(runBatchExport(exportOptions(run, outDir), out, err), 1);
        QVERIFY2(errText.contains(outDir), qPrintable(errText));
    }

    // The installed binary: no display, no QT_QPA_PLATFORM; --export-figures must
    // choose the offscreen platform itself and print one line per file.
    void binaryRunsWithoutADisplay()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run.kvl"));
        writeTwoSuiteRun(run);
        const QString out = dir.filePath(QStringLiteral("out"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(KVLENS_BINARY),
                      {QStringLiteral("--export-figures"), run, QStringLiteral("--out"), out,
                       QStringLiteral("--format"), QStringLiteral("csv,svg")});
        QVERIFY(process.waitForFinished(120000));
        const QString stdoutText = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(process.readAllStandardError()));
        // Two formats of each view, and accuracy-by-suite.csv.
        QCOMPARE(stdoutText.count(QStringLiteral("wrote ")), 2 * kViews.size() + 1);
        QVERIFY(stdoutText.contains(QStringLiteral("skipped chain-breaks: ")));
        QVERIFY(QFileInfo(QDir(out).filePath(QStringLiteral("overlap-r0.5.svg"))).size() > 0);

        // A bad option value: exit 1 and say which.
        process.start(QStringLiteral(KVLENS_BINARY),
                      {QStringLiteral("--export-figures"), run, QStringLiteral("--out"), out,
                       QStringLiteral("--format"), QStringLiteral("tiff")});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY(process.readAllStandardError().contains("tiff"));
    }
};

QTEST_MAIN(TstBatchExport)
#include "tst_batchexport.moc"
