#pragma once

#include "resultrowsmodel.h"
#include "runpage.h"

namespace kvl {

class ComparePanel;
class LatestRequest;
class RunComparePanel;
class SampleInspector;

// Samples › Sample: one row read whole (context with its evidence and the entries
// evicted, the answers, the metrics, the two attention maps). A drill-down anywhere
// (RunSession::inspectRow) lands here.
class SamplePage : public RunPage
{
    Q_OBJECT
  public:
    explicit SamplePage(PageHost& host);

    PlotView* exportedView() const override;
    PageFigure figure() const override;
    ShownSelection shownSelection(const ShownSelection& focus) const override;
    void clear() override;
    // The row shown is part of the session file; a restore shows it again.
    void saveState(SessionState& state) const override;
    void restoreState(const SessionState& state) override;
    SampleInspector* inspector() const { return m_inspector; }

  signals:
    // The inspected row's sample was read and is shown.
    void detailAvailable(const QString& sampleKey);

  protected:
    void connectSession(RunSession* session) override;

  private:
    void inspect(const ResultRow& row);
    // Reads the row's sample off the GUI thread and shows it.
    void load(const QString& sampleKey, const QString& compressor, double ratio);

    SampleInspector* m_inspector = nullptr;
    LatestRequest* m_request = nullptr;
};

// Samples › Compare samples: one sample under FullCache and two configurations (of this
// run or another open run) side by side, on one colour scale.
class CompareSamplesPage : public RunPage
{
    Q_OBJECT
  public:
    explicit CompareSamplesPage(PageHost& host);

    // A's map for the CSV; the figure takes all three panels.
    PlotView* exportedView() const override;
    PageFigure figure() const override;
    ShownSelection shownSelection(const ShownSelection& focus) const override;
    void clear() override;
    ComparePanel* panel() const { return m_panel; }

  protected:
    void connectSession(RunSession* session) override;

  private:
    void updateChoices();

    ComparePanel* m_panel = nullptr;
};

// Samples › Compare runs: two open runs over their matched samples.
class CompareRunsPage : public RunPage
{
    Q_OBJECT
  public:
    explicit CompareRunsPage(PageHost& host);

    RunComparePanel* panel() const { return m_panel; }

  protected:
    void connectSession(RunSession* session) override;

  private:
    RunComparePanel* m_panel = nullptr;
};

} // namespace kvl
