#pragma once

#include <QSize>
#include <QString>

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

    // Writes CSV text (UTF-8) atomically.
    static void saveCsv(const QString& path, const QString& csv);

    static QSize defaultSize(const QCustomPlot* plot);
};

} // namespace kvl
