#include "rowspanel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace kvl {

namespace {
constexpr int kRowsTextColumnWidth = 260; // pixels
constexpr int kPreferredRows = 6;         // rows above the fold the dock asks for
constexpr int kMinimumRows = 5;           // and the fewest it shows
} // namespace

RowsPanel::RowsPanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_model(new ResultRowsModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultRowsModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // model order (grouped) until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    // Compact rows: the dock is short at 1280x800, and a listing should show several rows
    // above the fold, not two and a half.
    m_view->verticalHeader()->setMinimumSectionSize(fontMetrics().height() + 4);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_view);
    clear();
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const QModelIndex source = m_proxy->mapToSource(current);
                if (source.isValid())
                    emit rowSelected(m_model->row(source.row()));
            });
}

void RowsPanel::setRows(const QString& title, QVector<ResultRow> rows)
{
    const bool grouped = std::any_of(rows.cbegin(), rows.cend(),
                                     [](const ResultRow& r) { return !r.group.isEmpty(); });
    m_model->setRows(std::move(rows));
    m_view->setColumnHidden(ResultRowsModel::GroupColumn, !grouped);
    m_view->resizeColumnsToContents();
    // A long (often runaway) answer would push the gold and the metrics out of view;
    // the full text is in the tooltip.
    for (int column :
         {int(ResultRowsModel::AnswerColumn), int(ResultRowsModel::FullCacheAnswerColumn),
          int(ResultRowsModel::GoldColumn)})
        m_view->setColumnWidth(column, std::min(m_view->columnWidth(column), kRowsTextColumnWidth));
    m_title->setText(title);
}

void RowsPanel::setBusy(const QString& title)
{
    m_title->setText(tr("%1 (loading…)").arg(title));
}

void RowsPanel::clear()
{
    m_model->clear();
    m_view->setColumnHidden(ResultRowsModel::GroupColumn, true);
    // Empty, the columns fit their headers ("FullCache answer" was cut to its width).
    m_view->resizeColumnsToContents();
    m_title->setText(tr("Click a taxonomy or chain-break bar, a failure-overlap cell or a "
                        "failure-set (UpSet) column to list its rows."));
}

int RowsPanel::heightFor(int rows) const
{
    const QMargins m = layout()->contentsMargins();
    const int chrome = m_view->horizontalHeader()->sizeHint().height() +
                       m_view->horizontalScrollBar()->sizeHint().height() +
                       2 * m_view->frameWidth();
    return m.top() + m_title->sizeHint().height() + layout()->spacing() + chrome +
           rows * m_view->verticalHeader()->defaultSectionSize() + m.bottom();
}

QSize RowsPanel::sizeHint() const
{
    return {QWidget::sizeHint().width(), heightFor(kPreferredRows)};
}

QSize RowsPanel::minimumSizeHint() const
{
    return {QWidget::minimumSizeHint().width(), heightFor(kMinimumRows)};
}

QString RowsPanel::title() const
{
    return m_title->text();
}

void RowsPanel::selectRow(int index)
{
    const QModelIndex proxy = m_proxy->mapFromSource(m_model->index(index, 0));
    if (proxy.isValid())
        m_view->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
}

} // namespace kvl
