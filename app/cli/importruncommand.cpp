// `kvlens-cli import-run --format NAME SRC... --out RUN.kvl`: results made elsewhere (a
// published release, kvpress's evaluation, any pipeline's rows) as an ordinary run file
// that report, merge, the app and --export-figures read like one KVLens made.
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "runimport/runimportformats.h"
#include "store/runreader.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>

namespace kvl::cli {
namespace {
QString formatList()
{
    QStringList lines;
    for (const RunImportFormat& f : runImportFormats())
        lines << QStringLiteral("  %1%2")
                     .arg(QString::fromLatin1(f.name), -14)
                     .arg(QString::fromUtf8(f.summary));
    return lines.join(QLatin1Char('\n'));
}

int runImportRun(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Import results made elsewhere as a run file. Formats:\n") + formatList() +
        QStringLiteral("\nEvery source is read and checked before anything is written; an error "
                       "names the file, the line or record and the field. Nulls stay missing."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("SRC"), QStringLiteral("sources (see the format)"),
                                 QStringLiteral("SRC..."));
    const QCommandLineOption formatOption(QStringLiteral("format"),
                                          QStringLiteral("source format (--list names them)"),
                                          QStringLiteral("NAME"));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("run file to write (new)"),
                                       QStringLiteral("RUN.kvl"));
    const QCommandLineOption listOption(QStringLiteral("list"), QStringLiteral("name the formats"));
    parser.addOption(formatOption);
    parser.addOption(outOption);
    parser.addOption(listOption);
    parser.process(args);
    if (parser.isSet(listOption)) {
        printLine(formatList());
        return 0;
    }
    if (!parser.isSet(formatOption) || !parser.isSet(outOption) ||
        parser.positionalArguments().isEmpty())
        throw Error(QStringLiteral("import-run needs --format NAME, sources and --out RUN.kvl "
                                   "(see --help)"));
    const RunImportFormat* format = findRunImportFormat(parser.value(formatOption));
    if (!format)
        throw Error(QStringLiteral("unknown format '%1'; the formats are:\n%2")
                        .arg(parser.value(formatOption), formatList()));

    QElapsedTimer clock;
    clock.start();
    const ImportedRun run = format->read(parser.positionalArguments());
    const qint64 readMs = clock.elapsed();
    const QString out = parser.value(outOption);
    writeImportedRun(run, out, QStringLiteral(KVLENS_VERSION));

    RunReader written(out);
    QJsonObject summary{{QStringLiteral("out"), out},
                        {QStringLiteral("format"), run.format},
                        {QStringLiteral("model"), run.modelId},
                        {QStringLiteral("samples"), written.sampleCount()},
                        {QStringLiteral("results"), written.resultCount()},
                        {QStringLiteral("configurations"), qint64(run.configs.size())},
                        {QStringLiteral("missing"), QJsonArray::fromStringList(run.missing)},
                        {QStringLiteral("read_ms"), readMs},
                        {QStringLiteral("total_ms"), clock.elapsed()}};
    if (!run.details.isEmpty())
        summary.insert(QStringLiteral("details"), run.details);
    printJson(summary);
    for (const QString& m : run.missing)
        printError(QStringLiteral("import-run: not in the source: %1").arg(m));
    return 0;
}
const CommandRegistrar
    importRunCommand("import-run",
                     "import results made elsewhere (KVDiagnosis, kvpress, rows) "
                     "as a run file",
                     &runImportRun);
} // namespace
} // namespace kvl::cli
