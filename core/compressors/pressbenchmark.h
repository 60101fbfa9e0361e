#pragma once

#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <vector>

namespace kvl {

class Transformer;

// Wall-clock and process CPU seconds (all threads) of one timed piece, best of repeats.
// On a machine shared with other jobs the wall time follows the load (a worker thread
// waiting for a core stalls every parallel op); the CPU time counts the work.
struct BenchSeconds
{
    double wall = 0.0;
    double cpu = 0.0;
};

struct PressTiming
{
    QString spec;
    double seconds = 0.0;         // compress() at the ratio, best of the repeats
    double prefillFraction = 0.0; // seconds / prefill seconds
    double cpuSeconds = 0.0;
    double prefillCpuFraction = 0.0; // cpuSeconds / prefill CPU seconds
    QString error;                   // set when the press could not run
    // Decode-time presses (DecodingPress), over `decodeTokens` greedy tokens after the
    // prefill: seconds per generated token under FullCache and under the press as
    // written, the mean seconds of one compression (a run whose interval is forced to
    // decodeTokens / 2, so that it fires), the press's interval, and the compression's
    // cost per generated token at that interval as a fraction of a FullCache step.
    bool decodeTime = false;
    int decodeTokens = 0;
    double fullStepSeconds = 0.0;
    double pressStepSeconds = 0.0;
    double compressionSeconds = 0.0;
    int compressions = 0;
    int interval = 0;
    double perTokenFraction = 0.0;
    // Offloading presses (OffloadPress), over the same `decodeTokens` greedy tokens: seconds
    // per generated token under FullCache and under retrieval, the retrieval itself
    // (index.select of every layer: landmark scores, top chunks) per token and as a
    // fraction of a FullCache step, and the index's budget, attended share and bytes
    // fetched per step. Attention masks the unselected entries of the stored context
    // rather than gathering the selected ones, so the step time is FullCache's plus the
    // retrieval: the figure of merit here is the retrieval's own cost.
    bool offloadTime = false;
    double offloadStepSeconds = 0.0;
    double selectSecondsPerToken = 0.0;
    double selectFractionOfStep = 0.0;
    int64_t budgetTokens = 0;
    double attendedShare = 0.0;
    double fetchedBytesPerStep = 0.0;
};

struct PressBench
{
    int64_t tokens = 0;
    double ratio = 0.5;
    double prefillSeconds = 0.0; // best of the repeats, capturing what the presses need
    double prefillCpuSeconds = 0.0;
    // The same prefill without accumulating the received attention (H2O), interleaved
    // with it: zero when no press asks for it.
    BenchSeconds prefillWithoutReceived;
    std::vector<PressTiming> presses;
    QJsonObject toJson() const;
};

// Times every press of `specs` (default: PressCatalog::exampleSpecs()) after one
// prefill of `tokens` random ids, as a fraction of that prefill (issue 3 target: <= 5%
// for score-based presses): one untimed call first (allocator growth and lazy set-up
// are paid once per process, not once per sample), then the best of max(3, repeats).
// Runs in inference mode. Decode-time presses are also timed while decoding
// `decodeTokens` tokens (PressTiming::decodeTime), offloading presses too
// (PressTiming::offloadTime).
PressBench benchPresses(const Transformer& model, int64_t tokens, double ratio = 0.5,
                        std::vector<QString> specs = {}, int repeats = 1, int decodeTokens = 16);

} // namespace kvl
