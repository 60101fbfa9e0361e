#pragma once

#include "resultrowsmodel.h"
#include "runviewdata.h"
#include "store/runreader.h"
#include "views/headselection.h"

#include <QObject>

#include <functional>

namespace kvl {

class LatestRequest;

// How a RunSession reads a run file, one function per stage; each is called on a worker
// thread (no widgets) and throws kvl::Error naming the file on failure.
struct RunStages
{
    // The overview, in two parts. The summary: run, configurations, samples, accuracy (the
    // first page), default focus (loadRunSummary).
    std::function<RunViewData(const QString& path)> summary;
    // The rest: taxonomy, chain breaks, overlaps, curves (loadRunAggregates), on top of
    // the summary.
    std::function<RunViewData(const QString& path, const RunViewData& summary)> aggregates;
    // The focus details (heatmaps, eviction map, GER) on top of the summary (loadRunDetails).
    std::function<RunViewData(const RunRequest& request, const RunViewData& summary)> details;
    // The rows' checksums (verifiedRowChecksums): throws naming the damaged row.
    std::function<RowChecksums(const QString& path)> verify;
};

// The selection beside the focus (which RunRequest holds): what several pages show or
// choose, kept once so that no two of them can disagree.
struct RunSelection
{
    HeadSelection heads;        // rows of the attention heatmaps
    QString accuracySuite;      // of the accuracy view; empty: every suite
    double overlapRatio = -1.0; // of the failure overlap and sets; -1: the run's default
    QString overlapA;           // the overlap pair last clicked
    QString overlapB;
    QString signature; // the taxonomy segment last clicked
};

// The stages reading a .kvl through the store (storerunloader, rowchecksumcache).
RunStages storeRunStages();

// One open run and its selection (RunSessions keeps one per run shown in the window),
// loaded in stages as heaptrack loads a profile: the overview once per state of the file
// (open, or a sweep committing rows), delivered in two parts (the summary that draws the
// first page, then the other aggregates), the details (heatmaps, eviction map, GER) once
// per change of focus, the row checksums in the background after the overview is shown.
// Each stage is its own latest-request-wins worker: a superseded request's result is
// dropped, never delivered.
//
// Why showing the overview before the checksums are verified is honest: verifying a
// 60,000-row run reads every row again (seconds), while the overview only counts them.
// The window shows what the file says at once, marks the run as being verified, and
// when a row turns out to have changed after it was written it withdraws everything it
// drew from the file and refuses it naming the file, the sample and the configuration,
// exactly as a refused open does; a figure is never exported from an unverified file.
class RunSession : public QObject
{
    Q_OBJECT
  public:
    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;

    // Without stages the session cannot read run files (open() fails, naming the file).
    void setStages(RunStages stages);
    bool canRead() const { return bool(m_stages.summary); }

    // Opens `request.path` with the focus asked for (empty compressor / sample: the
    // default focus). Opened again, the run comes back with the focus and selection it was
    // left with, unless the request names a focus; when its file has not changed since it
    // was read, and what was read is complete, it also comes back without reading the
    // file again (delivered as a load is, from the event loop; a focus other than the one
    // it was read at reads the details only). A request for another file starts afresh.
    void open(const RunRequest& request);
    // Another run is shown: whatever is being read is dropped (read again when this run is
    // shown again); what was read completely is kept.
    void suspend();
    // The selection of the run shown before, for a run shown for the first time: heads,
    // suite, overlap pair and signature carry over; the overlap ratio is the run's own.
    void carrySelection(const RunSelection& selection);
    // The file changed: re-reads the overview, then the details. While an overview is
    // being read the refresh waits for it (a poll faster than a load must not starve it).
    void refresh();
    void close();
    // Shows data made without a file (tests, the view benchmark): delivered as a loaded
    // run's stages are, summary, overview, details, without reading anything.
    void present(const RunViewData& data);

    // Focus changes re-read the details only.
    void setFocusConfiguration(const QString& compressor, double ratio);
    void setFocusSample(const QString& sampleKey); // empty = mean over samples
    // A drill-down to one row: its configuration and sample become the focus of every
    // view, then rowInspected asks the sample page to show it.
    void inspectRow(const ResultRow& row);

    const RunSelection& selection() const { return m_selection; }
    void setHeads(const HeadSelection& heads);
    void setAccuracySuite(const QString& suite);
    // Snapped to the run's ratio within ratioTolerance; an unknown ratio changes nothing.
    void setOverlapRatio(double ratio);
    void setOverlapPair(const QString& a, const QString& b);
    void setSignature(const QString& signature);

    const RunRequest& request() const { return m_request; }
    const QString& path() const { return m_request.path; }
    // The overview and the latest details delivered.
    const RunViewData& data() const { return m_data; }
    bool isLoading() const;
    // Whether the checksums of the file's current state were verified (false while the
    // background stage runs, and for a file whose rows were refused).
    bool isVerified() const { return m_verified; }

  signals:
    // The summary of a new state of the file (configurations, samples, accuracy); the rest
    // of `data` is the previous state's until overviewAvailable / detailsAvailable.
    void summaryAvailable(const RunViewData& data, bool refresh);
    // The whole overview (summary and aggregates) of the file's state.
    void overviewAvailable(const RunViewData& data, bool refresh);
    // The details of the current focus.
    void detailsAvailable(const RunViewData& data, bool refresh);
    // Both the overview and the current focus's details are in.
    void loaded(const RunViewData& data, bool refresh);
    // Every row verified; `unchecked` rows predate checksums and were read unverified.
    void verificationAvailable(qint64 unchecked);
    // A row changed after it was written: the run must not be shown.
    void verificationFailed(const QString& path, const QString& message);
    // Reading the file failed: on open (refresh false) it is refused; on refresh (a sweep
    // caught between states) the next change retries.
    void loadFailed(const QString& path, const QString& message, bool refresh);
    void busyChanged(bool busy);
    // The run was closed: every page clears.
    void closed();
    void headsChanged(const HeadSelection& heads);
    void accuracySuiteChanged(const QString& suite);
    void overlapRatioChanged(double ratio);
    void rowInspected(const ResultRow& row);

  private:
    void loadSummary(bool refresh);
    void loadAggregates(bool refresh);
    void loadDetails(bool refresh);
    void verify();
    void emitLoadedWhenComplete(bool refresh);
    // Before the overview or details are delivered: the overlap ratio asked for when the
    // run has it, else the run's default (announced with overlapRatioChanged).
    void settleOverlapRatio();
    // Puts back a run's remembered selection, announcing each part as its setter does.
    void restoreSelection(const RunSelection& selection);

    // Re-delivers what was read of the run (open() again), read at the focus `readAt`: the
    // stages as a load emits them; the details are read again when the focus is another.
    void presentAgain(const RunRequest& readAt);
    bool complete() const { return m_haveSummary && m_aggregatesIn && m_detailsIn; }
    void cancelReads();
    // Nothing read of the file is kept (not even as verified).
    void forgetData();
    // The whole file read again, from the summary, at the current request.
    void readAfresh();

    RunStages m_stages;
    RunRequest m_request;
    RunSelection m_selection;
    // The state of the file when the run was last left with what was read of it complete:
    // that is reused while the file still has this state.
    QString m_fileState;
    // Bumped by every open, present, suspend and close: a queued re-delivery of an older
    // one is dropped.
    quint64 m_generation = 0;
    RunViewData m_data;
    bool m_haveSummary = false;
    bool m_aggregatesIn = false; // of the current state of the file
    bool m_detailsIn = false;    // of the current focus
    bool m_verified = false;
    bool m_refreshPending = false;
    LatestRequest* m_summary = nullptr;
    LatestRequest* m_aggregates = nullptr;
    LatestRequest* m_details = nullptr;
    LatestRequest* m_verify = nullptr;
};

} // namespace kvl
