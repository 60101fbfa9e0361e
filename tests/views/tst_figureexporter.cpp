// FigureExporter's three entry points (one plot, stacked panels, a print figure) in each
// format: the file's size (PNG pixels and DPI, PDF page, SVG size and view box) and the
// metadata every file carries (title, provenance, tool, date).
#include "common/error.h"
#include "offscreentestmain.h"
#include "views/figureexporter.h"

#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <memory>

using namespace kvl;

namespace {

std::unique_ptr<QCustomPlot> makePlot(const QString& title)
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot.get(), title));
    QCPGraph* g = plot->addGraph();
    g->setData({0, 1, 2, 3}, {0.1, 0.4, 0.2, 0.8});
    plot->rescaleAxes();
    plot->resize(500, 300);
    return plot;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The page of a one-page PDF in points.
QSizeF pdfPage(const QByteArray& pdf)
{
    static const QRegularExpression box(
        QStringLiteral("/MediaBox \\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const QRegularExpressionMatch m = box.match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

QString svgAttribute(const QString& svg, const char* name)
{
    const QRegularExpression re(
        QStringLiteral("<svg[^>]*\\s%1=\"([^\"]*)\"").arg(QLatin1String(name)));
    return re.match(svg).captured(1);
}

} // namespace

class TestFigureExporter : public QObject
{
    Q_OBJECT
  private slots:
    void initTestCase() { QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7")); }

    void files_data()
    {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<QString>("format");
        // PNG pixels, its DPI (0: none recorded), PDF page in points, SVG width/height.
        QTest::addColumn<QSize>("pixels");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<QSizeF>("page");
        QTest::addColumn<QString>("svgWidth");
        QTest::addColumn<QString>("svgViewBox");
        for (const char* format : {"png", "pdf", "svg"}) {
            // One plot at 640 x 400 layout units: PNG at twice the density, PDF one
            // point per unit, SVG at 72 units per inch (the size in mm, the box in units).
            QTest::addRow("single.%s", format)
                << QStringLiteral("single") << QString::fromLatin1(format) << QSize(1280, 800) << 0
                << QSizeF(640, 400) << QStringLiteral("225.778mm") << QStringLiteral("0 0 640 400");
            // Two panels of 640 x 300 stacked.
            QTest::addRow("stacked.%s", format)
                << QStringLiteral("stacked") << QString::fromLatin1(format) << QSize(1280, 1200)
                << 0 << QSizeF(640, 600) << QStringLiteral("225.778mm")
                << QStringLiteral("0 0 640 600");
            // 3.5 x 2.5 in at 300 DPI: 336 x 240 layout units (96 per inch).
            QTest::addRow("print.%s", format)
                << QStringLiteral("print") << QString::fromLatin1(format) << QSize(1050, 750) << 300
                << QSizeF(252, 180) << QStringLiteral("88.9mm") << QStringLiteral("0 0 336 240");
        }
    }
    void files()
    {
        QFETCH(QString, writer);
        QFETCH(QString, format);
        QFETCH(QSize, pixels);
        QFETCH(int, dpi);
        QFETCH(QSizeF, page);
        QFETCH(QString, svgWidth);
        QFETCH(QString, svgViewBox);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fig.") + format);
        auto a = makePlot(QStringLiteral("FullCache"));
        auto b = makePlot(QStringLiteral("SnapKV"));
        const QString provA = QStringLiteral("run r.kvl · model m · FullCache");
        const QString provB = QStringLiteral("run r.kvl · model m · SnapKV @ 0.5");
        QString title = QStringLiteral("fig");
        QStringList description{provA};
        const int elementsBefore = a->plotLayout()->elementCount();
        if (writer == QLatin1String("single")) {
            FigureExporter::saveFigure(a.get(), path, provA, QSize(640, 400));
        } else if (writer == QLatin1String("stacked")) {
            FigureExporter::saveFigures({a.get(), b.get()}, {provA, provB}, path, Qt::Vertical,
                                        QSize(640, 300));
            description << provB;
        } else {
            FigureExporter::PrintSize size;
            size.widthInches = 3.5;
            size.heightInches = 2.5;
            size.dpi = 300;
            title = QStringLiteral("Accuracy vs ratio");
            description = QStringList{provA, QStringLiteral("run file hash abc123")};
            FigureExporter::savePrintFigure(a.get(), path, size, title, description, provA);
        }
        // The footer added for the export is gone again.
        QCOMPARE(a->plotLayout()->elementCount(), elementsBefore);
        const QByteArray bytes = readAll(path);
        const QString joined = description.join(QLatin1Char('\n'));
        if (format == QLatin1String("png")) {
            const QImage image(path);
            QCOMPARE(image.size(), pixels);
            if (dpi > 0)
                QCOMPARE(image.dotsPerMeterX(), qRound(dpi / 0.0254));
            QCOMPARE(image.text(QStringLiteral("Title")), title);
            QCOMPARE(image.text(QStringLiteral("Description")), joined);
            QCOMPARE(image.text(QStringLiteral("Software")), QStringLiteral("KVLens 9.8.7"));
            QVERIFY(QDateTime::fromString(image.text(QStringLiteral("Creation Time")), Qt::ISODate)
                        .isValid());
        } else if (format == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF-"));
            const QSizeF got = pdfPage(bytes);
            QVERIFY2(qAbs(got.width() - page.width()) < 0.5 &&
                         qAbs(got.height() - page.height()) < 0.5,
                     qPrintable(QStringLiteral("%1 x %2").arg(got.width()).arg(got.height())));
            // XMP: title, every provenance line, the tool and the date.
            const QString text = QString::fromUtf8(bytes);
            QVERIFY(
                text.contains(QStringLiteral("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">") +
                              title.toHtmlEscaped()));
            for (const QString& line : description)
                QVERIFY2(text.contains(line.toHtmlEscaped()), qPrintable(line));
            QVERIFY(
                text.contains(QStringLiteral("<xmp:CreatorTool>KVLens 9.8.7</xmp:CreatorTool>")));
            QVERIFY(text.contains(QStringLiteral("<xmp:CreateDate>")));
        } else {
            const QString svg = QString::fromUtf8(bytes);
            QCOMPARE(svgAttribute(svg, "width"), svgWidth);
            QCOMPARE(svgAttribute(svg, "viewBox"), svgViewBox);
            QVERIFY2(svg.contains(QStringLiteral("<title>%1</title>").arg(title.toHtmlEscaped())),
                     qPrintable(svg.left(600)));
            for (const QString& line : description)
                QVERIFY2(svg.contains(line.toHtmlEscaped()), qPrintable(line));
            QVERIFY(svg.contains(QStringLiteral("KVLens 9.8.7")));
        }
    }

    void unwritableFileNamesIt()
    {
        auto a = makePlot(QStringLiteral("x"));
        for (const char* name :
             {"/no/such/dir/f.png", "/no/such/dir/f.pdf", "/no/such/dir/f.svg"}) {
            const QString path = QString::fromLatin1(name);
            try {
                FigureExporter::saveFigure(a.get(), path, QStringLiteral("p"));
                QFAIL("no error");
            } catch (const Error& e) {
                QVERIFY2(e.message().contains(path), qPrintable(e.message()));
            }
        }
    }
};

KVL_OFFSCREEN_TEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
