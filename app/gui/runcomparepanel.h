#pragma once

#include "runcomparisonviews.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace kvl {

class AccuracyDeltaModel;
class LatestRequest;
class RatioCurvesView;

// The Runs page of the Compare tab: two open runs (two models, or two settings)
// compared over the samples they share by content. Says how many samples matched,
// names the mismatched ones (same id, other content) and those in one run only,
// overlays both runs' accuracy curves and lists accuracy A, B and Δ per compressor ×
// ratio (exportable as CSV with its provenance).
class RunComparePanel : public QWidget
{
    Q_OBJECT
  public:
    explicit RunComparePanel(QWidget* parent = nullptr);

    // The open runs. Picks stay where they are still open; else A is `current` and B
    // the first other run. Reloads.
    void setRuns(const QStringList& paths, const QString& current);
    void pick(const QString& pathA, const QString& pathB);
    QString pathA() const;
    QString pathB() const;

    const RunComparisonViews& comparison() const { return m_views; }
    QString summaryText() const;
    QStringList mismatchLines() const;
    RatioCurvesView* curves() const { return m_curves; }
    AccuracyDeltaModel* deltaModel() const { return m_model; }
    // The delta table as CSV with the '#' provenance lines of the views' exports.
    void exportCsv(const QString& path) const;

  signals:
    void comparisonAvailable();

  private:
    void reload();
    // The plot's hint while fewer than two different runs are picked.
    static QString twoRunsHint();

    QStringList m_paths;
    QComboBox* m_pick[2];
    QLabel* m_summary;
    QListWidget* m_mismatches;
    RatioCurvesView* m_curves;
    QTableView* m_table;
    AccuracyDeltaModel* m_model;
    QPushButton* m_export;
    LatestRequest* m_request;
    RunComparisonViews m_views;
};

} // namespace kvl
