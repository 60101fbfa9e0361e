#include "model/randomcheckpoint.h"

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
    SafetensorsWriter writer;
    forEachRandomTensor(config, seed, scale, [&](const QString& name, const at::Tensor& t) {
        const at::Tensor stored = t.to(type).contiguous();
        writer.add(name, dtype, stored.sizes().vec(),
                   QByteArray(static_cast<const char*>(stored.data_ptr()),
                              qsizetype(stored.numel() * stored.element_size())));
    });
    writer.setMetadata(QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}});
    writer.write(QDir(dir).filePath(QStringLiteral("model.safetensors")));
    ModelConfig written = config;
    written.torchDtype = torchDtype;
    writeModelConfig(QDir(dir).filePath(QStringLiteral("config.json")), written);
}

} // namespace kvl
