#include "runlistdock.h"

#include "openruns.h"

#include <QFileInfo>
#include <QListWidget>

namespace kvl {

RunListDock::RunListDock(const OpenRuns& runs, QWidget* parent)
    : QDockWidget(tr("Runs"), parent), m_list(new QListWidget)
{
    setObjectName(QStringLiteral("RunsDock"));
    m_list->setToolTip(tr("Open run files; double-click to show one"));
    setWidget(m_list);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit runActivated(item->data(Qt::UserRole).toString());
    });
    connect(&runs, &OpenRuns::added, this, [this](const QString& path) {
        auto* item = new QListWidgetItem(QFileInfo(path).fileName(), m_list);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    });
    connect(&runs, &OpenRuns::removed, this, [this](const QString& path) {
        for (int i = m_list->count() - 1; i >= 0; --i)
            if (m_list->item(i)->data(Qt::UserRole).toString() == path)
                delete m_list->takeItem(i);
    });
}

} // namespace kvl
