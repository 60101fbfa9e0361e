#pragma once

#include "accuracydeltadata.h"

#include <QAbstractTableModel>

namespace kvl {

// The delta table of two compared runs, one row per compressor × ratio: accuracy
// in A, in B, Δ = B − A, n matched, and how many matched samples only one run
// answers correctly. Display text is formatted; Qt::UserRole gives the raw number.
class AccuracyDeltaModel : public QAbstractTableModel
{
    Q_OBJECT
  public:
    enum Column
    {
        Compressor,
        Ratio,
        AccuracyA,
        AccuracyB,
        Delta,
        N,
        OnlyA,
        OnlyB,
        ColumnCount
    };

    explicit AccuracyDeltaModel(QObject* parent = nullptr);

    void setTable(const AccuracyDeltaTable& table);
    const AccuracyDeltaTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // compressor,ratio,accuracy_a,accuracy_b,delta,n_matched,only_a_correct,only_b_correct
    // (a configuration missing from a run: empty accuracies and delta, n 0)
    QString csv() const;

  private:
    AccuracyDeltaTable m_table;
};

} // namespace kvl
