#pragma once

#include "runpage.h"

namespace kvl {

class BatchFigures;
class HeadGridView;
class HeadSelector;
class HeatmapView;

// Attention › Question attention: FullCache's attention above the compressed
// configuration's, for one sample, zoomed together on one colour scale, so the evidence
// column bright in one and evicted in the other is seen at a glance. A layer × kv-head
// selector above them picks their rows; "every head" shows all of them as small
// multiples in their place.
class AttentionPage : public RunPage
{
    Q_OBJECT
  public:
    explicit AttentionPage(PageHost& host);

    // The head grid while it stands in for the two maps.
    PlotView* exportedView() const override;
    PageFigure figure() const override;
    ShownSelection shownSelection(const ShownSelection& focus) const override;
    void clear() override;
    void saveState(SessionState& state) const override;
    void restoreState(const SessionState& state) override;

    HeatmapView* heatmap() const { return m_heatmap; }
    HeatmapView* referenceHeatmap() const { return m_reference; }
    HeadSelector* headSelector() const { return m_heads; }
    HeadGridView* headGrid() const { return m_grid; }

    // heatmap-fullcache and heatmap-<compressor>-r<ratio> of the focus.
    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    void showDetails(const RunViewData& data);
    void updateHeadGrid();

    HeatmapView* m_heatmap = nullptr;
    HeatmapView* m_reference = nullptr;
    HeadSelector* m_heads = nullptr;
    HeadGridView* m_grid = nullptr;
};

} // namespace kvl
