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

    // Writes CSV text (UTF-8) atomically, after `#` comment lines naming the tool and
    // version, the time of export and the provenance (pandas: comment='#'; R: comment.char).
    static void saveCsv(const QString& path, const QString& csv, const QString& provenance = {});
    // Those comment lines, each ending in "\n".
    static QString csvProvenanceLines(const QString& provenance);

    static QSize defaultSize(const QCustomPlot* plot);
};

} // namespace kvl
