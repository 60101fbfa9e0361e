// `kvlens-cli random-model`: a model directory of random weights in a known shape,
// stored F32, F16 or BF16 (test and benchmark checkpoints without a download).
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "model/benchmark.h"
#include "model/randomcheckpoint.h"
#include "tokenizer/tokenizer.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runRandomModel(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes config.json and model.safetensors of random weights (the "
                       "values bench --model random-0.5b runs on, for seed 0) and a "
                       "tokenizer.json (the bundled model's unless --tokenizer)."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("shape"), QStringLiteral("random-0.5b (the default)"),
                      QStringLiteral("NAME"), QStringLiteral("random-0.5b")});
    parser.addOption({QStringLiteral("dtype"),
                      QStringLiteral("stored dtype: F32, F16 or BF16 "
                                     "(default BF16)"),
                      QStringLiteral("T"), QStringLiteral("BF16")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("random seed (default 0)"),
                      QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption(
        {QStringLiteral("out"), QStringLiteral("model directory to write"), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("tokenizer"),
                      QStringLiteral("tokenizer.json to copy beside the weights (default: the "
                                     "bundled model's)"),
                      QStringLiteral("FILE")});
    parser.process(args);
    if (!parser.isSet(QStringLiteral("out")))
        throw Error(QStringLiteral("missing --out (see --help)"));
    const QString dtypeText = parser.value(QStringLiteral("dtype")).toUpper();
    const std::optional<DType> dtype = dtypeFromName(dtypeText);
    if (!dtype || (*dtype != DType::F32 && *dtype != DType::F16 && *dtype != DType::BF16))
        throw Error(QStringLiteral("--dtype"), QStringLiteral("'%1' is not F32, F16 or BF16")
                                                   .arg(parser.value(QStringLiteral("dtype"))));
    const ModelConfig config = randomShapeConfig(parser.value(QStringLiteral("shape")));
    // A tokenizer, so that the directory is a model every command runs (bench --sweep,
    // run): its ids must be embeddings of the random model. Checked before writing.
    const QString tokenizer = parser.isSet(QStringLiteral("tokenizer"))
                                  ? parser.value(QStringLiteral("tokenizer"))
                                  : QDir(modelDirOption(QStringLiteral("bundled")))
                                        .filePath(QStringLiteral("tokenizer.json"));
    const int tokenizerVocab = loadTokenizer(tokenizer)->vocabSize();
    if (tokenizerVocab > config.vocabSize)
        throw Error(tokenizer, QStringLiteral("%1 tokens do not fit the shape's vocabulary of %2")
                                   .arg(tokenizerVocab)
                                   .arg(config.vocabSize));
    const QString out = parser.value(QStringLiteral("out"));
    writeRandomCheckpoint(out, config, seedOption(parser), *dtype);
    const QString tokenizerOut = QDir(out).filePath(QStringLiteral("tokenizer.json"));
    QFile::remove(tokenizerOut);
    if (!QFile::copy(tokenizer, tokenizerOut))
        throw Error(tokenizerOut,
                    QStringLiteral("cannot copy the tokenizer from %1").arg(tokenizer));
    const QString file = QDir(out).filePath(QStringLiteral("model.safetensors"));
    printJson({{QStringLiteral("out"), out},
               {QStringLiteral("tokenizer"), tokenizer},
               {QStringLiteral("dtype"), dtypeName(*dtype)},
               {QStringLiteral("safetensors_mb"),
                double(SafetensorsFile::open(file)->fileSize()) / (1024.0 * 1024.0)}});
    return 0;
}

const CommandRegistrar registrar("random-model",
                                 "a model directory of random weights (F32, F16 or BF16)",
                                 &runRandomModel);
} // namespace
} // namespace kvl::cli
