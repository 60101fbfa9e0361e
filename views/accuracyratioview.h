#pragma once

#include "accuracydata.h"
#include "ratioplotview.h"

class QCPAbstractPlottable;

namespace kvl {

// Accuracy against compression ratio, one line per compressor with 95% Wilson
// intervals and n per point, the FullCache accuracy as a reference line (its
// interval a band) on top, and each curve's cliff marked.
class AccuracyRatioView : public RatioPlotView
{
    Q_OBJECT
  public:
    explicit AccuracyRatioView(QWidget* parent = nullptr);

    void setData(const AccuracyData& data);
    const AccuracyData& data() const { return m_data; }
    void clear() override;

    // compressor,ratio,accuracy,n,ci95_low,ci95_high,cliff (FullCache as ratio 0;
    // cliff = 1 on the marked point; the interval is Wilson's)
    QString csv() const override;

  signals:
    // A click on a data point selects that configuration.
    void configurationSelected(const QString& compressor, double ratio);

  protected:
    void rebuild() override;

  private:
    void onPlottableClick(QCPAbstractPlottable* plottable, int dataIndex);
    bool curvesHaveIntervals() const;

    AccuracyData m_data;
};

} // namespace kvl
