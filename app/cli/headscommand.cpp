// `kvlens-cli heads`: how much attention each (layer, kv-head) of a model puts on the
// evidence, against the uniform baseline — the retrieval-head table of a model card.
#include <torch/types.h>

#include "clicommand.h"
#include "clioptions.h"
#include "clioutput.h"

#include "checkpoint/checkpointdir.h"
#include "common/error.h"
#include "model/answerdecoder.h"
#include "model/transformer.h"
#include "run/cardtables.h"
#include "run/experimentspec.h"
#include "tasks/promptlayout.h"
#include "tasks/spantokens.h"
#include "tasks/taskgenerator.h"
#include "tokenizer/tokenizer.h"

#include <ATen/Parallel.h>
#include <QCommandLineParser>
#include <QJsonArray>
#include <cstdio>
#include <tuple>

namespace kvl::cli {
namespace {

int runHeads(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Per layer and kv-head: the share of the question's attention over the context that "
        "lands on evidence tokens, and its lift over the uniform share |E|/T (FullCache, "
        "averaged over samples). A lift far above 1 marks a retrieval head."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("model"), QStringLiteral("Model directory or 'bundled'."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("suite"), QStringLiteral("Task suite (default retrieval)."),
                      QStringLiteral("NAME"), QStringLiteral("retrieval")});
    parser.addOption({QStringLiteral("n"), QStringLiteral("Samples (default 20)."),
                      QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("tokens"),
                      QStringLiteral("Context tokens MIN:MAX (default 256:512)."),
                      QStringLiteral("MIN:MAX"), QStringLiteral("256:512")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed (default 7)."),
                      QStringLiteral("S"), QStringLiteral("7")});
    parser.addOption({QStringLiteral("threads"),
                      QStringLiteral("libtorch threads (default: all cores)."), QStringLiteral("N"),
                      QStringLiteral("0")});
    parser.addOption({QStringLiteral("markdown"),
                      QStringLiteral("Print the model card's table (lift and share per layer and "
                                     "kv-head) instead of JSON.")});
    parser.process(args);
    if (!parser.isSet(QStringLiteral("model")))
        throw Error(QStringLiteral("heads needs --model DIR|bundled"));
    const int n = intOption(parser, "n", 1);
    const quint64 seed = seedOption(parser);
    const int threads = intOption(parser, "threads", 0);
    TaskOptions options;
    std::tie(options.minTokens, options.maxTokens) =
        parseTokenRange(parser.value(QStringLiteral("tokens")), QStringLiteral("--tokens"));
    const auto generator = makeTaskGenerator(parser.value(QStringLiteral("suite")));
    const QString dir = modelDirOption(parser.value(QStringLiteral("model")));

    const auto model = Transformer::load(dir);
    const auto tokenizer = loadTokenizer(model->checkpoint()->requireTokenizerPath());
    if (threads > 0)
        at::set_num_threads(threads);

    c10::InferenceMode inference;
    const int layers = model->config().numLayers, heads = model->config().numKvHeads;
    at::Tensor massSum = torch::zeros({layers, heads}, torch::kFloat64);
    double uniformSum = 0;
    int used = 0;
    for (int i = 0; i < n; ++i) {
        const Sample sample = generator->generate(*tokenizer, options, seed, i);
        const PromptIds ids = promptIds(*tokenizer, sample);
        const SpanTokens spans = mapSpansToTokens(sample, *tokenizer);
        std::vector<int64_t> evidence;
        for (size_t s = 0; s < sample.spans.size(); ++s)
            if (sample.spans[s].kind == SpanKind::Evidence &&
                sample.spans[s].field == SpanField::Context)
                for (int t = spans.spans[s].begin; t < spans.spans[s].end; ++t)
                    evidence.push_back(t + ids.contextOffset);
        if (evidence.empty())
            continue;
        const ContextCache cache = model->prefill(ids.context);
        ScoreOptions scoreOptions;
        scoreOptions.topK = 0;
        scoreOptions.captureAttention = true;
        const AnswerScore score =
            scoreAnswer(*model, cache, CacheEdit{}, ids.question, ids.answer, scoreOptions);
        // [layers, kv_heads, rows, T]: share of each row's context attention on evidence.
        const at::Tensor attention = score.contextAttention.to(torch::kFloat64);
        const at::Tensor onContext = attention.sum(-1);
        const at::Tensor onEvidence = attention.index_select(-1, torch::tensor(evidence)).sum(-1);
        massSum += (onEvidence / onContext.clamp_min(1e-12)).mean(-1);
        uniformSum += double(evidence.size()) / double(ids.context.size());
        ++used;
    }
    if (used == 0)
        throw Error(QStringLiteral("no sample of suite %1 has context evidence")
                        .arg(parser.value(QStringLiteral("suite"))));
    const at::Tensor mass = massSum / double(used);
    const double uniform = uniformSum / used;
    std::vector<std::vector<double>> shares(static_cast<size_t>(layers));
    QJsonArray massRows, liftRows;
    for (int l = 0; l < layers; ++l) {
        QJsonArray m, lift;
        for (int h = 0; h < heads; ++h) {
            const double v = mass[l][h].item<double>();
            shares[size_t(l)].push_back(v);
            m.append(v);
            lift.append(v / uniform);
        }
        massRows.append(m);
        liftRows.append(lift);
    }
    if (parser.isSet(QStringLiteral("markdown"))) {
        std::fputs(qPrintable(headLiftTableMarkdown(shares, uniform, used)), stdout);
        return 0;
    }
    printJson({{QStringLiteral("model"), dir},
               {QStringLiteral("suite"), parser.value(QStringLiteral("suite"))},
               {QStringLiteral("samples"), used},
               {QStringLiteral("uniform_share"), uniform},
               {QStringLiteral("evidence_share"), massRows},
               {QStringLiteral("lift"), liftRows}});
    return 0;
}

const CommandRegistrar headsCommand("heads",
                                    "attention on evidence per layer and kv-head (retrieval heads)",
                                    &runHeads);

} // namespace
} // namespace kvl::cli
