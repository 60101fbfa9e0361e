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
    void showRows(const QString& title, std::function<QVector<ResultRow>()> query);
    // The run file changed: the rows shown are read again.
    void refresh();
    // The run was closed: no rows, no query.
    void clear();

  signals:
    void rowsAvailable(int count);

  private:
    RowsPanel* m_panel;
    LatestRequest* m_request;
    QString m_title;
    std::function<QVector<ResultRow>()> m_query;
};

} // namespace kvl
