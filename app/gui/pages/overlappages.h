#pragma once

#include "runpage.h"

class QComboBox;

namespace kvl {

class BatchFigures;
class FailureSetsView;
class OverlapLists;
class OverlapMatrixView;
struct OverlapSelection;

// Failures › Failure overlap: which compressors fail on the same samples, at one ratio (a
// chooser above the matrix); a click on a cell lists the pair's failures side by side
// below it and in the Rows dock. The ratio is the session's, shared with the failure sets.
class OverlapPage : public RunPage
{
    Q_OBJECT
  public:
    explicit OverlapPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;

    OverlapMatrixView* view() const { return m_view; }
    OverlapLists* lists() const { return m_lists; }
    QComboBox* ratioChooser() const { return m_ratios; }

    // overlap-r<ratio> for every ratio with an overlap.
    static void exportFigures(BatchFigures& figures);
    // Lists the pair's failures below the matrix and in the Rows dock (a click on a cell).
    void showPair(const OverlapSelection& selection);

  protected:
    void connectSession(RunSession* session) override;

  private:
    void showRun(const RunViewData& data);
    void showRatio(double ratio);

    OverlapMatrixView* m_view = nullptr;
    OverlapLists* m_lists = nullptr; // the selected pair's failures side by side
    QComboBox* m_ratios = nullptr;
};

// Failures › Failure sets: the UpSet view of which compressors fail which samples, at the
// session's overlap ratio; a click on a column lists its rows.
class FailureSetsPage : public RunPage
{
    Q_OBJECT
  public:
    explicit FailureSetsPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;

    FailureSetsView* view() const { return m_view; }
    QComboBox* ratioChooser() const { return m_ratios; }

    // failure-sets-r<ratio> for every ratio with an overlap.
    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    void showRun(const RunViewData& data);
    void showRatio(double ratio);

    FailureSetsView* m_view = nullptr;
    QComboBox* m_ratios = nullptr;
};

// The index of the session's overlap ratio among the run's; -1 when the run has none.
int overlapRatioIndex(const RunSession* session);

} // namespace kvl
