#include "runsession.h"

#include "latestrequest.h"
#include "rowchecksumcache.h"
#include "storerunloader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace kvl {

RunStages storeRunStages()
{
    RunStages stages;
    stages.summary = [](const QString& path) {
        RunReader reader(path);
        RunViewData data;
        data.path = path;
        loadRunSummary(reader, data);
        return data;
    };
    stages.aggregates = [](const QString& path, const RunViewData& summary) {
        RunReader reader(path);
        RunViewData data = summary;
        loadRunAggregates(reader, data);
        return data;
    };
    stages.details = [](const RunRequest& request, const RunViewData& summary) {
        RunReader reader(request.path);
        RunViewData data = summary;
        loadRunDetails(reader, request, data);
        return data;
    };
    stages.verify = [](const QString& path) {
        RunReader reader(path);
        return verifiedRowChecksums(reader);
    };
    return stages;
}

namespace {
// What tells one state of a run file from the next: a sweep's commit changes the WAL (or,
// after a checkpoint, the file), its size or its time. Empty for a path that is no file
// (data made without one).
QString runFileState(const QString& path)
{
    QStringList parts;
    for (const QString& file : {path, path + QStringLiteral("-wal")}) {
        const QFileInfo info(file);
        if (info.exists())
            parts << QString::number(info.size())
                  << QString::number(info.lastModified().toMSecsSinceEpoch());
        else
            parts << QStringLiteral("-");
    }
    return parts.join(QLatin1Char(' '));
}
} // namespace

RunSession::RunSession(QObject* parent)
    : QObject(parent), m_summary(new LatestRequest(this)), m_aggregates(new LatestRequest(this)),
      m_details(new LatestRequest(this)), m_verify(new LatestRequest(this))
{
    for (LatestRequest* r : {m_summary, m_aggregates, m_details})
        connect(r, &LatestRequest::busyChanged, this, [this] { emit busyChanged(isLoading()); });
}

RunSession::~RunSession() = default;

void RunSession::setStages(RunStages stages)
{
    m_stages = std::move(stages);
}

bool RunSession::isLoading() const
{
    return m_summary->isBusy() || m_aggregates->isBusy() || m_details->isBusy();
}

void RunSession::cancelReads()
{
    ++m_generation;
    for (LatestRequest* r : {m_summary, m_aggregates, m_details, m_verify})
        r->cancel();
    m_refreshPending = false;
}

void RunSession::open(const RunRequest& request)
{
    cancelReads();
    if (!canRead()) {
        emit loadFailed(request.path,
                        QCoreApplication::translate("kvl::RunSession",
                                                    "This build of KVLens cannot read run files "
                                                    "yet.\n%1 was not opened.")
                            .arg(request.path),
                        false);
        return;
    }
    if (request.path != m_request.path || !m_haveSummary) {
        // Shown for the first time (or its first read never came back): read it all.
        m_request = request;
        readAfresh();
        return;
    }
    // Shown again: as it was left, unless the request names its own focus.
    const RunRequest readAt = m_request;
    const bool ownFocus = !request.compressor.isEmpty() || !request.sampleKey.isEmpty();
    if (ownFocus)
        m_request = request;
    restoreSelection(m_selection); // announced to whoever bound to the run since
    if (complete() && m_fileState == runFileState(m_request.path)) {
        presentAgain(readAt);
        return;
    }
    readAfresh();
}

void RunSession::forgetData()
{
    m_data = {};
    m_haveSummary = m_aggregatesIn = m_detailsIn = false;
    m_verified = false;
}

void RunSession::readAfresh()
{
    forgetData();
    loadSummary(false);
}

void RunSession::suspend()
{
    // A read cut short is made again when the run is shown again (complete() fails); so
    // is a verification (verify() cleared m_verified when it started).
    cancelReads();
    // Taken as the run is left, after its reads (reading a file may leave a WAL beside
    // it): the file's state the data was read from, while the watcher saw no change.
    if (complete())
        m_fileState = runFileState(m_request.path);
}

void RunSession::carrySelection(const RunSelection& selection)
{
    m_selection = selection;
    m_selection.overlapRatio = -1.0; // the run's own default until one is chosen
}

void RunSession::presentAgain(const RunRequest& readAt)
{
    // From the event loop, as a load delivers: whoever opened the run connects first.
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(
        this,
        [this, generation, readAt] {
            if (generation != m_generation)
                return; // another open, present, suspend or close came first
            // The focus asked for now (it may have changed since open()).
            const bool sameFocus = m_request.compressor == readAt.compressor &&
                                   m_request.ratio == readAt.ratio &&
                                   m_request.sampleKey == readAt.sampleKey;
            emit summaryAvailable(m_data, false);
            settleOverlapRatio();
            emit overviewAvailable(m_data, false);
            if (!sameFocus) {
                loadDetails(false); // another focus: its details only
            } else {
                emit detailsAvailable(m_data, false);
                emitLoadedWhenComplete(false);
            }
            if (m_verified)
                emit verificationAvailable(m_data.uncheckedRows);
            else
                verify();
        },
        Qt::QueuedConnection);
}

void RunSession::refresh()
{
    if (m_request.path.isEmpty() || !canRead())
        return;
    // Coalesce: an overview slower than the poll interval must finish, not be superseded
    // by every poll (it would never deliver during a long sweep).
    if (m_summary->isBusy() || m_aggregates->isBusy()) {
        m_refreshPending = true;
        return;
    }
    loadSummary(true);
}

void RunSession::close()
{
    cancelReads();
    m_request = {};
    forgetData();
    m_fileState.clear();
    m_selection.overlapRatio = -1.0;
    emit closed();
}

void RunSession::present(const RunViewData& data)
{
    cancelReads();
    if (data.path != m_request.path)
        m_selection.overlapRatio = -1.0;
    // No sample asked for: the data's sample is the one its detail views drew.
    m_request = RunRequest{data.path, data.focus.compressor, data.focus.ratio, {}};
    m_data = data;
    m_fileState = runFileState(data.path);
    m_haveSummary = m_aggregatesIn = m_detailsIn = true;
    m_verified = true;
    emit summaryAvailable(m_data, false);
    settleOverlapRatio();
    emit overviewAvailable(m_data, false);
    emit detailsAvailable(m_data, false);
}

void RunSession::inspectRow(const ResultRow& row)
{
    if (m_request.path.isEmpty())
        return;
    const StoredResult& r = row.result;
    // Every view follows the drill-down: the toolbar, the selection line and the other
    // pages agree with the sample page.
    const ConfigChoice config{r.compressor, r.ratio};
    if (m_data.configs.contains(config) && !(config == m_data.focus))
        setFocusConfiguration(r.compressor, r.ratio);
    if (m_request.sampleKey != r.sampleKey)
        setFocusSample(r.sampleKey);
    emit rowInspected(row);
}

void RunSession::setHeads(const HeadSelection& heads)
{
    m_selection.heads = heads;
    emit headsChanged(heads);
}

void RunSession::setAccuracySuite(const QString& suite)
{
    m_selection.accuracySuite = suite;
    emit accuracySuiteChanged(suite);
}

void RunSession::restoreSelection(const RunSelection& selection)
{
    setHeads(selection.heads);
    setAccuracySuite(selection.accuracySuite);
    setOverlapPair(selection.overlapA, selection.overlapB);
    setSignature(selection.signature);
    // Settled against the run's ratios when they land (settleOverlapRatio).
    m_selection.overlapRatio = selection.overlapRatio;
}

void RunSession::setOverlapRatio(double ratio)
{
    for (double r : m_data.overlapRatios)
        if (sameRatio(r, ratio)) {
            m_selection.overlapRatio = r;
            emit overlapRatioChanged(r);
            return;
        }
    // Before the run's ratios are known (a restore): kept, checked when they land.
    if (m_data.overlapRatios.isEmpty())
        m_selection.overlapRatio = ratio;
}

void RunSession::settleOverlapRatio()
{
    // Before the run's ratios are known (details ahead of the aggregates) a restored ratio
    // waits for them.
    if (m_data.overlapRatios.isEmpty())
        return;
    double settled = m_data.overlapRatios.value(m_data.overlapIndex, -1.0);
    for (double r : m_data.overlapRatios)
        if (sameRatio(r, m_selection.overlapRatio))
            settled = r;
    if (settled == m_selection.overlapRatio)
        return;
    m_selection.overlapRatio = settled;
    if (settled >= 0)
        emit overlapRatioChanged(settled);
}

void RunSession::setOverlapPair(const QString& a, const QString& b)
{
    m_selection.overlapA = a;
    m_selection.overlapB = b;
}

void RunSession::setSignature(const QString& signature)
{
    m_selection.signature = signature;
}

void RunSession::setFocusConfiguration(const QString& compressor, double ratio)
{
    if (m_request.path.isEmpty() || !canRead())
        return;
    m_request.compressor = compressor;
    m_request.ratio = ratio;
    // Before the first summary the focus is read with it.
    if (m_haveSummary)
        loadDetails(true);
}

void RunSession::setFocusSample(const QString& sampleKey)
{
    if (m_request.path.isEmpty() || !canRead())
        return;
    m_request.sampleKey = sampleKey;
    if (m_haveSummary)
        loadDetails(true);
}

void RunSession::loadSummary(bool refresh)
{
    m_refreshPending = false;
    // Aggregates or details of the previous state would land on the new summary: drop them.
    m_aggregates->cancel();
    m_details->cancel();
    m_aggregatesIn = m_detailsIn = false;
    const QString path = m_request.path;
    const auto stage = m_stages.summary;
    m_summary->run<RunViewData>([stage, path] { return stage(path); },
                                [this, refresh, path](const RunViewData& summary) {
                                    takeSummary(m_data, summary);
                                    m_data.path = path;
                                    m_haveSummary = true;
                                    // Until the new aggregates and details land, the previous ones
                                    // stay shown.
                                    emit summaryAvailable(m_data, refresh);
                                    loadAggregates(refresh);
                                    loadDetails(refresh);
                                },
                                [this, refresh, path](const QString& message) {
                                    emit loadFailed(path, message, refresh);
                                    if (m_refreshPending)
                                        loadSummary(true);
                                });
}

void RunSession::loadAggregates(bool refresh)
{
    const QString path = m_request.path;
    const RunViewData summary = m_data;
    const auto stage = m_stages.aggregates;
    m_aggregates->run<RunViewData>(
        [stage, path, summary] { return stage ? stage(path, summary) : summary; },
        [this, refresh](const RunViewData& data) {
            takeAggregates(m_data, data);
            settleOverlapRatio();
            m_aggregatesIn = true;
            emit overviewAvailable(m_data, refresh);
            emitLoadedWhenComplete(refresh);
            // After the overview is shown: the file's state may be new (a sweep committed).
            verify();
            if (m_refreshPending)
                loadSummary(true);
        },
        [this, refresh, path](const QString& message) {
            emit loadFailed(path, message, refresh);
            if (m_refreshPending)
                loadSummary(true);
        });
}

void RunSession::loadDetails(bool refresh)
{
    m_detailsIn = false;
    const RunRequest request = m_request;
    const RunViewData summary = m_data;
    const auto stage = m_stages.details;
    m_details->run<RunViewData>(
        [stage, request, summary] { return stage ? stage(request, summary) : summary; },
        [this, refresh](const RunViewData& data) {
            takeDetails(m_data, data);
            settleOverlapRatio();
            m_detailsIn = true;
            emit detailsAvailable(m_data, refresh);
            emitLoadedWhenComplete(refresh);
        },
        [this, refresh, path = request.path](const QString& message) {
            emit loadFailed(path, message, refresh);
        });
}

void RunSession::emitLoadedWhenComplete(bool refresh)
{
    if (m_aggregatesIn && m_detailsIn)
        emit loaded(m_data, refresh);
}

void RunSession::verify()
{
    if (!m_stages.verify) {
        m_verified = true;
        return;
    }
    m_verified = false;
    const QString path = m_request.path;
    const auto stage = m_stages.verify;
    m_verify->run<RowChecksums>([stage, path] { return stage(path); },
                                [this](const RowChecksums& counts) {
                                    m_verified = true;
                                    m_data.uncheckedRows = counts.unverified;
                                    emit verificationAvailable(counts.unverified);
                                },
                                [this, path](const QString& message) {
                                    m_verified = false;
                                    emit verificationFailed(path, message);
                                });
}

} // namespace kvl
