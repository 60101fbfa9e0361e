// kvlens-cli: headless front end to the KVLens engine.
#include "clicommand.h"
#include "clioutput.h"

#include "common/error.h"
#include "model/blaskernels.h"

#include <QCoreApplication>
#include <algorithm>
#include <exception>

namespace kvl::cli {

namespace {
std::vector<CommandInfo>& registry()
{
    static std::vector<CommandInfo> list;
    return list;
}

void printUsage()
{
    printLine(
        QStringLiteral("usage: kvlens-cli <command> [options]   (kvlens-cli <command> --help)\n"));
    printLine(QStringLiteral("commands:"));
    for (const CommandInfo& c : commands())
        printLine(QStringLiteral("  %1%2")
                      .arg(QString::fromLatin1(c.name), -16)
                      .arg(QString::fromUtf8(c.summary)));
}
} // namespace

const std::vector<CommandInfo>& commands()
{
    auto& list = registry();
    std::sort(list.begin(), list.end(), [](const CommandInfo& a, const CommandInfo& b) {
        return qstrcmp(a.name, b.name) < 0;
    });
    return list;
}

CommandRegistrar::CommandRegistrar(const char* name, const char* summary, CommandFn run)
{
    registry().push_back({name, summary, run});
}

} // namespace kvl::cli

int main(int argc, char** argv)
{
    using namespace kvl::cli;
    // Before anything else runs: may re-execute this process with OPENBLAS_CORETYPE set.
    kvl::ensureFastBlasKernels(argv);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("kvlens-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KVLENS_VERSION));

    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        printUsage();
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == QLatin1String("--version")) {
        printLine(QStringLiteral("kvlens-cli " KVLENS_VERSION));
        return 0;
    }
    for (const CommandInfo& c : commands()) {
        if (args[1] != QLatin1String(c.name))
            continue;
        QStringList sub = args.mid(2);
        sub.prepend(args[0] + QLatin1Char(' ') + args[1]);
        try {
            return c.run(sub);
        } catch (const kvl::Error& e) {
            printError(QStringLiteral("kvlens-cli %1: error: %2").arg(args[1], e.message()));
            return 1;
        } catch (const std::exception& e) {
            // libtorch (c10::Error) and the standard library: still a clean exit.
            printError(
                QStringLiteral("kvlens-cli %1: internal error: %2")
                    .arg(args[1], QString::fromUtf8(e.what()).section(QLatin1Char('\n'), 0, 0)));
            return 3;
        }
    }
    printError(QStringLiteral("kvlens-cli: unknown command '%1' (kvlens-cli --help lists them)")
                   .arg(args[1]));
    return 2;
}
