#pragma once

class QCPLegend;
class QCustomPlot;

namespace kvl {

// Puts every legend that sits inside a plot (an inset legend) in the corner of its axis
// rect where it covers the fewest drawn lines and points, so that a legend never hides a
// curve a corner would have left free (the accuracy curves' legend once sat on the one
// press falling to 0). Measures the layout just made; returns whether a legend moved, in
// which case the caller lays the plot out again. A legend keeps its corner on a tie.
bool placeInsetLegends(QCustomPlot* plot);

// Whether an inset legend hides some drawn data in every corner of its axis rect (nine
// entries in a single-column figure): then it belongs outside the plot.
bool insetLegendHidesData(QCPLegend* legend);
// How much drawn data an inset legend covers where it stands now (points and samples
// along line segments; 0: none).
int insetLegendCoverage(QCPLegend* legend);

} // namespace kvl
