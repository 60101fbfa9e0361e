// `kvlens-cli version`: tool version as JSON (recorded in every run file).
#include "clicommand.h"
#include "clioutput.h"

#include <QJsonObject>

namespace kvl::cli {
namespace {
int runVersion(const QStringList&)
{
    printJson({{QStringLiteral("tool"), QStringLiteral("kvlens")},
               {QStringLiteral("version"), QStringLiteral(KVLENS_VERSION)}});
    return 0;
}
const CommandRegistrar registrar("version", "print the tool version as JSON", &runVersion);
} // namespace
} // namespace kvl::cli
