// Every view: renders its data, exports CSV equal to a hand-written expectation,
// and PNG/PDF/SVG files that are valid and carry the provenance.
#include "common/error.h"
#include "offscreentestmain.h"
#include "sampleviews.h"
#include "views/figureexporter.h"

#include <QImage>
#include <QTemporaryDir>
#include <qcustomplot.h>

using namespace kvl;

class TstViewExport : public QObject
{
    Q_OBJECT
  private slots:
    void csv_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        // FullCache first (ratio 0), then each curve in input order. A's steepest drop,
        // 0.5 → 0.75 (slope -2.0), is no cliff: with n = 10 its intervals [0.4, 0.9] and
        // [0.05, 0.5] overlap; the second curve rises, so it has none. n and the interval
        // as given; unknown ones (the second curve) as empty fields.
        QTest::newRow("accuracy") << "accuracy"
                                  << "compressor,ratio,accuracy,n,ci95_low,ci95_high,cliff\n"
                                     "FullCache,0,0.9,10,0.6,0.98,0\n"
                                     "A,0.5,0.7,10,0.4,0.9,0\n"
                                     "A,0.25,0.8,10,0.5,0.95,0\n"
                                     "A,0.75,0.2,10,0.05,0.5,0\n"
                                     "\"AdaKV(SnapKV, 0.2)\",0.25,0.5,,,,0\n"
                                     "\"AdaKV(SnapKV, 0.2)\",0.5,0.6,,,,0\n";
        // Shares: 3/4, 1/4; an empty bar has no share (empty field, not 0).
        QTest::newRow("taxonomy") << "taxonomy"
                                  << "compressor,ratio,signature,count,share\n"
                                     "S,0.5,low_mapped_coverage,3,0.75\n"
                                     "S,0.5,ambiguous,1,0.25\n"
                                     "T,0.75,low_mapped_coverage,0,\n"
                                     "T,0.75,ambiguous,0,\n"
                                     "T,0.9,low_mapped_coverage,2,0.25\n"
                                     "T,0.9,ambiguous,6,0.75\n";
        QTest::newRow("overlap") << "overlap"
                                 << "ratio,a,b,jaccard,a_only,b_only,both\n"
                                    "0.5,A,A,1,0,0,3\n"
                                    "0.5,A,B,0.25,2,1,1\n"
                                    "0.5,B,A,0.25,1,2,1\n"
                                    "0.5,B,B,1,0,0,2\n";
        // Set sizes, then the intersections in the given (largest-first) order.
        QTest::newRow("failuresets") << "failuresets"
                                     << "ratio,kind,members,count\n"
                                        "0.75,set,A,3\n"
                                        "0.75,set,B,2\n"
                                        "0.75,set,C,3\n"
                                        "0.75,intersection,A,2\n"
                                        "0.75,intersection,C,1\n"
                                        "0.75,intersection,B & C,1\n"
                                        "0.75,intersection,A & B & C,1\n";
        QTest::newRow("heatmap") << "heatmap"
                                 << "head,position,value,evicted,evidence\n"
                                    "0,0,0.1,0,0\n"
                                    "0,1,0.2,1,1\n"
                                    "0,2,0.3,0,0\n"
                                    "1,0,0.4,0,0\n"
                                    "1,1,0.5,0,1\n"
                                    "1,2,0.6,1,0\n";
        QTest::newRow("eviction") << "eviction"
                                  << "layer,position,keep,span_role,span_label\n"
                                     "0,0,1,system,sys rule\n"
                                     "0,1,0.5,,\n"
                                     "0,2,0,request,\n"
                                     "1,0,0.25,system,sys rule\n"
                                     "1,1,1,,\n"
                                     "1,2,1,request,\n";
        QTest::newRow("ger") << "ger"
                             << "series,layer,ger,consensus\n"
                                "S @ 0.5,0,0.1,0.5\n"
                                "S @ 0.5,1,0.2,\n";
    }
    void csv()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        auto view = sample::makeView(kind);
        QVERIFY(view->hasData());
        QCOMPARE(view->csv(), expected);

        // The file: '#' lines (tool, time of export, provenance), then the same CSV.
        Provenance p;
        p.run = QStringLiteral("tiny.kvl");
        p.model = QStringLiteral("tiny-model");
        p.ratio = 0.5;
        view->setProvenance(p);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data.csv"));
        view->exportCsv(path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(file.readAll());
        QStringList comments;
        while (text.startsWith(QLatin1Char('#'))) {
            const qsizetype end = text.indexOf(QLatin1Char('\n'));
            QVERIFY(end > 0);
            comments << text.left(end);
            text = text.mid(end + 1);
        }
        QCOMPARE(text, expected);
        QCOMPARE(comments.size(), 2);
        QVERIFY2(comments[0].startsWith(QLatin1String("# KVLens")), qPrintable(comments[0]));
        QVERIFY2(comments[0].contains(
                     QStringLiteral("exported %1")
                         .arg(QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate))),
                 qPrintable(comments[0]));
        QCOMPARE(comments[1], QStringLiteral("# ") + p.toText());
        QVERIFY(comments[1].contains(QLatin1String("ratio: 0.5")));
    }

    void figure_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("format");
        for (const QString& kind : sample::kinds)
            for (const char* format : {"png", "pdf", "svg"})
                QTest::newRow(qPrintable(kind + QLatin1Char('.') + QLatin1String(format)))
                    << kind << QString::fromLatin1(format);
    }
    void figure()
    {
        QFETCH(QString, kind);
        QFETCH(QString, format);
        auto view = sample::makeView(kind);
        Provenance p;
        p.run = QStringLiteral("tiny.kvl");
        p.model = QStringLiteral("tiny-model");
        p.compressor = QStringLiteral("SnapKV");
        p.ratio = 0.75;
        p.layer = 2;
        view->setProvenance(p);
        view->resize(800, 500);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        view->plot()->replot();
        const int elementsBefore = view->plot()->plotLayout()->elementCount();

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("figure.") + format);
        view->exportFigure(path, QSize(640, 400));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.size() > 500, qPrintable(QString::number(bytes.size())));
        if (format == QLatin1String("png")) {
            QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
            const QImage image(path);
            QCOMPARE(image.size(), QSize(1280, 800)); // rendered at twice the pixel density
            QCOMPARE(image.text(QStringLiteral("Description")), p.toText());
        } else if (format == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF-"));
            QVERIFY(bytes.contains("%%EOF"));
        } else {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("</svg>"));
            QVERIFY(QString::fromUtf8(bytes).contains(p.toText()));
        }
        // Development aid: keep the files to look at (KVLENS_SCREENSHOT_DIR=/some/dir).
        if (qEnvironmentVariableIsSet("KVLENS_SCREENSHOT_DIR"))
            QFile::copy(path, qEnvironmentVariable("KVLENS_SCREENSHOT_DIR") + QLatin1Char('/') +
                                  kind + QLatin1Char('.') + format);
        // The provenance footer is removed again after the export.
        QCOMPARE(view->plot()->plotLayout()->elementCount(), elementsBefore);
    }

    void themesRender_data()
    {
        QTest::addColumn<QString>("kind");
        for (const QString& kind : sample::kinds)
            QTest::newRow(qPrintable(kind)) << kind;
    }
    void themesRender()
    {
        QFETCH(QString, kind);
        auto view = sample::makeView(kind);
        view->resize(600, 400);
        view->setTheme(Theme::Dark);
        const QImage dark = view->plot()->toPixmap(600, 400).toImage();
        view->setTheme(Theme::Light);
        const QImage light = view->plot()->toPixmap(600, 400).toImage();
        QVERIFY(!dark.isNull() && !light.isNull());
        // Corner pixel is the background of each palette.
        QCOMPARE(dark.pixelColor(1, 1), ViewPalette::dark().background);
        QCOMPARE(light.pixelColor(1, 1), ViewPalette::light().background);
    }

    void emptyStateExportsNothing_data() { themesRender_data(); }
    void emptyStateExportsNothing()
    {
        QFETCH(QString, kind);
        auto view = sample::makeView(kind);
        view->clear();
        QVERIFY(!view->hasData());
        QVERIFY(!view->emptyHint().isEmpty());
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(Error, view->exportFigure(dir.filePath(QStringLiteral("x.png"))));
        QVERIFY_THROWS_EXCEPTION(Error, view->exportCsv(dir.filePath(QStringLiteral("x.csv"))));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }

    void unknownFormatIsAnError()
    {
        auto view = sample::makeView(QStringLiteral("ger"));
        QTemporaryDir dir;
        try {
            view->exportFigure(dir.filePath(QStringLiteral("figure.bmp")));
            QFAIL("no error for .bmp");
        } catch (const Error& e) {
            QVERIFY(e.message().contains(QLatin1String("figure.bmp")));
        }
    }

    void malformedHeatmapIsNotDrawn()
    {
        Heatmap h = sample::heatmap();
        h.values.removeLast(); // rows × cols no longer matches
        HeatmapView view;
        view.setData(h);
        QVERIFY(!view.hasData());
    }
};

KVL_OFFSCREEN_TEST_MAIN(TstViewExport)
#include "tst_viewexport.moc"
