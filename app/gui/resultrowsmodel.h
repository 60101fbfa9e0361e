#pragma once

#include "store/runrecords.h"

#include <QAbstractTableModel>
#include <QVector>

namespace kvl {

// One listed result row, with the group it was listed under in a drill-down
// ("SnapKV only", "both", ...; empty when the list is not grouped).
struct ResultRow
{
    StoredResult result;
    QString group;
    QString gold; // the sample's gold answer, beside the row's own
    // FullCache's answer on the same sample: what the compressed answer replaced (a C→W
    // row's right answer, or a W→C row's wrong one).
    QString fullCacheAnswer;
};

// The rows behind a clicked taxonomy bar or overlap cell, one line per result.
class ResultRowsModel : public QAbstractTableModel
{
    Q_OBJECT
  public:
    enum Column
    {
        GroupColumn,
        SampleColumn,
        SuiteColumn,
        ConfigColumn,
        TransitionColumn,
        SignatureColumn,
        AnswerColumn,
        FullCacheAnswerColumn,
        GoldColumn,
        EcovColumn,
        ErrColumn,
        DeltaNllColumn,
        EarColumn,
        ColumnCount
    };
    // Sorting by numbers, not by their text.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ResultRowsModel(QObject* parent = nullptr);

    void setRows(QVector<ResultRow> rows);
    const QVector<ResultRow>& rows() const { return m_rows; }
    const ResultRow& row(int index) const { return m_rows.at(index); }
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // The glossary term a column shows (views/glossary.h); empty for a column of plain
    // values (sample, answer).
    static QString glossaryTermOf(int column);
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVector<ResultRow> m_rows;
};

} // namespace kvl
