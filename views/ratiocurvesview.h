#pragma once

#include "ratiocurvesdata.h"
#include "ratioplotview.h"

namespace kvl {

// A value against compression ratio, one line per series with its n and 95%
// interval per point, a dashed reference line on top: span keep rate by
// instruction order (a compressor's colour, an instruction's line style), leakage
// rate, intervention repair rate. The title and empty hint say which.
class RatioCurvesView : public RatioPlotView
{
    Q_OBJECT
  public:
    RatioCurvesView(const QString& title, const QString& emptyHint, QWidget* parent = nullptr);

    void setData(const RatioCurves& data);
    const RatioCurves& data() const { return m_data; }
    void clear() override;

    // series,ratio,value,n,ci95_low,ci95_high (the reference as series
    // "<referenceLabel>", ratio 0; unknown n or interval as empty fields); "step" in
    // place of "ratio" for curves over compression steps
    QString csv() const override;

    // Line style of a curve's styleIndex (solid, dashed, dotted, dash-dot, ...).
    static Qt::PenStyle penStyleFor(int styleIndex);

  protected:
    void rebuild() override;

  private:
    RatioCurves m_data;
};

} // namespace kvl
