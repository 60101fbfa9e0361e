// `kvlens-cli version`: tool version and the engine's math library as JSON (the version
// is recorded in every run file; the BLAS fields say what kernels a run used).
#include "clicommand.h"
#include "clioutput.h"

#include "model/blaskernels.h"
#include "model/engineinfo.h"

#include <QJsonObject>

namespace kvl::cli {
namespace {
int runVersion(const QStringList&)
{
    printJson({{QStringLiteral("tool"), QStringLiteral("kvlens")},
               {QStringLiteral("version"), QStringLiteral(KVLENS_VERSION)},
               {QStringLiteral("blas"), blasName()},
               {QStringLiteral("blas_core"), blasCoreName()}});
    return 0;
}
const CommandRegistrar versionCommand("version", "print the tool version and BLAS as JSON",
                                      &runVersion);
} // namespace
} // namespace kvl::cli
