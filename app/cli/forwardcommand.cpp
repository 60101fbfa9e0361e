// `kvlens-cli forward`: logits of every position of an id sequence, as safetensors.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "model/modelweights.h"
#include "model/peakmemory.h"
#include "model/transformer.h"

#include <c10/core/InferenceMode.h>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kvl::cli {
namespace {

std::vector<int> readIds(const QString& path)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(readFileBytes(path), &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(path, QStringLiteral("not JSON (%1 at offset %2)")
                              .arg(error.errorString())
                              .arg(error.offset));
    if (!doc.isArray())
        throw Error(path, QStringLiteral("expected a JSON list of token ids"));
    std::vector<int> ids;
    for (const QJsonValue& v : doc.array()) {
        if (!v.isDouble() || v.toDouble() != double(v.toInt()) || v.toInt() < 0)
            throw Error(path, QStringLiteral("element %1 is not a token id").arg(ids.size()));
        ids.push_back(v.toInt());
    }
    if (ids.empty())
        throw Error(path, QStringLiteral("the id list is empty"));
    return ids;
}

int runForward(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes tensor `logits` [T, vocab] float32 for every position."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("model"), QStringLiteral("model directory"), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("ids-file"), QStringLiteral("JSON list of token ids"),
                      QStringLiteral("F")});
    parser.addOption(
        {QStringLiteral("out"), QStringLiteral("output .safetensors"), QStringLiteral("OUT")});
    parser.addOption({QStringLiteral("dtype"),
                      QStringLiteral("product dtype: f32 (default; F16/BF16 weights stay 16-bit "
                                     "in memory and are widened one matrix at a time), bf16 or "
                                     "f16 where the machine has the kernels"),
                      QStringLiteral("T"), QStringLiteral("f32")});
    parser.process(args);
    for (const char* required : {"model", "ids-file", "out"})
        if (!parser.isSet(QLatin1String(required)))
            throw Error(QStringLiteral("missing --%1 (see --help)").arg(QLatin1String(required)));

    const double rssAtStart = currentRssMegabytes(); // before the weights load
    const std::vector<int> ids = readIds(parser.value(QStringLiteral("ids-file")));
    const at::ScalarType compute = computeDTypeFromName(parser.value(QStringLiteral("dtype")));
    const auto model =
        Transformer::load(modelDirOption(parser.value(QStringLiteral("model"))), compute);
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] >= model->config().vocabSize)
            throw Error(parser.value(QStringLiteral("ids-file")),
                        QStringLiteral("id %1 at index %2 is outside the vocabulary (size %3)")
                            .arg(ids[i])
                            .arg(i)
                            .arg(model->config().vocabSize));
    c10::InferenceMode guard;
    const at::Tensor logits = model->forward(ids).contiguous();
    const int64_t vocab = logits.size(1);
    // No copy: `logits` outlives the write.
    QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(logits.data_ptr<float>()),
                                qsizetype(logits.numel() * int64_t(sizeof(float))));
    SafetensorsWriter writer;
    writer.add(QStringLiteral("logits"), DType::F32, {int64_t(ids.size()), vocab},
               std::move(bytes));
    const QString out = parser.value(QStringLiteral("out"));
    writer.write(out);
    printJson({{QStringLiteral("out"), out},
               {QStringLiteral("tokens"), qint64(ids.size())},
               {QStringLiteral("vocab"), qint64(vocab)},
               {QStringLiteral("dtype"), computeDTypeName(compute)},
               {QStringLiteral("peak_rss_mb"), peakRssMegabytes()},
               {QStringLiteral("rss_at_start_mb"), rssAtStart}});
    return 0;
}

const CommandRegistrar
    forwardCommand("forward", "logits of every position of an id list (safetensors)", &runForward);
} // namespace
} // namespace kvl::cli
