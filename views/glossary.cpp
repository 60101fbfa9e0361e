#include "glossary.h"

#include <QCoreApplication>

namespace kvl {

namespace {

struct Term
{
    const char* term;
    const char* title;
    const char* definition;
};

// Metrics and outcome words, then the failure signatures with their rules (thresholds
// frozen, as KVDiagnosis's classifier and core/diagnose/signature.cpp apply them).
const Term kTerms[] = {
    {"FullCache", QT_TRANSLATE_NOOP("kvl::Glossary", "Uncompressed cache"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The run of the same sample with the whole cache: the "
                                        "baseline of every comparison.")},
    {"Compression ratio", QT_TRANSLATE_NOOP("kvl::Glossary", "Compression ratio r"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The fraction of the context's KV entries removed "
                                        "(r = 0.75 keeps 25 %); the budget is 1 − r.")},
    {"Transition", QT_TRANSLATE_NOOP("kvl::Glossary", "Outcome transition"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "FullCache's outcome → the compressed outcome: C→C, "
                                        "C→W, W→C or W→W (C correct, W wrong).")},
    {"C→W", QT_TRANSLATE_NOOP("kvl::Glossary", "Correct to wrong"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "FullCache answers correctly and the compressed cache "
                                        "does not: the failures compression causes.")},
    {"C→W rate", QT_TRANSLATE_NOOP("kvl::Glossary", "C→W rate"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "C→W rows over the rows whose sample FullCache answers "
                                        "correctly, in percent.")},
    {"ERR", QT_TRANSLATE_NOOP("kvl::Glossary", "Evidence retention rate"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The mean over slots (layer, kv-head) of the share of "
                                        "the evidence tokens kept: (1/|S|) Σ_s |R_s ∩ E| / |E|. "
                                        "Undefined for compressors that keep every position.")},
    {"ECov", QT_TRANSLATE_NOOP("kvl::Glossary", "Evidence map coverage"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The mean over (slot, evidence span) of whether at "
                                        "least half of the span is kept in the slot.")},
    {"DRR", QT_TRANSLATE_NOOP("kvl::Glossary", "Distractor retention ratio"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "D / (D + ERR), D the retention rate of the "
                                        "distractors: above 0.5 the compressor keeps what "
                                        "misleads rather than what answers.")},
    {"ΔNLL", QT_TRANSLATE_NOOP("kvl::Glossary", "Likelihood drift"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "NLL of the gold answer under the compressed cache "
                                        "minus under FullCache, teacher-forced; GPR = "
                                        "exp(−ΔNLL).")},
    {"EAR", QT_TRANSLATE_NOOP("kvl::Glossary", "Evidence attention ratio"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The question's attention mass on the evidence, "
                                        "compressed over FullCache, from an eager-attention "
                                        "replay: below 0.5 the evidence is kept but not looked "
                                        "at.")},
    {"GER", QT_TRANSLATE_NOOP("kvl::Glossary", "Global eviction rate"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "The share of answer-critical tokens that every head "
                                        "of a layer evicted: such a token has no route left.")},
    {"Consensus", QT_TRANSLATE_NOOP("kvl::Glossary", "Head consensus"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Distinct per-head argmax positions over the heads of "
                                        "a layer: low when the heads agree.")},
    {"Jaccard", QT_TRANSLATE_NOOP("kvl::Glossary", "Failure-set Jaccard"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "|A ∩ B| / |A ∪ B| of two compressors' failing "
                                        "samples: 1 when they fail on the same samples.")},
    {"low_mapped_coverage", QT_TRANSLATE_NOOP("kvl::Glossary", "Low mapped coverage"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Measured or projected ECov below 0.50: the evidence "
                                        "was evicted.")},
    {"partial_mapped_coverage", QT_TRANSLATE_NOOP("kvl::Glossary", "Partial mapped coverage"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Measured or projected ECov in [0.50, 0.90): part of "
                                        "the evidence was evicted.")},
    {"high_mapped_coverage_likelihood_drift",
     QT_TRANSLATE_NOOP("kvl::Glossary", "High coverage, likelihood drift"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "ECov at least 0.90 and ΔNLL at least 1: the evidence "
                                        "is there, yet the gold answer became unlikely.")},
    {"structural_position_likelihood_drift",
     QT_TRANSLATE_NOOP("kvl::Glossary", "Structural, likelihood drift"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Every position kept by construction (ThinK, "
                                        "quantization) and ΔNLL at least 1.")},
    {"low_ear_candidate", QT_TRANSLATE_NOOP("kvl::Glossary", "Low EAR candidate"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Evidence kept (ECov at least 0.90, or structurally) "
                                        "and a valid replay gives EAR below 0.50: kept but not "
                                        "attended to.")},
    {"decode_scorer_candidate", QT_TRANSLATE_NOOP("kvl::Glossary", "Decode/scorer candidate"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "Evidence kept, |ΔNLL| at most 0.10 and top-k "
                                        "overlap at least 0.90: the answer went wrong while "
                                        "decoding, not in the cache.")},
    {"conflicting_diagnostic_signals", QT_TRANSLATE_NOOP("kvl::Glossary", "Conflicting signals"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "More than one of the rules above fires.")},
    {"ambiguous", QT_TRANSLATE_NOOP("kvl::Glossary", "Ambiguous"),
     QT_TRANSLATE_NOOP("kvl::Glossary", "No rule fires.")},
};

constexpr int kFirstSignature = 13; // kTerms from "low_mapped_coverage" on

QString tr(const char* text)
{
    return QCoreApplication::translate("kvl::Glossary", text);
}

} // namespace

QVector<GlossaryEntry> glossary()
{
    QVector<GlossaryEntry> out;
    for (const Term& t : kTerms)
        out.push_back({QString::fromUtf8(t.term), tr(t.title), tr(t.definition)});
    return out;
}

QString glossaryTip(const QString& term)
{
    for (const Term& t : kTerms)
        if (term == QString::fromUtf8(t.term))
            return QStringLiteral("%1: %2").arg(tr(t.title), tr(t.definition));
    return {};
}

QStringList failureSignatureIds()
{
    QStringList ids;
    for (int i = kFirstSignature; i < int(std::size(kTerms)); ++i)
        ids << QString::fromUtf8(kTerms[i].term);
    return ids;
}

QString glossaryHtml()
{
    QString html = QStringLiteral("<table cellspacing=\"6\">");
    for (const GlossaryEntry& e : glossary())
        html +=
            QStringLiteral("<tr><td valign=\"top\"><b>%1</b></td><td valign=\"top\"><i>%2"
                           "</i><br>%3</td></tr>")
                .arg(e.term.toHtmlEscaped(), e.title.toHtmlEscaped(), e.definition.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

} // namespace kvl
