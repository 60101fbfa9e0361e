#include "overlaplists.h"

#include "latestrequest.h"
#include "rowqueries.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace kvl {

namespace {
constexpr int kListColumnWidth = 180; // pixels: three lists share the width
} // namespace

OverlapLists::OverlapLists(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_request(new LatestRequest(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    auto* split = new QSplitter(Qt::Horizontal);
    for (int i = 0; i < ListCount; ++i) {
        auto* column = new QWidget;
        auto* columnLayout = new QVBoxLayout(column);
        columnLayout->setContentsMargins(0, 0, 0, 0);
        m_headers[i] = new QLabel;
        m_headers[i]->setAlignment(Qt::AlignHCenter);
        m_models[i] = new ResultRowsModel(this);
        m_views[i] = new QTableView;
        m_views[i]->setModel(m_models[i]);
        m_views[i]->setSelectionBehavior(QAbstractItemView::SelectRows);
        m_views[i]->setSelectionMode(QAbstractItemView::SingleSelection);
        m_views[i]->setAlternatingRowColors(true);
        m_views[i]->verticalHeader()->hide();
        m_views[i]->horizontalHeader()->setStretchLastSection(true);
        // Narrow lists: what the sample is and how it failed; the rows panel has the rest.
        for (int c = 0; c < ResultRowsModel::ColumnCount; ++c)
            m_views[i]->setColumnHidden(
                c, c != ResultRowsModel::SampleColumn && c != ResultRowsModel::SignatureColumn &&
                       c != ResultRowsModel::AnswerColumn && c != ResultRowsModel::GoldColumn &&
                       (i != Both || c != ResultRowsModel::ConfigColumn));
        columnLayout->addWidget(m_headers[i]);
        columnLayout->addWidget(m_views[i], 1);
        split->addWidget(column);
        const List list = List(i);
        connect(m_views[i]->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, list](const QModelIndex& current) {
                    if (current.isValid())
                        emit rowSelected(m_models[list]->row(current.row()));
                });
    }
    layout->addWidget(split, 1);
    clear();
}

void OverlapLists::showPair(const QString& path, double ratio, const QString& a, const QString& b)
{
    m_title->setText(tr("Failures at ratio %1: %2 vs %3 (loading…)").arg(ratio).arg(a, b));
    m_request->run<QVector<ResultRow>>(
        [path, ratio, a, b] { return overlapRows(path, ratio, a, b); },
        [this, ratio, a, b](const QVector<ResultRow>& rows) {
            setRows(ratio, a, b, rows);
            emit listsAvailable();
        },
        [this](const QString& message) {
            clear();
            m_title->setText(message);
        });
}

void OverlapLists::setRows(double ratio, const QString& a, const QString& b,
                           const QVector<ResultRow>& rows)
{
    // Membership from the rows themselves: a sample is "both" when each compressor
    // has a C→W row for it.
    QSet<QString> failA, failB;
    for (const ResultRow& r : rows) {
        if (r.result.compressor == a)
            failA.insert(r.result.sampleKey);
        if (r.result.compressor == b)
            failB.insert(r.result.sampleKey);
    }
    QVector<ResultRow> lists[ListCount];
    QSet<QString> listed[ListCount];
    for (const ResultRow& r : rows) {
        const QString& key = r.result.sampleKey;
        const bool inA = failA.contains(key), inB = failB.contains(key);
        const List list = inA && inB ? Both : inA ? AOnly : BOnly;
        // One row per (list, compressor, sample): a == b lists each row once.
        const QString id = r.result.compressor + QLatin1Char('\n') + key;
        if (listed[list].contains(id))
            continue;
        listed[list].insert(id);
        lists[list] << r;
    }
    // Both: the two compressors' rows of one sample next to each other.
    std::stable_sort(lists[Both].begin(), lists[Both].end(),
                     [](const ResultRow& x, const ResultRow& y) {
                         return x.result.sampleKey < y.result.sampleKey;
                     });
    const int bothSamples = int((failA & failB).size());
    m_title->setText(tr("Failures (C→W) at ratio %1: %2 vs %3").arg(ratio).arg(a, b));
    m_headers[AOnly]->setText(
        tr("%1 only: %n sample(s)", nullptr, int(lists[AOnly].size())).arg(a));
    m_headers[Both]->setText(tr("Both: %n sample(s)", nullptr, bothSamples));
    m_headers[BOnly]->setText(
        tr("%1 only: %n sample(s)", nullptr, int(lists[BOnly].size())).arg(b));
    for (int i = 0; i < ListCount; ++i) {
        m_models[i]->setRows(lists[i]);
        m_views[i]->resizeColumnsToContents();
        for (int column : {int(ResultRowsModel::AnswerColumn), int(ResultRowsModel::GoldColumn)})
            m_views[i]->setColumnWidth(column,
                                       std::min(m_views[i]->columnWidth(column), kListColumnWidth));
    }
}

void OverlapLists::clear()
{
    m_request->cancel();
    m_title->setText(tr("Click a cell of the overlap matrix to list the failures of that pair "
                        "side by side."));
    const QString names[ListCount] = {tr("A only"), tr("Both"), tr("B only")};
    for (int i = 0; i < ListCount; ++i) {
        m_headers[i]->setText(names[i]);
        m_models[i]->clear();
    }
}

QString OverlapLists::header(List list) const
{
    return m_headers[list]->text();
}

QString OverlapLists::title() const
{
    return m_title->text();
}

void OverlapLists::selectRow(List list, int row)
{
    const QModelIndex index = m_models[list]->index(row, ResultRowsModel::SampleColumn);
    if (index.isValid())
        m_views[list]->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

} // namespace kvl
