#include "sampleinspector.h"

#include "contexthtml.h"
#include "runviewdata.h"
#include "views/heatmapview.h"
#include "views/signaturenames.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
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

// A long system turn or question is cut for the label; the tooltip holds all of it.
QString clipped(const QString& text, int chars)
{
    const QString simple = text.simplified();
    return simple.size() <= chars ? simple : simple.left(chars) + QStringLiteral(" …");
}

} // namespace

SampleInspector::SampleInspector(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_metrics(new QLabel), m_legend(new QLabel),
      m_question(new QLabel), m_context(new QTextBrowser), m_toEvidence(new QToolButton),
      m_prevEvidence(new QToolButton), m_nextEvidence(new QToolButton), m_evidenceAt(new QLabel),
      m_reference(new HeatmapView), m_heatmap(new HeatmapView)
{
    auto* layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_legend->setWordWrap(true);
    m_question->setObjectName(QStringLiteral("SampleQuestion"));
    m_question->setWordWrap(true);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_context->setObjectName(QStringLiteral("SampleContext"));
    layout->addWidget(m_summary);
    layout->addWidget(m_metrics);
    auto* split = new QSplitter(Qt::Vertical);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_question);
    // The evidence can sit thousands of tokens down the context: buttons find it.
    m_toEvidence->setObjectName(QStringLiteral("ScrollToEvidence"));
    m_toEvidence->setText(tr("Scroll to evidence"));
    m_toEvidence->setToolTip(tr("Scroll the context to its first evidence span"));
    m_prevEvidence->setArrowType(Qt::UpArrow);
    m_prevEvidence->setToolTip(tr("Previous evidence span"));
    m_prevEvidence->setAccessibleName(tr("Previous evidence span"));
    m_nextEvidence->setArrowType(Qt::DownArrow);
    m_nextEvidence->setToolTip(tr("Next evidence span"));
    m_nextEvidence->setAccessibleName(tr("Next evidence span"));
    connect(m_toEvidence, &QToolButton::clicked, this, [this] { scrollToEvidence(0); });
    connect(m_prevEvidence, &QToolButton::clicked, this, &SampleInspector::previousEvidence);
    connect(m_nextEvidence, &QToolButton::clicked, this, &SampleInspector::nextEvidence);
    auto* legendRow = new QHBoxLayout;
    legendRow->addWidget(m_legend, 1);
    legendRow->addWidget(m_toEvidence);
    legendRow->addWidget(m_prevEvidence);
    legendRow->addWidget(m_nextEvidence);
    legendRow->addWidget(m_evidenceAt);
    topLayout->addLayout(legendRow);
    topLayout->addWidget(m_context);
    split->addWidget(top);
    auto* maps = new QSplitter(Qt::Horizontal);
    maps->addWidget(m_reference);
    maps->addWidget(m_heatmap);
    split->addWidget(maps);
    // The context and the maps share the height: the evidence must be readable too.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
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
    m_question->clear();
    m_question->setToolTip({});
    m_question->hide();
    m_context->clear();
    m_evidenceStarts.clear();
    m_evidence = -1;
    updateEvidenceButtons();
    m_reference->clear();
    m_heatmap->clear();
    // Before a row is chosen the maps say how to get one, or that the run's source never
    // released attention.
    const QString hint = m_idleHint.isEmpty()
                             ? tr("Select a row in the Rows panel to see its attention.")
                             : m_idleHint;
    m_reference->setEmptyHint(hint);
    m_heatmap->setEmptyHint(hint);
}

void SampleInspector::setIdleHint(const QString& hint)
{
    m_idleHint = hint;
    if (!m_detail.found)
        clear();
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
    // An imported run has neither masks nor a context: the text below says so whole.
    m_legend->setText(d.notReleased.isEmpty() ? legend : QString());
    m_legend->setVisible(d.notReleased.isEmpty());
    QStringList asked, full;
    if (!d.system.isEmpty()) {
        asked << tr("<b>System:</b> %1").arg(clipped(d.system, 300).toHtmlEscaped());
        full << tr("System: %1").arg(d.system);
    }
    if (!d.question.isEmpty()) {
        // Suites often write the label into the question itself ("Question: ... Answer:").
        QString question = d.question.trimmed();
        if (question.startsWith(QLatin1String("Question:"), Qt::CaseInsensitive))
            question = question.mid(9).trimmed();
        asked << tr("<b>Question:</b> %1").arg(clipped(question, 600).toHtmlEscaped());
        full << tr("Question: %1").arg(d.question);
    }
    m_question->setText(asked.join(QStringLiteral("<br>")));
    m_question->setToolTip(full.join(QLatin1Char('\n')));
    m_question->setVisible(!asked.isEmpty());
    m_context->setHtml(contextHtml(d));
    m_evidenceStarts = evidenceStarts(d);
    m_evidence = -1;
    updateEvidenceButtons();

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

QString SampleInspector::questionText() const
{
    return m_question->isHidden() ? QString() : m_question->toolTip();
}

int SampleInspector::evidenceCount() const
{
    return int(m_evidenceStarts.size());
}

bool SampleInspector::scrollToEvidence(int index)
{
    if (index < 0 || index >= evidenceCount())
        return false;
    m_evidence = index;
    m_context->scrollToAnchor(evidenceAnchor(index));
    // The span on the top line would hide the words that lead to it: a few lines up.
    QScrollBar* bar = m_context->verticalScrollBar();
    bar->setValue(bar->value() - 2 * m_context->fontMetrics().lineSpacing());
    updateEvidenceButtons();
    return true;
}

void SampleInspector::nextEvidence()
{
    scrollToEvidence(std::min(m_evidence + 1, evidenceCount() - 1));
}

void SampleInspector::previousEvidence()
{
    scrollToEvidence(std::max(m_evidence - 1, 0));
}

void SampleInspector::updateEvidenceButtons()
{
    const int n = evidenceCount();
    m_toEvidence->setEnabled(n > 0);
    m_prevEvidence->setEnabled(m_evidence > 0);
    m_nextEvidence->setEnabled(m_evidence + 1 < n);
    m_evidenceAt->setText(n == 0           ? tr("no evidence span")
                          : m_evidence < 0 ? tr("%n evidence span(s)", nullptr, n)
                                           : tr("evidence %1 of %2").arg(m_evidence + 1).arg(n));
}

QString SampleInspector::summaryText() const
{
    return m_summary->text() + QLatin1Char('\n') + m_metrics->text();
}

} // namespace kvl
