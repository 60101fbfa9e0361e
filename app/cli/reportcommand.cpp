// `kvlens-cli report RUN.kvl [--format text|csv|json]`: the run's tables without the
// GUI (accuracy, transitions, signatures, overlap, spans, leakage, ger, interventions).
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "store/runreader.h"
#include "store/runreport.h"

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
    parser.addOption(formatOption);
    parser.process(args);
    if (parser.positionalArguments().size() != 1)
        throw Error(QStringLiteral("report needs exactly one run file (see --help)"));
    const QString format = parser.value(formatOption);
    if (format != QLatin1String("text") && format != QLatin1String("csv") &&
        format != QLatin1String("json"))
        throw Error(QStringLiteral("unknown --format '%1' (text, csv or json)").arg(format));

    RunReader reader(parser.positionalArguments()[0]);
    if (format == QLatin1String("json")) {
        printJson(runReportJson(reader));
    } else {
        const QByteArray text =
            (format == QLatin1String("csv") ? runReportCsv(reader) : runReportText(reader))
                .toUtf8();
        std::fwrite(text.constData(), 1, std::size_t(text.size()), stdout);
        std::fflush(stdout);
    }
    return 0;
}
const CommandRegistrar registrar("report", "print a run's report (text, csv or json)", &runReport);
} // namespace
} // namespace kvl::cli
