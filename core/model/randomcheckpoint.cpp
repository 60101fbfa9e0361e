#include "model/randomcheckpoint.h"

#include "checkpoint/hfconfigreader.h"
#include "checkpoint/hfconfigwriter.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "model/modelweights.h"

#include <torch/torch.h>

#include <QDir>
#include <QJsonObject>

namespace kvl {

void writeRandomCheckpoint(const QString& dir, const ModelConfig& config, uint64_t seed,
                           DType dtype, double scale)
{
    at::ScalarType type;
    QString torchDtype;
    switch (dtype) {
    case DType::F32:
        type = at::kFloat;
        torchDtype = QStringLiteral("float32");
        break;
    case DType::F16:
        type = at::kHalf;
        torchDtype = QStringLiteral("float16");
        break;
    case DType::BF16:
        type = at::kBFloat16;
        torchDtype = QStringLiteral("bfloat16");
        break;
    default:
        throw Error(dir, QStringLiteral("random checkpoints are F32, F16 or BF16, not %1")
                             .arg(dtypeName(dtype)));
    }
    if (!QDir().mkpath(dir))
        throw Error(dir, QStringLiteral("cannot create the model directory"));
    ModelConfig written = config;
    written.torchDtype = torchDtype;
    const QString configPath = QDir(dir).filePath(QStringLiteral("config.json"));
    writeModelConfig(configPath, written);
    // The tensors config.json asks for as a loader reads it back (config.json cannot say
    // "Qwen2 without q/k/v biases", as random-0.5b's config is; the reader adds them).
    const ModelConfig reread = loadModelConfig(configPath);
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

} // namespace kvl
