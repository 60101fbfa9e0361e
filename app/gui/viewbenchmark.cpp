#include "viewbenchmark.h"

#include "guioptions.h"
#include "mainwindow.h"
#include "rowchecksumcache.h"
#include "storerunloader.h"
#include "views/evictionmapview.h"
#include "views/heatmapview.h"

#include "common/error.h"
#include "store/runreader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTextStream>

#include <algorithm>
#include <ctime>

namespace kvl {

namespace {

// "VmRSS" (resident now) or "VmHWM" (peak resident) of this process, in MiB; -1 where
// /proc is missing.
double procStatusMiB(const QByteArray& key)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(key + ':'))
            return line.mid(key.size() + 1).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

// CPU seconds of this process, every thread (the machine may be shared: wall time alone
// would mix in the other processes' load).
double cpuSeconds()
{
    return double(std::clock()) / CLOCKS_PER_SEC;
}

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// Waits (events running) until `view` shows a grid pooled over exactly [begin, end): a
// large range is pooled on the thread pool and arrives later.
bool waitForPooled(const PooledMapView& view, int begin, int end)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        const PooledGrid& g = view.pooled();
        if (g.bins > 0 && !g.edges.isEmpty() && g.edges.front() == begin && g.edges.back() == end)
            return true;
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return false;
}

// The visible ranges of a zoom session: halving around the middle down to 1/64 of the
// context, then panning at the deepest zoom.
QVector<QPair<int, int>> zoomRanges(int n, int steps)
{
    QVector<QPair<int, int>> ranges;
    int width = n;
    int begin = 0;
    for (int i = 0; i < steps; ++i) {
        if (width > n / 64) {
            width /= 2;
            begin = (n - width) / 2;
        } else {
            begin = std::max(0, std::min(n - width, begin + width / 2));
        }
        ranges.append({begin, begin + width});
    }
    return ranges;
}

// Times each zoom step of `view` (set the range, re-pool, draw, grab); the milliseconds.
QVector<double> timeZooms(PooledMapView& view, int n, int steps)
{
    QVector<double> ms;
    for (const auto& [begin, end] : zoomRanges(n, steps)) {
        QElapsedTimer t;
        t.start();
        view.setVisibleRange(begin, end);
        if (!waitForPooled(view, begin, end))
            throw Error(QStringLiteral("view benchmark: the %1 view never pooled [%2, %3)")
                            .arg(view.metaObject()->className())
                            .arg(begin)
                            .arg(end));
        QApplication::processEvents(); // a queued replot
        view.grab();
        ms.append(msSince(t));
    }
    return ms;
}

QJsonObject summary(QVector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    QJsonArray all;
    for (double v : ms)
        all.append(v);
    return QJsonObject{{"median_ms", ms.isEmpty() ? 0.0 : ms[ms.size() / 2]},
                       {"max_ms", ms.isEmpty() ? 0.0 : ms.back()},
                       {"steps_ms_sorted", all}};
}

// Stage name → milliseconds (the stage names are in storerunloader.cpp).
QJsonObject stagesJson(const LoadTimings& timings)
{
    QJsonObject o;
    for (const auto& [stage, ms] : timings.stages)
        o.insert(stage, ms);
    return o;
}

Heatmap syntheticHeatmap(const ViewBenchmarkSize& s)
{
    QRandomGenerator rng(16);
    Heatmap h;
    h.rows = s.layers;
    h.cols = s.contextTokens;
    h.kvHeads = s.kvHeads;
    const qsizetype cells = qsizetype(h.rows) * h.cols;
    h.perHead.resize(cells * s.kvHeads);
    h.perHeadEvicted.resize(cells * s.kvHeads);
    h.values.resize(cells);
    h.evicted.resize(cells);
    for (int l = 0; l < h.rows; ++l)
        for (int t = 0; t < h.cols; ++t) {
            double sum = 0;
            int kept = 0;
            for (int k = 0; k < s.kvHeads; ++k) {
                const qsizetype i = (qsizetype(l) * s.kvHeads + k) * h.cols + t;
                h.perHead[i] = rng.generateDouble() / h.cols + (t < 4 ? 0.1 : 0.0);
                h.perHeadEvicted[i] = rng.bounded(2) == 0;
                sum += h.perHead[i];
                kept += !h.perHeadEvicted[i];
            }
            h.values[qsizetype(l) * h.cols + t] = sum / s.kvHeads;
            h.evicted[qsizetype(l) * h.cols + t] = kept == 0;
        }
    h.evidence = {{s.contextTokens / 2, s.contextTokens / 2 + 24, QStringLiteral("needle")}};
    for (int t = 0; t < h.cols; ++t)
        h.tokens.append(QStringLiteral("tok%1").arg(t % 997));
    return h;
}

EvictionMap syntheticEvictionMap(const ViewBenchmarkSize& s)
{
    QRandomGenerator rng(17);
    EvictionMap m;
    m.layers = s.layers;
    m.positions = s.contextTokens;
    m.keep.resize(qsizetype(m.layers) * m.positions);
    for (double& v : m.keep)
        v = double(rng.bounded(s.kvHeads + 1)) / s.kvHeads;
    m.spans = {{0, 40, QStringLiteral("system"), {}},
               {40, 60, QStringLiteral("format"), {}},
               {s.contextTokens - 80, s.contextTokens - 20, QStringLiteral("defense"), {}}};
    return m;
}

} // namespace

QJsonObject benchmarkViews(const QString& runPath, const ViewBenchmarkSize& size)
{
    QJsonObject result;
    result.insert("rss_start_mib", procStatusMiB("VmRSS"));

    QJsonObject run{{"path", runPath.isEmpty() ? QJsonValue() : QJsonValue(runPath)},
                    {"rows", QJsonValue()},
                    {"samples", QJsonValue()},
                    {"open_first_s", QJsonValue()},
                    {"open_first_cpu_s", QJsonValue()},
                    {"open_again_s", QJsonValue()},
                    {"open_again_cpu_s", QJsonValue()},
                    {"open_first_stages_ms", QJsonValue()},
                    {"open_again_stages_ms", QJsonValue()},
                    {"overview_s", QJsonValue()},
                    {"overview_cpu_s", QJsonValue()},
                    {"overview_stages_ms", QJsonValue()},
                    {"overview_draw_s", QJsonValue()},
                    {"overview_draw_cpu_s", QJsonValue()},
                    {"open_and_overview_cpu_s", QJsonValue()},
                    {"aggregates_s", QJsonValue()},
                    {"details_s", QJsonValue()},
                    {"details_stages_ms", QJsonValue()},
                    {"verify_s", QJsonValue()},
                    {"verify_cpu_s", QJsonValue()},
                    {"open_and_overview_s", QJsonValue()}};
    if (!runPath.isEmpty()) {
        RunRequest request;
        request.path = runPath;
        // The window's path (RunSession's stages, one after another here): the summary,
        // drawn on the first page; the other aggregates; the focus details; the checksums
        // (in the window, in the background; cold: nothing verified in this process yet).
        QElapsedTimer t;
        t.start();
        double cpu = cpuSeconds();
        LoadTimings overviewStages, detailStages;
        RunViewData data;
        {
            RunReader reader(runPath);
            data.path = runPath;
            loadRunSummary(reader, data, &overviewStages);
        }
        const double overview = msSince(t) / 1e3;
        const double overviewCpu = cpuSeconds() - cpu;
        run["overview_cpu_s"] = overviewCpu;

        MainWindow window;
        window.resize(1280, 800);
        QApplication::processEvents();
        t.restart();
        cpu = cpuSeconds();
        window.showRun(data);
        window.showPage(pages::Accuracy);
        QApplication::processEvents();
        window.grab();
        const double draw = msSince(t) / 1e3;
        const double drawCpu = cpuSeconds() - cpu;
        // CPU seconds too: on a shared machine the wall time mixes in the other load.
        run["overview_draw_cpu_s"] = drawCpu;
        run["open_and_overview_cpu_s"] = overviewCpu + drawCpu;

        t.restart();
        {
            RunReader reader(runPath);
            loadRunAggregates(reader, data, &overviewStages);
        }
        run["aggregates_s"] = msSince(t) / 1e3;
        run["overview_stages_ms"] = stagesJson(overviewStages);
        t.restart();
        {
            RunReader reader(runPath);
            loadRunDetails(reader, request, data, &detailStages);
        }
        run["details_s"] = msSince(t) / 1e3;
        run["details_stages_ms"] = stagesJson(detailStages);
        t.restart();
        cpu = cpuSeconds();
        {
            RunReader reader(runPath);
            verifiedRowChecksums(reader);
        }
        run["verify_s"] = msSince(t) / 1e3;
        run["verify_cpu_s"] = cpuSeconds() - cpu;

        // The one-shot load (batch export, tests; the window's path before RunSession):
        // checksums first, then everything. Forget the verification above so the first
        // open pays for it again, as a first open does.
        forgetVerifiedRowChecksums();
        t.restart();
        cpu = cpuSeconds();
        LoadTimings firstStages, againStages;
        RunViewData once = loadRunViewDataTimed(request, &firstStages);
        const double first = msSince(t) / 1e3;
        run["open_first_cpu_s"] = cpuSeconds() - cpu;
        t.restart();
        cpu = cpuSeconds();
        once = loadRunViewDataTimed(request, &againStages);
        const double again = msSince(t) / 1e3;
        run["open_again_cpu_s"] = cpuSeconds() - cpu;
        run["open_first_stages_ms"] = stagesJson(firstStages);
        run["open_again_stages_ms"] = stagesJson(againStages);
        run["rows"] = double(data.resultCount);
        run["samples"] = double(data.sampleCount);
        run["open_first_s"] = first;
        run["open_again_s"] = again;
        run["overview_s"] = overview;
        run["overview_draw_s"] = draw;
        run["open_and_overview_s"] = overview + draw;
    }
    result.insert("run", run);

    const double before = procStatusMiB("VmRSS");
    HeatmapView heatmap;
    EvictionMapView eviction;
    for (PooledMapView* v :
         {static_cast<PooledMapView*>(&heatmap), static_cast<PooledMapView*>(&eviction)})
        v->resize(1100, 420);
    {
        // The views keep their own copies; the synthetic data goes when this scope ends.
        heatmap.setData(syntheticHeatmap(size));
        eviction.setData(syntheticEvictionMap(size));
    }
    const int n = size.contextTokens;
    for (PooledMapView* v :
         {static_cast<PooledMapView*>(&heatmap), static_cast<PooledMapView*>(&eviction)}) {
        waitForPooled(*v, 0, n);
        v->grab();
    }
    const double held = procStatusMiB("VmRSS");
    result.insert("context", QJsonObject{{"tokens", n},
                                         {"layers", size.layers},
                                         {"kv_heads", size.kvHeads},
                                         {"views_rss_mib", held - before}});
    result.insert("heatmap_zoom", summary(timeZooms(heatmap, n, size.zoomSteps)));
    result.insert("eviction_zoom", summary(timeZooms(eviction, n, size.zoomSteps)));
    result.insert("rss_end_mib", procStatusMiB("VmRSS"));
    result.insert("peak_rss_mib", procStatusMiB("VmHWM"));
    result.insert("targets", QJsonObject{{"open_and_overview_s", 0.5}, {"zoom_ms", 50.0}});
    return result;
}

int runViewBenchmark(const GuiOptions& options, QTextStream& out, QTextStream& err)
{
    QJsonObject r;
    try {
        r = benchmarkViews(options.run);
    } catch (const Error& e) {
        err << "kvlens: error: " << e.what() << '\n';
        return 1;
    }
    if (options.benchJson) {
        out << QJsonDocument(r).toJson(QJsonDocument::Indented);
        return 0;
    }
    const QJsonObject run = r["run"].toObject();
    if (!run["path"].isNull())
        out << QStringLiteral(
                   "run %1: %2 rows, %3 samples\n"
                   "  summary read %10 s + drawn %6 s = %7 s (CPU %14 s; target 0.5 s); then "
                   "aggregates "
                   "%13 s, details %11 s, checksums %12 s\n"
                   "  one-shot load (checksums first, everything) %4 s (CPU %8 s) · again %5 s "
                   "(CPU %9 s)\n")
                   .arg(run["path"].toString())
                   .arg(run["rows"].toDouble())
                   .arg(run["samples"].toDouble())
                   .arg(run["open_first_s"].toDouble(), 0, 'f', 3)
                   .arg(run["open_again_s"].toDouble(), 0, 'f', 3)
                   .arg(run["overview_draw_s"].toDouble(), 0, 'f', 3)
                   .arg(run["open_and_overview_s"].toDouble(), 0, 'f', 3)
                   .arg(run["open_first_cpu_s"].toDouble(), 0, 'f', 3)
                   .arg(run["open_again_cpu_s"].toDouble(), 0, 'f', 3)
                   .arg(run["overview_s"].toDouble(), 0, 'f', 3)
                   .arg(run["details_s"].toDouble(), 0, 'f', 3)
                   .arg(run["verify_s"].toDouble(), 0, 'f', 3)
                   .arg(run["aggregates_s"].toDouble(), 0, 'f', 3)
                   .arg(run["open_and_overview_cpu_s"].toDouble(), 0, 'f', 3);
    const QJsonObject ctx = r["context"].toObject();
    out << QStringLiteral("%1-token context, %2 layers x %3 kv-heads: views hold %4 MiB\n")
               .arg(ctx["tokens"].toInt())
               .arg(ctx["layers"].toInt())
               .arg(ctx["kv_heads"].toInt())
               .arg(ctx["views_rss_mib"].toDouble(), 0, 'f', 1);
    for (const char* key : {"heatmap_zoom", "eviction_zoom"}) {
        const QJsonObject z = r[QLatin1String(key)].toObject();
        out << QStringLiteral("  %1 re-render: median %2 ms, max %3 ms (target 50 ms)\n")
                   .arg(QLatin1String(key))
                   .arg(z["median_ms"].toDouble(), 0, 'f', 1)
                   .arg(z["max_ms"].toDouble(), 0, 'f', 1);
    }
    out << QStringLiteral("peak resident memory %1 MiB\n")
               .arg(r["peak_rss_mib"].toDouble(), 0, 'f', 1);
    return 0;
}

} // namespace kvl
