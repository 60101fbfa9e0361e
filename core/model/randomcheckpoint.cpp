#include "model/randomcheckpoint.h"

#include "checkpoint/hfconfigreader.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "model/ggufmodelwriter.h"
#include "model/modelweights.h"

#include <torch/types.h>

#include <QDir>
#include <QJsonObject>

namespace kvl {

namespace {

at::ScalarType storedType(const QString& dir, DType dtype, QString* torchDtype)
{
    switch (dtype) {
    case DType::F32:
        *torchDtype = QStringLiteral("float32");
        return at::kFloat;
    case DType::F16:
        *torchDtype = QStringLiteral("float16");
        return at::kHalf;
    case DType::BF16:
        *torchDtype = QStringLiteral("bfloat16");
        return at::kBFloat16;
    default:
        throw Error(dir, QStringLiteral("random checkpoints are F32, F16 or BF16, not %1")
                             .arg(dtypeName(dtype)));
    }
}

// Writes config.json and returns the config as a loader reads it back: the tensors it
// asks for (config.json cannot say "Qwen2 without q/k/v biases", as random-0.5b's config
// is; the reader adds them).
ModelConfig writeConfig(const QString& dir, const ModelConfig& config, const QString& torchDtype)
{
    if (!QDir().mkpath(dir))
        throw Error(dir, QStringLiteral("cannot create the model directory"));
    ModelConfig written = config;
    written.torchDtype = torchDtype;
    const QString configPath = QDir(dir).filePath(QStringLiteral("config.json"));
    writeModelConfig(configPath, written);
    return loadModelConfig(configPath);
}

} // namespace

void writeRandomCheckpoint(const QString& dir, const ModelConfig& config, uint64_t seed,
                           DType dtype, double scale)
{
    QString torchDtype;
    const at::ScalarType type = storedType(dir, dtype, &torchDtype);
    const ModelConfig reread = writeConfig(dir, config, torchDtype);
    SafetensorsWriter writer;
    forEachRandomTensor(reread, seed, scale, [&](const QString& name, const at::Tensor& t) {
        const at::Tensor stored = t.to(type).contiguous();
        writer.add(name, dtype, stored.sizes().vec(),
                   QByteArray(static_cast<const char*>(stored.data_ptr()),
                              qsizetype(stored.numel() * stored.element_size())));
    });
    writer.setMetadata(QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}});
    writer.write(QDir(dir).filePath(QStringLiteral("model.safetensors")));
}

void writeRandomGguf(const QString& dir, const ModelConfig& config, uint64_t seed, DType dtype,
                     const GgufVocab& vocab, double scale)
{
    QString torchDtype;
    const at::ScalarType type = storedType(dir, dtype, &torchDtype);
    const QString path = QDir(dir).filePath(QStringLiteral("model.gguf"));
    // Before anything is written: an architecture GGUF cannot take, a vocabulary of
    // another size. (The metadata does not depend on what the read-back config adds.)
    GgufModelWriter writer(
        config, vocab,
        QStringLiteral("kvlens random %1 seed %2").arg(config.architectureName).arg(seed));
    const ModelConfig reread = writeConfig(dir, config, torchDtype);
    forEachRandomTensor(reread, seed, scale, [&](const QString& name, const at::Tensor& t) {
        writer.add(name, t.to(type));
    });
    writer.write(path);
}

} // namespace kvl
