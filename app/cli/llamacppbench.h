#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>

namespace kvl {
class Transformer;
}

namespace kvl::cli {

// What `bench --compare-llamacpp` runs llama.cpp with: node, a node_modules folder
// holding node-llama-cpp, and the script that drives it (llamacpp-bench.mjs).
struct LlamaCppTools
{
    QString node;
    QString modules;
    QString script;
};

// Finds the three, or throws kvl::Error saying what is missing and how to install it.
// node-llama-cpp is looked for in `modulesOption` (--llamacpp-modules), else
// $KVLENS_NODE_MODULES, else the build tree's npm folder (<build>/npm/node_modules,
// where packaging/bootstrap.sh test installs it). The script lies beside the bundled
// model: <prefix>/share/kvlens/tools installed, resources/tools in a build tree.
LlamaCppTools findLlamaCppTools(const QString& modulesOption);

// Writes `model` as it is held (its dtypes, its weights) to a GGUF file in a temporary
// folder, with the tokenizer `tokenizerJson` as its vocabulary, and runs the script's
// bench on it: the prefill of `tokens` random ids (best of `repeats`) and `decodeSteps`
// decode steps after them, on `threads` threads. Returns the script's JSON with
// gguf_mib and gguf_write_seconds added; kvl::Error when the script fails.
QJsonObject runLlamaCppBench(const LlamaCppTools& tools, const Transformer& model,
                             const QString& name, const QString& tokenizerJson, int64_t tokens,
                             int threads, int repeats, int decodeSteps);

} // namespace kvl::cli
