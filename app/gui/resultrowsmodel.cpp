#include "resultrowsmodel.h"

#include "runviewdata.h"
#include "views/glossary.h"
#include "views/signaturenames.h"

namespace kvl {

namespace {

QVariant metric(const std::optional<double>& v, int role)
{
    if (!v)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
    return role == Qt::DisplayRole ? QVariant(QString::number(*v, 'g', 3)) : QVariant(*v);
}

} // namespace

ResultRowsModel::ResultRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultRowsModel::setRows(QVector<ResultRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void ResultRowsModel::clear()
{
    setRows({});
}

int ResultRowsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultRowsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultRowsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const ResultRow& row = m_rows.at(index.row());
    const StoredResult& r = row.result;
    const ResultRecord& rec = r.record;
    switch (index.column()) {
    case GroupColumn:
        return row.group;
    case SampleColumn:
        return r.sampleKey;
    case SuiteColumn:
        return r.suite;
    case ConfigColumn:
        return ConfigChoice{r.compressor, r.ratio}.label();
    case TransitionColumn:
        return rec.transition ? transitionName(*rec.transition) : QString();
    case SignatureColumn:
        if (!rec.signature)
            return QString();
        if (role == Qt::ToolTipRole) // the signature's rule
            return glossaryTip(signatureName(*rec.signature));
        return role == SortRole ? signatureName(*rec.signature)
                                : signatureDisplayName(signatureName(*rec.signature));
    case AnswerColumn:
        return rec.answer;
    case FullCacheAnswerColumn:
        return row.fullCacheAnswer;
    case GoldColumn:
        return row.gold;
    case EcovColumn:
        return metric(rec.metrics.ecovSlot, role == Qt::ToolTipRole ? Qt::DisplayRole : role);
    case ErrColumn:
        return metric(rec.metrics.errSlot, role == Qt::ToolTipRole ? Qt::DisplayRole : role);
    case DeltaNllColumn:
        return metric(rec.metrics.deltaNll, role == Qt::ToolTipRole ? Qt::DisplayRole : role);
    case EarColumn:
        return metric(rec.metrics.ear, role == Qt::ToolTipRole ? Qt::DisplayRole : role);
    default:
        return {};
    }
}

QString ResultRowsModel::glossaryTermOf(int column)
{
    switch (column) {
    case TransitionColumn:
        return QStringLiteral("Transition");
    case FullCacheAnswerColumn:
        return QStringLiteral("FullCache");
    case EcovColumn:
        return QStringLiteral("ECov");
    case ErrColumn:
        return QStringLiteral("ERR");
    case DeltaNllColumn:
        return QStringLiteral("ΔNLL");
    case EarColumn:
        return QStringLiteral("EAR");
    default:
        return {};
    }
}

QVariant ResultRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        // The metric columns say what they measure (the glossary's words).
        const QString tip = glossaryTip(glossaryTermOf(section));
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GroupColumn:
        return tr("Group");
    case SampleColumn:
        return tr("Sample");
    case SuiteColumn:
        return tr("Suite");
    case ConfigColumn:
        return tr("Configuration");
    case TransitionColumn:
        return tr("Transition");
    case SignatureColumn:
        return tr("Signature");
    case AnswerColumn:
        return tr("Answer");
    case FullCacheAnswerColumn:
        return tr("FullCache answer");
    case GoldColumn:
        return tr("Gold");
    case EcovColumn:
        return tr("ECov");
    case ErrColumn:
        return tr("ERR");
    case DeltaNllColumn:
        return tr("ΔNLL");
    case EarColumn:
        return tr("EAR");
    default:
        return {};
    }
}

} // namespace kvl
