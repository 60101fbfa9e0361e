#pragma once

#include "gerdata.h"
#include "plotview.h"

namespace kvl {

// GER (share of answer-critical tokens evicted by every head) and head
// consensus per layer, one line per configuration; two stacked panels share the
// layer axis.
class GerConsensusView : public PlotView
{
    Q_OBJECT
  public:
    explicit GerConsensusView(QWidget* parent = nullptr);

    void setData(const GerData& data);
    const GerData& data() const { return m_data; }
    void clear() override;

    // series,layer,ger,consensus
    QString csv() const override;

  protected:
    void rebuild() override;

  private:
    GerData m_data;
};

} // namespace kvl
