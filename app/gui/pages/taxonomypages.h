#pragma once

#include "resultrowsmodel.h"
#include "runpage.h"

#include <functional>

namespace kvl {

class BatchFigures;
class TaxonomyView;
struct TaxonomyCounts;
struct TaxonomySelection;

// A page of stacked bars per configuration (TaxonomyView) whose segments list their rows in
// the Rows dock when clicked: the failure taxonomy and the chain breaks differ only in the
// counts they draw, the rows a segment holds and the words they use.
class SignatureBarsPage : public RunPage
{
    Q_OBJECT
  public:
    PlotView* exportedView() const override;
    void clear() override;
    TaxonomyView* view() const { return m_view; }

    // Lists the segment's rows in the Rows dock (what a click on it does).
    void showRows(const TaxonomySelection& selection);

  protected:
    void connectSession(RunSession* session) override;
    struct Kind
    {
        std::function<const TaxonomyCounts&(const RunViewData&)> counts;
        // The status line and the Rows dock's title for a clicked segment.
        std::function<QString(const TaxonomySelection&)> message;
        std::function<QString(const TaxonomySelection&)> rowsTitle;
        std::function<QVector<ResultRow>(const QString& path, const TaxonomySelection&)> rows;
        bool remembersSignature = false; // the session file keeps the taxonomy's segment
    };
    SignatureBarsPage(PageHost& host, TaxonomyView* view, Kind kind);

  private:
    TaxonomyView* m_view;
    Kind m_kind;
};

// Failures › Taxonomy: the C→W rows of each configuration by failure signature.
class TaxonomyPage : public SignatureBarsPage
{
    Q_OBJECT
  public:
    explicit TaxonomyPage(PageHost& host);
    static void exportFigures(BatchFigures& figures);
};

// Failures › Chain breaks: the multihop C→W rows by the step at which the written chain
// left the gold one.
class ChainBreaksPage : public SignatureBarsPage
{
    Q_OBJECT
  public:
    explicit ChainBreaksPage(PageHost& host);
    static void exportFigures(BatchFigures& figures);
};

} // namespace kvl
