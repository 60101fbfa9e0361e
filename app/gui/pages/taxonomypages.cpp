#include "taxonomypages.h"

#include "batchfigures.h"
#include "pagehost.h"
#include "rowqueries.h"
#include "runsession.h"
#include "viewoptions.h"
#include "views/signaturenames.h"
#include "views/taxonomyview.h"

#include <QCoreApplication>

namespace kvl {

namespace {

// In a single column the bars' legend goes under them (PrintLayoutFit): 2.6 in left the
// bars a strip between the legend and their turned labels.
constexpr double kSignatureBarsMinHeight = 3.6;

QString chainBreaksTitle()
{
    return QCoreApplication::translate("kvl::MainWindow",
                                       "Where multihop C→W rows leave the gold chain");
}

} // namespace

SignatureBarsPage::SignatureBarsPage(PageHost& host, TaxonomyView* view, Kind kind)
    : RunPage(host), m_view(view), m_kind(std::move(kind))
{
    setContent(m_view);
    // Drawn as shares when the View menu says so.
    m_view->setNormalized(host.viewOptions().taxonomyShares());
    connect(&host.viewOptions(), &ViewOptions::taxonomySharesChanged, m_view,
            &TaxonomyView::setNormalized);
    connect(m_view, &TaxonomyView::selectionChanged, this, &SignatureBarsPage::showRows);
}

void SignatureBarsPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::summaryAvailable, this,
            [this](const RunViewData& data) { m_view->setProvenance(baseProvenance(data)); });
    connect(session, &RunSession::overviewAvailable, this,
            [this](const RunViewData& data) { m_view->setData(m_kind.counts(data)); });
}

PlotView* SignatureBarsPage::exportedView() const
{
    return m_view;
}

void SignatureBarsPage::clear()
{
    m_view->clear();
}

void SignatureBarsPage::showRows(const TaxonomySelection& s)
{
    if (m_kind.remembersSignature)
        session()->setSignature(s.signature);
    host().showMessage(m_kind.message(s));
    const QString path = session()->path();
    if (path.isEmpty() || !session()->canRead())
        return;
    host().showRows(m_kind.rowsTitle(s), [path, s, rows = m_kind.rows] { return rows(path, s); });
}

TaxonomyPage::TaxonomyPage(PageHost& host)
    : SignatureBarsPage(host, new TaxonomyView,
                        {[](const RunViewData& d) -> const TaxonomyCounts& { return d.taxonomy; },
                         [](const TaxonomySelection& s) {
                             return tr("Selected %1 C→W rows of %2 at ratio %3 with signature %4")
                                 .arg(s.count)
                                 .arg(s.compressor)
                                 .arg(s.ratio)
                                 .arg(s.signature);
                         },
                         [](const TaxonomySelection& s) {
                             return tr("%1 · %2 (C→W)")
                                 .arg(ConfigChoice{s.compressor, s.ratio}.label(),
                                      signatureDisplayName(s.signature));
                         },
                         [](const QString& path, const TaxonomySelection& s) {
                             return taxonomyRows(path, s.compressor, s.ratio, s.signature);
                         },
                         true})
{}

void TaxonomyPage::exportFigures(BatchFigures& figures)
{
    auto* view = figures.make(new TaxonomyView);
    view->setData(figures.data().taxonomy);
    figures.add(QStringLiteral("taxonomy"), view, 0.62, tr("no C→W row with a failure signature"),
                kSignatureBarsMinHeight);
}

ChainBreaksPage::ChainBreaksPage(PageHost& host)
    : SignatureBarsPage(
          host,
          new TaxonomyView(
              chainBreaksTitle(),
              tr("No chain breaks in this run.\nMultihop answers write the chain out (Hotel = "
                 "Sierra = Kilo = 7); for the rows FullCache answers and a compressor fails, "
                 "this view shows at which step the written chain went wrong."),
              QStringLiteral("break")),
          {[](const RunViewData& d) -> const TaxonomyCounts& { return d.chainBreaks; },
           [](const TaxonomySelection& s) {
               return tr("Selected %1 multihop C→W rows of %2 at ratio %3: %4")
                   .arg(s.count)
                   .arg(s.compressor)
                   .arg(s.ratio)
                   .arg(signatureDisplayName(s.signature));
           },
           [](const TaxonomySelection& s) {
               return tr("%1 · chain broken at: %2 (C→W)")
                   .arg(ConfigChoice{s.compressor, s.ratio}.label(),
                        signatureDisplayName(s.signature));
           },
           [](const QString& path, const TaxonomySelection& s) {
               return chainBreakRows(path, s.compressor, s.ratio, s.signature);
           },
           false})
{
    view()->setObjectName(QStringLiteral("ChainBreaks"));
}

void ChainBreaksPage::exportFigures(BatchFigures& figures)
{
    auto* view = figures.make(new TaxonomyView(chainBreaksTitle(), {}, QStringLiteral("break")));
    view->setData(figures.data().chainBreaks);
    figures.add(QStringLiteral("chain-breaks"), view, 0.62, tr("no multihop C→W rows"),
                kSignatureBarsMinHeight);
}

} // namespace kvl
