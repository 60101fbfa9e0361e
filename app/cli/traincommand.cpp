// `kvlens-cli train`: trains the bundled model (issue 5) by a curriculum spec.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"
#include "tokenizer/tokenizer.h"
#include "train/suitesequences.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "model/transformer.h"
#include "run/suiteevaluation.h"
#include "train/trainer.h"

#include <QCommandLineParser>
#include <QDir>
#include <csignal>

namespace kvl::cli {
namespace {

Trainer* g_trainer = nullptr;

// The training run's held-out evaluations draw samples with this generator seed (the
// same samples at every evaluation, so the scores form a curve; the model card's table
// uses other seeds). `kvlens-cli eval --seed 99` reproduces one.
constexpr quint64 kTrainingEvalSeed = 99;

QJsonObject evaluateCheckpoint(const QString& dir, const QString& suite, int minTokens,
                               int maxTokens, int samples)
{
    const auto model = Transformer::load(dir);
    const auto tokenizer = loadTokenizer(model->checkpoint()->requireTokenizerPath());
    TaskOptions options;
    options.minTokens = minTokens;
    options.maxTokens = maxTokens;
    return evaluateSuite(*model, *tokenizer, suite, samples, options, kTrainingEvalSeed).toJson();
}

void onSignal(int)
{
    if (g_trainer)
        g_trainer->requestStop();
}

// Copies a resumable checkpoint into place unless the output already has one (then
// the output's own, newer state wins).
const char* const kCheckpointFiles[] = {"config.json", "model.safetensors", "tokenizer.json",
                                        "optimizer.safetensors", "trainer_state.json"};

void seedCheckpoint(const QString& from, const QString& checkpoint)
{
    if (QFileInfo::exists(QDir(checkpoint).filePath(QStringLiteral("trainer_state.json"))))
        return;
    for (const char* name : kCheckpointFiles) {
        const QString source = QDir(from).filePath(QLatin1String(name));
        if (!QFileInfo::exists(source))
            throw Error(source, QStringLiteral(
                                    "missing: --resume-from needs a checkpoint the trainer wrote"));
    }
    if (!QDir().mkpath(checkpoint))
        throw Error(checkpoint, QStringLiteral("cannot create the checkpoint directory"));
    for (const char* name : kCheckpointFiles)
        writeFileAtomically(QDir(checkpoint).filePath(QLatin1String(name)),
                            readFileBytes(QDir(from).filePath(QLatin1String(name))));
}

int runTrain(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Train the bundled model by a curriculum spec (JSON). Rerunning the same command "
        "resumes from the last checkpoint in --out (DIR/checkpoint); the end of each stage "
        "is also kept in DIR/stages/<name>. Ctrl-C checkpoints and stops."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("spec"), QStringLiteral("Curriculum spec (JSON)."),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("out"), QStringLiteral("Output directory."), QStringLiteral("DIR")});
    parser.addOption(
        {QStringLiteral("tokenizer"),
         QStringLiteral(
             "tokenizer.json to train with (default: the spec's, or out/tokenizer.json)."),
         QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("max-steps"),
                      QStringLiteral("Stop after this many steps (then resume later)."),
                      QStringLiteral("N")});
    parser.addOption(
        {QStringLiteral("resume-from"),
         QStringLiteral(
             "A checkpoint directory (with optimizer.safetensors and trainer_state.json, "
             "e.g. the shipped model) to continue from when --out has none yet."),
         QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("threads"), QStringLiteral("Threads (default: all cores)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("seed"),
                      QStringLiteral("Data and weight seed (default: the spec's). Plateau "
                                     "escapes vary by seed: packaging/train-seeds.sh runs many."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("init-from"),
                      QStringLiteral("Checkpoint to start fresh weights from (default: the "
                                     "spec's init_from)."),
                      QStringLiteral("DIR")});
    parser.process(args);
    if (!parser.isSet(QStringLiteral("spec")) || !parser.isSet(QStringLiteral("out")))
        throw Error(QStringLiteral("train needs --spec FILE and --out DIR"));

    const QString specPath = parser.value(QStringLiteral("spec"));
    TrainSpec spec = TrainSpec::fromJson(readJsonObject(specPath), specPath);
    if (parser.isSet(QStringLiteral("threads")))
        spec.threads = parser.value(QStringLiteral("threads")).toInt();
    if (parser.isSet(QStringLiteral("init-from")))
        spec.initFrom = parser.value(QStringLiteral("init-from"));
    if (parser.isSet(QStringLiteral("seed")))
        spec.seed = seedOption(parser);
    const QString out = parser.value(QStringLiteral("out"));
    const QString resumeFrom = parser.value(QStringLiteral("resume-from"));
    if (!resumeFrom.isEmpty())
        seedCheckpoint(resumeFrom, QDir(out).filePath(QStringLiteral("checkpoint")));

    QString tokenizer = parser.value(QStringLiteral("tokenizer"));
    if (tokenizer.isEmpty() && !spec.tokenizerPath.isEmpty())
        tokenizer = QDir(QFileInfo(specPath).path()).filePath(spec.tokenizerPath);
    // Else the output's own tokenizer, or the one the checkpoint was trained with.
    for (const QString& candidate :
         {QStringLiteral("tokenizer.json"), QStringLiteral("checkpoint/tokenizer.json")})
        if (tokenizer.isEmpty() && QFileInfo::exists(QDir(out).filePath(candidate)))
            tokenizer = QDir(out).filePath(candidate);
    if (tokenizer.isEmpty() || !QFileInfo::exists(tokenizer))
        throw Error(
            tokenizer.isEmpty() ? out : tokenizer,
            QStringLiteral("no tokenizer: train one first with kvlens-cli tokenizer-train"));

    Trainer trainer(spec, out, tokenizer,
                    makeSuiteSequenceFn(std::shared_ptr<const Tokenizer>(loadTokenizer(tokenizer)),
                                        spec.model.maxPosition));
    trainer.setProgressCallback([](const QJsonObject& o) { printJson(o); });
    trainer.setCheckpointEvaluator(&evaluateCheckpoint);
    g_trainer = &trainer;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    const int reached = trainer.run(parser.value(QStringLiteral("max-steps")).toInt());
    g_trainer = nullptr;
    printJson({{QStringLiteral("kind"), QStringLiteral("done")},
               {QStringLiteral("step"), reached},
               {QStringLiteral("total"), spec.totalSteps()},
               {QStringLiteral("checkpoint"), trainer.checkpointDir()}});
    return 0;
}

const CommandRegistrar trainCommand("train", "train the bundled model by a curriculum spec",
                                    &runTrain);

} // namespace
} // namespace kvl::cli
