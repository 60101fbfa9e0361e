#include "figureexporter.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <memory>

namespace kvl {

namespace {

const QString creator = QStringLiteral("KVLens");
// Layout units per inch of a print figure: Qt's logical DPI of images and of the
// offscreen screen, so point-sized fonts come out at their point size on paper.
constexpr double kLayoutDpi = 96.0;

// XMP metadata of a PDF: the title, the provenance lines as dc:description, the tool
// and the date (Qt's PDF info dictionary has no description field).
QByteArray xmpPacket(const QString& title, const QString& description, const QString& created)
{
    const auto alt = [](const QString& text) {
        return QStringLiteral("<rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt>")
            .arg(text.toHtmlEscaped());
    };
    const QString xml =
        QStringLiteral(
            "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
            "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" "
            "xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">\n"
            "<dc:title>%1</dc:title>\n<dc:description>%2</dc:description>\n"
            "<xmp:CreatorTool>%3</xmp:CreatorTool>\n<xmp:CreateDate>%4</xmp:CreateDate>\n"
            "<pdf:Producer>%3</pdf:Producer>\n"
            "</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>")
            .arg(alt(title), alt(description), FigureExporter::toolName().toHtmlEscaped(), created);
    return xml.toUtf8();
}

// Adds the provenance line under the plot for the time of one export, so the
// on-screen view stays uncluttered while every saved file names its source.
class ProvenanceFooter
{
  public:
    ProvenanceFooter(QCustomPlot* plot, const QString& text) : m_plot(plot)
    {
        if (text.isEmpty())
            return;
        QColor color = plot->xAxis ? plot->xAxis->labelColor() : QColor(Qt::darkGray);
        for (QCPAxisRect* rect : plot->axisRects())
            color = rect->axis(QCPAxis::atBottom)->labelColor();
        QFont font = plot->font();
        font.setPointSizeF(font.pointSizeF() * 0.8);
        m_element = new QCPTextElement(plot, text, font);
        m_element->setTextColor(color);
        m_element->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        m_element->setMargins(QMargins(8, 2, 8, 4));
        plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, m_element);
    }
    ~ProvenanceFooter()
    {
        if (!m_element)
            return;
        m_plot->plotLayout()->take(m_element);
        delete m_element;
        m_plot->plotLayout()->simplify();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }

  private:
    QCustomPlot* m_plot;
    QCPTextElement* m_element = nullptr;
};

void savePng(QCustomPlot* plot, const QString& path, const QString& provenance, QSize size)
{
    // Twice the pixel density, so a PNG dropped into slides is not blurry.
    QImage image = plot->toPixmap(size.width(), size.height(), 2.0).toImage();
    image.setText(QStringLiteral("Software"), creator);
    if (!provenance.isEmpty())
        image.setText(QStringLiteral("Description"), provenance);
    if (image.isNull() || !image.save(path, "PNG"))
        throw Error(
            path, QCoreApplication::translate("kvl::FigureExporter", "cannot write the PNG file"));
}

void savePdf(QCustomPlot* plot, const QString& path, const QString& provenance, QSize size)
{
    if (!plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, creator, provenance))
        throw Error(
            path, QCoreApplication::translate("kvl::FigureExporter", "cannot write the PDF file"));
}

void saveSvg(QCustomPlot* plot, const QString& path, const QString& provenance, QSize size)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QFileInfo(path).completeBaseName());
    generator.setDescription(provenance);
    QCPPainter painter;
    if (!painter.begin(&generator))
        throw Error(
            path, QCoreApplication::translate("kvl::FigureExporter", "cannot write the SVG file"));
    plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        throw Error(
            path, QCoreApplication::translate("kvl::FigureExporter", "cannot write the SVG file"));
}

} // namespace

FigureExporter::Format FigureExporter::formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    throw Error(path, QCoreApplication::translate(
                          "kvl::FigureExporter",
                          "unknown figure format (use a .png, .pdf or .svg file name)"));
}

QSize FigureExporter::defaultSize(const QCustomPlot* plot)
{
    // A plot that was never shown has no useful geometry; use a paper-friendly size.
    if (plot->isVisible() && plot->width() >= 320 && plot->height() >= 200)
        return plot->size();
    return QSize(960, 600);
}

void FigureExporter::saveFigure(QCustomPlot* plot, const QString& path, const QString& provenance,
                                QSize size)
{
    const Format format = formatForPath(path);
    if (!size.isValid() || size.isEmpty())
        size = defaultSize(plot);
    ProvenanceFooter footer(plot, provenance);
    switch (format) {
    case Format::Png:
        savePng(plot, path, provenance, size);
        break;
    case Format::Pdf:
        savePdf(plot, path, provenance, size);
        break;
    case Format::Svg:
        saveSvg(plot, path, provenance, size);
        break;
    }
}

void FigureExporter::saveFigures(const QVector<QCustomPlot*>& plots, const QStringList& provenance,
                                 const QString& path, Qt::Orientation orientation, QSize each)
{
    const Format format = formatForPath(path);
    if (plots.isEmpty())
        throw Error(path, QCoreApplication::translate("kvl::FigureExporter", "no figure to write"));
    QVector<QSize> sizes;
    QSize total(0, 0);
    for (QCustomPlot* plot : plots) {
        const QSize size = each.isValid() && !each.isEmpty() ? each : defaultSize(plot);
        sizes << size;
        total = orientation == Qt::Vertical
                    ? QSize(std::max(total.width(), size.width()), total.height() + size.height())
                    : QSize(total.width() + size.width(), std::max(total.height(), size.height()));
    }
    // Each panel names its own configuration under it, for the time of the export.
    std::vector<std::unique_ptr<ProvenanceFooter>> footers;
    for (int i = 0; i < plots.size(); ++i)
        footers.push_back(std::make_unique<ProvenanceFooter>(plots[i], provenance.value(i)));
    const QString description = provenance.join(QStringLiteral("\n"));

    // Panels are drawn one after the other at their offsets on one painter.
    auto paintAll = [&](QCPPainter& painter, double scale) {
        QPoint at(0, 0);
        for (int i = 0; i < plots.size(); ++i) {
            painter.save();
            painter.translate(at * scale);
            painter.scale(scale, scale);
            plots[i]->toPainter(&painter, sizes[i].width(), sizes[i].height());
            painter.restore();
            at += orientation == Qt::Vertical ? QPoint(0, sizes[i].height())
                                              : QPoint(sizes[i].width(), 0);
        }
    };
    const QString fail = format == Format::Png   ? QStringLiteral("cannot write the PNG file")
                         : format == Format::Pdf ? QStringLiteral("cannot write the PDF file")
                                                 : QStringLiteral("cannot write the SVG file");
    bool ok = true;
    switch (format) {
    case Format::Png: {
        // Twice the pixel density, like a single figure.
        QImage image(total * 2, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        paintAll(painter, 2.0);
        painter.end();
        image.setText(QStringLiteral("Software"), creator);
        if (!description.isEmpty())
            image.setText(QStringLiteral("Description"), description);
        ok = image.save(path, "PNG");
        break;
    }
    case Format::Pdf: {
        QPdfWriter writer(path);
        writer.setCreator(creator);
        writer.setTitle(description);
        writer.setResolution(72); // one unit = one point: the panels keep their sizes
        writer.setPageSize(QPageSize(QSizeF(total), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        ok = painter.begin(&writer);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            painter.setMode(QCPPainter::pmNonCosmetic);
            paintAll(painter, 1.0);
            painter.end();
        }
        break;
    }
    case Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(total);
        generator.setViewBox(QRect(QPoint(0, 0), total));
        generator.setTitle(QFileInfo(path).completeBaseName());
        generator.setDescription(description);
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            paintAll(painter, 1.0);
            painter.end();
        }
        break;
    }
    }
    if (!ok || !QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        throw Error(path, QCoreApplication::translate("kvl::FigureExporter", qPrintable(fail)));
}

QString FigureExporter::toolName()
{
    const QString version = QCoreApplication::applicationVersion();
    return version.isEmpty() ? creator : creator + QLatin1Char(' ') + version;
}

QString FigureExporter::csvProvenanceLines(const QString& provenance, const QStringList& details)
{
    QString lines = QStringLiteral("# %1 · exported %2\n")
                        .arg(toolName(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    if (!provenance.isEmpty())
        lines += QStringLiteral("# %1\n").arg(provenance.simplified());
    for (const QString& line : details)
        lines += QStringLiteral("# %1\n").arg(line.simplified());
    return lines;
}

void FigureExporter::saveCsv(const QString& path, const QString& csv, const QString& provenance,
                             const QStringList& details)
{
    writeFileAtomically(path, (csvProvenanceLines(provenance, details) + csv).toUtf8());
}

QSize FigureExporter::PrintSize::layoutSize() const
{
    return QSize(qRound(widthInches * kLayoutDpi), qRound(heightInches * kLayoutDpi));
}

QSize FigureExporter::PrintSize::pixelSize() const
{
    // From the layout size, so the PNG's pixels and the vector pages agree exactly.
    const QSize layout = layoutSize();
    return QSize(qRound(layout.width() * dpi / kLayoutDpi),
                 qRound(layout.height() * dpi / kLayoutDpi));
}

void FigureExporter::savePrintFigure(QCustomPlot* plot, const QString& path, const PrintSize& size,
                                     const QString& title, const QStringList& metadata,
                                     const QString& footerText)
{
    const Format format = formatForPath(path);
    const QSize layout = size.layoutSize();
    if (layout.isEmpty() || size.dpi <= 0)
        throw Error(path,
                    QCoreApplication::translate("kvl::FigureExporter", "the figure size is empty"));
    ProvenanceFooter footer(plot, footerText);
    const QString description = metadata.join(QLatin1Char('\n'));
    const QString created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    bool ok = true;
    switch (format) {
    case Format::Png: {
        const QSize pixels = size.pixelSize();
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(double(pixels.width()) / layout.width(),
                      double(pixels.height()) / layout.height());
        plot->toPainter(&painter, layout.width(), layout.height());
        painter.end();
        // After painting: the image's own DPI would otherwise scale the fonts again.
        const int dotsPerMeter = qRound(size.dpi / 0.0254);
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        image.setText(QStringLiteral("Title"), title);
        image.setText(QStringLiteral("Software"), toolName());
        image.setText(QStringLiteral("Creation Time"), created);
        if (!description.isEmpty())
            image.setText(QStringLiteral("Description"), description);
        ok = image.save(path, "PNG");
        break;
    }
    case Format::Pdf: {
        QPdfWriter writer(path);
        writer.setCreator(toolName());
        writer.setTitle(title);
        writer.setDocumentXmpMetadata(xmpPacket(title, description, created));
        writer.setResolution(int(kLayoutDpi));
        // The page in points (1/72 in) from the layout size, as the PNG's pixels are.
        writer.setPageSize(QPageSize(QSizeF(layout) * (72.0 / kLayoutDpi), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        ok = painter.begin(&writer);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            painter.setMode(QCPPainter::pmNonCosmetic);
            plot->toPainter(&painter, layout.width(), layout.height());
            painter.end();
        }
        break;
    }
    case Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setResolution(int(kLayoutDpi)); // width/height in mm from the layout size
        generator.setSize(layout);
        generator.setViewBox(QRect(QPoint(0, 0), layout));
        generator.setTitle(title);
        generator.setDescription(description);
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot->toPainter(&painter, layout.width(), layout.height());
            painter.end();
        }
        break;
    }
    }
    if (!ok || !QFileInfo(path).exists() || QFileInfo(path).size() == 0)
        throw Error(path, QCoreApplication::translate("kvl::FigureExporter",
                                                      "cannot write the figure file"));
}

} // namespace kvl
