#include "model/benchmark.h"

#include "common/error.h"
#include "model/attention.h"
#include "model/decodebatch.h"
#include "model/fusedattention.h"
#include "model/transformer.h"

#include <torch/types.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>

namespace kvl {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double processCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double systemCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) * 1e-6;
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

// Resident set now (the second field of /proc/self/statm, in pages); 0 where unreadable.
double currentRssMiB()
{
    std::ifstream statm("/proc/self/statm");
    long long pages = 0, resident = 0;
    if (!(statm >> pages >> resident))
        return 0.0;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// `tokens` random token ids of the model's vocabulary.
std::vector<int> randomIds(const ModelConfig& config, int64_t tokens)
{
    const at::Tensor ids = at::randint(config.vocabSize, {tokens}, at::kLong);
    return std::vector<int>(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + tokens);
}

} // namespace

MatmulRate measureMatmul(int n, double minSeconds)
{
    c10::InferenceMode guard;
    const at::Tensor a = at::randn({n, n});
    const at::Tensor b = at::randn({n, n});
    at::Tensor c = at::mm(a, b); // warm-up: thread pools, page faults
    const double flops = 2.0 * n * double(n) * n;
    const int threads = at::get_num_threads();
    MatmulRate rate;
    const auto begin = std::chrono::steady_clock::now();
    int runs = 0;
    while (runs < 3 || secondsSince(begin) < minSeconds) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = processCpuSeconds();
        at::mm_out(c, a, b);
        const double cpu = processCpuSeconds() - cpuStart;
        rate.gflops = std::max(rate.gflops, flops / secondsSince(start) / 1e9);
        rate.gflopsPerCpuSecond = std::max(rate.gflopsPerCpuSecond, flops * threads / cpu / 1e9);
        ++runs;
    }
    return rate;
}

double measureMatmulGflops(int n, double minSeconds)
{
    return measureMatmul(n, minSeconds).gflops;
}

double prefillFlops(const ModelConfig& c, int64_t tokens)
{
    const double t = double(tokens);
    const double hidden = c.hiddenSize;
    const double qOut = double(c.numHeads) * c.headDim;
    const double kvOut = double(c.numKvHeads) * c.headDim;
    const double projections = hidden * (2 * qOut + 2 * kvOut) + 3.0 * hidden * c.intermediateSize;
    const double attention = 2.0 * 2.0 * qOut * (t * (t + 1) / 2); // QK^T and PV, causal
    const double perLayer = 2.0 * t * projections + attention;
    return c.numLayers * perLayer + 2.0 * hidden * c.vocabSize;
}

bool isRandomShapeName(const QString& name)
{
    return name == QLatin1String("random-0.5b") || name == QLatin1String("random-tiny");
}

ModelConfig randomShapeConfig(const QString& name)
{
    if (!isRandomShapeName(name))
        throw Error(name, QStringLiteral("unknown random model shape (known: random-0.5b, "
                                         "random-tiny)"));
    ModelConfig c;
    c.architecture = Architecture::Qwen2;
    c.architectureName = QStringLiteral("Qwen2ForCausalLM");
    c.rmsNormEps = 1e-6;
    c.tieWordEmbeddings = true;
    c.attentionBias = false;
    c.torchDtype = QStringLiteral("float32");
    if (name == QLatin1String("random-tiny")) {
        // Seconds-long tests of whole commands (random-model, bench --compare-llamacpp):
        // the same family, its vocabulary just above the bundled tokenizer's 1,343.
        c.vocabSize = 2048;
        c.hiddenSize = 64;
        c.intermediateSize = 128;
        c.numLayers = 2;
        c.numHeads = 4;
        c.numKvHeads = 2;
        c.headDim = 16;
        c.maxPositionEmbeddings = 4096;
        c.ropeTheta = 10000.0;
        return c;
    }
    c.vocabSize = 32000;
    c.hiddenSize = 896;
    c.intermediateSize = 4864;
    c.numLayers = 24;
    c.numHeads = 14;
    c.numKvHeads = 2;
    c.headDim = 64;
    c.maxPositionEmbeddings = 32768;
    c.ropeTheta = 1000000.0;
    return c;
}

TriadProbe::TriadProbe(int64_t mib)
    : m_n(std::max<int64_t>(1, mib) * 1024 * 1024 / int64_t(sizeof(float)))
{
    // Left uninitialised by new: the parallel fill below is each page's first touch, so
    // each thread's pages sit where that thread runs.
    m_a.reset(new float[size_t(m_n)]);
    m_b.reset(new float[size_t(m_n)]);
    m_c.reset(new float[size_t(m_n)]);
    at::parallel_for(0, m_n, 1 << 16, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            m_a[i] = 0.0f;
            m_b[i] = 1.0f;
            m_c[i] = 2.0f;
        }
    });
}

int64_t TriadProbe::bufferBytes() const
{
    return m_n * int64_t(sizeof(float));
}

double TriadProbe::pass()
{
    const float scale = 3.0f;
    const auto start = std::chrono::steady_clock::now();
    at::parallel_for(0, m_n, 1 << 16, [&](int64_t begin, int64_t end) {
        float* out = m_a.get();
        const float* x = m_b.get();
        const float* y = m_c.get();
        for (int64_t i = begin; i < end; ++i)
            out[i] = x[i] + scale * y[i];
    });
    const double s = secondsSince(start);
    // The result is read, so the loop is not optimised away.
    if (m_a[m_n / 2] != 1.0f + scale * 2.0f)
        throw Error(QStringLiteral("memory bandwidth probe: wrong triad result"));
    return 3.0 * double(bufferBytes()) / s / 1e9;
}

BandwidthRate measureMemoryBandwidth(int64_t mib, double minSeconds)
{
    TriadProbe probe(mib);
    BandwidthRate rate;
    rate.bufferBytes = probe.bufferBytes();
    const auto started = std::chrono::steady_clock::now();
    for (int run = 0; run < 3 || secondsSince(started) < minSeconds; ++run) {
        rate.gbPerSecond = std::max(rate.gbPerSecond, probe.pass());
        if (run > 50)
            break;
    }
    return rate;
}

double decodeStepBytes(const Transformer& model, const ContextCache& context)
{
    const ModelWeights& w = model.weights();
    double bytes = double(w.lmHead.nbytes()) + double(w.norm.nbytes());
    for (const LayerWeights& l : w.layers)
        for (const at::Tensor* t :
             {&l.inputNorm, &l.q, &l.k, &l.v, &l.o, &l.qBias, &l.kBias, &l.vBias, &l.qNorm,
              &l.kNorm, &l.postAttentionNorm, &l.gate, &l.up, &l.down})
            if (t->defined())
                bytes += double(t->nbytes());
    for (const LayerCache& layer : context.layers)
        bytes += double(layer.keys.nbytes()) + double(layer.values.nbytes());
    return bytes;
}

DecodeStepBench benchDecodeStep(const Transformer& model, int64_t tokens, int steps,
                                TriadProbe* probe)
{
    c10::InferenceMode guard;
    const std::vector<int> idList = randomIds(model.config(), tokens);
    const ContextCache context = model.prefill(idList);
    const CacheEdit fullCache;
    const Continuation none;
    steps = std::max(1, steps);
    DecodeBatch batch = DecodeBatch::build(context, {&fullCache}, {&none}, steps + 1);
    std::vector<int> token{int(idList.back())};
    model.decodeStep(context, batch, token); // warm-up: buffers and thread pools
    std::vector<double> times, bandwidths;
    for (int s = 0; s < steps; ++s) {
        if (probe)
            bandwidths.push_back(probe->pass());
        const auto start = std::chrono::steady_clock::now();
        const at::Tensor logits = model.decodeStep(context, batch, token);
        times.push_back(secondsSince(start));
        token = {int(logits.argmax(-1).item<int64_t>())};
    }
    std::sort(times.begin(), times.end());
    DecodeStepBench bench;
    bench.contextTokens = tokens;
    bench.seconds = times[times.size() / 2];
    bench.bytes = decodeStepBytes(model, context);
    bench.gbPerSecond = bench.bytes / bench.seconds / 1e9;
    if (!bandwidths.empty()) {
        std::sort(bandwidths.begin(), bandwidths.end());
        bench.bandwidthGbPerSecond = bandwidths[bandwidths.size() / 2];
    }
    return bench;
}

PrefillBench benchPrefill(const Transformer& model, int64_t tokens, int repeats)
{
    c10::InferenceMode guard;
    const std::vector<int> idList = randomIds(model.config(), tokens);
    PrefillOptions options;
    // Warm-up: thread pools start and the weights' pages are touched outside the timing.
    model.prefill(std::vector<int>(idList.begin(), idList.begin() + std::min<int64_t>(tokens, 64)),
                  options);
    PrefillBench bench;
    bench.tokens = tokens;
    bench.rssBeforeMiB = currentRssMiB();
    for (int i = 0; i < std::max(1, repeats); ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = processCpuSeconds();
        const double systemStart = systemCpuSeconds();
        const ContextCache cache = model.prefill(idList, options);
        const double s = secondsSince(start);
        const double cpu = processCpuSeconds() - cpuStart;
        const double system = systemCpuSeconds() - systemStart;
        if (bench.seconds == 0.0 || s < bench.seconds)
            bench.seconds = s;
        if (bench.cpuSeconds == 0.0 || cpu < bench.cpuSeconds)
            bench.cpuSeconds = cpu;
        if (i == 0 || system < bench.systemSeconds)
            bench.systemSeconds = system;
    }
    bench.peakRssMiB = peakRssMiB();
    bench.systemSecondsPerLayer = bench.systemSeconds / std::max(1, model.config().numLayers);
    bench.gflopsPerCpuSecond =
        prefillFlops(model.config(), tokens) * at::get_num_threads() / bench.cpuSeconds / 1e9;
    bench.tokensPerSecond = double(tokens) / bench.seconds;
    bench.gflops = prefillFlops(model.config(), tokens) / bench.seconds / 1e9;
    return bench;
}

AttentionBench benchAttention(const ModelConfig& c, int64_t tokens, int64_t blockRows,
                              int64_t blockKeys, int repeats, AttentionPath path)
{
    // The generic path runs under grad mode (nothing requires a gradient, so no graph is
    // recorded): blockAttention only fuses with autograd off.
    std::optional<at::NoGradGuard> noGrad;
    if (path == AttentionPath::Fused)
        noGrad.emplace();
    const int64_t group = c.numHeads / std::max(1, c.numKvHeads);
    AttentionInputs in;
    in.q = at::randn({1, c.numKvHeads, group, tokens, c.headDim}) * (1.0 / std::sqrt(c.headDim));
    in.selfK = at::randn({1, c.numKvHeads, tokens, c.headDim});
    in.selfV = at::randn({1, c.numKvHeads, tokens, c.headDim});
    in.blockRows = blockRows;
    in.blockKeys = blockKeys;
    auto run = [&] {
        if (path == AttentionPath::Fused)
            fusedAttention(in.q, in.selfK, in.selfV, false, blockRows, blockKeys);
        else
            blockAttention(in);
    };
    run(); // warm-up: the allocator's blocks, the thread pool
    AttentionBench bench;
    bench.tokens = tokens;
    bench.blockRows = blockRows;
    bench.blockKeys = blockKeys;
    for (int i = 0; i < std::max(1, repeats); ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double systemStart = systemCpuSeconds();
        run();
        const double s = secondsSince(start);
        if (bench.seconds == 0.0 || s < bench.seconds) {
            bench.seconds = s;
            bench.systemSeconds = systemCpuSeconds() - systemStart;
        }
    }
    const double pairs = double(tokens) * double(tokens + 1) / 2.0;
    bench.gflops = 4.0 * c.numHeads * c.headDim * pairs / bench.seconds / 1e9;
    return bench;
}

} // namespace kvl
