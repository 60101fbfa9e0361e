#include "detailhints.h"

#include "views/evictionmapview.h"
#include "views/heatmapview.h"

#include <QCoreApplication>
#include <QVariant>

namespace kvl {

namespace {

// The hint a view was built with, kept on the view while another one is shown.
const char* const kOwnHint = "kvlOwnEmptyHint";

void showHint(PlotView* view, const QString& hint)
{
    if (!view->property(kOwnHint).isValid())
        view->setProperty(kOwnHint, view->emptyHint());
    view->setEmptyHint(hint);
}

void restoreHint(PlotView* view)
{
    const QVariant own = view->property(kOwnHint);
    if (own.isValid())
        view->setEmptyHint(own.toString());
}

} // namespace

namespace {

// "" when every view may draw; else the hint of a focus that cannot be drawn.
QString noConfigurationHint(const RunViewData& data)
{
    if (data.resultCount == 0 || !data.focus.compressor.isEmpty())
        return {}; // describeRunState() has said why every view is empty
    return QCoreApplication::translate(
        "kvl::DetailHints",
        "No compressed configuration chosen.\nPick one in the Configuration box of "
        "the toolbar.");
}

QString becauseText(const ConfigChoice& focus, const QString& reason)
{
    return reason.isEmpty()
               ? QCoreApplication::translate("kvl::DetailHints", "The run holds no rows of %1.")
                     .arg(focus.label())
               : reason;
}

} // namespace

void describeAttentionViews(const RunViewData& data, HeatmapView* heatmap, HeatmapView* reference)
{
    const QString config = data.focus.label();
    const QString sample =
        data.sampleKey.isEmpty()
            ? QString()
            : QCoreApplication::translate("kvl::DetailHints", " · sample %1").arg(data.sampleKey);
    if (data.heatmapStandIn)
        heatmap->setTitle(QCoreApplication::translate(
                              "kvl::DetailHints",
                              "FullCache attention, entries evicted by %1 greyed%2 (its own "
                              "attention is not stored)")
                              .arg(config, sample));
    else
        heatmap->setTitle(
            QCoreApplication::translate("kvl::DetailHints", "Question attention — %1%2")
                .arg(config, sample));
    reference->setTitle(
        QCoreApplication::translate("kvl::DetailHints", "Question attention — FullCache%1")
            .arg(sample));
    const QString noConfig = noConfigurationHint(data);
    if (!noConfig.isEmpty()) {
        showHint(heatmap, noConfig);
        showHint(reference, noConfig);
    } else if (data.resultCount > 0) {
        showHint(heatmap,
                 QCoreApplication::translate("kvl::DetailHints", "No attention of %1 to draw.\n%2")
                     .arg(config, becauseText(data.focus, data.heatmapMissing)));
        showHint(reference, QCoreApplication::translate("kvl::DetailHints",
                                                        "No FullCache attention to draw.\n%1")
                                .arg(becauseText(data.focus, data.referenceMissing)));
    }
    heatmap->setNote(data.heatmapStandIn ? data.heatmapMissing : QString());
}

void describeEvictionView(const RunViewData& data, EvictionMapView* eviction)
{
    const QString config = data.focus.label();
    const QString noConfig = noConfigurationHint(data);
    if (!noConfig.isEmpty())
        showHint(eviction, noConfig);
    else if (data.resultCount > 0)
        showHint(eviction,
                 QCoreApplication::translate("kvl::DetailHints", "No eviction map of %1.\n%2")
                     .arg(config, becauseText(data.focus, data.evictionMissing)));
    // The eviction map names its configuration and whether it is one sample or a mean.
    QString what;
    if (!data.evictionAveraged && !data.sampleKey.isEmpty())
        what = QCoreApplication::translate("kvl::DetailHints", "sample %1").arg(data.sampleKey);
    else if (data.evictionSamples > 0)
        what = QCoreApplication::translate("kvl::DetailHints", "mean over %n sample(s)", nullptr,
                                           data.evictionSamples);
    eviction->setTitle(
        what.isEmpty()
            ? QCoreApplication::translate("kvl::DetailHints", "Eviction map — %1").arg(config)
            : QCoreApplication::translate("kvl::DetailHints", "Eviction map — %1 · %2")
                  .arg(config, what));
}

void describeRunState(const RunViewData& data, const QVector<PlotView*>& views)
{
    // Samples the sweep skipped whole (too long for the model, say), and the first reason.
    qint64 skipped = 0;
    QString firstReason;
    for (const MissingCell& m : data.missing)
        if (m.compressor.isEmpty()) {
            skipped += m.samples;
            if (firstReason.isEmpty())
                firstReason = m.reason;
        }
    const bool everySkipped = data.resultCount == 0 && skipped > 0;
    if (data.path.isEmpty() || (data.sampleCount > 0 && !everySkipped)) {
        for (PlotView* view : views)
            restoreHint(view);
        return;
    }
    if (everySkipped) {
        const QString hint =
            QCoreApplication::translate("kvl::DetailHints",
                                        "No row in this run: the sweep skipped all %n sample(s).\n"
                                        "First reason: %1",
                                        nullptr, int(skipped))
                .arg(firstReason);
        for (PlotView* view : views)
            showHint(view, hint);
        return;
    }
    const QString hint =
        data.status == QLatin1String("running")
            ? QCoreApplication::translate(
                  "kvl::DetailHints",
                  "No sample in this run yet.\nThe run file says it is running, and no sample "
                  "has finished. A run still preparing fills in as samples finish; a run "
                  "cancelled before its first sample keeps this state (start it again with the "
                  "same --out to resume).")
            : QCoreApplication::translate("kvl::DetailHints",
                                          "No sample in this run.\nThe run file's status is "
                                          "'%1' and it holds no finished sample.")
                  .arg(data.status.isEmpty() ? QStringLiteral("?") : data.status);
    for (PlotView* view : views)
        showHint(view, hint);
}

} // namespace kvl
