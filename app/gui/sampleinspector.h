#pragma once

#include "sampledetail.h"

#include <QWidget>

class QLabel;
class QTextBrowser;
class QToolButton;

namespace kvl {

class HeatmapView;

// One sample under one configuration: the question (and system turn) it asked, its
// context with evidence and instruction spans marked and tokens coloured by how many
// heads kept them, with buttons that scroll to each evidence span in turn, the
// answer against the gold and FullCache's, the row's metrics and signature, and the
// question attention under FullCache beside this configuration.
class SampleInspector : public QWidget
{
    Q_OBJECT
  public:
    explicit SampleInspector(QWidget* parent = nullptr);

    void setDetail(const SampleDetail& detail);
    const SampleDetail& detail() const { return m_detail; }
    void clear();
    void setBusy(const QString& what);
    // What the maps say before a row is chosen (empty: how to choose one); an imported
    // run says what its source did not release.
    void setIdleHint(const QString& hint);

    HeatmapView* referenceHeatmap() const { return m_reference; }
    HeatmapView* heatmap() const { return m_heatmap; }
    QString contextText() const;
    QString summaryText() const;
    // "Question: ..." and "System: ..." as shown (plain text); empty when not stored.
    QString questionText() const;
    QTextBrowser* contextView() const { return m_context; }

    // Evidence spans in the context, in order of position; the one scrolled to last
    // (-1: none yet).
    int evidenceCount() const;
    int currentEvidence() const { return m_evidence; }
    // Scrolls the context so evidence span `index` is in view; false when there is none.
    bool scrollToEvidence(int index);
    void nextEvidence();
    void previousEvidence();

  private:
    QString m_idleHint;
    void updateEvidenceButtons();

    SampleDetail m_detail;
    QLabel* m_summary;
    QLabel* m_metrics;
    QLabel* m_legend;
    QLabel* m_question;
    QTextBrowser* m_context;
    QToolButton* m_toEvidence;
    QToolButton* m_prevEvidence;
    QToolButton* m_nextEvidence;
    QLabel* m_evidenceAt;
    QVector<int> m_evidenceStarts;
    int m_evidence = -1;
    HeatmapView* m_reference;
    HeatmapView* m_heatmap;
};

} // namespace kvl
