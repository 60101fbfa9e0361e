#include "viewnavigator.h"

#include <QHeaderView>

namespace kvl {

namespace {

constexpr int kIdRole = Qt::UserRole;

} // namespace

ViewNavigator::ViewNavigator(QWidget* parent) : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("ViewNavigator"));
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(false);
    setItemsExpandable(false); // every page stays one click away
    setIndentation(12);
    setUniformRowHeights(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Views"));
    connect(this, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* item, QTreeWidgetItem*) {
                if (item && item->data(0, kIdRole).isValid()) {
                    m_current = item->data(0, kIdRole).toString();
                    emit pageChanged(m_current);
                } else if (item && !m_current.isEmpty()) {
                    // A click made a group header current: back onto the page shown,
                    // once the view is done handling the click.
                    QMetaObject::invokeMethod(
                        this, [this] { setCurrentPage(m_current); }, Qt::QueuedConnection);
                }
            });
}

void ViewNavigator::addGroup(const QString& title, const QString& question)
{
    m_group = new QTreeWidgetItem(this, {title});
    // A header, not a page: a click selects nothing and the arrow keys pass over it
    // (moveCursor). Enabled, since a disabled item disables its children.
    m_group->setFlags(Qt::ItemIsEnabled);
    QFont font = m_group->font(0);
    font.setBold(true);
    m_group->setFont(0, font);
    m_group->setToolTip(0, question);
    m_group->setExpanded(true);
}

void ViewNavigator::addPage(const QString& id, const QString& title)
{
    Q_ASSERT(m_group);
    auto* item = new QTreeWidgetItem(m_group, {title});
    item->setData(0, kIdRole, id);
    item->setToolTip(0, m_group->toolTip(0));
    m_ids << id;
    m_group->setExpanded(true);
    if (!currentItem())
        setCurrentItem(item);
}

QModelIndex ViewNavigator::moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex next = QTreeWidget::moveCursor(action, modifiers);
    if (!next.isValid() || next.parent().isValid())
        return next; // a page
    // A group header: on to its first page, or back to the last page of the group above.
    const bool up = action == MoveUp || action == MovePrevious || action == MovePageUp;
    if (!up)
        return model()->index(0, 0, next);
    const QModelIndex above = next.sibling(next.row() - 1, 0);
    return above.isValid() ? model()->index(model()->rowCount(above) - 1, 0, above)
                           : currentIndex();
}

QTreeWidgetItem* ViewNavigator::itemOf(const QString& id) const
{
    for (int g = 0; g < topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            if (group->child(i)->data(0, kIdRole).toString() == id)
                return group->child(i);
    }
    return nullptr;
}

QString ViewNavigator::currentPage() const
{
    return m_current;
}

bool ViewNavigator::setCurrentPage(const QString& id)
{
    QTreeWidgetItem* item = itemOf(id);
    if (!item)
        return false;
    setCurrentItem(item);
    return true;
}

QString ViewNavigator::pageTitle(const QString& id) const
{
    const QTreeWidgetItem* item = itemOf(id);
    return item ? item->text(0) : QString();
}

QString ViewNavigator::groupTitle(const QString& id) const
{
    const QTreeWidgetItem* item = itemOf(id);
    return item && item->parent() ? item->parent()->text(0) : QString();
}

void ViewNavigator::stepPage(int delta)
{
    if (m_ids.isEmpty())
        return;
    const int at = int(m_ids.indexOf(currentPage()));
    const int n = int(m_ids.size());
    setCurrentPage(m_ids[((at < 0 ? 0 : at) + delta % n + n) % n]);
}

QSize ViewNavigator::sizeHint() const
{
    // As wide as the longest title, no wider: the plots get the rest of a laptop screen.
    int width = 0;
    for (int g = 0; g < topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = topLevelItem(g);
        width = std::max(width, QFontMetrics(group->font(0)).horizontalAdvance(group->text(0)));
        for (int i = 0; i < group->childCount(); ++i)
            width = std::max(width, fontMetrics().horizontalAdvance(group->child(i)->text(0)) +
                                        indentation());
    }
    return {width + 32, minimumSizeHint().height()};
}

QSize ViewNavigator::minimumSizeHint() const
{
    // Tall enough for every row: a page hidden below a scroll bar is not one click away.
    int rows = topLevelItemCount();
    for (int g = 0; g < topLevelItemCount(); ++g)
        rows += topLevelItem(g)->childCount();
    const int row = std::max(sizeHintForRow(0), fontMetrics().height() + 2);
    return {QTreeWidget::minimumSizeHint().width(), rows * row + 2 * frameWidth() + 4};
}

} // namespace kvl
