#pragma once

#include "views/headselection.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <utility>

namespace kvl {

// What the window remembers between sessions: open runs, selections, view
// settings. Saved as a small JSON file; unknown keys are ignored and missing
// keys keep their defaults, so old and new versions read each other's files.
struct SessionState
{
    static constexpr int formatVersion = 1;

    QStringList openRuns;
    QString currentRun;
    // The navigator page (MainWindow::currentPage()); files of the tabbed window
    // stored "current_tab", read through legacyTabPage().
    QString currentPage = QStringLiteral("accuracy");
    QString theme = QStringLiteral("light");
    QString heatmapColorMap = QStringLiteral("viridis");
    bool heatmapLogScale = false;
    bool taxonomyShares = false;
    // Selections
    QString selectedCompressor;
    double selectedRatio = -1.0;
    QString selectedSignature;
    QString overlapA;
    QString overlapB;
    QString accuracySuite;      // empty: every suite
    QString selectedSample;     // of the attention and eviction views; empty: all (mean)
    double overlapRatio = -1.0; // of the failure overlap and sets; -1: the run's default
    HeadSelection heads;        // rows of the attention heatmap
    // Zoomed position ranges [begin, end) of the attention and eviction maps; -1: whole.
    std::pair<int, int> attentionZoom{-1, -1};
    std::pair<int, int> evictionZoom{-1, -1};
    // The row the Sample page showed (its sample and configuration); empty: none.
    QString inspectedSample;
    QString inspectedCompressor;
    double inspectedRatio = -1.0;
    QByteArray windowGeometry;
    QByteArray windowState;

    QJsonObject toJson() const;
    static SessionState fromJson(const QJsonObject& object);

    // Throws kvl::Error naming the file when it cannot be read or parsed.
    static SessionState load(const QString& path);
    void save(const QString& path) const;

    // The page the tabbed window's tab `index` showed; empty when out of range.
    static QString legacyTabPage(int index);

    // Default location: <AppConfigLocation>/session.json.
    static QString defaultPath();

    bool operator==(const SessionState&) const = default;
};

} // namespace kvl
