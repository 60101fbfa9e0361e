#include "sessionstate.h"

#include "common/jsonio.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>
#include <iterator>

namespace kvl {

namespace {

// HeadSelection::Mode in the file: words, not enum values that may be reordered.
const std::pair<HeadSelection::Mode, const char*> kHeadModes[] = {
    {HeadSelection::Mode::LayersMean, "layers_mean"},
    {HeadSelection::Mode::LayerHeads, "layer_heads"},
    {HeadSelection::Mode::OneHead, "one_head"},
    {HeadSelection::Mode::EveryHead, "every_head"}};

QJsonArray rangeToJson(const std::pair<int, int>& range)
{
    return QJsonArray{range.first, range.second};
}

// A missing or malformed range is no zoom.
std::pair<int, int> rangeFromJson(const QJsonValue& value)
{
    const QJsonArray a = value.toArray();
    if (a.size() != 2 || !a.at(0).isDouble() || !a.at(1).isDouble())
        return {-1, -1};
    const int begin = a.at(0).toInt(-1), end = a.at(1).toInt(-1);
    return begin >= 0 && end > begin ? std::pair{begin, end} : std::pair{-1, -1};
}

} // namespace

QString SessionState::legacyTabPage(int index)
{
    // The tabs of the window before the navigator, in their order.
    static const char* const tabs[] = {
        "accuracy",      "taxonomy",        "chain-breaks", "overlap",   "failure-sets",
        "attention",     "eviction",        "ger",          "span-keep", "leakage",
        "interventions", "compare-samples", "sample"};
    return index >= 0 && index < int(std::size(tabs)) ? QString::fromLatin1(tabs[index])
                                                      : QString();
}

QJsonObject SessionState::toJson() const
{
    QJsonObject o;
    o[QLatin1String("version")] = formatVersion;
    o[QLatin1String("open_runs")] = QJsonArray::fromStringList(openRuns);
    o[QLatin1String("current_run")] = currentRun;
    o[QLatin1String("current_page")] = currentPage;
    QJsonObject view;
    view[QLatin1String("theme")] = theme;
    view[QLatin1String("heatmap_colormap")] = heatmapColorMap;
    view[QLatin1String("heatmap_log_scale")] = heatmapLogScale;
    view[QLatin1String("taxonomy_shares")] = taxonomyShares;
    o[QLatin1String("view")] = view;
    QJsonObject selection;
    selection[QLatin1String("compressor")] = selectedCompressor;
    selection[QLatin1String("ratio")] = selectedRatio;
    selection[QLatin1String("signature")] = selectedSignature;
    selection[QLatin1String("overlap_a")] = overlapA;
    selection[QLatin1String("overlap_b")] = overlapB;
    selection[QLatin1String("accuracy_suite")] = accuracySuite;
    selection[QLatin1String("sample")] = selectedSample;
    selection[QLatin1String("overlap_ratio")] = overlapRatio;
    QJsonObject heatmapHeads;
    for (const auto& [mode, name] : kHeadModes)
        if (mode == heads.mode)
            heatmapHeads[QLatin1String("mode")] = QLatin1String(name);
    heatmapHeads[QLatin1String("layer")] = heads.layer;
    heatmapHeads[QLatin1String("head")] = heads.head;
    selection[QLatin1String("heads")] = heatmapHeads;
    if (attentionZoom.first >= 0)
        selection[QLatin1String("attention_zoom")] = rangeToJson(attentionZoom);
    if (evictionZoom.first >= 0)
        selection[QLatin1String("eviction_zoom")] = rangeToJson(evictionZoom);
    if (!inspectedSample.isEmpty())
        selection[QLatin1String("inspected")] =
            QJsonObject{{QLatin1String("sample"), inspectedSample},
                        {QLatin1String("compressor"), inspectedCompressor},
                        {QLatin1String("ratio"), inspectedRatio}};
    o[QLatin1String("selection")] = selection;
    QJsonObject window;
    window[QLatin1String("geometry")] = QString::fromLatin1(windowGeometry.toBase64());
    window[QLatin1String("state")] = QString::fromLatin1(windowState.toBase64());
    o[QLatin1String("window")] = window;
    return o;
}

SessionState SessionState::fromJson(const QJsonObject& o)
{
    SessionState s;
    for (const QJsonValue& v : o.value(QLatin1String("open_runs")).toArray())
        if (v.isString())
            s.openRuns << v.toString();
    s.currentRun = o.value(QLatin1String("current_run")).toString();
    if (o.contains(QLatin1String("current_page")))
        s.currentPage = o.value(QLatin1String("current_page")).toString(s.currentPage);
    else if (const QString page = legacyTabPage(o.value(QLatin1String("current_tab")).toInt(-1));
             !page.isEmpty())
        s.currentPage = page;
    const QJsonObject view = o.value(QLatin1String("view")).toObject();
    s.theme = view.value(QLatin1String("theme")).toString(s.theme);
    s.heatmapColorMap = view.value(QLatin1String("heatmap_colormap")).toString(s.heatmapColorMap);
    s.heatmapLogScale = view.value(QLatin1String("heatmap_log_scale")).toBool(s.heatmapLogScale);
    s.taxonomyShares = view.value(QLatin1String("taxonomy_shares")).toBool(s.taxonomyShares);
    const QJsonObject sel = o.value(QLatin1String("selection")).toObject();
    s.selectedCompressor = sel.value(QLatin1String("compressor")).toString();
    s.selectedRatio = sel.value(QLatin1String("ratio")).toDouble(s.selectedRatio);
    s.selectedSignature = sel.value(QLatin1String("signature")).toString();
    s.overlapA = sel.value(QLatin1String("overlap_a")).toString();
    s.overlapB = sel.value(QLatin1String("overlap_b")).toString();
    s.accuracySuite = sel.value(QLatin1String("accuracy_suite")).toString();
    s.selectedSample = sel.value(QLatin1String("sample")).toString();
    s.overlapRatio = sel.value(QLatin1String("overlap_ratio")).toDouble(s.overlapRatio);
    const QJsonObject heatmapHeads = sel.value(QLatin1String("heads")).toObject();
    const QString mode = heatmapHeads.value(QLatin1String("mode")).toString();
    for (const auto& [value, name] : kHeadModes)
        if (mode == QLatin1String(name))
            s.heads.mode = value;
    s.heads.layer = std::max(0, heatmapHeads.value(QLatin1String("layer")).toInt(0));
    s.heads.head = std::max(0, heatmapHeads.value(QLatin1String("head")).toInt(0));
    s.attentionZoom = rangeFromJson(sel.value(QLatin1String("attention_zoom")));
    s.evictionZoom = rangeFromJson(sel.value(QLatin1String("eviction_zoom")));
    const QJsonObject inspected = sel.value(QLatin1String("inspected")).toObject();
    s.inspectedSample = inspected.value(QLatin1String("sample")).toString();
    s.inspectedCompressor = inspected.value(QLatin1String("compressor")).toString();
    s.inspectedRatio = inspected.value(QLatin1String("ratio")).toDouble(-1.0);
    const QJsonObject window = o.value(QLatin1String("window")).toObject();
    s.windowGeometry =
        QByteArray::fromBase64(window.value(QLatin1String("geometry")).toString().toLatin1());
    s.windowState =
        QByteArray::fromBase64(window.value(QLatin1String("state")).toString().toLatin1());
    return s;
}

SessionState SessionState::load(const QString& path)
{
    return fromJson(readJsonObject(path));
}

void SessionState::save(const QString& path) const
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    writeFileAtomically(path, QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
}

QString SessionState::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           QStringLiteral("/session.json");
}

} // namespace kvl
