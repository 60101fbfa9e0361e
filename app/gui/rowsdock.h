#pragma once

#include "resultrowsmodel.h"

#include <QDockWidget>

#include <functional>

namespace kvl {

class LatestRequest;
class RowsPanel;

// The Rows dock: the rows behind a clicked bar or cell. Its query runs on a worker thread
// (latest request wins) and runs again when the run file grows, so a live sweep's new
// rows join the list while it is shown.
class RowsDock : public QDockWidget
{
    Q_OBJECT
  public:
    explicit RowsDock(QWidget* parent = nullptr);

    RowsPanel* panel() const { return m_panel; }
    // The rows of `query` from the run file `source`. While they load, the rows shown
    // stay if they came from the same run (a live refresh, another bar), else the list
    // empties: another run's rows never stand under this run's title.
    void showRows(const QString& source, const QString& title,
                  std::function<QVector<ResultRow>()> query);
    // The window now shows the run `source`: rows of another run are cleared.
    void showSource(const QString& source);
    // The run file changed: the rows shown are read again.
    void refresh();
    // The run was closed: no rows, no query.
    void clear();

  signals:
    void rowsAvailable(int count);

  private:
    RowsPanel* m_panel;
    LatestRequest* m_request;
    QString m_source;
    QString m_title;
    std::function<QVector<ResultRow>()> m_query;
};

} // namespace kvl
