#include "compressors/pressbenchmark.h"

#include "cache/pressprefill.h"
#include "cache/repeatprompts.h"

#include "common/error.h"
#include "compressors/compresseddecoding.h"
#include "compressors/decodingpress.h"
#include "compressors/offloaddecoding.h"
#include "compressors/offloadpress.h"
#include "compressors/presscatalog.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <c10/core/InferenceMode.h>
#include <ctime>
#include <torch/types.h>

namespace kvl {
namespace {

// Runs `f` and keeps the best wall and CPU times seen so far in `best`.
template <typename F> void timeBest(F&& f, BenchSeconds& best, bool first)
{
    QElapsedTimer timer;
    timer.start();
    const std::clock_t cpuStart = std::clock();
    f();
    const double cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    const double wall = double(timer.nsecsElapsed()) * 1e-9;
    best.wall = first ? wall : std::min(best.wall, wall);
    best.cpu = first ? cpu : std::min(best.cpu, cpu);
}

// `spec` with its decoding press's interval set to `interval` (the second press of
// prefill_decoding, else the press itself).
QString withInterval(const QString& spec, int interval)
{
    PressSpec parsed = PressSpec::parse(spec);
    PressSpec& decoding =
        parsed.name == QLatin1String("prefill_decoding") && parsed.inner.size() == 2
            ? parsed.inner[1]
            : parsed;
    bool set = false;
    for (auto& [key, value] : decoding.params)
        if (key == QLatin1String("interval")) {
            value = QString::number(interval);
            set = true;
        }
    if (!set)
        decoding.params.emplace_back(QStringLiteral("interval"), QString::number(interval));
    return parsed.toString();
}

// Greedy decoding without stop ids for exactly `n` tokens after a one-token question.
GenerateOptions benchDecodeOptions(int n)
{
    GenerateOptions options;
    options.maxNewTokens = n;
    return options;
}

// The decode figures of one decode-time press (see PressTiming).
void benchDecoding(const Transformer& model, const ContextCache& cache, const PressCatalog& catalog,
                   const DecodingPress& press, double ratio, int n, double fullStep,
                   const at::Tensor& prefillKept, PressTiming& t)
{
    const std::vector<int> question{1};
    const GenerateOptions options = benchDecodeOptions(n);
    t.decodeTime = true;
    t.decodeTokens = n;
    t.fullStepSeconds = fullStep;
    t.interval = press.interval();
    QElapsedTimer timer;
    timer.start();
    generateCompressed(model, cache, prefillKept, press, ratio, question, options);
    t.pressStepSeconds = double(timer.nsecsElapsed()) * 1e-9 / double(n);
    const std::unique_ptr<Press> forced =
        catalog.press(withInterval(press.spec(), std::max(1, n / 2)));
    const CompressedDecoding d =
        generateCompressed(model, cache, prefillKept, dynamic_cast<const DecodingPress&>(*forced),
                           ratio, question, options);
    t.compressions = int(d.steps.size());
    if (t.compressions > 0)
        t.compressionSeconds = d.pressSeconds / double(t.compressions);
    t.perTokenFraction = fullStep > 0 ? t.compressionSeconds / double(t.interval) / fullStep : 0.0;
}

// The decode figures of one offloading press (see PressTiming).
void benchOffloading(const Transformer& model, const CompressionInput& input,
                     const OffloadPress& press, double ratio, int n, double fullStep,
                     PressTiming& t)
{
    const std::unique_ptr<OffloadIndex> index = press.index(input, ratio);
    t.offloadTime = true;
    t.decodeTokens = n;
    t.fullStepSeconds = fullStep;
    t.budgetTokens = index->budgetTokens();
    t.fetchedBytesPerStep = index->cost().fetchedBytesPerStep;
    QElapsedTimer timer;
    timer.start();
    const OffloadedDecoding d = generateOffloaded(model, *index, {1}, benchDecodeOptions(n));
    t.offloadStepSeconds = double(timer.nsecsElapsed()) * 1e-9 / double(n);
    t.selectSecondsPerToken = d.pressSeconds / double(n);
    t.selectFractionOfStep = fullStep > 0 ? t.selectSecondsPerToken / fullStep : 0.0;
    t.attendedShare = d.selectedShare.numel() > 0 ? d.selectedShare.mean().item<double>() : 0.0;
}

} // namespace

QJsonObject PressBench::toJson() const
{
    QJsonArray rows;
    for (const PressTiming& t : presses) {
        QJsonObject o{{QStringLiteral("press"), t.spec},
                      {QStringLiteral("seconds"), t.seconds},
                      {QStringLiteral("prefill_fraction"), t.prefillFraction},
                      {QStringLiteral("cpu_seconds"), t.cpuSeconds},
                      {QStringLiteral("prefill_cpu_fraction"), t.prefillCpuFraction}};
        if (!t.error.isEmpty())
            o[QStringLiteral("error")] = t.error;
        if (t.decodeTime)
            o[QStringLiteral("decode")] = QJsonObject{
                {QStringLiteral("tokens"), t.decodeTokens},
                {QStringLiteral("full_cache_seconds_per_token"), t.fullStepSeconds},
                {QStringLiteral("press_seconds_per_token"), t.pressStepSeconds},
                {QStringLiteral("interval"), t.interval},
                {QStringLiteral("compression_seconds"), t.compressionSeconds},
                {QStringLiteral("compressions_timed"), t.compressions},
                {QStringLiteral("compression_per_token_fraction_of_step"), t.perTokenFraction}};
        if (t.offloadTime)
            o[QStringLiteral("offload")] =
                QJsonObject{{QStringLiteral("tokens"), t.decodeTokens},
                            {QStringLiteral("full_cache_seconds_per_token"), t.fullStepSeconds},
                            {QStringLiteral("offload_seconds_per_token"), t.offloadStepSeconds},
                            {QStringLiteral("select_seconds_per_token"), t.selectSecondsPerToken},
                            {QStringLiteral("select_fraction_of_step"), t.selectFractionOfStep},
                            {QStringLiteral("budget_tokens"), qint64(t.budgetTokens)},
                            {QStringLiteral("attended_share"), t.attendedShare},
                            {QStringLiteral("fetched_bytes_per_step"), t.fetchedBytesPerStep}};
        rows.append(o);
    }
    QJsonObject out{{QStringLiteral("tokens"), qint64(tokens)},
                    {QStringLiteral("ratio"), ratio},
                    {QStringLiteral("prefill_seconds"), prefillSeconds},
                    {QStringLiteral("prefill_cpu_seconds"), prefillCpuSeconds},
                    {QStringLiteral("presses"), rows}};
    if (prefillWithoutReceived.wall > 0) {
        out[QStringLiteral("prefill_seconds_without_received_attention")] =
            prefillWithoutReceived.wall;
        out[QStringLiteral("prefill_cpu_seconds_without_received_attention")] =
            prefillWithoutReceived.cpu;
        out[QStringLiteral("received_attention_overhead")] =
            prefillSeconds / prefillWithoutReceived.wall - 1.0;
        out[QStringLiteral("received_attention_cpu_overhead")] =
            prefillCpuSeconds / prefillWithoutReceived.cpu - 1.0;
    }
    return out;
}

PressBench benchPresses(const Transformer& model, int64_t tokens, double ratio,
                        std::vector<QString> specs, int repeats, int decodeTokens)
{
    c10::InferenceMode guard;
    const PressCatalog catalog;
    if (specs.empty())
        specs = catalog.exampleSpecs();
    std::vector<std::unique_ptr<Press>> presses;
    std::vector<const Press*> pointers;
    for (const QString& s : specs) {
        presses.push_back(catalog.press(s));
        pointers.push_back(presses.back().get());
    }
    std::vector<int> ids(static_cast<size_t>(tokens));
    for (int64_t i = 0; i < tokens; ++i)
        ids[size_t(i)] = int((i * 7919 + 13) % model.config().vocabSize);
    const PrefillOptions options = prefillOptionsFor(pointers, tokens);
    PrefillOptions without = options;
    without.receivedAttention = false;

    PressBench bench;
    bench.tokens = tokens;
    bench.ratio = ratio;
    ContextCache cache;
    BenchSeconds prefill;
    // With and without the accumulation in turn, so both see the same machine load.
    const bool received = options.receivedAttention;
    const int prefills = received ? std::max(2, repeats) : std::max(1, repeats);
    for (int r = 0; r < prefills; ++r) {
        if (received)
            timeBest([&] { model.prefill(ids, without); }, bench.prefillWithoutReceived, r == 0);
        timeBest([&] { cache = model.prefill(ids, options); }, prefill, r == 0);
    }
    bench.prefillSeconds = prefill.wall;
    bench.prefillCpuSeconds = prefill.cpu;
    // KVzip re-reads the context: the bench has no tokenizer, so its repeat prompts are ids
    // of the lengths a Qwen2.5 tokenizer and template give them (7, 12 and 5 tokens); the
    // cost depends on the lengths only.
    RepeatPrompts repeatPrompts;
    for (int i = 0; i < 12; ++i) {
        const int id = int((i * 104729 + 7) % model.config().vocabSize);
        if (i < 7)
            repeatPrompts.first.push_back(id);
        repeatPrompts.later.push_back(id);
        if (i < 5)
            repeatPrompts.suffix.push_back(id);
    }
    CompressionInput input = compressionInputFor(model, cache, &ids, &repeatPrompts);
    double fullStep = -1.0; // FullCache seconds per generated token, once
    for (size_t i = 0; i < presses.size(); ++i) {
        PressTiming t;
        t.spec = presses[i]->spec();
        BenchSeconds best;
        try {
            presses[i]->compress(input, ratio); // untimed: first-call costs
            for (int r = 0; r < std::max(3, repeats); ++r)
                timeBest([&] { presses[i]->compress(input, ratio); }, best, r == 0);
            const auto* d = dynamic_cast<const DecodingPress*>(presses[i].get());
            const auto* offload = dynamic_cast<const OffloadPress*>(presses[i].get());
            if ((d != nullptr || offload != nullptr) && decodeTokens > 0 && fullStep < 0) {
                QElapsedTimer timer;
                timer.start();
                generateAnswer(model, cache, CacheEdit{}, {1}, benchDecodeOptions(decodeTokens));
                fullStep = double(timer.nsecsElapsed()) * 1e-9 / double(decodeTokens);
            }
            if (d != nullptr && decodeTokens > 0)
                benchDecoding(model, cache, catalog, *d, ratio, decodeTokens, fullStep,
                              presses[i]->compress(input, ratio).kept, t);
            if (offload != nullptr && decodeTokens > 0)
                benchOffloading(model, input, *offload, ratio, decodeTokens, fullStep, t);
        } catch (const Error& e) {
            t.error = e.message();
        }
        t.seconds = best.wall;
        t.cpuSeconds = best.cpu;
        t.prefillFraction = bench.prefillSeconds > 0 ? t.seconds / bench.prefillSeconds : 0.0;
        t.prefillCpuFraction =
            bench.prefillCpuSeconds > 0 ? t.cpuSeconds / bench.prefillCpuSeconds : 0.0;
        bench.presses.push_back(t);
    }
    return bench;
}

} // namespace kvl
