#pragma once

#include "plotview.h"
#include "taxonomydata.h"

class QCPAbstractPlottable;

namespace kvl {

// Stacked bars of failure signatures (C→W rows), one bar per compressor × ratio.
// Clicking a segment selects the rows of that cell with that signature. The same bars
// serve any split of the C→W rows into categories (the chain-break view): the
// constructor with a title names the figure, its empty hint and the CSV's category
// column.
class TaxonomyView : public PlotView
{
    Q_OBJECT
  public:
    explicit TaxonomyView(QWidget* parent = nullptr);
    TaxonomyView(const QString& title, const QString& emptyHint, const QString& categoryColumn,
                 QWidget* parent = nullptr);

    void setData(const TaxonomyCounts& data);
    const TaxonomyCounts& data() const { return m_data; }
    void clear() override;

    // Shares (each bar sums to 1) instead of row counts.
    bool normalized() const { return m_normalized; }
    void setNormalized(bool normalized);

    // compressor,ratio,<category column>,count,share
    QString csv() const override;

    // Plot coordinates of the centre of one stacked segment (for tests and tooltips).
    QPointF segmentCenter(int bar, int signature) const;

  signals:
    void selectionChanged(const kvl::TaxonomySelection& selection);

  protected:
    void rebuild() override;

  private:
    double segmentValue(int bar, int signature) const;
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex);
    // After each layout: the bars' labels on two lines or turned, as their pitch allows.
    void fitBarLabels();
    // "snapkv\n0.5" under a bar, or "snapkv 0.5" on one line when turned.
    static QString barLabel(const TaxonomyBar& bar, bool oneLine);

    TaxonomyCounts m_data;
    QString m_categoryColumn = QStringLiteral("signature");
    bool m_normalized = false;
    bool m_labelsTurned = false;
};

} // namespace kvl
