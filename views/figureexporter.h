#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

class QCustomPlot;

namespace kvl {

// Saves figures and their data. Every view exports through here, so every file
// carries the same provenance footer and metadata.
class FigureExporter
{
  public:
    // A figure's size on paper. The plot is laid out at 96 units per inch, so its
    // fonts keep their point sizes on the page; PNG pixels are `dpi` per inch.
    struct PrintSize
    {
        double widthInches = 7.0;
        double heightInches = 7.0 * 0.62;
        int dpi = 300;

        QSize layoutSize() const; // in 1/96 inch
        QSize pixelSize() const;  // of the PNG
    };

    enum class Format
    {
        Png,
        Pdf,
        Svg
    };

    // Format from the file suffix (.png, .pdf, .svg); throws kvl::Error otherwise.
    static Format formatForPath(const QString& path);

    // Renders the plot at `size` (its on-screen size when empty) with the
    // provenance line as a footer; PNG text chunk, PDF title and SVG description
    // carry it too. Throws kvl::Error naming the file when it cannot be written.
    static void saveFigure(QCustomPlot* plot, const QString& path, const QString& provenance,
                           QSize size = {});

    // Several plots as one figure (the FullCache and compressed panels of a sample),
    // stacked top to bottom (Qt::Vertical) or left to right, each `each` large (its
    // default size when empty) with its own provenance line under it. Throws
    // kvl::Error naming the file when it cannot be written or no plot is given.
    static void saveFigures(const QVector<QCustomPlot*>& plots, const QStringList& provenance,
                            const QString& path, Qt::Orientation orientation, QSize each = {});

    // A figure for a paper: PNG at the size's DPI (recorded in the file), PDF page and
    // SVG width/height in physical units. `title` and the `metadata` lines go into the
    // file (PNG text keys Title/Description/Software/Creation Time, PDF title and XMP
    // description, SVG title/description); `footer` (empty: none) is drawn under the
    // plot. Throws kvl::Error naming the file when it cannot be written.
    static void savePrintFigure(QCustomPlot* plot, const QString& path, const PrintSize& size,
                                const QString& title, const QStringList& metadata,
                                const QString& footer);
    // What savePrintFigure would draw badly at `size` with `footer`: text cut by the
    // canvas or its plot area, texts on top of each other (figurelayoutcheck.h).
    static QStringList printLayoutProblems(QCustomPlot* plot, const PrintSize& size,
                                           const QString& footer);

    // Writes CSV text (UTF-8) atomically, after `#` comment lines naming the tool and
    // version, the time of export, the provenance and each of `details` (pandas:
    // comment='#'; R: comment.char).
    static void saveCsv(const QString& path, const QString& csv, const QString& provenance = {},
                        const QStringList& details = {});
    // Those comment lines, each ending in "\n".
    static QString csvProvenanceLines(const QString& provenance, const QStringList& details = {});
    // "KVLens <version>" of this build.
    static QString toolName();

    static QSize defaultSize(const QCustomPlot* plot);
};

} // namespace kvl
