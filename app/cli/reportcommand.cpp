// `kvlens-cli report RUN.kvl [--format text|csv|json] [--suite NAME] [--all-tables]`: the
// run's tables without the GUI (accuracy, transitions, signatures, overlap, spans, leakage,
// ger, interventions, intervention_groups, intervention_targets, chains, decoding,
// retrieval, retrieval_fields, missing); tables without rows only with --all-tables.
#include "clicommand.h"
#include "reportoutput.h"

#include "common/error.h"
#include "store/runreader.h"

#include <QCommandLineParser>
#include <cstdio>

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
    const QCommandLineOption suiteOption(
        QStringLiteral("suite"),
        QStringLiteral("every table over the samples of this suite only (a dataset of an "
                       "imported release, say)"),
        QStringLiteral("NAME"));
    const QCommandLineOption allTablesOption(
        QStringLiteral("all-tables"),
        QStringLiteral("also print the tables that have no rows in this run (text and csv; "
                       "json always has every key)"));
    parser.addOption(formatOption);
    parser.addOption(suiteOption);
    parser.addOption(allTablesOption);
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("report needs exactly one run file (see --help)"));
    const QString format = parser.value(formatOption);
    checkReportFormat(format);

    RunReader reader(parser.positionalArguments()[0]);
    if (parser.isSet(suiteOption))
        reader.restrictToSuite(parser.value(suiteOption));
    // Before any figure is printed: a row changed behind the writer's back (bytes that
    // SQLite's own checks accept) is an error naming the sample, never other figures.
    const RowChecksums checked = reader.verifyRowChecksums();
    if (checked.unverified > 0)
        std::fprintf(stderr,
                     "note: %lld of %lld result rows were written before schema version 3 and "
                     "carry no checksum; they are reported unverified\n",
                     static_cast<long long>(checked.unverified),
                     static_cast<long long>(checked.unverified + checked.verified));
    printRunReport(reader, format,
                   parser.isSet(allTablesOption) ? EmptyTables::Print : EmptyTables::Omit);
    return 0;
}
const CommandRegistrar reportCommand("report", "print a run's report (text, csv or json)",
                                     &runReport);
} // namespace
} // namespace kvl::cli
