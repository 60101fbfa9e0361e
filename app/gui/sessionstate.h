#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace kvl {

// What the window remembers between sessions: open runs, selections, view
// settings. Saved as a small JSON file; unknown keys are ignored and missing
// keys keep their defaults, so old and new versions read each other's files.
struct SessionState
{
    static constexpr int formatVersion = 1;

    QStringList openRuns;
    QString currentRun;
    int currentTab = 0;
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
    QString accuracySuite; // empty: every suite
    QByteArray windowGeometry;
    QByteArray windowState;

    QJsonObject toJson() const;
    static SessionState fromJson(const QJsonObject& object);

    // Throws kvl::Error naming the file when it cannot be read or parsed.
    static SessionState load(const QString& path);
    void save(const QString& path) const;

    // Default location: <AppConfigLocation>/session.json.
    static QString defaultPath();

    bool operator==(const SessionState&) const = default;
};

} // namespace kvl
