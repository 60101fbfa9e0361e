#pragma once

class QCPColorScale;

namespace kvl {

// Gives a linear colour bar as many ticks as its length holds (at most QCustomPlot's
// five): a colour bar beside a heatmap of four layer rows is ~60 px tall, and five
// labels ("0.175", "0.15", ...) were printed over each other there. The count is taken
// from the bar's length at each layout, so a bar that grows gets its ticks back.
// A logarithmic bar keeps its ticker.
void fitColorScaleTicks(QCPColorScale* scale);

} // namespace kvl
