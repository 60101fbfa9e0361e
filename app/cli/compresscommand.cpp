// `kvlens-cli compress`: one sample, one press, one ratio: writes the kept mask (and
// scores) as safetensors and prints the answer the model gives under it. Decode-time
// presses answer with their own decode loop (the mask they hold at the end is written
// too) and offloading presses with retrieval at every step (the share of selections per
// step and position is written), as a sweep's row does.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "cache/keptselection.h"
#include "cache/pressprefill.h"
#include "checkpoint/checkpointdir.h"
#include "checkpoint/safetensorswriter.h"
#include "common/error.h"
#include "compressors/compresseddecoding.h"
#include "compressors/decodingpress.h"
#include "compressors/offloaddecoding.h"
#include "compressors/offloadindex.h"
#include "compressors/offloadpress.h"
#include "compressors/presscatalog.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"
#include "run/answerrun.h"
#include "run/decodetimerecords.h"
#include "run/preparedsample.h"
#include "run/repeatprompts.h"
#include "tasks/countedtokenizer.h"
#include "tasks/promptformat.h"
#include "tasks/samplejsonl.h"
#include "tokenizer/tokenizer.h"

#include <c10/core/InferenceMode.h>

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runCompress(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Compresses one sample's context with a press at a ratio, writes the kept "
                       "mask and scores, and prints the answer under that configuration. "
                       "Decode-time presses also write the mask held at the end (final_kept) "
                       "and offloading presses the share retrieved per step (retrieved_share); "
                       "--json then prints their decoding or retrieval record."));
    parser.addHelpOption();
    const auto opt = [&](const char* name, const char* help, const char* value,
                         const QString& def = {}) {
        parser.addOption({QLatin1String(name), QLatin1String(help), QLatin1String(value), def});
    };
    opt("model", "model directory", "DIR");
    opt("sample", "samples (JSONL)", "F.jsonl");
    opt("index", "sample index (0-based)", "I", QStringLiteral("0"));
    opt("press", "press spec, see `kvlens-cli presses`", "SPEC");
    opt("ratio", "compression ratio r (fraction removed)", "R");
    opt("out", "output safetensors (kept, scores)", "OUT");
    opt("max-new-tokens", "answer length limit", "N", QStringLiteral("64"));
    opt("tokenizer", "tokenizer.json or \"byte\" (default: the model's)", "FILE");
    parser.addOption({QStringLiteral("json"), QStringLiteral("print a JSON summary")});
    addChatTemplateOptions(parser);
    parser.process(args);
    for (const char* required : {"model", "sample", "press", "ratio", "out"})
        if (!parser.isSet(QLatin1String(required)))
            throw Error(QStringLiteral("missing --%1 (see --help)").arg(QLatin1String(required)));
    bool ok = false;
    const double ratio = parser.value(QStringLiteral("ratio")).toDouble(&ok);
    if (!ok)
        throw Error(QStringLiteral("--ratio must be a number"));
    checkRatio(ratio, QStringLiteral("--ratio"));
    const int index = parser.value(QStringLiteral("index")).toInt(&ok);
    const QString samplePath = parser.value(QStringLiteral("sample"));
    const std::vector<Sample> samples = readSamples(samplePath);
    if (!ok || index < 0 || index >= int(samples.size()))
        throw Error(samplePath, QStringLiteral("--index %1 is out of range (%2 samples)")
                                    .arg(parser.value(QStringLiteral("index")))
                                    .arg(samples.size()));
    const int maxNew = intOption(parser, "max-new-tokens", 1);

    const PressCatalog catalog;
    const auto press = catalog.press(parser.value(QStringLiteral("press")));
    const QString modelDir = modelDirOption(parser.value(QStringLiteral("model")));
    const auto model = Transformer::load(modelDir);
    const QString tokenizerPath =
        model->checkpoint()->requireTokenizerPath(parser.value(QStringLiteral("tokenizer")));
    const auto tokenizer = loadTokenizer(tokenizerPath);

    const PromptFormat format =
        PromptFormat::resolve(parser.value(QStringLiteral("chat-template")), modelDir,
                              chatVarsOption(parser), QDir::currentPath());

    const Sample& sample = samples[size_t(index)];
    checkCountedTokenizer(sample, samplePath, *tokenizer, tokenizerPath);
    // The one layout the sweep uses too: ids and span positions through the template.
    PreparedSample prepared;
    try {
        prepared = prepareSample(sample, sample.id, *tokenizer, format);
        model->checkLength(int64_t(prepared.ids.context.size()) +
                           int64_t(prepared.ids.question.size()) + maxNew);
    } catch (const Error& e) {
        throw Error(
            QStringLiteral("%1: sample '%2' (index %3)").arg(samplePath, sample.id).arg(index),
            e.message());
    }
    const PromptIds& ids = prepared.ids;
    const auto length = int64_t(ids.context.size());

    c10::InferenceMode guard;
    const PrefillOptions prefill = prefillOptionsFor({press.get()}, length);
    const ContextCache cache = model->prefill(ids.context, prefill);
    const RepeatPrompts repeatPrompts = repeatPromptsFor(*tokenizer, format);
    CompressionInput input = compressionInputFor(*model, cache, &ids.context, &repeatPrompts);
    input.spans = prepared.pressSpans;
    const auto* decodingPress = dynamic_cast<const DecodingPress*>(press.get());
    const auto* offloadPress = dynamic_cast<const OffloadPress*>(press.get());
    // An offloading press's index serves its result and its decoding: built once.
    const std::unique_ptr<OffloadIndex> offloadIndex =
        offloadPress != nullptr ? offloadPress->index(input, ratio) : nullptr;
    const CompressionResult result =
        offloadIndex ? offloadPress->resultOf(input, *offloadIndex) : press->compress(input, ratio);

    GenerateOptions options;
    options.maxNewTokens = maxNew;
    options.stopIds = stopIdsOf(*tokenizer, model->config().eosTokenIds);
    SafetensorsWriter writer;
    const auto addMask = [&](const QString& name, const at::Tensor& mask) {
        const at::Tensor bytes = mask.to(at::kByte).contiguous();
        writer.add(name, DType::U8, bytes.sizes().vec(),
                   QByteArray(reinterpret_cast<const char*>(bytes.data_ptr<uint8_t>()),
                              qsizetype(bytes.numel())));
    };
    Generation gen;
    QJsonObject decodeRecord; // a decode-time or offloading press's, as a row has it
    QElapsedTimer timer;
    timer.start();
    if (decodingPress != nullptr) {
        const CompressedDecoding decoding =
            generateCompressed(*model, result.context(cache), result.kept, *decodingPress, ratio,
                               ids.question, options);
        gen = decoding.generation;
        decodeRecord = decodingJson(decoding, *decodingPress, prepared, result.kept,
                                    double(timer.nsecsElapsed()) / 1e6);
        addMask(QStringLiteral("final_kept"), decoding.finalKept);
    } else if (offloadIndex) {
        const OffloadedDecoding offloaded =
            generateOffloaded(*model, *offloadIndex, ids.question, options);
        gen = offloaded.generation;
        decodeRecord = retrievalJson(offloaded, *offloadIndex, prepared, *tokenizer);
        const at::Tensor share = offloaded.selectedShare.to(at::kFloat).contiguous();
        writer.addF32(QStringLiteral("retrieved_share"), share.sizes().vec(),
                      share.data_ptr<float>());
    } else {
        gen = generateAnswer(*model, result.context(cache), result.edit(), ids.question, options);
    }
    const QString answer = tokenizer->decode(gen.ids);

    addMask(QStringLiteral("kept"), result.kept);
    if (result.scores.defined()) {
        const at::Tensor scores = result.scores.to(at::kFloat).contiguous();
        writer.addF32(QStringLiteral("scores"), scores.sizes().vec(), scores.data_ptr<float>());
    }
    writer.setMetadata({{QStringLiteral("press"), press->spec()},
                        {QStringLiteral("ratio"), QString::number(ratio)},
                        {QStringLiteral("sample"), sample.id},
                        {QStringLiteral("coverage_type"), coverageTypeName(result.coverage)}});
    writer.write(parser.value(QStringLiteral("out")));

    if (!parser.isSet(QStringLiteral("json"))) {
        printLine(answer);
        return 0;
    }
    QJsonObject summary = result.toJson();
    summary[QStringLiteral("press")] = press->spec();
    summary[QStringLiteral("ratio")] = ratio;
    summary[QStringLiteral("sample")] = sample.id;
    summary[QStringLiteral("context_tokens")] = qint64(length);
    summary[QStringLiteral("chat_template")] = format.describe();
    summary[QStringLiteral("answer")] = answer;
    summary[QStringLiteral("gold")] = sample.answer;
    if (decodingPress != nullptr)
        summary[QStringLiteral("decoding")] = decodeRecord;
    else if (offloadPress != nullptr)
        summary[QStringLiteral("retrieval")] = decodeRecord;
    printJson(summary);
    return 0;
}

const CommandRegistrar
    compressCommand("compress", "compress one sample with a press at a ratio; write the kept mask",
                    &runCompress);

} // namespace
} // namespace kvl::cli
