#pragma once

#include <QDockWidget>

class QListWidget;

namespace kvl {

class OpenRuns;

// The Runs dock: the run files open in the window, by name (full path in the tooltip),
// following OpenRuns; a double-click asks for that run to be shown.
class RunListDock : public QDockWidget
{
    Q_OBJECT
  public:
    RunListDock(const OpenRuns& runs, QWidget* parent = nullptr);

    QListWidget* list() const { return m_list; }

  signals:
    void runActivated(const QString& path);

  private:
    QListWidget* m_list;
};

} // namespace kvl
