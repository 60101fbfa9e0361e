#pragma once

#include "pageregistry.h"

#include <QObject>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace kvl {

class DisplayMenu;
class ViewNavigator;
class ViewOptions;

// The window's View menu: every page of the registry under its group (the first nine on
// Ctrl+1…9), stepping through the pages, the display options (DisplayMenu) and a toggle
// for each dock but the navigator's, which is not closable.
class ViewMenu : public QObject
{
    Q_OBJECT
  public:
    // Built once the window's docks exist; `navigatorDock` holds `navigator`.
    ViewMenu(QMainWindow* window, const PageRegistry& registry, ViewNavigator* navigator,
             QDockWidget* navigatorDock, ViewOptions* options);

    QMenu* menu() const { return m_menu; }
    DisplayMenu* display() const { return m_display; }

  signals:
    void pageRequested(const PageId& id);

  private:
    QMenu* m_menu = nullptr;
    DisplayMenu* m_display = nullptr;
};

} // namespace kvl
