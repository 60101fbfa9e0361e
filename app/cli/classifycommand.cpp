// `kvlens-cli classify FILE [--rows]`: the KVDiagnosis signature rules applied to an
// external CSV/JSONL of per-row metrics (KVDiagnosis column names; nulls stay null),
// so other tools' results compare with KVLens runs.
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "diagnose/diagnosticfile.h"
#include "diagnose/signature.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <map>

namespace kvl::cli {
namespace {
int runClassify(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Classify per-row metrics (CSV with header or JSONL; columns ERR_slot, ECov_slot, "
        "delta_NLL, GPR, KL, TopK, gold_rank_shift, EAR, coverage_type) with the KVDiagnosis "
        "signature rules. Prints the count per signature as one JSON object."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("metrics file"));
    const QCommandLineOption rowsOption(
        QStringLiteral("rows"), QStringLiteral("print {\"row\": i, \"signature\": NAME} per row"));
    parser.addOption(rowsOption);
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("classify needs exactly one FILE (see --help)"));

    const std::vector<DiagnosticRow> rows = readDiagnosticFile(parser.positionalArguments()[0]);
    std::map<Signature, qint64> counts;
    for (Signature s : allSignatures())
        counts[s] = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Signature s = classifySignature(rows[i]);
        ++counts[s];
        if (parser.isSet(rowsOption))
            printJson({{QStringLiteral("row"), qint64(i)},
                       {QStringLiteral("signature"), signatureName(s)}});
    }
    if (!parser.isSet(rowsOption)) {
        QJsonObject out;
        for (const auto& [s, n] : counts)
            out.insert(signatureName(s), n);
        printJson(out);
    }
    return 0;
}
const CommandRegistrar
    classifyCommand("classify", "apply the failure-signature rules to a CSV/JSONL of row metrics",
                    &runClassify);
} // namespace
} // namespace kvl::cli
