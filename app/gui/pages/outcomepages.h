#pragma once

#include "outcomegrids.h"
#include "runpage.h"

class QComboBox;

namespace kvl {

class BatchFigures;
class LatestRequest;
class OutcomeGridView;

// Overview › Outcome grid: per compressor × ratio, pooled over suites, the mean task score
// beside the C→W rate over FullCache-correct pairs, as the KVDiagnosis paper draws its
// population outcomes. Read from the run file on a worker thread when the overview lands.
class OutcomeGridPage : public RunPage
{
    Q_OBJECT
  public:
    explicit OutcomeGridPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;
    OutcomeGridView* view() const { return m_view; }

    // outcome-grid
    static void exportFigures(BatchFigures& figures);

  signals:
    void gridAvailable();

  protected:
    void connectSession(RunSession* session) override;

  private:
    OutcomeGridView* m_view;
    LatestRequest* m_request;
};

// Failures › Suite failures: per suite × ratio, the mean C→W rate over compressors beside
// the failure-set Jaccard of a chosen pair of compressors (SnapKV and TOVA by default, as
// the paper's failure views): do the suites that fail most also fail alike?
class SuiteFailuresPage : public RunPage
{
    Q_OBJECT
  public:
    explicit SuiteFailuresPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;
    OutcomeGridView* view() const { return m_view; }
    QComboBox* pairChooser(int index) const { return m_pair[index]; }
    CompressorPair pair() const;
    // Recomputes the Jaccard panel for another pair (no re-read of the file).
    void setPair(const CompressorPair& pair);

    // suite-failure-grid, for the default pair.
    static void exportFigures(BatchFigures& figures);

  signals:
    void gridAvailable();

  protected:
    void connectSession(RunSession* session) override;

  private:
    void showOutcomes(const RunOutcomes& outcomes);
    void draw();

    OutcomeGridView* m_view;
    QComboBox* m_pair[2];
    LatestRequest* m_request;
    RunOutcomes m_outcomes;
};

} // namespace kvl
