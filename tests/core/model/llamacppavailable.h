#pragma once
// Where the tests find llama.cpp (node-llama-cpp under <build>/npm, as
// packaging/bootstrap.sh test installs it, or $KVLENS_NODE_MODULES) and why they skip
// when they cannot; shared by tst_ggufexport and tst_clillamacpp.
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>

namespace llamacpptest {

// The script both tests drive llama.cpp with, and the independent GGUF reader.
inline const QString kScript =
    QStringLiteral(KVLENS_SOURCE_DIR "/resources/tools/llamacpp-bench.mjs");
inline const QString kReader =
    QStringLiteral(KVLENS_SOURCE_DIR "/tests/reference/gguf_reference.py");

inline QString nodeModules()
{
    const QString env = qEnvironmentVariable("KVLENS_NODE_MODULES");
    return env.isEmpty() ? QStringLiteral(KVLENS_BUILD_DIR "/npm/node_modules") : env;
}

inline QString node()
{
    return QStandardPaths::findExecutable(QStringLiteral("node"));
}

// Why llama.cpp cannot run here, or empty.
inline QString llamaCppMissing()
{
    if (node().isEmpty())
        return QStringLiteral("node is not installed");
    QProcess version; // node-llama-cpp 3 needs node 20 (Debian 12's own is 18)
    version.start(node(), {QStringLiteral("-e"),
                           QStringLiteral("process.exit(+process.versions.node.split('.')[0] >= "
                                          "20 ? 0 : 1)")});
    if (!version.waitForFinished(30000) || version.exitCode() != 0)
        return QStringLiteral("node-llama-cpp 3.21.1 needs node 20 or later");
    if (!QFileInfo::exists(nodeModules() + QStringLiteral("/node-llama-cpp/package.json")))
        return QStringLiteral("node-llama-cpp is not installed in %1 (packaging/bootstrap.sh "
                              "test installs it)")
            .arg(nodeModules());
    return {};
}

} // namespace llamacpptest
