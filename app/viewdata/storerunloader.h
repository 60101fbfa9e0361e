#pragma once

#include "runviewdata.h"

#include <QPair>
#include <QVector>

class QElapsedTimer;

namespace kvl {

class RunReader;

// Milliseconds per stage of a load, in the order they ran (the view benchmark prints them).
struct LoadTimings
{
    QVector<QPair<QString, double>> stages;
    void add(const char* stage, const QElapsedTimer& since);
};

// The RunLoader of the app: reads a .kvl with RunReader (read-only, safe while a
// sweep writes it) and builds every view's values. Throws kvl::Error naming the
// file and the problem for a foreign or damaged file. Thread-safe: each call opens
// its own reader, so the window calls it on a worker thread. Verifies the rows'
// checksums first (once per state of the file, rowchecksumcache.h).
RunViewData loadRunViewData(const RunRequest& request);
// The same, timing each stage into `timings`.
RunViewData loadRunViewDataTimed(const RunRequest& request, LoadTimings* timings);

// The stages of a load, for a caller that runs them apart (RunSession); each fills its
// own fields of RunViewData (take* copies exactly those).
// The summary: run, configurations, samples, accuracy (the first page), default focus.
void loadRunSummary(RunReader& reader, RunViewData& data, LoadTimings* timings = nullptr);
// The rest of what depends on the file alone: taxonomy, chain breaks, overlaps, failure
// sets, span keep, leakage, interventions. Needs the summary's configs and sampleCount.
void loadRunAggregates(RunReader& reader, RunViewData& data, LoadTimings* timings = nullptr);
// Summary and aggregates.
void loadRunOverview(RunReader& reader, RunViewData& data, LoadTimings* timings = nullptr);
// The details of one focus (configuration, sample): GER, heatmaps, eviction map. Needs
// the summary's configs and defaultFocus; replaces whatever details `data` held.
void loadRunDetails(RunReader& reader, const RunRequest& request, RunViewData& data,
                    LoadTimings* timings = nullptr);
// The overlap matrix shown: at the focus's ratio (the default focus's before details).
void selectOverlap(RunViewData& data);
void takeSummary(RunViewData& to, const RunViewData& from);
void takeAggregates(RunViewData& to, const RunViewData& from); // and selectOverlap
void takeDetails(RunViewData& to, const RunViewData& from);    // and selectOverlap

} // namespace kvl
