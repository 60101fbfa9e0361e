#include "figureexporter.h"

#include "figurelayoutcheck.h"

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

// One figure file: panels (plots) at their offsets on one drawing of `layout` units,
// and what the file says about itself. Every export goes through writeFigure, so
// every PNG, PDF and SVG carries the same metadata in the same places.
struct FigureFile
{
    struct Panel
    {
        QCustomPlot* plot;
        QPoint at;  // in layout units
        QSize size; // in layout units
    };
    QVector<Panel> panels;
    QSize layout;               // the drawing, in layout units
    QSize pixels;               // of the PNG
    int dpi = 0;                // recorded in the PNG (0: none)
    double unitsPerInch = 72.0; // of the PDF page and the SVG's physical size
    QString title;
    QStringList description; // provenance lines
};

void paintPanels(QCPPainter& painter, const FigureFile& f)
{
    for (const FigureFile::Panel& p : f.panels) {
        painter.save();
        painter.translate(p.at);
        p.plot->toPainter(&painter, p.size.width(), p.size.height());
        painter.restore();
    }
}

void writeFigure(const QString& path, FigureExporter::Format format, const FigureFile& f)
{
    const QString description = f.description.join(QLatin1Char('\n'));
    const QString created = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const QString tool = FigureExporter::toolName();
    bool ok = true;
    switch (format) {
    case FigureExporter::Format::Png: {
        QImage image(f.pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(double(f.pixels.width()) / f.layout.width(),
                      double(f.pixels.height()) / f.layout.height());
        paintPanels(painter, f);
        painter.end();
        if (f.dpi > 0) {
            // After painting: the image's own DPI would otherwise scale the fonts again.
            const int dotsPerMeter = qRound(f.dpi / 0.0254);
            image.setDotsPerMeterX(dotsPerMeter);
            image.setDotsPerMeterY(dotsPerMeter);
        }
        image.setText(QStringLiteral("Title"), f.title);
        image.setText(QStringLiteral("Software"), tool);
        image.setText(QStringLiteral("Creation Time"), created);
        if (!description.isEmpty())
            image.setText(QStringLiteral("Description"), description);
        ok = image.save(path, "PNG");
        break;
    }
    case FigureExporter::Format::Pdf: {
        QPdfWriter writer(path);
        writer.setCreator(tool);
        writer.setTitle(f.title);
        writer.setDocumentXmpMetadata(xmpPacket(f.title, description, created));
        // One device unit per layout unit; the page in points (1/72 in).
        writer.setResolution(qRound(f.unitsPerInch));
        writer.setPageSize(QPageSize(QSizeF(f.layout) * (72.0 / f.unitsPerInch), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        ok = painter.begin(&writer);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            painter.setMode(QCPPainter::pmNonCosmetic);
            paintPanels(painter, f);
            painter.end();
        }
        break;
    }
    case FigureExporter::Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setResolution(qRound(f.unitsPerInch)); // width/height in mm
        generator.setSize(f.layout);
        generator.setViewBox(QRect(QPoint(0, 0), f.layout));
        generator.setTitle(f.title);
        // SVG has no tool or date field: both close the description.
        generator.setDescription(description +
                                 (description.isEmpty() ? QString() : QStringLiteral("\n")) + tool +
                                 QStringLiteral(" · ") + created);
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            paintPanels(painter, f);
            painter.end();
        }
        break;
    }
    }
    if (!ok || !QFileInfo(path).exists() || QFileInfo(path).size() == 0) {
        // Marked for lupdate: the message is picked at run time.
        const char* what =
            format == FigureExporter::Format::Png
                ? QT_TRANSLATE_NOOP("kvl::FigureExporter", "cannot write the PNG file")
            : format == FigureExporter::Format::Pdf
                ? QT_TRANSLATE_NOOP("kvl::FigureExporter", "cannot write the PDF file")
                : QT_TRANSLATE_NOOP("kvl::FigureExporter", "cannot write the SVG file");
        throw Error(path, QCoreApplication::translate("kvl::FigureExporter", what));
    }
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
    saveFigures({plot}, {provenance}, path, Qt::Vertical, size);
}

void FigureExporter::saveFigures(const QVector<QCustomPlot*>& plots, const QStringList& provenance,
                                 const QString& path, Qt::Orientation orientation, QSize each)
{
    const Format format = formatForPath(path);
    if (plots.isEmpty())
        throw Error(path, QCoreApplication::translate("kvl::FigureExporter", "no figure to write"));
    FigureFile file;
    QPoint at(0, 0);
    QSize total(0, 0);
    for (QCustomPlot* plot : plots) {
        const QSize size = each.isValid() && !each.isEmpty() ? each : defaultSize(plot);
        file.panels.push_back({plot, at, size});
        total = orientation == Qt::Vertical
                    ? QSize(std::max(total.width(), size.width()), total.height() + size.height())
                    : QSize(total.width() + size.width(), std::max(total.height(), size.height()));
        at += orientation == Qt::Vertical ? QPoint(0, size.height()) : QPoint(size.width(), 0);
    }
    file.layout = total;
    file.pixels = total * 2;  // twice the pixel density: not blurry when dropped into slides
    file.unitsPerInch = 72.0; // one point per unit on the PDF page
    file.title = QFileInfo(path).completeBaseName();
    for (const QString& line : provenance)
        if (!line.isEmpty())
            file.description << line;
    // Each panel names its own configuration under it, for the time of the export.
    std::vector<std::unique_ptr<ProvenanceFooter>> footers;
    for (int i = 0; i < plots.size(); ++i)
        footers.push_back(std::make_unique<ProvenanceFooter>(plots[i], provenance.value(i)));
    writeFigure(path, format, file);
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

QStringList FigureExporter::printLayoutProblems(QCustomPlot* plot, const PrintSize& size,
                                                const QString& footer)
{
    ProvenanceFooter withFooter(plot, footer);
    const PrintLayoutFit fit(plot, size.layoutSize());
    return figureLayoutProblems(plot, size.layoutSize());
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
    FigureFile file;
    file.panels.push_back({plot, QPoint(0, 0), layout});
    file.layout = layout;
    file.pixels = size.pixelSize();
    file.dpi = size.dpi;
    file.unitsPerInch = kLayoutDpi;
    file.title = title;
    file.description = metadata;
    ProvenanceFooter footer(plot, footerText);
    const PrintLayoutFit fit(plot, layout);
    writeFigure(path, format, file);
}

} // namespace kvl
