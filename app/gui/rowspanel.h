#pragma once

#include "resultrowsmodel.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace kvl {

// The rows behind the last clicked taxonomy or chain-break bar, overlap cell or failure-set
// (UpSet) column; selecting one asks for its sample to be inspected.
class RowsPanel : public QWidget
{
    Q_OBJECT
  public:
    explicit RowsPanel(QWidget* parent = nullptr);

    ResultRowsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // What the rows are ("SnapKV @ 0.75 · Low mapped coverage: 12 rows").
    void setRows(const QString& title, QVector<ResultRow> rows);
    void setBusy(const QString& title);
    void clear();
    QString title() const;
    // Selects the row at `index` (model order) and emits rowSelected.
    void selectRow(int index);
    // Tall enough for the title, the header and several rows: the dock is never squeezed
    // to two rows and a half by the pages above it.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void rowSelected(const kvl::ResultRow& row);

  private:
    int heightFor(int rows) const;

    QLabel* m_title;
    ResultRowsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
};

} // namespace kvl
