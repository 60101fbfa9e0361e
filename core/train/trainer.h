#pragma once

#include "tasks/rng.h"
#include "train/trainsequence.h"
#include "train/trainspec.h"

#include <QJsonObject>
#include <QString>
#include <atomic>
#include <functional>

namespace kvl {

class Tokenizer;

// One task sequence the trainer asks for: a sample of `suite` (a stage's suites entry,
// "suite" or "suite/variant") with a context length in
// [minTokens, maxTokens], then up to `followUps` more questions on the same context.
struct TaskDraw
{
    QString suite;
    int minTokens = 0;
    int maxTokens = 0;
    int followUps = 0;
};

// Makes one training sequence (context, question, supervised answer, and any follow-up
// questions with their answers supervised). Supplied by the caller so that the trainer
// does not depend on the task generators.
using TaskSequenceFn = std::function<TrainSequence(const TaskDraw& draw, Rng& rng)>;

// Scores the checkpoint in `checkpointDir` on `samples` held-out samples of one suite with
// contexts of [minTokens, maxTokens] tokens and returns the `kvlens-cli eval --json`
// object. Supplied by the caller (the CLI uses the sweep engine's evaluateSuite), so the
// trainer does not depend on the sweep runner.
using CheckpointEvalFn = std::function<QJsonObject(const QString& checkpointDir,
                                                   const QString& suite, int minTokens,
                                                   int maxTokens, int samples)>;

// Trains the bundled model by the curriculum of a TrainSpec. Everything lives in one
// output directory: a loadable Hugging Face checkpoint (checkpoint/), the optimizer
// state next to it, and train_log.jsonl. Checkpoints are written to a temporary
// directory and renamed, so an interruption at any moment leaves the last complete
// one, and run() resumes from it. Batches are drawn from an RNG seeded by (seed,
// step), so a resumed run sees the same data as an uninterrupted one.
class Trainer
{
  public:
    Trainer(TrainSpec spec, QString outDir, QString tokenizerPath, TaskSequenceFn tasks);

    // One JSON object per progress report (step, stage, loss, lr, tokens_per_s, eta_s)
    // and per evaluation (kind "eval").
    void setProgressCallback(std::function<void(const QJsonObject&)> callback);
    // Every spec.evalEvery steps and at the end, the fresh checkpoint is scored on each
    // suite of the current stage (spec.evalSamples samples at the stage's lengths) and
    // reported as {"kind": "eval", "step", "stage", "suite", "score", ...}: train-batch
    // token accuracy says little about whole-answer accuracy. None set: no evaluation.
    void setCheckpointEvaluator(CheckpointEvalFn evaluate);
    // Stops after the current step, writing a checkpoint first.
    void requestStop() { m_stop = true; }
    // Runs until the end of the curriculum or until `maxSteps` more steps (0: no limit).
    // Returns the global step reached.
    int run(int maxSteps = 0);

    QString checkpointDir() const;

  private:
    TrainSpec m_spec;
    QString m_outDir;
    QString m_tokenizerPath;
    TaskSequenceFn m_tasks;
    CheckpointEvalFn m_evaluate;
    std::function<void(const QJsonObject&)> m_progress;
    std::atomic<bool> m_stop{false};
};

} // namespace kvl
