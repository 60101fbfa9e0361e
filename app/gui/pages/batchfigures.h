#pragma once

#include "runviewdata.h"
#include "views/provenance.h"

#include <QStringList>

#include <algorithm>
#include <memory>
#include <vector>

namespace kvl {

class PlotView;

// What `kvlens --export-figures` collects from the pages: each page fills fresh views
// (never shown) from the run's data and adds them here with the file name they take,
// or says why it has nothing to draw. batchexport.cpp writes what was collected.
class BatchFigures
{
  public:
    // One figure: a filled view and its height over its width.
    struct Figure
    {
        QString name;
        PlotView* view = nullptr;
        double aspect = 0.62;
        double heightInches = 0.0; // > 0: this height at every width (grids of rows)
        // Never under 2.6 in, which a title, a footer and a readable plot need (a single
        // column's 3.5 in x 0.62 is 2.2 in; tst_figurelayout); more for a figure whose
        // legend goes under the plot in a single column.
        double minHeightInches = 2.6;

        // The figure's height at `widthInches` on paper.
        double heightAt(double widthInches) const
        {
            return heightInches > 0.0 ? heightInches
                                      : std::max(widthInches * aspect, minHeightInches);
        }
    };
    // A CSV with no figure of its own (every suite's accuracy in one table).
    struct Table
    {
        QString name;
        QString csv;
        QString note;
    };

    // `base`: the provenance every figure starts from (run, model, hashes, configuration).
    BatchFigures(const RunViewData& data, const Provenance& base);
    ~BatchFigures();

    const RunViewData& data() const { return m_data; }

    // Adopts a view built by a page, its provenance completed with the run's.
    template <typename View> View* make(View* view, const Provenance& provenance = {})
    {
        adopt(view, provenance);
        return view;
    }
    // Adds the view when it holds data, else lists `name: reason` as skipped.
    void add(const QString& name, PlotView* view, double aspect, const QString& reason,
             double minHeightInches = 2.6);
    // The same with a height that does not shrink with the width: a grid whose rows
    // must stay readable in a single column.
    void addWithHeight(const QString& name, PlotView* view, double heightInches,
                       const QString& reason);
    void skip(const QString& name, const QString& reason);
    void addTable(const QString& name, const QString& csv, const QString& note);

    const std::vector<Figure>& figures() const { return m_figures; }
    const std::vector<Table>& tables() const { return m_tables; }
    const QStringList& skipped() const { return m_skipped; }
    Provenance withBase(Provenance p) const;

    // "SnapKV (window 32)" -> "snapkv-window-32": file names that survive any shell.
    static QString slug(const QString& text);
    // "r0.75"
    static QString ratioTag(double ratio);
    // The focus configuration in a file name, "-snapkv-r0.5"; empty without one.
    QString focusTag() const;

  private:
    void adopt(PlotView* view, const Provenance& provenance);

    const RunViewData& m_data;
    Provenance m_base;
    std::unique_ptr<QWidget> m_root; // parent of every view; never shown
    std::vector<Figure> m_figures;
    std::vector<Table> m_tables;
    QStringList m_skipped;
};

} // namespace kvl
