#include "llamacppbench.h"

#include "checkpoint/ggufvocab.h"
#include "common/error.h"
#include "model/ggufmodelwriter.h"
#include "model/transformer.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <random>

namespace kvl::cli {

namespace {

const char* const kPin = "node-llama-cpp@3.21.1";

// node's major version (`node --version` prints "v20.20.2"); 0 when it cannot tell.
int nodeMajorVersion(const QString& node)
{
    QProcess p;
    p.start(node, {QStringLiteral("--version")});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return 0;
    const QString v = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    return v.mid(1).section(QLatin1Char('.'), 0, 0).toInt();
}

bool holdsNodeLlamaCpp(const QString& modules)
{
    return !modules.isEmpty() &&
           QFileInfo(QDir(modules).filePath(QStringLiteral("node-llama-cpp/package.json")))
               .isFile();
}

} // namespace

LlamaCppTools findLlamaCppTools(const QString& modulesOption)
{
    LlamaCppTools tools;
    tools.node = QStandardPaths::findExecutable(QStringLiteral("node"));
    const bool npm = !QStandardPaths::findExecutable(QStringLiteral("npm")).isEmpty();
    if (tools.node.isEmpty())
        throw Error(QStringLiteral("--compare-llamacpp"),
                    QStringLiteral("node is not installed (it runs llama.cpp through %1; "
                                   "apt-get install nodejs npm, then npm install %1)")
                        .arg(QLatin1String(kPin)));
    // node-llama-cpp 3 declares node >= 20 (Debian 12's own nodejs is 18).
    const int major = nodeMajorVersion(tools.node);
    if (major < 20)
        throw Error(tools.node, QStringLiteral("node-llama-cpp 3.21.1 needs node 20 or later; "
                                               "this node is %1")
                                    .arg(major > 0 ? QStringLiteral("version %1").arg(major)
                                                   : QStringLiteral("of an unknown version")));

    QStringList candidates;
    if (!modulesOption.isEmpty())
        candidates << modulesOption;
    else {
        const QString fromEnv = qEnvironmentVariable("KVLENS_NODE_MODULES");
        if (!fromEnv.isEmpty())
            candidates << fromEnv;
        candidates << QStringLiteral(KVLENS_BUILD_NPM "/node_modules");
    }
    for (const QString& dir : candidates)
        if (holdsNodeLlamaCpp(dir)) {
            tools.modules = QDir(dir).absolutePath();
            break;
        }
    if (tools.modules.isEmpty())
        throw Error(QStringLiteral("--compare-llamacpp"),
                    QStringLiteral("node-llama-cpp is not installed (looked in: %1). Install it "
                                   "with `cd %2 && npm install --no-audit --no-fund %3` or name "
                                   "a node_modules folder holding it with --llamacpp-modules%4")
                        .arg(candidates.join(QStringLiteral(", ")),
                             QDir::cleanPath(QStringLiteral(KVLENS_BUILD_NPM)), QLatin1String(kPin),
                             npm ? QString() : QStringLiteral(" (npm is not installed either)")));

    // Beside the bundled model: installed under share/kvlens, in the sources' resources.
    const QStringList scripts{
        QDir(QCoreApplication::applicationDirPath())
            .filePath(QStringLiteral("../share/kvlens/tools/llamacpp-bench.mjs")),
        QStringLiteral(KVLENS_SOURCE_RESOURCES "/tools/llamacpp-bench.mjs")};
    for (const QString& s : scripts)
        if (QFileInfo(s).isFile()) {
            tools.script = QDir::cleanPath(s);
            break;
        }
    if (tools.script.isEmpty())
        throw Error(QStringLiteral("--compare-llamacpp"),
                    QStringLiteral("llamacpp-bench.mjs not found (looked in: %1)")
                        .arg(scripts.join(QStringLiteral(", "))));
    return tools;
}

QJsonObject runLlamaCppBench(const LlamaCppTools& tools, const Transformer& model,
                             const QString& name, const QString& tokenizerJson, int64_t tokens,
                             int threads, int repeats, int decodeSteps)
{
    QTemporaryDir scratch;
    if (!scratch.isValid())
        throw Error(QStringLiteral("--compare-llamacpp: cannot create a temporary directory"));
    const QString gguf = scratch.filePath(QStringLiteral("model.gguf"));
    QElapsedTimer writing;
    writing.start();
    {
        GgufModelWriter writer(model.config(), readGgufVocab(tokenizerJson, model.config()), name);
        writer.addModel(model);
        writer.write(gguf);
    }
    const double writeSeconds = double(writing.elapsed()) / 1000.0;

    // Random ids of the whole vocabulary, as the engine's prefill bench draws them.
    std::mt19937 rng(0);
    std::uniform_int_distribution<int> id(0, model.config().vocabSize - 1);
    QJsonArray ids;
    for (int64_t i = 0; i < tokens; ++i)
        ids.append(id(rng));
    const QString idsPath = scratch.filePath(QStringLiteral("ids.json"));
    QFile idsFile(idsPath);
    if (!idsFile.open(QIODevice::WriteOnly) ||
        idsFile.write(QJsonDocument(ids).toJson(QJsonDocument::Compact)) < 0)
        throw Error(idsPath, QStringLiteral("cannot write the prompt ids"));
    idsFile.close();

    QProcess node;
    node.setProcessChannelMode(QProcess::SeparateChannels);
    node.start(tools.node,
               {tools.script, QStringLiteral("--mode"), QStringLiteral("bench"),
                QStringLiteral("--modules"), tools.modules, QStringLiteral("--model"), gguf,
                QStringLiteral("--ids"), idsPath, QStringLiteral("--threads"),
                QString::number(threads), QStringLiteral("--repeats"), QString::number(repeats),
                QStringLiteral("--decode"), QString::number(decodeSteps)});
    if (!node.waitForFinished(-1) || node.exitStatus() != QProcess::NormalExit ||
        node.exitCode() != 0)
        throw Error(tools.script,
                    QStringLiteral("llama.cpp's bench failed: %1")
                        .arg(QString::fromUtf8(node.readAllStandardError()).trimmed().right(2000)));
    const QByteArray out = node.readAllStandardOutput().trimmed();
    QJsonObject result = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
    if (result.value(QStringLiteral("prefill_seconds")).toDouble() <= 0.0)
        throw Error(tools.script, QStringLiteral("llama.cpp's bench printed no timing: %1")
                                      .arg(QString::fromUtf8(out.right(2000))));
    result.insert(QStringLiteral("gguf_mib"), double(QFileInfo(gguf).size()) / (1024.0 * 1024.0));
    result.insert(QStringLiteral("gguf_write_seconds"), writeSeconds);
    return result;
}

} // namespace kvl::cli
