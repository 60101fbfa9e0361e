#pragma once

#include "views/figureexporter.h"

#include <QString>

class QWidget;

namespace kvl {

class PlotView;
class RunPage;

// The sizes File › Export figure offers, as `kvlens --export-figures --size` does.
enum class FigurePreset
{
    SingleColumn, // 3.5 in wide
    DoubleColumn, // 7 in wide
    AsOnScreen    // the view's own size
};

// The file name offered for a view's figure: its title (which names the configuration and
// sample it shows) as a slug, without spaces or "·" ("question-attention-snapkv-0.5-sample-s1").
QString defaultFigureName(const PlotView* view);
// The print size of a preset for a view whose height is `aspect` times its width (clamped
// to a figure's proportions); AsOnScreen has none (zero width).
FigureExporter::PrintSize presetSize(FigurePreset preset, double aspect);

// File › Export figure and Export data for the page shown: ask for a file (PDF, SVG or PNG;
// CSV), write the page's figure (its paired views as one) or its data, and return the line
// for the status bar ("Saved …", "Nothing to export …"; empty when the user cancelled). A
// write that fails shows a message box naming the file.
QString exportPageFigure(QWidget* parent, const RunPage* page);
QString exportPageData(QWidget* parent, const RunPage* page);

} // namespace kvl
