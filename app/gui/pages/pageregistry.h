#pragma once

#include "pageid.h"

#include <QVector>

#include <functional>

namespace kvl {

class BatchFigures;
class PageHost;
class RunPage;

// One page of the window as the registry lists it: where the navigator shows it, how
// to build it, and what it adds to a batch export.
struct PageEntry
{
    PageId id;
    PageGroup group = PageGroup::Overview;
    QString title;
    std::function<RunPage*(PageHost& host)> create;
    // Fills fresh views from the run's data for `kvlens --export-figures`; empty for a
    // page that exports nothing in batch (the sample inspector, the comparisons).
    std::function<void(BatchFigures& figures)> exportFigures;

    // The usual entry of a page class P: `new P(host)` and `P::exportFigures`.
    template <typename P> static PageEntry of(const PageId& id, PageGroup group, QString title)
    {
        PageEntry e{id,
                    group,
                    std::move(title),
                    [](PageHost& host) -> RunPage* { return new P(host); },
                    {}};
        if constexpr (requires(BatchFigures & f) { P::exportFigures(f); })
            e.exportFigures = [](BatchFigures& f) { P::exportFigures(f); };
        return e;
    }
};

// The pages, in the navigator's order: the navigator, the View menu's shortcuts, the
// batch export and the session file all read this list. Adding a view is one page class
// and one line in standard().
class PageRegistry
{
  public:
    // The pages KVLens ships.
    static PageRegistry standard();

    void add(PageEntry entry) { m_entries << std::move(entry); }
    // Places a page at `index` of the navigator's order (shortcuts follow the order).
    void insert(qsizetype index, PageEntry entry) { m_entries.insert(index, std::move(entry)); }
    const QVector<PageEntry>& entries() const { return m_entries; }
    const PageEntry* find(const PageId& id) const;

  private:
    QVector<PageEntry> m_entries;
};

} // namespace kvl
