// `kvlens-cli merge A.kvl B.kvl ... --out ALL.kvl`: merges the shards of one sweep.
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "store/runmerge.h"
#include "store/runreader.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace kvl::cli {
namespace {
int runMerge(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Merge run files of one experiment (shards) into a new run file. The specs, models and "
        "configurations must match."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("RUNS"), QStringLiteral("input run files"),
                                 QStringLiteral("A.kvl B.kvl ..."));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("merged run file (new)"), QStringLiteral("FILE"));
    parser.addOption(outOption);
    parser.process(args);
    const QStringList inputs = parser.positionalArguments();
    if (inputs.isEmpty() || !parser.isSet(outOption))
        throw Error(QStringLiteral("merge needs input run files and --out FILE (see --help)"));
    const QString out = parser.value(outOption);
    mergeRuns(inputs, out);
    RunReader merged(out);
    printJson({{QStringLiteral("out"), out},
               {QStringLiteral("inputs"), QJsonArray::fromStringList(inputs)},
               {QStringLiteral("samples"), merged.sampleCount()},
               {QStringLiteral("results"), merged.resultCount()},
               {QStringLiteral("status"), merged.runInfo().status}});
    return 0;
}
const CommandRegistrar mergeCommand("merge", "merge shard run files into one (--out)", &runMerge);
} // namespace
} // namespace kvl::cli
