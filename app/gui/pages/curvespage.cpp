#include "curvespage.h"

#include "batchfigures.h"
#include "runsession.h"
#include "views/ratiocurvesview.h"

#include <QTabWidget>

namespace kvl {

CurvesPage::CurvesPage(PageHost& host, CurvesSpec spec)
    : RunPage(host), m_spec(std::move(spec)),
      m_view(new RatioCurvesView(m_spec.title, m_spec.emptyHint))
{
    if (!m_spec.objectName.isEmpty())
        m_view->setObjectName(m_spec.objectName);
    setContent(m_view);
}

void CurvesPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::overviewAvailable, this, [this](const RunViewData& data) {
        show(m_view, m_spec.curves(data));
        m_view->setProvenance(baseProvenance(data));
    });
}

PlotView* CurvesPage::exportedView() const
{
    return m_view;
}

void CurvesPage::clear()
{
    m_view->clear();
}

void CurvesPage::show(RatioCurvesView* view, const RatioCurves& curves)
{
    if (curves.isEmpty())
        view->clear();
    else
        view->setData(curves);
}

PageEntry CurvesPage::entry(const PageId& id, PageGroup group, const QString& title,
                            const CurvesSpec& spec)
{
    return PageEntry{id, group, title,
                     [spec](PageHost& host) -> RunPage* { return new CurvesPage(host, spec); },
                     [spec](BatchFigures& figures) { exportFigures(figures, spec); }};
}

void CurvesPage::exportFigures(BatchFigures& figures, const CurvesSpec& spec)
{
    auto* view = figures.make(new RatioCurvesView(spec.title, {}));
    show(view, spec.curves(figures.data()));
    figures.add(spec.exportName, view, 0.62, spec.skipReason, view->printMinHeightInches());
}

DecodingCurvesPage::DecodingCurvesPage(PageHost& host) : RunPage(host), m_tabs(new QTabWidget)
{
    m_tabs->setObjectName(QStringLiteral("OffloadCurves"));
    m_tabs->setDocumentMode(true);
    const QStringList tabs{tr("Evidence recall"), tr("Score by landmark and chunk"),
                           tr("Evidence kept while compressing")};
    const QVector<CurvesSpec> all = specs();
    for (int i = 0; i < all.size(); ++i) {
        auto* view = new RatioCurvesView(all[i].title, all[i].emptyHint);
        view->setObjectName(all[i].objectName);
        m_views << view;
        m_tabs->addTab(view, tabs.value(i));
    }
    setContent(m_tabs);
}

QVector<CurvesSpec> DecodingCurvesPage::specs()
{
    const QString none = tr("no offloading in the run");
    return {
        {QStringLiteral("retrieval-recall"),
         tr("Evidence recall of retrieval vs compression ratio"),
         tr("No offloading in this run.\nRuns of the offloading presses (shadowkv, quest, yakv) "
            "show how much of the evidence each decoding step retrieved, per method."),
         none, [](const RunViewData& d) -> const RatioCurves& { return d.offload.recall; },
         QStringLiteral("RetrievalRecall")},
        {QStringLiteral("offload-score"), tr("Task score by landmark kind and chunk size"),
         tr("No offloading in this run.\nRuns of the offloading presses show the task score per "
            "landmark kind (colour) and chunk size (line style) against the ratio."),
         none, [](const RunViewData& d) -> const RatioCurves& { return d.offload.score; },
         QStringLiteral("OffloadScore")},
        {QStringLiteral("decoding-evidence"),
         tr("Evidence kept while decoding, after each compression"),
         tr("No compression during decoding in this run.\nRuns of the decode-time presses "
            "(decoding, compression_ratio_decoding, prefill_decoding, cam) show how much of the "
            "evidence the cache still holds after each compression of the answer."),
         tr("no compression during decoding in the run"),
         [](const RunViewData& d) -> const RatioCurves& { return d.decodingEvidence; },
         QStringLiteral("DecodingEvidence")},
    };
}

void DecodingCurvesPage::connectSession(RunSession* session)
{
    connect(session, &RunSession::overviewAvailable, this, [this](const RunViewData& data) {
        const QVector<CurvesSpec> all = specs();
        for (int i = 0; i < m_views.size(); ++i) {
            CurvesPage::show(m_views[i], all[i].curves(data));
            m_views[i]->setProvenance(baseProvenance(data));
        }
    });
}

PlotView* DecodingCurvesPage::exportedView() const
{
    return qobject_cast<PlotView*>(m_tabs->currentWidget());
}

void DecodingCurvesPage::clear()
{
    for (RatioCurvesView* view : m_views)
        view->clear();
}

void DecodingCurvesPage::exportFigures(BatchFigures& figures)
{
    for (const CurvesSpec& spec : specs())
        CurvesPage::exportFigures(figures, spec);
}

} // namespace kvl
