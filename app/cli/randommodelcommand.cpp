// `kvlens-cli random-model`: a model directory of random weights in a known shape,
// stored F32, F16 or BF16 (test and benchmark checkpoints without a download), as
// safetensors or, for llama.cpp, as GGUF.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/ggufvocab.h"
#include "common/error.h"
#include "model/benchmark.h"
#include "model/randomcheckpoint.h"
#include "tokenizer/tokenizer.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runRandomModel(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes config.json and model.safetensors of random weights (the "
                       "values bench --model random-0.5b runs on, for seed 0) and a "
                       "tokenizer.json (the bundled model's unless --tokenizer). With "
                       "--format gguf, model.gguf (llama.cpp's format, the tokenizer as its "
                       "vocabulary) holds the same values in place of model.safetensors."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("shape"),
                      QStringLiteral("random-0.5b (the default) or random-tiny (for tests)"),
                      QStringLiteral("NAME"), QStringLiteral("random-0.5b")});
    parser.addOption({QStringLiteral("format"),
                      QStringLiteral("safetensors (the default) or gguf (model.gguf, for "
                                     "llama.cpp; byte-level BPE tokenizers only)"),
                      QStringLiteral("F"), QStringLiteral("safetensors")});
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
    const QString format = parser.value(QStringLiteral("format")).toLower();
    if (format != QLatin1String("safetensors") && format != QLatin1String("gguf"))
        throw Error(QStringLiteral("--format"),
                    QStringLiteral("'%1' is neither safetensors nor gguf")
                        .arg(parser.value(QStringLiteral("format"))));
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
    QString file;
    if (format == QLatin1String("gguf")) {
        const GgufVocab vocab = readGgufVocab(tokenizer, config);
        writeRandomGguf(out, config, seedOption(parser), *dtype, vocab);
        file = QDir(out).filePath(QStringLiteral("model.gguf"));
    } else {
        writeRandomCheckpoint(out, config, seedOption(parser), *dtype);
        file = QDir(out).filePath(QStringLiteral("model.safetensors"));
    }
    const QString tokenizerOut = QDir(out).filePath(QStringLiteral("tokenizer.json"));
    QFile::remove(tokenizerOut);
    if (!QFile::copy(tokenizer, tokenizerOut))
        throw Error(tokenizerOut,
                    QStringLiteral("cannot copy the tokenizer from %1").arg(tokenizer));
    printJson({{QStringLiteral("out"), out},
               {QStringLiteral("tokenizer"), tokenizer},
               {QStringLiteral("dtype"), dtypeName(*dtype)},
               {QStringLiteral("format"), format},
               {QStringLiteral("file"), file},
               {format == QLatin1String("gguf") ? QStringLiteral("gguf_mb")
                                                : QStringLiteral("safetensors_mb"),
                double(QFileInfo(file).size()) / (1024.0 * 1024.0)}});
    return 0;
}

const CommandRegistrar randomModelCommand(
    "random-model", "a model directory of random weights (F32, F16 or BF16; safetensors or GGUF)",
    &runRandomModel);
} // namespace
} // namespace kvl::cli
