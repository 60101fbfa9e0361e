#pragma once

#include "runpage.h"

namespace kvl {

class BatchFigures;
class EvictionMapView;
class GerConsensusView;

// Routing › Eviction map: which entries the focus configuration kept in each layer, for
// the focus sample or averaged over samples, with the instruction and evidence spans
// marked.
class EvictionPage : public RunPage
{
    Q_OBJECT
  public:
    explicit EvictionPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;
    void saveState(SessionState& state) const override;
    void restoreState(const SessionState& state) override;
    EvictionMapView* view() const { return m_view; }

    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    EvictionMapView* m_view = nullptr;
};

// Routing › GER & consensus: per layer, how much of the evidence the focus compressor
// keeps, at each of its ratios, and how much the heads agree.
class GerPage : public RunPage
{
    Q_OBJECT
  public:
    explicit GerPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;
    GerConsensusView* view() const { return m_view; }

    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    GerConsensusView* m_view = nullptr;
};

} // namespace kvl
