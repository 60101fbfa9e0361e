#pragma once

#include <QJsonObject>
#include <QString>

class QTextStream;

namespace kvl {

struct GuiOptions;

// The sizes the view benchmark measures at (issue 16's targets: a 60,000-row run opened and
// its overview drawn within 0.5 s; a zoom re-render of a 32k-token heatmap and eviction map
// within 50 ms).
struct ViewBenchmarkSize
{
    int contextTokens = 32768;
    int layers = 32;
    int kvHeads = 8;
    int zoomSteps = 12; // zooms and pans timed per view
};

// Times, in this process, on `runPath`: the window's staged path (RunSession's stages: the
// overview's summary read, then drawn on the accuracy page and grabbed offscreen, which is
// the "opened and overview drawn" figure; then the other aggregates, the focus details and
// the checksum check that the window runs in the background, cold), with per-query timings; then
// the one-shot loadRunViewData (checksums first, then everything, as the batch export reads a run)
// and a re-open that finds the checksums verified. Then the zoom re-render (re-pool the visible
// range + draw) of a synthetic heatmap and eviction map of `size` through the app's own
// views; reports resident memory before and after the views hold the 32k-token data and
// the peak. An empty runPath skips the run part (its keys are null). Throws kvl::Error
// naming the run file when it cannot be read. Needs a QApplication.
QJsonObject benchmarkViews(const QString& runPath, const ViewBenchmarkSize& size = {});

// `kvlens --bench-views [RUN.kvl] [--json]`: runs benchmarkViews and prints the figures
// (a JSON object with --json); returns the exit code (1 with the error on `err`).
int runViewBenchmark(const GuiOptions& options, QTextStream& out, QTextStream& err);

} // namespace kvl
