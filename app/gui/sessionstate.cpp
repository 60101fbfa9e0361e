#include "sessionstate.h"

#include "common/jsonio.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

namespace kvl {

QJsonObject SessionState::toJson() const
{
    QJsonObject o;
    o[QLatin1String("version")] = formatVersion;
    o[QLatin1String("open_runs")] = QJsonArray::fromStringList(openRuns);
    o[QLatin1String("current_run")] = currentRun;
    o[QLatin1String("current_tab")] = currentTab;
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
    s.currentTab = o.value(QLatin1String("current_tab")).toInt(s.currentTab);
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
