#pragma once

#include "resultrowsmodel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace kvl {

class LatestRequest;

// The failure overlap of one pair at one ratio as three lists side by side:
// the rows only A fails, the samples both fail (each compressor's row), the rows
// only B fails. Selecting a row asks for its sample, as the rows panel does.
class OverlapLists : public QWidget
{
    Q_OBJECT
  public:
    enum List
    {
        AOnly,
        Both,
        BOnly,
        ListCount
    };

    explicit OverlapLists(QWidget* parent = nullptr);

    // Reads the C→W rows of a and b at `ratio` from the run file off the GUI thread
    // (listsAvailable when done).
    void showPair(const QString& path, double ratio, const QString& a, const QString& b);
    // Splits rows of a and b (C→W at one ratio, as overlapRows gives them) into the lists.
    void setRows(double ratio, const QString& a, const QString& b, const QVector<ResultRow>& rows);
    void clear();

    ResultRowsModel* model(List list) const { return m_models[list]; }
    QTableView* view(List list) const { return m_views[list]; }
    QString header(List list) const;
    QString title() const;
    // Selects a row (model order) of a list and emits rowSelected.
    void selectRow(List list, int row);

  signals:
    void listsAvailable();
    void rowSelected(const kvl::ResultRow& row);

  private:
    QLabel* m_title;
    QLabel* m_headers[ListCount];
    ResultRowsModel* m_models[ListCount];
    QTableView* m_views[ListCount];
    LatestRequest* m_request;
};

} // namespace kvl
