#pragma once

#include "ratiocurvesdata.h"
#include "ratioplotview.h"

namespace kvl {

// A value against compression ratio, one line per series, a dashed reference line
// on top: span keep rate by instruction order, leakage rate, intervention repair
// rate. The title and empty hint say which.
class RatioCurvesView : public RatioPlotView
{
    Q_OBJECT
  public:
    RatioCurvesView(const QString& title, const QString& emptyHint, QWidget* parent = nullptr);

    void setData(const RatioCurves& data);
    const RatioCurves& data() const { return m_data; }
    void clear() override;

    // series,ratio,value (the reference as series "<referenceLabel>", ratio 0)
    QString csv() const override;

  protected:
    void rebuild() override;

  private:
    RatioCurves m_data;
};

} // namespace kvl
