#pragma once

#include "checkpoint/modelconfig.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace kvl {

// How fresh weights are drawn. Gpt2: normal(0, 0.02), residual projections scaled by
// 1/sqrt(2 layers). Torch: PyTorch's module defaults (Linear uniform within
// ±1/sqrt(fan_in), Embedding normal(0, 1)); the larger start gives attention non-uniform
// scores from step 0.
enum class WeightInit { Gpt2, Torch };

// Shape of the model the trainer builds (a Llama layout; written as config.json).
struct TrainModelShape
{
    int hidden = 256;
    int layers = 4;
    int heads = 8;
    int kvHeads = 4;
    int intermediate = 768;
    double ropeTheta = 10000.0;
    int maxPosition = 4096;
    bool tieEmbeddings = false;
    // q/k/v biases: the model is written as Qwen2ForCausalLM (the Llama layout plus those
    // biases). A constant q and k per head let RoPE make position-only heads (the
    // previous-token head of an induction circuit) without a shared embedding direction.
    bool attentionBias = false;

    // The Llama (or Qwen2) config.json of this shape over a tokenizer's vocabulary and ids.
    ModelConfig config(int vocabSize, int bosId, const std::vector<int>& eosIds) const;
};

// Dense associative recall (TRAINING-NOTES.md, trial 3): k1 v1 … kn vn, then the keys
// again in random order, each followed by its value; every value after a repeated key
// is supervised. Filler tokens between pairs lengthen the distance.
struct RecallMix
{
    int minPairs = 16;
    int maxPairs = 16;
    int minFiller = 0;
    int maxFiller = 0;
    // Keys and values are drawn from the first `pool` ids of their sets (0 = all).
    // A small pool repeats each key more often, which shortens the plateau before
    // lookup appears (TRAINING-NOTES.md, trial 3 used 254 keys and 256 values).
    int pool = 0;
    // How often each pair is listed before the queries (shuffled): in-context repetition
    // shortens the plateau before sparse retrieval attention appears (Zucchet et al.,
    // 2025).
    int repeats = 1;
    // Tokens per key (drawn per sequence) and per value (drawn per pair). Keys of two
    // or more tokens are look-alikes: each position draws from a few tokens, so every key
    // shares tokens with others and only the whole key identifies its value, as names
    // do in the retrieval suite ("Anna Dale" among "Jana Dale" and "Anna Ross"). Every
    // token of a queried value is supervised.
    int minKeyTokens = 1;
    int maxKeyTokens = 1;
    int minValueTokens = 1;
    int maxValueTokens = 1;
    // Values spelled in digit tokens, as the suites' access codes and variable values
    // are (one token per digit in the bundled tokenizer): copying "7 7 1" needs the
    // position within the value, not only the previous token.
    bool digitValues = false;
    // Tokens between a key and its value (range; 0 = adjacent): per sequence one run for
    // the listed pairs and another for the queries, as "Anna Dale is 9374." is asked by
    // "... of Anna Dale?\nAnswer: 9374": the lookup must skip what follows the key.
    int minGapTokens = 0;
    int maxGapTokens = 0;
};

// One curriculum stage: its own step count, learning-rate schedule (linear warm-up,
// cosine decay to lrMin) and data mix.
struct TrainStage
{
    QString name;
    int steps = 0;
    double lr = 3e-3;
    double lrMin = 3e-4;
    int warmupSteps = 100;
    int batchSequences = 0; // fixed batch size, or
    int tokensPerBatch = 0; // pack sequences until this many tokens
    RecallMix recall;
    double recallShare = 1.0; // fraction of sequences that are dense recall
    // Fraction of the recall sequences replaced by echo triples "a b a" (the third
    // supervised): a previous-token head alone solves them, and it is the first half of
    // the induction circuit that recall needs (a head start on the plateau).
    double echoShare = 0.0;
    // Task suites and their shares of the remaining sequences, e.g. {"retrieval": 2}; an
    // entry "suite/variant" draws that variant only ({"retrieval/multivalue": 1} weights
    // one skill up), a bare suite a random variant per sample.
    std::vector<std::pair<QString, double>> suites;
    // Extra questions asked after a task sample's own, on the same context (suites that
    // have them: retrieval, multihop), each answer supervised: one context then trains
    // many lookups, as dense recall does, in the suites' own wording.
    int followUps = 0;
    // Parameters (Hugging Face names) this stage does not update, e.g. a planted
    // previous-token head and the embeddings it reads while the recall circuit forms.
    std::vector<QString> frozen;
    int minContextTokens = 64;
    int maxContextTokens = 256;

    // The distinct suites of `suites` without their variants, in order: what the
    // held-out evaluation scores (each suite once, over all its variants).
    QStringList evalSuites() const;
};

// "retrieval/multivalue" -> {"retrieval", "multivalue"}; "retrieval" -> {"retrieval", ""}.
std::pair<QString, QString> splitSuiteEntry(const QString& entry);

struct TrainSpec
{
    TrainModelShape model;
    int vocabSize = 2048;  // of the BPE the trainer learns when no tokenizer is given
    QString tokenizerPath; // an existing tokenizer.json, or empty to train one
    // A checkpoint to start from instead of fresh weights (ignored when resuming). With
    // more layers in `model` than it has, the extra layers are appended on top with zero
    // output projections (o_proj, down_proj): the grown model computes exactly what the
    // checkpoint did, and training then uses the new layers. Lets a small model that has
    // formed its retrieval circuit grow deeper without a second plateau.
    QString initFrom;
    // Fresh weights start with a previous-token head in layer 0 (TrainableLlama).
    bool previousTokenHead = false;
    // How fresh weights are drawn (spec key "init": "gpt2" or "torch").
    WeightInit init = WeightInit::Gpt2;
    int tokenizerCorpusSamples = 3000;
    double weightDecay = 0.1;
    double beta1 = 0.9;
    double beta2 = 0.95;
    double clipNorm = 1.0;
    std::vector<TrainStage> stages;
    quint64 seed = 1;
    int checkpointEvery = 100;
    int evalEvery = 250;   // steps between held-out evaluations (0: none)
    int evalSamples = 32;  // samples per suite in each evaluation
    int threads = 0; // 0 = all cores

    int totalSteps() const;
    // Stage that contains global step `step` (0-based), and the step inside it.
    std::pair<int, int> locate(int step) const;

    QJsonObject toJson() const;
    // Throws kvl::Error naming `origin` (file name) and the field.
    static TrainSpec fromJson(const QJsonObject& json, const QString& origin);
};

} // namespace kvl
