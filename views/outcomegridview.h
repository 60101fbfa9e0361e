#pragma once

#include "gridpanelsdata.h"
#include "plotview.h"

class QCPAxisRect;

namespace kvl {

// Which grid a view shows while it is empty (its title and hint); with data, the
// GridPanels' own title.
enum class GridFigure
{
    Outcomes,     // compressor × ratio: mean task score, C→W rate
    SuiteFailures // suite × ratio: mean C→W rate, failure-set Jaccard of two compressors
};

// Two annotated heatmaps side by side over the same rows and compression ratios, as the
// KVDiagnosis paper draws its population outcomes and failure views: each cell's value
// written in it on a fixed colour range per panel, missing values grey with "n/a" (never
// 0). Hovering a cell shows the counts behind its value, or why it is missing.
class OutcomeGridView : public PlotView
{
    Q_OBJECT
  public:
    explicit OutcomeGridView(GridFigure figure = GridFigure::Outcomes, QWidget* parent = nullptr);

    // Draws the panels (app/viewdata/outcomegrids.h: outcomePanels, suiteFailurePanels);
    // empty or inconsistent panels (cells not rows × ratios) leave the view empty.
    void setData(const GridPanels& data);
    const GridPanels& data() const { return m_data; }
    void clear() override;

    // One line per row and ratio: <row column>,ratio, then for each panel its value, its
    // constant columns, its counts and why the value is missing (empty when present).
    // Missing values are empty fields.
    QString csv() const override;

    // The cell under a plot-widget position; panel 0 (left) or 1 (right), -1 outside.
    struct Hit
    {
        int panel = -1;
        int row = -1;
        int column = -1;
    };
    Hit cellAt(const QPoint& plotPixel) const;
    // Pixel centre of a cell in plot-widget coordinates.
    QPoint cellCenter(int panel, int row, int column) const;
    // The tooltip of a cell: row, ratio, value and the counts behind it, or why it is
    // missing.
    QString describe(int panel, int row, int column) const;

    // Height / width that fits the rows at a print width of 7 inches (batch export).
    double printHeightInches() const;

  protected:
    void rebuild() override;

  private:
    const GridPanel& panel(int index) const { return index == 0 ? m_data.left : m_data.right; }
    // x coordinate of a panel's first column: the right panel starts after a gap.
    double panelOffset(int index) const;

    GridPanels m_data;
    QString m_baseTitle;
    QCPAxisRect* m_rect = nullptr;
};

} // namespace kvl
