#pragma once

#include "provenance.h"
#include "viewpalette.h"

#include <QSize>
#include <QWidget>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QCPLegend;
class QLabel;
class QStackedLayout;
class QVBoxLayout;

namespace kvl {

// Base of every view: one QCustomPlot, an empty state with a hint (shown until
// real data arrives: no placeholder data is ever drawn), a palette, provenance,
// and the figure/CSV export every view offers.
class PlotView : public QWidget
{
    Q_OBJECT
  public:
    QCustomPlot* plot() const { return m_plot; }
    QString title() const { return m_title; }
    // A title naming what this instance shows ("FullCache · sample s1"), where two
    // views of one kind stand side by side; redraws when the view holds data.
    void setTitle(const QString& title);
    bool hasData() const { return m_hasData; }

    Theme theme() const { return m_theme; }
    void setTheme(Theme theme);
    const ViewPalette& viewPalette() const { return m_palette; }

    Provenance provenance() const { return m_provenance; }
    void setProvenance(const Provenance& provenance) { m_provenance = provenance; }

    QString emptyHint() const;
    void setEmptyHint(const QString& hint);
    // A line under the plot saying what the drawn data lacks or stands in for (not
    // exported); empty hides it.
    QString note() const;
    void setNote(const QString& note);

    // The view's data as CSV text (header line, one record per line).
    virtual QString csv() const = 0;

    // PNG, PDF or SVG by suffix, with the provenance footer. Throws kvl::Error
    // when the view holds no data or the file cannot be written.
    void exportFigure(const QString& path, QSize size = {}) const;
    void exportCsv(const QString& path) const;
    // The views that hold data as one figure, stacked (Qt::Vertical) or side by side,
    // each with its provenance under it; throws kvl::Error when none holds data.
    static void exportFigures(const QVector<const PlotView*>& views, const QString& path,
                              Qt::Orientation orientation, QSize each = {});

    // Drops the data and returns to the empty state.
    virtual void clear() = 0;

  protected:
    PlotView(const QString& title, const QString& emptyHint, QWidget* parent);

    // Draws everything from the view's stored data with the current palette.
    virtual void rebuild() = 0;

    void setHasData(bool hasData);
    // Removes plottables, items and layout elements, and puts the title in row 0.
    // Views then add their axis rects from row 1 on.
    void resetPlot();
    QCPAxisRect* addAxisRect(int row, int column);
    QCPLegend* addLegend(QCPAxisRect* rect, Qt::Alignment alignment);
    // Room in layout row `row` (under the plot) where an export moves `legend` when it
    // does not fit where it stands (kPrintLegendBelow); on screen the row stays empty.
    void addPrintLegendRoom(QCPLegend* legend, int row);
    // Applies the palette to all axes and queues a replot.
    void finishRebuild();
    // Widgets under the plot (selection details, hover read-outs); not exported.
    QVBoxLayout* footerLayout() const { return m_footer; }
    QLabel* addInfoLabel();
    // Integer ticks 0 … rows−1 at a readable step (1, 2, 5, 10, …), labelled by
    // `labels` when given; nothing outside the rows (bands above or below stay unlabelled).
    static void setRowTicks(QCPAxis* axis, int rows, const QStringList& labels = {});

  private:
    QString m_title;
    QString m_emptyHint;
    QCustomPlot* m_plot;
    QLabel* m_emptyLabel;
    QStackedLayout* m_stack;
    QVBoxLayout* m_footer;
    QLabel* m_note;
    Theme m_theme = Theme::Light;
    ViewPalette m_palette = ViewPalette::light();
    Provenance m_provenance;
    bool m_hasData = false;
};

} // namespace kvl
