#pragma once

#include <QStringList>
#include <QTreeWidget>

namespace kvl {

// The window's pages grouped by the question they answer (Overview, Failures,
// Attention, Instructions, Routing, Samples): a compact list on the left in place
// of a row of tabs that overflows a laptop screen. The groups stay expanded, so
// every page is one click away; group headers are not selectable, so the arrow keys
// move from page to page. Pages are named by a stable id ("taxonomy", "sample"),
// which the session file stores and tests address.
class ViewNavigator : public QTreeWidget
{
    Q_OBJECT
  public:
    explicit ViewNavigator(QWidget* parent = nullptr);

    // Adds a group (its question as tooltip); pages added next belong to it.
    void addGroup(const QString& title, const QString& question);
    // Adds a page to the last group added.
    void addPage(const QString& id, const QString& title);

    QStringList pageIds() const { return m_ids; }
    QString currentPage() const;
    // False (and nothing changes) for an id the navigator does not hold.
    bool setCurrentPage(const QString& id);
    QString pageTitle(const QString& id) const;
    // The title of the group holding the page.
    QString groupTitle(const QString& id) const;
    // Steps to the page after (or before) the current one, wrapping around.
    void stepPage(int delta);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void pageChanged(const QString& id);

  protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;

  private:
    QTreeWidgetItem* itemOf(const QString& id) const;

    QStringList m_ids;
    QString m_current; // the page shown; a group header can be current for a moment
    QTreeWidgetItem* m_group = nullptr;
};

} // namespace kvl
