#pragma once

// A tiny Llama checkpoint made by the trainer in a second (two steps on recall
// sequences) with a BPE tokenizer trained on the task corpus: a real model directory
// for the sweep tests. Its answers are noise; the tests check the runner's bookkeeping
// and invariants that hold for any model.
#include "tasks/corpus.h"
#include "tokenizer/bpetrainer.h"
#include "train/trainer.h"
#include "train/trainspec.h"

#include <QJsonDocument>
#include <QTemporaryDir>

namespace kvl::test {

struct TinyModel
{
    QTemporaryDir dir;
    QString checkpoint;

    explicit TinyModel(int maxPosition = 512)
    {
        BpeTrainerOptions options;
        options.vocabSize = 400;
        BpeTrainer bpe(options);
        for (const QString& line : taskCorpusLines(3, 7))
            bpe.addText(line);
        bpe.train();
        const QString tokenizer = dir.filePath(QStringLiteral("tokenizer.json"));
        bpe.save(tokenizer);
        const QByteArray json = QStringLiteral(R"({
            "model": {"hidden": 32, "layers": 2, "heads": 2, "kv_heads": 1, "intermediate": 64,
                      "max_position": %1},
            "threads": 1, "checkpoint_every": 1, "seed": 3,
            "stages": [{"name": "recall", "steps": 2, "lr": 0.01, "warmup_steps": 1,
                        "batch_sequences": 4, "recall": {"pairs": [4, 4], "filler": [0, 0]}}]})")
                                    .arg(maxPosition)
                                    .toUtf8();
        const TrainSpec spec =
            TrainSpec::fromJson(QJsonDocument::fromJson(json).object(), QStringLiteral("tiny"));
        Trainer trainer(spec, dir.filePath(QStringLiteral("train")), tokenizer, {});
        trainer.run();
        checkpoint = trainer.checkpointDir();
    }
};

} // namespace kvl::test
