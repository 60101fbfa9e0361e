#include "overlappages.h"

#include "batchfigures.h"
#include "overlaplists.h"
#include "pagehost.h"
#include "rowqueries.h"
#include "runsession.h"
#include "views/failuresetsview.h"
#include "views/overlapmatrixview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace kvl {

namespace {

// Columns of an exported UpSet: the largest intersections whose member dots stay apart
// in a single column (eight presses make up to 255; the CSV keeps every one).
constexpr int kPrintedIntersections = 12;
// In the window: columns a 1280-px screen draws ~15 px apart (the CSV and the
// drill-down keep every one).
constexpr int kShownIntersections = 40;

QString noOverlapReason()
{
    return QCoreApplication::translate("kvl::BatchExport",
                                       "no ratio with two compressors and samples");
}

// "Ratio: [0.5 ▾]" over a page; the chooser sets the session's overlap ratio.
QComboBox* addRatioRow(QVBoxLayout* layout)
{
    auto* row = new QHBoxLayout;
    auto* combo = new QComboBox;
    row->addWidget(new QLabel(QCoreApplication::translate("kvl::MainWindow", "Ratio:")));
    row->addWidget(combo);
    row->addStretch();
    layout->addLayout(row);
    return combo;
}

void fillRatios(QComboBox* combo, const RunViewData& data, int current)
{
    const QSignalBlocker block(combo);
    combo->clear();
    for (double r : data.overlapRatios)
        combo->addItem(QString::number(r));
    combo->setCurrentIndex(current);
}

// The chooser asks the session of the run shown (followed through `session`) for the ratio.
void connectRatioChooser(QComboBox* combo, RunPage* page, std::function<RunSession*()> session)
{
    QObject::connect(combo, &QComboBox::currentIndexChanged, page, [session](int i) {
        RunSession* s = session();
        if (s && i >= 0 && i < s->data().overlapRatios.size())
            s->setOverlapRatio(s->data().overlapRatios[i]);
    });
}

} // namespace

int overlapRatioIndex(const RunSession* session)
{
    const RunViewData& data = session->data();
    const double ratio = session->selection().overlapRatio;
    for (int i = 0; i < data.overlapRatios.size(); ++i)
        if (sameRatio(data.overlapRatios[i], ratio))
            return i;
    return -1;
}

OverlapPage::OverlapPage(PageHost& host)
    : RunPage(host), m_view(new OverlapMatrixView), m_lists(new OverlapLists)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    m_ratios = addRatioRow(layout);
    // The matrix above, the clicked pair's failures as three lists below it.
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(m_lists);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connectRatioChooser(m_ratios, this, [this] { return session(); });
    connect(m_view, &OverlapMatrixView::pairSelected, this, &OverlapPage::showPair);
    connect(m_lists, &OverlapLists::rowSelected, this,
            [this](const ResultRow& row) { session()->inspectRow(row); });
}

void OverlapPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::summaryAvailable, this,
            [this](const RunViewData& data) { m_view->setProvenance(baseProvenance(data)); });
    connect(session, &RunSession::overviewAvailable, this, &OverlapPage::showRun);
    connect(session, &RunSession::detailsAvailable, this, &OverlapPage::showRun);
    connect(session, &RunSession::overlapRatioChanged, this, &OverlapPage::showRatio);
}

PlotView* OverlapPage::exportedView() const
{
    return m_view;
}

void OverlapPage::showRun(const RunViewData& data)
{
    // The session's ratio: the one chosen, kept when the run is re-read, else the run's.
    const int kept = overlapRatioIndex(session());
    if (kept >= 0)
        m_view->setData(data.overlaps[kept]);
    else
        m_view->setData(data.overlap);
    fillRatios(m_ratios, data, kept >= 0 ? kept : int(data.overlapIndex));
    // The pair last clicked, when this run has it.
    const RunSelection& s = session()->selection();
    const int a = int(data.overlap.names.indexOf(s.overlapA));
    const int b = int(data.overlap.names.indexOf(s.overlapB));
    if (a >= 0 && b >= 0)
        m_view->selectPair(a, b);
}

void OverlapPage::showRatio(double ratio)
{
    const RunViewData& data = session()->data();
    for (int i = 0; i < data.overlapRatios.size(); ++i)
        if (sameRatio(data.overlapRatios[i], ratio)) {
            m_view->setData(data.overlaps[i]);
            m_lists->clear(); // the pair listed was at another ratio
            const QSignalBlocker block(m_ratios);
            m_ratios->setCurrentIndex(i);
        }
}

void OverlapPage::showPair(const OverlapSelection& s)
{
    session()->setOverlapPair(s.a, s.b);
    host().showMessage(m_view->describe(int(m_view->data().names.indexOf(s.a)),
                                        int(m_view->data().names.indexOf(s.b))));
    const QString path = session()->path();
    const double ratio = session()->selection().overlapRatio;
    if (path.isEmpty() || !session()->canRead() || ratio < 0)
        return;
    host().showRows(tr("Failures at ratio %1: %2 vs %3").arg(ratio).arg(s.a, s.b),
                    [path, ratio, s] { return overlapRows(path, ratio, s.a, s.b); });
    m_lists->showPair(path, ratio, s.a, s.b);
}

void OverlapPage::clear()
{
    m_view->clear();
    m_lists->clear();
    const QSignalBlocker block(m_ratios);
    m_ratios->clear();
}

void OverlapPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    if (data.overlaps.isEmpty())
        figures.skip(QStringLiteral("overlap"), noOverlapReason());
    for (int i = 0; i < data.overlaps.size(); ++i) {
        auto* view = figures.make(new OverlapMatrixView);
        view->setData(data.overlaps[i]);
        figures.add(
            QStringLiteral("overlap-%1").arg(BatchFigures::ratioTag(data.overlapRatios.value(i))),
            view, 0.8, tr("no failures to overlap"));
    }
}

FailureSetsPage::FailureSetsPage(PageHost& host) : RunPage(host), m_view(new FailureSetsView)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    m_ratios = addRatioRow(layout);
    layout->addWidget(m_view, 1);
    m_view->setMaxColumns(kShownIntersections);
    connectRatioChooser(m_ratios, this, [this] { return session(); });
    connect(m_view, &FailureSetsView::intersectionSelected, this,
            [this](double ratio, const QStringList& members, const QStringList& others) {
                const QString path = session()->path();
                if (path.isEmpty() || !session()->canRead())
                    return;
                this->host().showMessage(m_view->describe(m_view->selectedColumn()));
                this->host().showRows(tr("Failures at ratio %1: %2 only")
                                          .arg(ratio)
                                          .arg(members.join(QStringLiteral(" & "))),
                                      [path, ratio, members, others] {
                                          return intersectionRows(path, ratio, members, others);
                                      });
            });
}

void FailureSetsPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::summaryAvailable, this,
            [this](const RunViewData& data) { m_view->setProvenance(baseProvenance(data)); });
    connect(session, &RunSession::overviewAvailable, this, &FailureSetsPage::showRun);
    connect(session, &RunSession::detailsAvailable, this, &FailureSetsPage::showRun);
    connect(session, &RunSession::overlapRatioChanged, this, &FailureSetsPage::showRatio);
}

PlotView* FailureSetsPage::exportedView() const
{
    return m_view;
}

void FailureSetsPage::showRun(const RunViewData& data)
{
    const int kept = overlapRatioIndex(session());
    const FailureSets sets =
        data.failureSets.value(kept >= 0 ? kept : data.overlapIndex, FailureSets{});
    if (sets.isEmpty())
        m_view->clear();
    else
        m_view->setData(sets);
    fillRatios(m_ratios, data, kept >= 0 ? kept : int(data.overlapIndex));
}

void FailureSetsPage::showRatio(double ratio)
{
    const RunViewData& data = session()->data();
    for (int i = 0; i < data.overlapRatios.size(); ++i)
        if (sameRatio(data.overlapRatios[i], ratio)) {
            if (i < data.failureSets.size())
                m_view->setData(data.failureSets[i]);
            const QSignalBlocker block(m_ratios);
            m_ratios->setCurrentIndex(i);
        }
}

void FailureSetsPage::clear()
{
    m_view->clear();
    const QSignalBlocker block(m_ratios);
    m_ratios->clear();
}

void FailureSetsPage::exportFigures(BatchFigures& figures)
{
    const RunViewData& data = figures.data();
    if (data.overlaps.isEmpty())
        figures.skip(QStringLiteral("failure-sets"), noOverlapReason());
    for (int i = 0; i < data.overlaps.size(); ++i) {
        auto* view = figures.make(new FailureSetsView);
        view->setMaxColumns(kPrintedIntersections);
        view->setData(data.failureSets.value(i));
        figures.add(QStringLiteral("failure-sets-%1")
                        .arg(BatchFigures::ratioTag(data.overlapRatios.value(i))),
                    view, 0.75, tr("no compressor fails a sample at this ratio"),
                    // A dot row per compressor, each as tall as a dot and its name.
                    std::max(2.6, 1.6 + 0.25 * data.failureSets.value(i).names.size()));
    }
}

} // namespace kvl
