#pragma once

#include "pageregistry.h"
#include "runpage.h"

#include <functional>

class QTabWidget;

namespace kvl {

class BatchFigures;
class RatioCurvesView;

// One curve family of a run against the ratio, and where it comes from.
struct CurvesSpec
{
    QString exportName; // the batch export's file name ("span-keep")
    QString title;
    QString emptyHint;  // why a run has none, and which runs do
    QString skipReason; // the batch export's, when the run has none
    std::function<const RatioCurves&(const RunViewData&)> curves;
    QString objectName = {};
};

// A page of one RatioCurvesView (span keep, leakage, interventions): the family is
// drawn when the overview lands. The registry builds one per family with entry().
class CurvesPage : public RunPage
{
    Q_OBJECT
  public:
    CurvesPage(PageHost& host, CurvesSpec spec);

    PlotView* exportedView() const override;
    void clear() override;
    RatioCurvesView* view() const { return m_view; }

    static PageEntry entry(const PageId& id, PageGroup group, const QString& title,
                           const CurvesSpec& spec);
    // Adds the family's figure (or its skip line) to a batch export.
    static void exportFigures(BatchFigures& figures, const CurvesSpec& spec);
    // Draws `curves` in `view`, or clears it: setData with an empty value would draw
    // nothing yet leave the view "with data".
    static void show(RatioCurvesView* view, const RatioCurves& curves);

  protected:
    void connectSession(RunSession* session) override;

  private:
    CurvesSpec m_spec;
    RatioCurvesView* m_view = nullptr;
};

// Decoding › Decoding curves: the decode-time and offloading families on one page, as
// tabs (the navigator shows every page without scrolling, so each row it gains is
// height the docks below it lose). Export takes the tab shown.
class DecodingCurvesPage : public RunPage
{
    Q_OBJECT
  public:
    explicit DecodingCurvesPage(PageHost& host);

    PlotView* exportedView() const override;
    void clear() override;

    static void exportFigures(BatchFigures& figures);

  protected:
    void connectSession(RunSession* session) override;

  private:
    static QVector<CurvesSpec> specs();

    QTabWidget* m_tabs = nullptr;
    QVector<RatioCurvesView*> m_views;
};

} // namespace kvl
