#include "train/trainer.h"

#include "common/error.h"
#include "common/jsonio.h"
#include "model/engineinfo.h"
#include "tokenizer/tokenizer.h"
#include "train/adamw.h"
#include "train/stepsequences.h"
#include "train/trainablellama.h"
#include "train/trainbatch.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <cmath>
#include <thread>
#include <ATen/Parallel.h>
#include <torch/types.h>

namespace kvl {

namespace {

const char* kStateFile = "trainer_state.json";
const char* kOptimizerFile = "optimizer.safetensors";
// A step's sequences run in up to this many length groups (same gradient, less padding;
// `kvlens-cli bench --train --groups N` measures it: on drill-list batches forward and
// backward ran 2.0x / 2.6x / 3.1x / 3.0x faster with 2 / 4 / 8 / 16 groups).
constexpr int kLengthGroups = 8;

double learningRate(const TrainStage& stage, int stepInStage)
{
    if (stepInStage < stage.warmupSteps)
        return stage.lr * double(stepInStage + 1) / double(stage.warmupSteps);
    const double progress = double(stepInStage - stage.warmupSteps) /
                            double(std::max(1, stage.steps - stage.warmupSteps));
    return stage.lrMin + 0.5 * (stage.lr - stage.lrMin) * (1.0 + std::cos(M_PI * progress));
}

int coreCount()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n ? int(n) : 1;
}

} // namespace

Trainer::Trainer(TrainSpec spec, QString outDir, QString tokenizerPath, TaskSequenceFn tasks)
    : m_spec(std::move(spec)), m_outDir(std::move(outDir)),
      m_tokenizerPath(std::move(tokenizerPath)), m_tasks(std::move(tasks))
{}

void Trainer::setProgressCallback(std::function<void(const QJsonObject&)> callback)
{
    m_progress = std::move(callback);
}

void Trainer::setCheckpointEvaluator(CheckpointEvalFn evaluate)
{
    m_evaluate = std::move(evaluate);
}

QString Trainer::checkpointDir() const
{
    return QDir(m_outDir).filePath(QStringLiteral("checkpoint"));
}

int Trainer::run(int maxSteps)
{
    const QDir out(m_outDir);
    if (!QDir().mkpath(m_outDir))
        throw Error(m_outDir, QStringLiteral("cannot create the output directory"));
    const auto tokenizer = loadTokenizer(m_tokenizerPath);
    const int vocab = tokenizer->vocabSize();
    const int bos = tokenizer->bosId().value_or(0);
    const std::vector<int> stops = tokenizer->stopIds();
    const int pad = stops.empty() ? 0 : stops.front();
    const RecallSequences recall = recallSequencesFor(*tokenizer, m_spec.seed);

    const QString ckpt = checkpointDir();
    const bool resuming = QFile::exists(QDir(ckpt).filePath(QLatin1String(kStateFile)));
    const ModelConfig config = m_spec.model.config(vocab, bos, stops);
    TrainableLlama model =
        resuming ? TrainableLlama::load(ckpt)
        : !m_spec.initFrom.isEmpty()
            ? TrainableLlama::grownFrom(m_spec.initFrom, config, m_spec.seed)
            : TrainableLlama(config, m_spec.seed, m_spec.previousTokenHead, m_spec.init);
    for (size_t i = 0; i < m_spec.stages.size(); ++i)
        for (const QString& name : m_spec.stages[i].frozen)
            if (!model.named().count(name))
                throw Error(QStringLiteral("stages[%1].freeze").arg(i),
                            QStringLiteral("the model has no parameter '%1'").arg(name));
    // After the model (and after each evaluation): the engine sets all cores when a
    // Transformer is built.
    const int threads = m_spec.threads > 0 ? m_spec.threads : coreCount();
    at::set_num_threads(threads);
    flushDenormals();
    std::map<QString, bool> decays;
    for (const auto& [name, t] : model.named())
        decays[name] = model.decays(name);
    AdamW optimizer(model.named(), decays, {m_spec.beta1, m_spec.beta2, 1e-8, m_spec.weightDecay});
    int step = 0;
    if (resuming) {
        optimizer.load(QDir(ckpt).filePath(QLatin1String(kOptimizerFile)));
        step = readJsonObject(QDir(ckpt).filePath(QLatin1String(kStateFile)))
                   .value(QStringLiteral("step"))
                   .toInt();
    }

    // Writes the checkpoint beside `dir` and then swaps it in, so that an interruption
    // leaves the previous one whole.
    auto saveCheckpointTo = [&](const QString& dir) {
        const QString tmp = dir + QStringLiteral(".tmp");
        QDir(tmp).removeRecursively();
        model.save(tmp, m_tokenizerPath);
        optimizer.save(QDir(tmp).filePath(QLatin1String(kOptimizerFile)));
        writeFileAtomically(QDir(tmp).filePath(QLatin1String(kStateFile)),
                            toJsonLine({{QStringLiteral("step"), step},
                                        {QStringLiteral("spec"), m_spec.toJson()},
                                        {QStringLiteral("saved"),
                                         QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}}));
        const QString old = dir + QStringLiteral(".old");
        QDir(old).removeRecursively();
        if (QDir(dir).exists() && !QDir().rename(dir, old))
            throw Error(dir, QStringLiteral("cannot replace the previous checkpoint"));
        if (!QDir().rename(tmp, dir))
            throw Error(dir, QStringLiteral("cannot move the new checkpoint into place"));
        QDir(old).removeRecursively();
    };

    QFile log(out.filePath(QStringLiteral("train_log.jsonl")));
    if (!log.open(QIODevice::Append | QIODevice::Text))
        throw Error(log.fileName(), QStringLiteral("cannot open the training log"));
    auto report = [&](const QJsonObject& o) {
        log.write(toJsonLine(o) + '\n');
        log.flush();
        if (m_progress)
            m_progress(o);
    };

    const int total = m_spec.totalSteps();
    const int startStep = step;
    QElapsedTimer clock;
    clock.start();
    qint64 evalMs = 0; // held-out evaluations: not training time
    int64_t tokensSeen = 0;
    double lossSum = 0;
    int64_t hitSum = 0, supervisedSum = 0;
    int sinceReport = 0;
    while (step < total && !m_stop && (maxSteps <= 0 || step - startStep < maxSteps)) {
        const auto [stageIndex, inStage] = m_spec.locate(step);
        const TrainStage& stage = m_spec.stages[size_t(stageIndex)];
        Rng rng(Rng::derive(m_spec.seed, uint64_t(step)));
        const std::vector<TrainBatch> groups = assembleLengthGroups(
            drawStepSequences(stage, recall, m_tasks, rng), pad, kLengthGroups);
        const double lr = learningRate(stage, inStage);

        optimizer.zeroGrad();
        const StepLoss loss = backpropagateSupervisedLoss(model, groups);
        optimizer.clipGradNorm(m_spec.clipNorm);
        optimizer.step(lr, stage.frozen);
        ++step;

        tokensSeen += loss.tokens;
        lossSum += loss.loss;
        hitSum += loss.hits;
        supervisedSum += loss.supervised;
        ++sinceReport;
        const bool lastOfCall = maxSteps > 0 && step - startStep >= maxSteps;
        const bool evalNow = m_evaluate && m_spec.evalEvery > 0 && m_spec.evalSamples > 0 &&
                             !stage.suites.empty() &&
                             (step % m_spec.evalEvery == 0 || step == total);
        // The end of a stage is kept apart (DIR/stages/<name>): a model can be shipped,
        // or a new stage tried, from exactly there after the run has gone on.
        const bool stageEnd = inStage + 1 == stage.steps;
        const bool checkpointNow = step % m_spec.checkpointEvery == 0 || step == total || m_stop ||
                                   lastOfCall || evalNow || stageEnd;
        if (step % 10 == 0 || checkpointNow) {
            const double seconds = double(clock.elapsed() - evalMs) / 1000.0;
            const double perStep = seconds / double(step - startStep);
            report({{QStringLiteral("kind"), QStringLiteral("train")},
                    {QStringLiteral("step"), step},
                    {QStringLiteral("total"), total},
                    {QStringLiteral("stage"), stage.name},
                    {QStringLiteral("loss"), lossSum / sinceReport},
                    {QStringLiteral("answer_token_accuracy"),
                     supervisedSum ? double(hitSum) / double(supervisedSum) : 0.0},
                    {QStringLiteral("lr"), lr},
                    {QStringLiteral("tokens_per_s"), double(tokensSeen) / std::max(seconds, 1e-9)},
                    {QStringLiteral("elapsed_s"), seconds},
                    {QStringLiteral("eta_s"), perStep * double(total - step)}});
            lossSum = 0;
            hitSum = supervisedSum = 0;
            sinceReport = 0;
        }
        if (checkpointNow)
            saveCheckpointTo(ckpt);
        if (stageEnd) {
            const QString stages = out.filePath(QStringLiteral("stages"));
            if (!QDir().mkpath(stages))
                throw Error(stages,
                            QStringLiteral("cannot create the folder of stage checkpoints"));
            QString folder = stage.name;
            folder.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")),
                           QStringLiteral("_"));
            saveCheckpointTo(QDir(stages).filePath(folder));
        }
        if (evalNow) {
            QElapsedTimer evalClock;
            evalClock.start();
            for (const QString& suite : stage.evalSuites()) {
                QJsonObject result = m_evaluate(ckpt, suite, stage.minContextTokens,
                                                stage.maxContextTokens, m_spec.evalSamples);
                result.insert(QStringLiteral("kind"), QStringLiteral("eval"));
                result.insert(QStringLiteral("step"), step);
                result.insert(QStringLiteral("stage"), stage.name);
                report(result);
            }
            at::set_num_threads(threads);
            flushDenormals();
            evalMs += evalClock.elapsed();
        }
    }
    return step;
}

} // namespace kvl
