#include "viewmenu.h"

#include "displaymenu.h"
#include "viewnavigator.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>

#include <optional>

namespace kvl {

ViewMenu::ViewMenu(QMainWindow* window, const PageRegistry& registry, ViewNavigator* navigator,
                   QDockWidget* navigatorDock, ViewOptions* options)
    : QObject(window), m_menu(window->menuBar()->addMenu(tr("&View")))
{
    std::optional<PageGroup> group;
    for (int i = 0; i < registry.entries().size(); ++i) {
        const PageEntry& entry = registry.entries()[i];
        if (group != entry.group) {
            group = entry.group;
            m_menu->addSection(pageGroupTitle(entry.group));
        }
        QString label = entry.title;
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        const PageId id = entry.id;
        m_menu->addAction(label,
                          i < 9 ? QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1))
                                : QKeySequence(),
                          this, [this, id] { emit pageRequested(id); });
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("&Next view"), QKeySequence(tr("Ctrl+PgDown")), navigator,
                      [navigator] { navigator->stepPage(1); });
    m_menu->addAction(tr("&Previous view"), QKeySequence(tr("Ctrl+PgUp")), navigator,
                      [navigator] { navigator->stepPage(-1); });
    m_menu->addAction(tr("Go to the &views list"), QKeySequence(tr("Ctrl+0")), navigator,
                      [navigator, navigatorDock] {
                          navigatorDock->show();
                          navigator->setFocus(Qt::ShortcutFocusReason);
                      });
    m_menu->addSeparator();
    m_display = new DisplayMenu(m_menu, options, this);
    m_menu->addSeparator();
    for (QDockWidget* dock : window->findChildren<QDockWidget*>())
        if (dock != navigatorDock)
            m_menu->addAction(dock->toggleViewAction());
}

} // namespace kvl
