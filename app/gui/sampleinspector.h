#pragma once

#include "sampledetail.h"

#include <QWidget>

class QLabel;
class QTextBrowser;

namespace kvl {

class HeatmapView;

// One sample under one configuration: its context with evidence and instruction
// spans marked and tokens coloured by how many heads kept them, the answer against
// the gold and FullCache's, the row's metrics and signature, and the question
// attention under FullCache beside this configuration.
class SampleInspector : public QWidget
{
    Q_OBJECT
  public:
    explicit SampleInspector(QWidget* parent = nullptr);

    void setDetail(const SampleDetail& detail);
    const SampleDetail& detail() const { return m_detail; }
    void clear();
    void setBusy(const QString& what);

    HeatmapView* referenceHeatmap() const { return m_reference; }
    HeatmapView* heatmap() const { return m_heatmap; }
    QString contextText() const;
    QString summaryText() const;

  private:
    SampleDetail m_detail;
    QLabel* m_summary;
    QLabel* m_metrics;
    QLabel* m_legend;
    QTextBrowser* m_context;
    HeatmapView* m_reference;
    HeatmapView* m_heatmap;
};

} // namespace kvl
