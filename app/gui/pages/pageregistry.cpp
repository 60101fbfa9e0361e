#include "pageregistry.h"

#include "accuracypage.h"
#include "attentionpage.h"
#include "curvespage.h"
#include "outcomepages.h"
#include "overlappages.h"
#include "retrievalmappage.h"
#include "routingpages.h"
#include "samplespages.h"
#include "taxonomypages.h"

#include <QCoreApplication>

namespace kvl {

namespace {

// Page titles and texts in the window's context, where the catalogue has them; the batch
// export's skip reasons in its own. Spelled out for lupdate, which reads literal contexts.
CurvesSpec interventions()
{
    return {QStringLiteral("interventions"),
            QCoreApplication::translate("kvl::MainWindow",
                                        "Intervention repair rate: attention boost vs sham"),
            QCoreApplication::translate(
                "kvl::MainWindow",
                "No interventions in this run.\nRuns with interventions boost the attention on "
                "the evidence of low-EAR rows, and on random entries as a sham."),
            QCoreApplication::translate("kvl::BatchExport", "no interventions in the run"),
            [](const RunViewData& d) -> const RatioCurves& { return d.interventions; }};
}

CurvesSpec spanKeep()
{
    return {QStringLiteral("span-keep"),
            QCoreApplication::translate("kvl::MainWindow",
                                        "Instruction span keep rate vs compression ratio"),
            QCoreApplication::translate(
                "kvl::MainWindow",
                "No instruction spans in this run.\nRuns of the instructions suite (or samples "
                "with instruction spans) show how much of each instruction survives, by its "
                "order in the prompt."),
            QCoreApplication::translate("kvl::BatchExport", "no instruction spans in the run"),
            [](const RunViewData& d) -> const RatioCurves& { return d.spanKeep; }};
}

CurvesSpec leakage()
{
    return {QStringLiteral("leakage"),
            QCoreApplication::translate("kvl::MainWindow",
                                        "System-prompt leakage vs compression ratio"),
            QCoreApplication::translate(
                "kvl::MainWindow",
                "No leakage measured in this run.\nRuns of the instructions suite measure how "
                "often the answer leaks the system prompt."),
            QCoreApplication::translate("kvl::BatchExport", "no leakage measured in the run"),
            [](const RunViewData& d) -> const RatioCurves& { return d.leakage; }};
}

} // namespace

PageRegistry PageRegistry::standard()
{
    using G = PageGroup;
    PageRegistry r;
    r.add(PageEntry::of<AccuracyPage>(pages::Accuracy, G::Overview,
                                      QCoreApplication::translate("kvl::MainWindow", "Accuracy")));
    r.add(PageEntry::of<OutcomeGridPage>(
        pages::OutcomeGrid, G::Overview,
        QCoreApplication::translate("kvl::MainWindow", "Outcome grid")));
    r.add(PageEntry::of<TaxonomyPage>(pages::Taxonomy, G::Failures,
                                      QCoreApplication::translate("kvl::MainWindow", "Taxonomy")));
    r.add(PageEntry::of<ChainBreaksPage>(
        pages::ChainBreaks, G::Failures,
        QCoreApplication::translate("kvl::MainWindow", "Chain breaks")));
    r.add(PageEntry::of<OverlapPage>(
        pages::Overlap, G::Failures,
        QCoreApplication::translate("kvl::MainWindow", "Failure overlap")));
    r.add(PageEntry::of<FailureSetsPage>(
        pages::FailureSets, G::Failures,
        QCoreApplication::translate("kvl::MainWindow", "Failure sets")));
    r.add(PageEntry::of<SuiteFailuresPage>(
        pages::SuiteFailures, G::Failures,
        QCoreApplication::translate("kvl::MainWindow", "Suite failures")));
    r.add(PageEntry::of<AttentionPage>(
        pages::Attention, G::Attention,
        QCoreApplication::translate("kvl::MainWindow", "Question attention")));
    r.add(CurvesPage::entry(pages::Interventions, G::Attention,
                            QCoreApplication::translate("kvl::MainWindow", "Interventions"),
                            interventions()));
    r.add(CurvesPage::entry(pages::SpanKeep, G::Instructions,
                            QCoreApplication::translate("kvl::MainWindow", "Span keep"),
                            spanKeep()));
    r.add(CurvesPage::entry(pages::Leakage, G::Instructions,
                            QCoreApplication::translate("kvl::MainWindow", "Leakage"), leakage()));
    r.add(PageEntry::of<EvictionPage>(
        pages::Eviction, G::Routing,
        QCoreApplication::translate("kvl::MainWindow", "Eviction map")));
    r.add(PageEntry::of<GerPage>(
        pages::Ger, G::Routing, QCoreApplication::translate("kvl::MainWindow", "GER & consensus")));
    r.add(PageEntry::of<SamplePage>(pages::Sample, G::Samples,
                                    QCoreApplication::translate("kvl::MainWindow", "Sample")));
    r.add(PageEntry::of<CompareSamplesPage>(
        pages::CompareSamples, G::Samples,
        QCoreApplication::translate("kvl::MainWindow", "Compare samples")));
    r.add(PageEntry::of<CompareRunsPage>(
        pages::CompareRuns, G::Samples,
        QCoreApplication::translate("kvl::MainWindow", "Compare runs")));
    r.add(PageEntry::of<DecodingCurvesPage>(
        pages::DecodingCurves, G::Decoding,
        QCoreApplication::translate("kvl::MainWindow", "Decoding curves")));
    r.add(PageEntry::of<RetrievalMapPage>(
        pages::RetrievalMap, G::Decoding,
        QCoreApplication::translate("kvl::MainWindow", "Retrieval map")));
    return r;
}

const PageEntry* PageRegistry::find(const PageId& id) const
{
    for (const PageEntry& e : m_entries)
        if (e.id == id)
            return &e;
    return nullptr;
}

} // namespace kvl
