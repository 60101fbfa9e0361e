#pragma once

#include "failuresetsdata.h"
#include "plotview.h"

class QCPAxisRect;

namespace kvl {

// UpSet plot of the compressors' failure sets at one ratio: a bar per exclusive
// intersection (samples failing under exactly those compressors), the members of
// each as joined dots under it, and each compressor's set size at the left. With
// three or more compressors it says what pairwise Jaccard cannot: how many samples
// every compressor fails, and how many only one does. Hover a column for its count;
// click it to select it (the window then lists its samples).
class FailureSetsView : public PlotView
{
    Q_OBJECT
  public:
    explicit FailureSetsView(QWidget* parent = nullptr);

    // Takes the ratio into the title and the provenance.
    void setData(const FailureSets& data);
    // Draws only the `n` largest intersections (0: all), saying so under the plot; the
    // CSV keeps every one. For print: eight presses have up to 255 intersections, and
    // a single column shows ~30 readable ones.
    void setMaxColumns(int n);
    const FailureSets& data() const { return m_data; }
    void clear() override;

    // ratio,kind,members,count: one "set" row per compressor (its size), then one
    // "intersection" row per column of the plot (members joined by " & ").
    QString csv() const override;

    // "SnapKV & TOVA only: 3 samples" for a column of the plot.
    QString describe(int column) const;
    // The column under a plot-widget position (bar or dot rows); -1 outside.
    int columnAt(const QPoint& plotPixel) const;
    QPoint columnCenter(int column) const;
    // Highlights a column and emits intersectionSelected (-1 clears the selection).
    void selectColumn(int column);
    int selectedColumn() const { return m_selected; }
    // The compressors of a column, and the other compressors of the plot.
    QStringList members(int column) const;
    QStringList nonMembers(int column) const;

  signals:
    // A column was selected: the samples failing (C→W) at `ratio` under every one of
    // `members` and under none of `others`.
    void intersectionSelected(double ratio, const QStringList& members, const QStringList& others);

  protected:
    void rebuild() override;

  private:
    int shownColumns() const;
    QString m_baseTitle;
    FailureSets m_data;
    QCPAxisRect* m_bars = nullptr;
    QCPAxisRect* m_dots = nullptr;
    int m_selected = -1;
    int m_maxColumns = 0;
    int m_pressColumn = -1;
};

} // namespace kvl
