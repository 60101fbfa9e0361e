#include "outcomepages.h"

#include "batchfigures.h"
#include "latestrequest.h"
#include "runsession.h"
#include "views/outcomegridview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace kvl {

namespace {

// The run's outcomes, read on a worker thread each time the overview lands (a sweep
// committing rows included); a failure leaves the view empty, saying why.
void loadOnOverview(RunPage* page, RunSession* session, LatestRequest* request,
                    OutcomeGridView* view, std::function<void(const RunOutcomes&)> show)
{
    QObject::connect(session, &RunSession::overviewAvailable, page, [session, request, view, show] {
        const QString path = session->path();
        if (path.isEmpty() || !session->canRead())
            return;
        request->run<RunOutcomes>([path] { return loadRunOutcomes(path); }, show,
                                  [view](const QString& message) {
                                      view->clear();
                                      view->setEmptyHint(message);
                                  });
    });
}

QString noGridReason()
{
    return QCoreApplication::translate("kvl::BatchExport",
                                       "no compressed configuration with rows in the run");
}

} // namespace

OutcomeGridPage::OutcomeGridPage(PageHost& host)
    : RunPage(host), m_view(new OutcomeGridView(GridFigure::Outcomes)),
      m_request(new LatestRequest(this))
{
    setContent(m_view);
}

void OutcomeGridPage::connectSession(RunSession* session)
{
    loadOnOverview(this, session, m_request, m_view, [this](const RunOutcomes& outcomes) {
        m_view->setProvenance(baseProvenance(this->session()->data()));
        const OutcomeGrid grid = outcomeGrid(outcomes);
        if (grid.isEmpty())
            m_view->clear();
        else
            m_view->setData(outcomePanels(grid));
        emit gridAvailable();
    });
}

PlotView* OutcomeGridPage::exportedView() const
{
    return m_view;
}

void OutcomeGridPage::clear()
{
    m_request->cancel();
    m_view->clear();
}

void OutcomeGridPage::exportFigures(BatchFigures& figures)
{
    auto* view = figures.make(new OutcomeGridView(GridFigure::Outcomes));
    const OutcomeGrid grid = outcomeGrid(loadRunOutcomes(figures.data().path));
    if (!grid.isEmpty())
        view->setData(outcomePanels(grid));
    figures.addWithHeight(QStringLiteral("outcome-grid"), view, view->printHeightInches(),
                          noGridReason());
}

SuiteFailuresPage::SuiteFailuresPage(PageHost& host)
    : RunPage(host),
      m_view(new OutcomeGridView(GridFigure::SuiteFailures)), m_pair{new QComboBox, new QComboBox},
      m_request(new LatestRequest(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Failure sets of:")));
    row->addWidget(m_pair[0]);
    row->addWidget(new QLabel(tr("and")));
    row->addWidget(m_pair[1]);
    row->addStretch();
    layout->addLayout(row);
    layout->addWidget(m_view, 1);
    m_pair[0]->setObjectName(QStringLiteral("FailurePairA"));
    m_pair[1]->setObjectName(QStringLiteral("FailurePairB"));
    for (QComboBox* combo : m_pair)
        connect(combo, &QComboBox::currentIndexChanged, this, &SuiteFailuresPage::draw);
}

void SuiteFailuresPage::connectSession(RunSession* session)
{
    loadOnOverview(this, session, m_request, m_view,
                   [this](const RunOutcomes& outcomes) { showOutcomes(outcomes); });
}

void SuiteFailuresPage::showOutcomes(const RunOutcomes& outcomes)
{
    // The pair chosen stays when the run is re-read and still has it.
    CompressorPair pair = this->pair();
    if (!outcomes.compressors.contains(pair.a) || !outcomes.compressors.contains(pair.b))
        pair = defaultFailurePair(outcomes.compressors);
    m_outcomes = outcomes;
    m_view->setProvenance(baseProvenance(session()->data()));
    for (int i = 0; i < 2; ++i) {
        const QSignalBlocker block(m_pair[i]);
        m_pair[i]->clear();
        m_pair[i]->addItems(outcomes.compressors);
        m_pair[i]->setCurrentIndex(int(outcomes.compressors.indexOf(i == 0 ? pair.a : pair.b)));
    }
    draw();
    emit gridAvailable();
}

CompressorPair SuiteFailuresPage::pair() const
{
    return {m_pair[0]->currentText(), m_pair[1]->currentText()};
}

void SuiteFailuresPage::setPair(const CompressorPair& pair)
{
    for (int i = 0; i < 2; ++i) {
        const QSignalBlocker block(m_pair[i]);
        m_pair[i]->setCurrentIndex(m_pair[i]->findText(i == 0 ? pair.a : pair.b));
    }
    draw();
}

void SuiteFailuresPage::draw()
{
    const SuiteFailureGrid grid = suiteFailureGrid(m_outcomes, pair());
    if (grid.isEmpty())
        m_view->clear();
    else
        m_view->setData(suiteFailurePanels(grid));
}

PlotView* SuiteFailuresPage::exportedView() const
{
    return m_view;
}

void SuiteFailuresPage::clear()
{
    m_request->cancel();
    m_outcomes = {};
    for (QComboBox* combo : m_pair) {
        const QSignalBlocker block(combo);
        combo->clear();
    }
    m_view->clear();
}

void SuiteFailuresPage::exportFigures(BatchFigures& figures)
{
    auto* view = figures.make(new OutcomeGridView(GridFigure::SuiteFailures));
    const SuiteFailureGrid grid = suiteFailureGrid(loadRunOutcomes(figures.data().path));
    if (!grid.isEmpty())
        view->setData(suiteFailurePanels(grid));
    figures.addWithHeight(QStringLiteral("suite-failure-grid"), view, view->printHeightInches(),
                          noGridReason());
}

} // namespace kvl
