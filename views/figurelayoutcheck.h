#pragma once

#include <QSize>
#include <QStringList>

#include <functional>
#include <vector>

class QCPAxis;
class QCPLegend;
class QCustomPlot;

namespace kvl {

// What a paper figure must not do at the size it is exported at: text cut by the
// canvas or by the rectangle it is clipped to, two texts on top of each other. Lays the
// plot out at `layoutSize` (1/96 in units, as FigureExporter::PrintSize::layoutSize)
// exactly as the export does, then measures every text it draws from QCustomPlot's
// layout rectangles and the fonts' metrics: title and footer elements, each axis's
// tick labels and title, legends, and text items. Returns one line per problem, empty
// when the figure is clean; the plot's on-screen layout is restored.
QStringList figureLayoutProblems(QCustomPlot* plot, QSize layoutSize);

// Lays the plot out at `layoutSize` as an export does; its layout rectangles stay those
// of that size until the next replot.
void layOutAt(QCustomPlot* plot, QSize layoutSize);

// The name of a QObject property a view may set on a QCPItemText: a shorter wording
// that PrintLayoutFit uses where the text does not fit ("Jaccard: A vs B").
inline constexpr const char* kPrintShortText = "kvlPrintShortText";

// The name of a QObject property a view may set on a legend that stands beside its
// plot: the QCPLayoutGrid (a QObject*) under the plot where PrintLayoutFit moves the
// legend when the plot beside it gets less than half the figure's width (the signature
// bars at 3.5 in). The grid stays empty, and takes no room, on screen.
inline constexpr const char* kPrintLegendBelow = "kvlPrintLegendBelow";

// Makes a plot fit a paper size for the time of an export (RAII): a title, note or
// footer wider than its room is wrapped at word boundaries, an axis title longer than
// its axis likewise, computed tick labels that collide get fewer ticks, named ones are
// turned 45° on a horizontal axis, then set smaller (to 5 pt), turned 90°, then grouped (a first
// word that repeats the label before it left out), cell values that still
// overlap are left out, and a side legend that leaves its plot too narrow moves under it
// (kPrintLegendBelow) or, inside it, when every corner hides data; a one-row legend too
// wide for the figure wraps. Gives every text, angle, font, tick count, place and value
// back when destroyed.
class PrintLayoutFit
{
  public:
    PrintLayoutFit(QCustomPlot* plot, QSize layoutSize);
    ~PrintLayoutFit();
    PrintLayoutFit(const PrintLayoutFit&) = delete;
    PrintLayoutFit& operator=(const PrintLayoutFit&) = delete;

  private:
    bool fitOnce(QCustomPlot* plot, QSize layoutSize);
    bool turnCollidingLabels(QCPAxis* axis);
    bool thinCollidingTicks(QCPAxis* axis);
    bool shrinkCollidingLabels(QCPAxis* axis);
    bool dropRepeatedFirstWords(QCPAxis* axis);
    bool moveSideLegendsBelow(QCustomPlot* plot, double canvasWidth);
    bool wrapSqueezedLegends(QCustomPlot* plot, double canvasWidth);
    void rewrapLegend(QCPLegend* legend, int perRow);

    std::vector<std::function<void()>> m_undo; // in the order the changes were made
};

} // namespace kvl
