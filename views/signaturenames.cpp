#include "signaturenames.h"

#include <QCoreApplication>

namespace kvl {

namespace {

struct SignatureName
{
    const char* id;
    const char* name;
};

// Ids are the classifier's (KVDiagnosis); names are what the legend shows.
const SignatureName signatureNames[] = {
    {"low_mapped_coverage", QT_TRANSLATE_NOOP("kvl::SignatureNames", "Low mapped coverage")},
    {"partial_mapped_coverage",
     QT_TRANSLATE_NOOP("kvl::SignatureNames", "Partial mapped coverage")},
    {"high_mapped_coverage_likelihood_drift",
     QT_TRANSLATE_NOOP("kvl::SignatureNames", "High coverage, likelihood drift")},
    {"structural_position_likelihood_drift",
     QT_TRANSLATE_NOOP("kvl::SignatureNames", "Structural, likelihood drift")},
    {"low_ear_candidate", QT_TRANSLATE_NOOP("kvl::SignatureNames", "Low EAR candidate")},
    {"decode_scorer_candidate",
     QT_TRANSLATE_NOOP("kvl::SignatureNames", "Decode/scorer candidate")},
    {"conflicting_diagnostic_signals",
     QT_TRANSLATE_NOOP("kvl::SignatureNames", "Conflicting signals")},
    {"ambiguous", QT_TRANSLATE_NOOP("kvl::SignatureNames", "Ambiguous")},
    // Chain-break categories of multihop answers.
    {"chain_start", QT_TRANSLATE_NOOP("kvl::SignatureNames", "Another variable first")},
    {"chain_value", QT_TRANSLATE_NOOP("kvl::SignatureNames", "Right chain, wrong number")},
};

} // namespace

QString signatureDisplayName(const QString& signature)
{
    for (const SignatureName& s : signatureNames)
        if (signature == QLatin1String(s.id))
            return QCoreApplication::translate("kvl::SignatureNames", s.name);
    static const QLatin1String linkPrefix("chain_link_");
    if (signature.startsWith(linkPrefix))
        return QCoreApplication::translate("kvl::SignatureNames", "Link %1")
            .arg(signature.mid(linkPrefix.size()));
    return signature;
}

} // namespace kvl
