#pragma once

#include "resultrowsmodel.h"

#include <functional>

namespace kvl {

class OpenRuns;
class PageId;
class ViewOptions;

// What the window offers its pages: the Rows dock, the status line, the navigator, the
// list of open runs and the View menu's display options. Pages reach nothing else of
// the window, so a page is written, and tested, without it.
class PageHost
{
  public:
    virtual ~PageHost() = default;

    // Lists the rows behind a clicked bar or cell in the Rows dock; the query runs on a
    // worker thread, and again whenever the run file grows.
    virtual void showRows(const QString& title, std::function<QVector<ResultRow>()> query) = 0;
    virtual void showMessage(const QString& text) = 0;
    // False for an id the window does not have.
    virtual bool showPage(const PageId& id) = 0;
    virtual const OpenRuns& openRuns() const = 0;
    virtual const ViewOptions& viewOptions() const = 0;
};

} // namespace kvl
