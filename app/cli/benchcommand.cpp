// `kvlens-cli bench`: the machine's fp32 matmul rate and memory bandwidth, the engine's prefill
// rate and one decode step against them, optionally against PyTorch eager doing the
// same forward in /usr/bin/python3 and llama.cpp running the same model.
#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"
#include "llamacppbench.h"

#include "checkpoint/checkpointdir.h"
#include "checkpoint/modellocator.h"
#include "common/error.h"
#include "common/jsonio.h"
#include "common/presslist.h"
#include "compressors/pressbenchmark.h"
#include "model/benchmark.h"
#include "model/blaskernels.h"
#include "model/blassumorder.h"
#include "model/cachingallocator.h"
#include "model/engineinfo.h"
#include "model/fusedattention.h"
#include "model/modelweights.h"
#include "model/peakmemory.h"
#include "model/transformer.h"
#include "run/sweepbenchmark.h"
#include "tokenizer/tokenizer.h"
#include "train/suitesequences.h"
#include "train/trainstepbenchmark.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <optional>

namespace kvl::cli {
namespace {

// Decode steps timed (after one warm-up), the engine's and llama.cpp's alike.
constexpr int kDecodeBenchSteps = 32;

// The Hugging Face eager forward (repeat_kv, full [T, T] causal mask, float32 softmax)
// with random weights of the same shapes, lm_head on the last row as our prefill.
const char* const kPythonPrefill = R"PY(
import json, math, sys, time
import torch
import torch.nn.functional as F
a = json.loads(sys.argv[1])
torch.set_num_threads(a["threads"])
torch.manual_seed(0)
H, I, L, NH, NKV, HD, V, T = (a[k] for k in ("hidden", "inter", "layers", "heads", "kv_heads",
                                              "head_dim", "vocab", "tokens"))
eps = 1e-6
def w(*shape):
    return torch.randn(*shape) * 0.02
def norm(n):
    return 1.0 + 0.1 * torch.randn(n)
layers = [dict(inorm=norm(H), q=w(NH * HD, H), k=w(NKV * HD, H), v=w(NKV * HD, H),
               o=w(H, NH * HD), pnorm=norm(H), gate=w(I, H), up=w(I, H), down=w(H, I))
          for _ in range(L)]
embed, final_norm = w(V, H), norm(H)
inv_freq = 1.0 / (a["rope_theta"] ** (torch.arange(0, HD, 2, dtype=torch.int64).float() / HD))
def rms(x, weight):
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))
def rotate_half(x):
    return torch.cat((-x[..., HD // 2:], x[..., :HD // 2]), dim=-1)
def repeat_kv(x, n):
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, n, t, d).reshape(b, h * n, t, d)
def forward(ids):
    t = ids.shape[0]
    freqs = torch.outer(torch.arange(t).float(), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    mask = torch.full((t, t), float("-inf")).triu(1)
    x = embed[ids][None]
    for l in layers:
        h = rms(x, l["inorm"])
        q = F.linear(h, l["q"]).view(1, t, NH, HD).transpose(1, 2)
        k = F.linear(h, l["k"]).view(1, t, NKV, HD).transpose(1, 2)
        v = F.linear(h, l["v"]).view(1, t, NKV, HD).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = repeat_kv(k, NH // NKV), repeat_kv(v, NH // NKV)
        s = torch.matmul(q, k.transpose(2, 3)) * (1.0 / math.sqrt(HD)) + mask
        p = torch.softmax(s, dim=-1, dtype=torch.float32)
        o = torch.matmul(p, v).transpose(1, 2).reshape(1, t, NH * HD)
        x = x + F.linear(o, l["o"])
        h = rms(x, l["pnorm"])
        x = x + F.linear(F.silu(F.linear(h, l["gate"])) * F.linear(h, l["up"]), l["down"])
    return F.linear(rms(x[:, -1:], final_norm), embed)
ids = torch.randint(0, V, (T,))
with torch.inference_mode():
    forward(ids[:64])
    best = best_cpu = None
    for _ in range(a["repeats"]):
        start, cpu_start = time.perf_counter(), time.process_time()
        forward(ids)
        s, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        best = s if best is None else min(best, s)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
print(json.dumps({"seconds": best, "cpu_seconds": best_cpu, "threads": torch.get_num_threads(),
                  "torch": torch.__version__}))
)PY";

QJsonObject runPythonPrefill(const ModelConfig& c, int64_t tokens, int threads, int repeats)
{
    const QJsonObject shapes{
        {QStringLiteral("hidden"), c.hiddenSize},    {QStringLiteral("inter"), c.intermediateSize},
        {QStringLiteral("layers"), c.numLayers},     {QStringLiteral("heads"), c.numHeads},
        {QStringLiteral("kv_heads"), c.numKvHeads},  {QStringLiteral("head_dim"), c.headDim},
        {QStringLiteral("vocab"), c.vocabSize},      {QStringLiteral("tokens"), qint64(tokens)},
        {QStringLiteral("rope_theta"), c.ropeTheta}, {QStringLiteral("threads"), threads},
        {QStringLiteral("repeats"), repeats}};
    QProcess python;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The same BLAS as ours for the child: its libtorch would otherwise bind sgemm_
    // to the system's libblas.so.3.
    const QString blas = blasLibraryPath();
    if (!blas.isEmpty())
        env.insert(QStringLiteral("LD_PRELOAD"), blas);
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QString::number(threads));
    python.setProcessEnvironment(env);
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"), QString::fromUtf8(kPythonPrefill),
                  QString::fromUtf8(QJsonDocument(shapes).toJson(QJsonDocument::Compact))});
    if (!python.waitForFinished(-1) || python.exitCode() != 0)
        throw Error(QStringLiteral("/usr/bin/python3"),
                    QStringLiteral("the PyTorch comparison failed: %1")
                        .arg(QString::fromUtf8(python.readAllStandardError()).trimmed()));
    const QByteArray out = python.readAllStandardOutput().trimmed();
    return QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
}

// The model --model names: a random-weight model of a named shape (random-0.5b, no
// files), or a model directory (or "bundled"). A prefill longer than the model's
// max_position_embeddings is a timing run only: the limit is lifted to `tokens` (RoPE
// simply continues past the trained positions) and `liftedFrom` says from what.
std::unique_ptr<Transformer> loadBenchModel(const QString& name, int64_t tokens = 0,
                                            int64_t* liftedFrom = nullptr)
{
    auto lift = [&](ModelConfig config) {
        if (tokens > 0 && config.maxPositionEmbeddings > 0 &&
            tokens > config.maxPositionEmbeddings) {
            if (liftedFrom)
                *liftedFrom = config.maxPositionEmbeddings;
            config.maxPositionEmbeddings = tokens;
        }
        return config;
    };
    if (isRandomShapeName(name)) {
        const ModelConfig config = lift(randomShapeConfig(name));
        return std::make_unique<Transformer>(config, randomModelWeights(config, 0), name);
    }
    const QString dir = resolveModelDir(name, QStringLiteral(KVLENS_SOURCE_RESOURCES));
    const std::unique_ptr<CheckpointDir> checkpoint = CheckpointDir::open(dir);
    if (tokens <= checkpoint->config().maxPositionEmbeddings)
        return Transformer::load(dir);
    // The weights are copied out of the memory map: the checkpoint can close.
    ModelWeights weights = loadModelWeights(*checkpoint);
    for (auto& [weightName, tensor] : weights.named(checkpoint->config()))
        *tensor = tensor->clone();
    return std::make_unique<Transformer>(lift(checkpoint->config()), std::move(weights),
                                         checkpoint->configPath());
}

// A small sweep of the retrieval suite (4 samples, 3 presses x 3 ratios) timed against
// its FullCache pass, then the store's write rate on a synthetic 59,800-row run.
// `tokens` (from --tokens) sets the samples' lengths, tokens - tokens/8 to tokens; 0
// keeps the default 512:1024.
QJsonObject benchSweep(const QString& modelArg, int64_t tokens, int repeats)
{
    const QString lengths = tokens > 0
                                ? QStringLiteral("%1:%2").arg(tokens - tokens / 8).arg(tokens)
                                : QStringLiteral("512:1024");
    const QString dir = resolveModelDir(modelArg, QStringLiteral(KVLENS_SOURCE_RESOURCES));
    const auto model = Transformer::load(dir);
    const auto tokenizer = loadTokenizer(QDir(dir).filePath(QStringLiteral("tokenizer.json")));
    const QJsonObject specJson{
        {QStringLiteral("model"), dir},
        {QStringLiteral("samples"),
         QJsonArray{QJsonObject{{QStringLiteral("suite"), QStringLiteral("retrieval")},
                                {QStringLiteral("n"), 4},
                                {QStringLiteral("tokens"), lengths},
                                {QStringLiteral("seed"), 1}}}},
        {QStringLiteral("compressors"),
         QJsonArray{QStringLiteral("streamingllm"), QStringLiteral("snapkv"),
                    QStringLiteral("tova")}},
        {QStringLiteral("ratios"), QJsonArray{0.25, 0.5, 0.75}},
        {QStringLiteral("interventions"), QJsonArray{}}};
    const ExperimentSpec spec =
        ExperimentSpec::fromJson(specJson, QStringLiteral("bench --sweep"), QDir::currentPath());
    QTemporaryDir scratch;
    if (!scratch.isValid())
        throw Error(QStringLiteral("bench --sweep: cannot create a temporary directory"));
    const SweepBenchmark b = benchmarkSweepAndStore(
        *model, *tokenizer, spec, 4, repeats, scratch.filePath(QStringLiteral("store-bench.kvl")));
    if (b.samples == 0)
        throw Error(QStringLiteral("bench --sweep: no sample of %1 tokens fits the model at %2")
                        .arg(lengths, dir));
    QJsonObject o = b.toJson();
    o.insert(QStringLiteral("sample_tokens"), lengths);
    return o;
}

// Training steps of one stage of a spec, one padded batch against the trainer's length
// groups (the tokenizer: --tokenizer, else the bundled model's).
QJsonObject benchTrain(const QCommandLineParser& parser)
{
    const QString specPath = parser.value(QStringLiteral("train"));
    const TrainSpec spec = TrainSpec::fromJson(readJsonObject(specPath), specPath);
    QString tokenizerPath = parser.value(QStringLiteral("tokenizer"));
    if (tokenizerPath.isEmpty())
        tokenizerPath =
            CheckpointDir::open(
                resolveModelDir(QStringLiteral("bundled"), QStringLiteral(KVLENS_SOURCE_RESOURCES)))
                ->requireTokenizerPath();
    const std::shared_ptr<const Tokenizer> tokenizer = loadTokenizer(tokenizerPath);
    QString stage = parser.value(QStringLiteral("stage"));
    if (stage.isEmpty() && !spec.stages.empty())
        stage = spec.stages.back().name;
    return benchmarkTrainSteps(spec, stage, *tokenizer,
                               makeSuiteSequenceFn(tokenizer, spec.model.maxPosition),
                               intOption(parser, "steps", 1), intOption(parser, "groups", 1))
        .toJson();
}

int runBench(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("fp32 matmul rate and memory bandwidth and, with --model, prefill rate "
                       "and one decode step at --tokens tokens."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("model"),
                      QStringLiteral("model directory, or random-0.5b or random-tiny (random "
                                     "weights, no files)"),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("tokens"), QStringLiteral("prefill length"),
                      QStringLiteral("N"), QStringLiteral("4096")});
    parser.addOption({QStringLiteral("repeats"),
                      QStringLiteral("prefill runs, or --sweep runs per sample (best is kept)"),
                      QStringLiteral("R"), QStringLiteral("1")});
    parser.addOption(
        {QStringLiteral("compare-python"),
         QStringLiteral("also time PyTorch eager (/usr/bin/python3) on the same shapes")});
    parser.addOption(
        {QStringLiteral("compare-llamacpp"),
         QStringLiteral("with --model: also time llama.cpp (npm node-llama-cpp 3.21.1, CPU) on "
                        "a GGUF of the same model, same threads and --tokens, and print the "
                        "ratios")});
    parser.addOption({QStringLiteral("llamacpp-modules"),
                      QStringLiteral("with --compare-llamacpp: a node_modules folder holding "
                                     "node-llama-cpp (default: $KVLENS_NODE_MODULES, else the "
                                     "build tree's npm folder)"),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("presses"),
                      QStringLiteral("with --model: each press's scoring time as a fraction of the "
                                     "prefill at --tokens (issue 3)")});
    parser.addOption({QStringLiteral("press"),
                      QStringLiteral("with --presses: time these press specs only "
                                     "(comma-separated; default: every press's example)"),
                      QStringLiteral("SPEC[,SPEC]")});
    parser.addOption(
        {QStringLiteral("sweep"),
         QStringLiteral("with --model DIR|bundled: sweep time over the FullCache pass "
                        "per sample (C = 9 configurations; samples of --tokens tokens, "
                        "default 512 to 1024), and the store's write rate")});
    parser.addOption({QStringLiteral("train"),
                      QStringLiteral("a training spec: forward + backward rate of --steps steps of "
                                     "--stage, one padded batch against length groups"),
                      QStringLiteral("SPEC")});
    parser.addOption({QStringLiteral("stage"),
                      QStringLiteral("with --train: the stage (default: the last)"),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("steps"), QStringLiteral("with --train: steps (default 10)"),
                      QStringLiteral("N"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("groups"),
                      QStringLiteral("with --train: most length groups per step (default: the "
                                     "trainer's 8)"),
                      QStringLiteral("N"), QStringLiteral("8")});
    parser.addOption({QStringLiteral("tokenizer"),
                      QStringLiteral("with --train: tokenizer.json (default: the bundled model's)"),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("block-rows"),
         QStringLiteral("attention tile: query rows per block (default: the engine's)"),
         QStringLiteral("N")});
    parser.addOption({QStringLiteral("block-keys"),
                      QStringLiteral("attention tile: keys per block (default: the engine's)"),
                      QStringLiteral("N")});
    parser.addOption(
        {QStringLiteral("attention"),
         QStringLiteral("with --model: one layer's causal attention alone at --tokens, for each "
                        "tile ROWSxKEYS of --tiles (default: the engine's)")});
    parser.addOption({QStringLiteral("tiles"),
                      QStringLiteral("with --attention: tiles to time, e.g. 512x2048,128x1024"),
                      QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("path"),
                      QStringLiteral("with --attention: generic (blockAttention's blocked ops, "
                                     "the default) or fused (the inference kernel; the tile is "
                                     "its query rows per task x keys per tile)"),
                      QStringLiteral("PATH"), QStringLiteral("generic")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("print JSON")});
    parser.process(args);
    const int64_t tokens = intOption(parser, "tokens", 1);
    const int repeats = intOption(parser, "repeats", 1);
    // llama.cpp's tools are looked for before anything is timed: a missing node or
    // node-llama-cpp says so at once, not after minutes of the engine's bench.
    std::optional<LlamaCppTools> llamaCpp;
    if (parser.isSet(QStringLiteral("compare-llamacpp"))) {
        if (!parser.isSet(QStringLiteral("model")) || parser.isSet(QStringLiteral("attention")) ||
            parser.isSet(QStringLiteral("train")) || parser.isSet(QStringLiteral("sweep")))
            throw Error(QStringLiteral("--compare-llamacpp needs --model DIR|random-0.5b (and "
                                       "none of --attention, --train, --sweep)"));
        llamaCpp = findLlamaCppTools(parser.value(QStringLiteral("llamacpp-modules")));
    }

    const double rssAtStart = currentRssMegabytes(); // before any model or matmul buffer
    const int threads = initEngineThreads();
    QJsonObject result{{QStringLiteral("threads"), threads},
                       {QStringLiteral("blas"), blasName()},
                       {QStringLiteral("blas_library"), blasLibraryPath()},
                       {QStringLiteral("blas_core"), blasCoreName()}};
    const MatmulRate matmul = measureMatmul();
    const double peak = matmul.gflops;
    result.insert(QStringLiteral("matmul_gflops"), peak);
    result.insert(QStringLiteral("matmul_gflops_per_cpu_s"), matmul.gflopsPerCpuSecond);
    // The other limit: a decode step reads every weight once and does little with it.
    // (Not for --attention, --train or --sweep, which time other things.)
    BandwidthRate bandwidth;
    if (!parser.isSet(QStringLiteral("attention")) && !parser.isSet(QStringLiteral("train")) &&
        !parser.isSet(QStringLiteral("sweep"))) {
        bandwidth = measureMemoryBandwidth();
        result.insert(QStringLiteral("memory_bandwidth_gbs"), bandwidth.gbPerSecond);
    }

    if (parser.isSet(QStringLiteral("attention"))) {
        if (!parser.isSet(QStringLiteral("model")))
            throw Error(QStringLiteral("--attention needs --model DIR|random-0.5b"));
        const auto model = loadBenchModel(parser.value(QStringLiteral("model")), tokens);
        QStringList tiles =
            parser.value(QStringLiteral("tiles")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        const QString pathName = parser.value(QStringLiteral("path"));
        if (pathName != QLatin1String("generic") && pathName != QLatin1String("fused"))
            throw Error(QStringLiteral("--path: '%1' is neither generic nor fused").arg(pathName));
        const AttentionPath path =
            pathName == QLatin1String("fused") ? AttentionPath::Fused : AttentionPath::Generic;
        if (tiles.isEmpty() && path == AttentionPath::Fused)
            tiles << QStringLiteral("%1x%2").arg(kFusedRows).arg(kFusedKeys);
        else if (tiles.isEmpty())
            tiles << QStringLiteral("%1x%2").arg(model->blockRows()).arg(model->blockKeys());
        QJsonArray rows;
        for (const QString& tile : tiles) {
            const QStringList parts = tile.split(QLatin1Char('x'));
            bool rowsOk = false, keysOk = false;
            const int64_t r = parts.value(0).toLongLong(&rowsOk);
            const int64_t k = parts.value(1).toLongLong(&keysOk);
            if (parts.size() != 2 || !rowsOk || !keysOk || r < 1 || k < 1)
                throw Error(QStringLiteral("--tiles: '%1' is not ROWSxKEYS").arg(tile));
            const AttentionBench a = benchAttention(model->config(), tokens, r, k, repeats, path);
            rows.append(QJsonObject{{QStringLiteral("path"), pathName},
                                    {QStringLiteral("block_rows"), qint64(r)},
                                    {QStringLiteral("block_keys"), qint64(k)},
                                    {QStringLiteral("seconds"), a.seconds},
                                    {QStringLiteral("system_seconds"), a.systemSeconds},
                                    {QStringLiteral("gflops"), a.gflops},
                                    {QStringLiteral("fraction_of_peak"), a.gflops / peak}});
        }
        result.insert(QStringLiteral("attention_tokens"), qint64(tokens));
        result.insert(QStringLiteral("attention"), rows);
    } else if (parser.isSet(QStringLiteral("train"))) {
        result.insert(QStringLiteral("train"), benchTrain(parser));
    } else if (parser.isSet(QStringLiteral("sweep"))) {
        if (!parser.isSet(QStringLiteral("model")))
            throw Error(QStringLiteral("--sweep needs --model DIR|bundled"));
        result.insert(QStringLiteral("sweep"),
                      benchSweep(parser.value(QStringLiteral("model")),
                                 parser.isSet(QStringLiteral("tokens")) ? tokens : 0, repeats));
    } else if (parser.isSet(QStringLiteral("model"))) {
        const QString name = parser.value(QStringLiteral("model"));
        int64_t liftedFrom = 0;
        const std::unique_ptr<Transformer> model = loadBenchModel(name, tokens, &liftedFrom);
        if (parser.isSet(QStringLiteral("block-rows")))
            model->setBlockRows(intOption(parser, "block-rows", 1));
        if (parser.isSet(QStringLiteral("block-keys")))
            model->setBlockKeys(intOption(parser, "block-keys", 1));
        result.insert(QStringLiteral("attention_block_rows"), qint64(model->blockRows()));
        result.insert(QStringLiteral("attention_block_keys"), qint64(model->blockKeys()));
        const PrefillBench bench = benchPrefill(*model, tokens, repeats);
        result.insert(QStringLiteral("model"), name);
        result.insert(QStringLiteral("prefill_tokens"), qint64(tokens));
        if (liftedFrom > 0)
            result.insert(QStringLiteral("max_positions_lifted"),
                          QStringLiteral("max_position_embeddings %1 raised to %2 for this "
                                         "timing run (positions past %1 were never trained)")
                              .arg(liftedFrom)
                              .arg(tokens));
        result.insert(QStringLiteral("prefill_system_seconds"), bench.systemSeconds);
        result.insert(QStringLiteral("prefill_system_seconds_per_layer"),
                      bench.systemSecondsPerLayer);
        result.insert(QStringLiteral("rss_before_prefill_mib"), bench.rssBeforeMiB);
        result.insert(QStringLiteral("peak_rss_mib"), bench.peakRssMiB);
        result.insert(QStringLiteral("prefill_seconds"), bench.seconds);
        result.insert(QStringLiteral("prefill_tokens_per_s"), bench.tokensPerSecond);
        result.insert(QStringLiteral("prefill_gflops"), bench.gflops);
        result.insert(QStringLiteral("prefill_fraction_of_peak"), bench.gflops / peak);
        // Per CPU second: the same fraction, insensitive to other jobs on the machine.
        result.insert(QStringLiteral("prefill_gflops_per_cpu_s"), bench.gflopsPerCpuSecond);
        result.insert(QStringLiteral("prefill_fraction_of_peak_cpu"),
                      bench.gflopsPerCpuSecond / matmul.gflopsPerCpuSecond);
        // One decode step at the same context length, against the bandwidth limit: a
        // triad pass before each step, so that the limit is measured under the load the
        // steps run under (the medians of both are compared). The best triad before the
        // prefill is kept beside it, as the stricter figure.
        TriadProbe probe;
        const DecodeStepBench decode = benchDecodeStep(*model, tokens, kDecodeBenchSteps, &probe);
        result.insert(QStringLiteral("decode_step_seconds"), decode.seconds);
        result.insert(QStringLiteral("decode_step_bytes"), decode.bytes);
        result.insert(QStringLiteral("decode_gbs"), decode.gbPerSecond);
        result.insert(QStringLiteral("decode_bandwidth_gbs"), decode.bandwidthGbPerSecond);
        // The probe's buffers live beside the model while the steps run: part of the
        // peak RSS below, not the engine's.
        result.insert(QStringLiteral("decode_probe_mib"),
                      3.0 * double(probe.bufferBytes()) / (1024.0 * 1024.0));
        result.insert(QStringLiteral("decode_fraction_of_bandwidth"),
                      decode.gbPerSecond / decode.bandwidthGbPerSecond);
        result.insert(QStringLiteral("decode_fraction_of_best_bandwidth"),
                      decode.gbPerSecond / bandwidth.gbPerSecond);
        if (llamaCpp) {
            // The GGUF holds the weights as the engine holds them (so both read the same
            // bytes per decode step); its vocabulary is the model's tokenizer, the bundled
            // one for a random shape (the prompt goes in as ids either way).
            const QString tokenizer =
                isRandomShapeName(name)
                    ? QDir(modelDirOption(QStringLiteral("bundled")))
                          .filePath(QStringLiteral("tokenizer.json"))
                    : CheckpointDir::open(modelDirOption(name))->requireTokenizerPath();
            QJsonObject llama = runLlamaCppBench(*llamaCpp, *model, name, tokenizer, tokens,
                                                 threads, repeats, kDecodeBenchSteps);
            const double llamaPrefill =
                llama.value(QStringLiteral("prefill_tokens_per_s")).toDouble();
            const double llamaStep = llama.value(QStringLiteral("decode_step_seconds")).toDouble();
            // Over 1: KVLens is faster at the prefill; under 1: its decode step is shorter.
            llama.insert(QStringLiteral("prefill_speedup"), bench.tokensPerSecond / llamaPrefill);
            llama.insert(QStringLiteral("decode_ratio"), decode.seconds / llamaStep);
            // Against the engine's limit (the triad beside its steps), counting the bytes the
            // engine's step reads (llama.cpp holds the context's keys and values in F16, the
            // engine in F32: at 1k tokens of the 0.5B shape about 13 of 1,570 MB fewer for
            // llama.cpp). Its own steps run later, in another process: decode_ratio, from
            // the same run, is the figure to compare.
            llama.insert(QStringLiteral("decode_fraction_of_bandwidth"),
                         decode.bytes / llamaStep / 1e9 / decode.bandwidthGbPerSecond);
            result.insert(QStringLiteral("llamacpp"), llama);
        }
        if (parser.isSet(QStringLiteral("compare-python"))) {
            const QJsonObject py = runPythonPrefill(model->config(), tokens, threads, repeats);
            const double seconds = py.value(QStringLiteral("seconds")).toDouble();
            if (seconds <= 0.0)
                throw Error(QStringLiteral("/usr/bin/python3"),
                            QStringLiteral("the PyTorch comparison printed no timing"));
            const double flops = prefillFlops(model->config(), tokens);
            result.insert(QStringLiteral("python_prefill_seconds"), seconds);
            result.insert(QStringLiteral("python_prefill_tokens_per_s"), double(tokens) / seconds);
            result.insert(QStringLiteral("python_prefill_gflops"), flops / seconds / 1e9);
            result.insert(QStringLiteral("python_threads"), py.value(QStringLiteral("threads")));
            result.insert(QStringLiteral("speedup_vs_python"), seconds / bench.seconds);
            const double cpuSeconds = py.value(QStringLiteral("cpu_seconds")).toDouble();
            if (cpuSeconds > 0.0)
                result.insert(QStringLiteral("speedup_vs_python_cpu"),
                              cpuSeconds / bench.cpuSeconds);
        }
    }

    if (parser.isSet(QStringLiteral("presses"))) {
        if (!parser.isSet(QStringLiteral("model")))
            throw Error(QStringLiteral("--presses needs --model DIR|random-0.5b"));
        const std::unique_ptr<Transformer> model =
            loadBenchModel(parser.value(QStringLiteral("model")), tokens);
        std::vector<QString> specs;
        for (const QString& list : parser.values(QStringLiteral("press")))
            for (const QString& p : splitPressList(list))
                specs.push_back(p);
        result.insert(QStringLiteral("presses"), benchPresses(*model, tokens, 0.5, specs).toJson());
    }

    // Whether decode-sized products ran as exactGemv in sgemm's own order (issue 36).
    result.insert(QStringLiteral("exact_gemv"), BlasSumOrders::instance().summary());

    // How often large tensors were served from freed blocks instead of fresh pages.
    const CachingAllocatorStats alloc = cachingCpuAllocatorStats();
    result.insert(
        QStringLiteral("allocator"),
        QJsonObject{
            {QStringLiteral("caching"), cachingCpuAllocatorInstalled()},
            {QStringLiteral("large_hits"), qint64(alloc.hits)},
            {QStringLiteral("large_misses"), qint64(alloc.misses)},
            {QStringLiteral("mib_from_system"), double(alloc.bytesFromSystem) / (1024.0 * 1024.0)},
            {QStringLiteral("peak_mib"), double(alloc.peakBytes) / (1024.0 * 1024.0)}});
    // The whole command's peak, weights loading included (issue 21 item 4).
    result.insert(QStringLiteral("peak_rss_mb"), peakRssMegabytes());
    result.insert(QStringLiteral("rss_at_start_mb"), rssAtStart);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(result);
        return 0;
    }
    // One line per value; an object's values as "object.key".
    for (auto it = result.begin(); it != result.end(); ++it) {
        if (!it.value().isObject()) {
            printLine(QStringLiteral("%1: %2").arg(it.key(), it.value().toVariant().toString()));
            continue;
        }
        const QJsonObject inner = it.value().toObject();
        for (auto in = inner.begin(); in != inner.end(); ++in)
            printLine(QStringLiteral("%1.%2: %3")
                          .arg(it.key(), in.key(), in.value().toVariant().toString()));
    }
    return 0;
}

const CommandRegistrar
    benchCommand("bench", "matmul peak, bandwidth, prefill and decode rates (JSON with --json)",
                 &runBench);
} // namespace
} // namespace kvl::cli
