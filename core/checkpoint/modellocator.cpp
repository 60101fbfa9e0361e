#include "checkpoint/modellocator.h"

#include "common/error.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace kvl {

namespace {
const QString kBundledName = QStringLiteral("kvlens-tiny");
const char* kEnvVar = "KVLENS_BUNDLED_MODEL";

bool isModelDir(const QString& dir)
{
    return QFileInfo(QDir(dir).filePath(QStringLiteral("config.json"))).isFile();
}
} // namespace

QStringList bundledModelCandidates(const QString& resourcesDir)
{
    return bundledModelCandidates(resourcesDir, QCoreApplication::instance()
                                                    ? QCoreApplication::applicationDirPath()
                                                    : QString());
}

QStringList bundledModelCandidates(const QString& resourcesDir, const QString& applicationDir)
{
    QStringList candidates;
    if (!applicationDir.isEmpty())
        candidates << QDir(applicationDir)
                          .filePath(QStringLiteral("../share/kvlens/models/") + kBundledName);
    if (!resourcesDir.isEmpty())
        candidates << QDir(resourcesDir).filePath(QStringLiteral("models/") + kBundledName);
    for (QString& c : candidates)
        c = QDir::cleanPath(c);
    return candidates;
}

QString resolveModelDir(const QString& arg, const QString& resourcesDir)
{
    if (arg != QLatin1String("bundled"))
        return arg;
    const QString fromEnv = qEnvironmentVariable(kEnvVar);
    if (!fromEnv.isEmpty()) {
        if (!isModelDir(fromEnv))
            throw Error(fromEnv, QStringLiteral("%1 points here, but this is not a model directory "
                                                "(no config.json)")
                                     .arg(QLatin1String(kEnvVar)));
        return fromEnv;
    }
    const QStringList candidates = bundledModelCandidates(resourcesDir);
    for (const QString& dir : candidates)
        if (isModelDir(dir))
            return dir;
    throw Error(
        QStringLiteral("the bundled model is not built yet (looked in: %1; set %2 to a model "
                       "directory to use another one)")
            .arg(candidates.join(QStringLiteral(", ")), QLatin1String(kEnvVar)));
}

} // namespace kvl
