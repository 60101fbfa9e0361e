// `kvlens-cli report RUN.kvl [--format text|csv|json]`: the run's tables without the
// GUI (accuracy, transitions, signatures, overlap, spans, leakage, ger, interventions,
// intervention_groups, intervention_targets, chains).
#include "clicommand.h"
#include "reportoutput.h"

#include "common/error.h"
#include "store/runreader.h"

#include <QCommandLineParser>

namespace kvl::cli {
namespace {
int runReport(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Print the report of a run file."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("RUN"), QStringLiteral("run file (.kvl)"));
    const QCommandLineOption formatOption(QStringLiteral("format"),
                                          QStringLiteral("text (default), csv or json"),
                                          QStringLiteral("FORMAT"), QStringLiteral("text"));
    parser.addOption(formatOption);
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("report needs exactly one run file (see --help)"));
    const QString format = parser.value(formatOption);
    checkReportFormat(format);

    RunReader reader(parser.positionalArguments()[0]);
    printRunReport(reader, format);
    return 0;
}
const CommandRegistrar registrar("report", "print a run's report (text, csv or json)", &runReport);
} // namespace
} // namespace kvl::cli
