#include "accuracydeltamodel.h"

#include "csvtable.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace kvl {

AccuracyDeltaModel::AccuracyDeltaModel(QObject* parent) : QAbstractTableModel(parent) {}

void AccuracyDeltaModel::setTable(const AccuracyDeltaTable& table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

int AccuracyDeltaModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int AccuracyDeltaModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AccuracyDeltaModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AccuracyDeltaRow& r = m_table.rows[index.row()];
    auto number = [](double v) { return std::isnan(v) ? QVariant() : QVariant(v); };
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case Compressor:
            return r.compressor;
        case Ratio:
            return r.ratio;
        case AccuracyA:
            return number(r.accuracyA);
        case AccuracyB:
            return number(r.accuracyB);
        case Delta:
            return number(r.delta);
        case N:
            return r.n;
        case OnlyA:
            return m_table.paired ? QVariant(r.onlyACorrect) : QVariant();
        case OnlyB:
            return m_table.paired ? QVariant(r.onlyBCorrect) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        auto fixed = [](double v) {
            return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3);
        };
        switch (index.column()) {
        case Compressor:
            return r.compressor;
        case Ratio:
            return QString::number(r.ratio);
        case AccuracyA:
            return r.missingFrom == QLatin1String("A") ? tr("not in A") : fixed(r.accuracyA);
        case AccuracyB:
            return r.missingFrom == QLatin1String("B") ? tr("not in B") : fixed(r.accuracyB);
        case Delta:
            return std::isnan(r.delta) ? QStringLiteral("—")
                                       : (r.delta > 0 ? QStringLiteral("+") : QString()) +
                                             QString::number(r.delta, 'f', 3);
        case N:
            return m_table.paired ? QString::number(r.n)
                                  : QStringLiteral("%1 / %2").arg(r.n).arg(r.nB);
        case OnlyA:
            return m_table.paired ? QString::number(r.onlyACorrect) : QStringLiteral("—");
        case OnlyB:
            return m_table.paired ? QString::number(r.onlyBCorrect) : QStringLiteral("—");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && !m_table.paired)
        return tr("Unpaired: the runs share no sample, so each accuracy is over its own "
                  "run's samples and B − A compares two independent estimates.");
    if (role == Qt::TextAlignmentRole && index.column() != Compressor)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant AccuracyDeltaModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Compressor:
        return tr("Compressor");
    case Ratio:
        return tr("Ratio");
    case AccuracyA:
        return tr("Accuracy A");
    case AccuracyB:
        return tr("Accuracy B");
    case Delta:
        return m_table.paired ? tr("Δ (B − A)") : tr("Δ (B − A), unpaired");
    case N:
        return m_table.paired ? tr("n matched") : tr("n (A / B)");
    case OnlyA:
        return tr("Correct only in A");
    case OnlyB:
        return tr("Correct only in B");
    default:
        return {};
    }
}

QString AccuracyDeltaModel::csv() const
{
    if (!m_table.paired) {
        CsvTable table({QStringLiteral("compressor"), QStringLiteral("ratio"),
                        QStringLiteral("accuracy_a"), QStringLiteral("accuracy_b"),
                        QStringLiteral("delta_unpaired"), QStringLiteral("n_a"),
                        QStringLiteral("n_b")});
        for (const AccuracyDeltaRow& r : m_table.rows)
            table.add(r.compressor)
                .add(r.ratio)
                .add(r.accuracyA)
                .add(r.accuracyB)
                .add(r.delta)
                .add(r.n)
                .add(r.nB)
                .endRow();
        return table.text();
    }
    CsvTable table({QStringLiteral("compressor"), QStringLiteral("ratio"),
                    QStringLiteral("accuracy_a"), QStringLiteral("accuracy_b"),
                    QStringLiteral("delta"), QStringLiteral("n_matched"),
                    QStringLiteral("only_a_correct"), QStringLiteral("only_b_correct")});
    for (const AccuracyDeltaRow& r : m_table.rows)
        table.add(r.compressor)
            .add(r.ratio)
            .add(r.accuracyA)
            .add(r.accuracyB)
            .add(r.delta)
            .add(r.n)
            .add(r.onlyACorrect)
            .add(r.onlyBCorrect)
            .endRow();
    return table.text();
}

} // namespace kvl
