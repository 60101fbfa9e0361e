#include "compressors/pressbenchmark.h"

#include "common/error.h"
#include "compressors/presscatalog.h"
#include "model/transformer.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <c10/core/InferenceMode.h>
#include <torch/torch.h>

namespace kvl {

QJsonObject PressBench::toJson() const
{
    QJsonArray rows;
    for (const PressTiming& t : presses) {
        QJsonObject o{{QStringLiteral("press"), t.spec},
                      {QStringLiteral("seconds"), t.seconds},
                      {QStringLiteral("prefill_fraction"), t.prefillFraction}};
        if (!t.error.isEmpty())
            o[QStringLiteral("error")] = t.error;
        rows.append(o);
    }
    return {{QStringLiteral("tokens"), qint64(tokens)},
            {QStringLiteral("ratio"), ratio},
            {QStringLiteral("prefill_seconds"), prefillSeconds},
            {QStringLiteral("presses"), rows}};
}

PressBench benchPresses(const Transformer& model, int64_t tokens, double ratio,
                        std::vector<QString> specs, int repeats)
{
    c10::InferenceMode guard;
    const PressCatalog catalog;
    if (specs.empty())
        specs = catalog.exampleSpecs();
    std::vector<std::unique_ptr<Press>> presses;
    int64_t window = 0;
    for (const QString& s : specs) {
        presses.push_back(catalog.press(s));
        window = std::max(window, presses.back()->queryWindow(tokens));
    }
    std::vector<int> ids(static_cast<size_t>(tokens));
    for (int64_t i = 0; i < tokens; ++i)
        ids[size_t(i)] = int((i * 7919 + 13) % model.config().vocabSize);
    PrefillOptions options;
    options.window = int(window);

    PressBench bench;
    bench.tokens = tokens;
    bench.ratio = ratio;
    ContextCache cache;
    for (int r = 0; r < std::max(1, repeats); ++r) {
        QElapsedTimer timer;
        timer.start();
        cache = model.prefill(ids, options);
        const double s = double(timer.nsecsElapsed()) * 1e-9;
        bench.prefillSeconds = r == 0 ? s : std::min(bench.prefillSeconds, s);
    }
    CompressionInput input;
    input.cache = &cache;
    input.config = &model.config();
    input.weights = &model.weights();
    input.rope = &model.rope();
    for (size_t i = 0; i < presses.size(); ++i) {
        PressTiming t;
        t.spec = presses[i]->spec();
        for (int r = 0; r < std::max(1, repeats); ++r) {
            QElapsedTimer timer;
            timer.start();
            try {
                presses[i]->compress(input, ratio);
            } catch (const Error& e) {
                t.error = e.message();
                break;
            }
            const double s = double(timer.nsecsElapsed()) * 1e-9;
            t.seconds = r == 0 ? s : std::min(t.seconds, s);
        }
        t.prefillFraction = bench.prefillSeconds > 0 ? t.seconds / bench.prefillSeconds : 0.0;
        bench.presses.push_back(t);
    }
    return bench;
}

} // namespace kvl
