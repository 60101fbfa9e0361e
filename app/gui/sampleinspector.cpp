#include "sampleinspector.h"

#include "contexthtml.h"
#include "runviewdata.h"
#include "views/heatmapview.h"
#include "views/signaturenames.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace kvl {

namespace {

QString number(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 3) : QStringLiteral("–");
}

QString verdict(bool correct)
{
    return correct ? SampleInspector::tr("correct") : SampleInspector::tr("wrong");
}

} // namespace

SampleInspector::SampleInspector(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_metrics(new QLabel), m_legend(new QLabel),
      m_context(new QTextBrowser), m_reference(new HeatmapView), m_heatmap(new HeatmapView)
{
    auto* layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_legend->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(m_metrics);
    auto* split = new QSplitter(Qt::Vertical);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_legend);
    topLayout->addWidget(m_context);
    split->addWidget(top);
    auto* maps = new QSplitter(Qt::Horizontal);
    maps->addWidget(m_reference);
    maps->addWidget(m_heatmap);
    split->addWidget(maps);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    m_reference->setEmptyHint(tr("No FullCache attention stored for this sample."));
    m_heatmap->setEmptyHint(tr("No attention stored for this sample under this configuration."));
    // One colour scale and one zoom for the two maps: equal colours mean equal attention.
    m_reference->setScalePartner(m_heatmap);
    clear();
}

void SampleInspector::clear()
{
    m_detail = {};
    m_summary->setText(tr("Select a row in the Rows panel to inspect its sample."));
    m_metrics->clear();
    m_heatmap->setNote({});
    m_legend->clear();
    m_context->clear();
    m_reference->clear();
    m_heatmap->clear();
}

void SampleInspector::setBusy(const QString& what)
{
    m_summary->setText(tr("Loading %1…").arg(what));
}

void SampleInspector::setDetail(const SampleDetail& d)
{
    m_detail = d;
    const QString config = ConfigChoice{d.compressor, d.ratio}.label();
    if (d.sample.key.isEmpty()) {
        clear();
        m_summary->setText(tr("The sample is not in the run file."));
        return;
    }
    const ResultRecord& r = d.result;
    QString summary = tr("<b>%1</b> (%2) under <b>%3</b>")
                          .arg(d.sample.key.toHtmlEscaped(), d.sample.suite.toHtmlEscaped(),
                               config.toHtmlEscaped());
    if (d.found) {
        summary += QStringLiteral(" — ");
        summary += r.transition ? transitionName(*r.transition) : QString();
        if (r.signature)
            summary += QStringLiteral(" · ") + signatureDisplayName(signatureName(*r.signature));
        summary += QStringLiteral("<br>") + tr("Answer: <tt>%1</tt> (%2) · Gold: <tt>%3</tt>")
                                                .arg(r.answer.toHtmlEscaped(), verdict(r.correct),
                                                     d.sample.gold.toHtmlEscaped());
        if (d.referenceCorrect)
            summary += QStringLiteral(" · ") +
                       tr("FullCache: <tt>%1</tt> (%2)")
                           .arg(d.referenceAnswer.toHtmlEscaped(), verdict(*d.referenceCorrect));
    } else {
        summary +=
            QStringLiteral("<br>") + tr("No row of this sample under this configuration yet.");
    }
    m_summary->setText(summary);
    const DiagnosticRow& m = r.metrics;
    m_metrics->setText(tr("ERR %1 · ECov %2 · ΔNLL %3 · EAR %4 · DRR %5 · GER %6")
                           .arg(number(m.errSlot), number(m.ecovSlot), number(m.deltaNll),
                                number(m.ear), number(m.drr), number(r.ger)));
    QString legend = d.tokenKeep.isEmpty()
                         ? tr("No kept mask stored: tokens are not coloured.")
                         : tr("Token background: share of (layer, head) slots that kept it "
                              "(bright = kept by all, dark = evicted by all).");
    legend += QLatin1Char(' ') + tr("<b><u>Evidence</u></b> · <i>instruction</i>.");
    if (d.context.isEmpty() ||
        d.tokenOffsets.size() != std::max<qsizetype>(d.sample.contextLen, d.tokenKeep.size()))
        legend +=
            QLatin1Char(' ') +
            tr("The run stores no context text with token offsets: token positions are shown.");
    m_legend->setText(legend);
    m_context->setHtml(contextHtml(d));

    Provenance ref;
    ref.compressor = kFullCacheCompressor;
    ref.note = tr("sample %1").arg(d.sample.key);
    m_reference->setProvenance(ref);
    Provenance cur;
    cur.compressor = d.compressor;
    cur.ratio = d.ratio;
    cur.note = ref.note;
    m_heatmap->setProvenance(cur);
    m_reference->setTitle(tr("Question attention — FullCache"));
    m_heatmap->setTitle(d.heatmapStandIn
                            ? tr("FullCache attention, entries evicted by %1 greyed (its own "
                                 "attention is not stored)")
                                  .arg(config)
                            : tr("Question attention — %1").arg(config));
    // Say exactly what is missing and why (an empty map, or the stand-in above).
    m_reference->setEmptyHint(tr("No FullCache attention to draw.\n%1").arg(d.referenceMissing));
    m_heatmap->setEmptyHint(tr("No attention of %1 to draw.\n%2").arg(config, d.heatmapMissing));
    m_heatmap->setNote(d.heatmapStandIn ? d.heatmapMissing : QString());
    if (d.referenceHeatmap.isEmpty())
        m_reference->clear();
    else
        m_reference->setData(d.referenceHeatmap);
    if (d.heatmap.isEmpty())
        m_heatmap->clear();
    else
        m_heatmap->setData(d.heatmap);
}

QString SampleInspector::contextText() const
{
    return m_context->toPlainText();
}

QString SampleInspector::summaryText() const
{
    return m_summary->text() + QLatin1Char('\n') + m_metrics->text();
}

} // namespace kvl
