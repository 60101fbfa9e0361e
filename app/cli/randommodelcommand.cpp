// `kvlens-cli random-model`: a model directory of random weights in a known shape,
// stored F32, F16 or BF16 (test and benchmark checkpoints without a download).
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "model/benchmark.h"
#include "model/randomcheckpoint.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonObject>

namespace kvl::cli {
namespace {

int runRandomModel(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes config.json and model.safetensors of random weights (the "
                       "values bench --model random-0.5b runs on, for seed 0)."));
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
    parser.process(args);
    if (!parser.isSet(QStringLiteral("out")))
        throw Error(QStringLiteral("missing --out (see --help)"));
    const QString dtypeText = parser.value(QStringLiteral("dtype")).toUpper();
    const std::optional<DType> dtype = dtypeFromName(dtypeText);
    if (!dtype || (*dtype != DType::F32 && *dtype != DType::F16 && *dtype != DType::BF16))
        throw Error(QStringLiteral("--dtype"), QStringLiteral("'%1' is not F32, F16 or BF16")
                                                   .arg(parser.value(QStringLiteral("dtype"))));
    const ModelConfig config = randomShapeConfig(parser.value(QStringLiteral("shape")));
    const QString out = parser.value(QStringLiteral("out"));
    writeRandomCheckpoint(out, config, seedOption(parser), *dtype);
    const QString file = QDir(out).filePath(QStringLiteral("model.safetensors"));
    printJson({{QStringLiteral("out"), out},
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
