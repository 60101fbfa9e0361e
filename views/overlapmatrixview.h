#pragma once

#include "overlapdata.h"
#include "plotview.h"

#include <vector>

class QLabel;

class QCPAxisRect;
class QCPItemRect;
class QCPItemText;

namespace kvl {

// Failure-set Jaccard matrix between compressors. Hovering a cell shows the
// A-only / B-only / both breakdown; clicking selects the pair.
class OverlapMatrixView : public PlotView
{
    Q_OBJECT
  public:
    explicit OverlapMatrixView(QWidget* parent = nullptr);

    void setData(const OverlapMatrix& data);
    const OverlapMatrix& data() const { return m_data; }
    void clear() override;

    // ratio,a,b,jaccard,a_only,b_only,both for every ordered pair
    QString csv() const override;

    // The cell (row a, column b) under a widget position of the plot; (-1, -1) outside.
    QPoint cellAt(const QPoint& plotPixel) const;
    // Pixel centre of cell (a, b) in plot-widget coordinates.
    QPoint cellCenter(int a, int b) const;
    void selectPair(int a, int b);
    OverlapSelection selectionOf(int a, int b) const;
    // One line describing a cell: "SnapKV vs TOVA: Jaccard 0.21 · SnapKV only 12 · ..."
    QString describe(int a, int b) const;
    // A pair whose failures number fewer than this (|A ∪ B|) is greyed: a Jaccard of
    // 1.00 from one shared row says nothing. Default 5.
    static constexpr int kMinimumUnion = 5;
    void setMinimumUnion(int rows);
    int minimumUnion() const { return m_minimumUnion; }
    // |A ∪ B| of cell (a, b).
    int unionOf(int a, int b) const;

  signals:
    void pairSelected(const kvl::OverlapSelection& selection);

  protected:
    void rebuild() override;

  private:
    int m_minimumUnion = kMinimumUnion;
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void updateSelectionMarker();
    // After each layout: cell labels as detailed as the cells' pixel size allows.
    void fitCellLabels();

    struct Cell
    {
        QCPItemText* item;
        QString full; // the Jaccard, then the set sizes
    };
    std::vector<Cell> m_cells;
    static constexpr int kRowPixels = 24;
    static constexpr int kMatrixMargins = 110; // title, ticks, axis title
    static constexpr int kMostMinimumHeight = 420;

    OverlapMatrix m_data;
    QCPAxisRect* m_rect = nullptr;
    QCPItemRect* m_marker = nullptr;
    QLabel* m_info;
    QString m_baseTitle;
    QPoint m_selected{-1, -1};
    QPoint m_pressCell{-1, -1};
};

} // namespace kvl
