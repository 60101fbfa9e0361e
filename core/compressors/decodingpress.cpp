// Decode-time compression, kvpress's rules: `decoding` (decoding_press.py, DecodingPress:
// every compression_interval forwards after the context, every head is cut to
// target_size entries by a scorer over the whole cache), `compression_ratio_decoding`
// (compression_ratio_decoding_press.py: the target is int(seen (1 - r)) of all tokens
// seen so far) and `prefill_decoding` (prefill_decoding_press.py: one press for the
// prefill, one for the decoding). The loop that applies them is compresseddecoding.cpp.
#include "compressors/decodingpress.h"

#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <torch/types.h>

namespace kvl {

namespace {
constexpr int kDecodingInterval = 512; // kvpress compression_interval
constexpr int kDecodingBuffer = 256;   // kvpress hidden_states_buffer_size
constexpr int64_t kDecodingTarget = 0; // kvpress target_size is 2048; 0 here: int(T(1 - r))
constexpr int kBisectionSteps = 20;    // kvpress _find_target_compression_ratio
} // namespace

double decodingRatioFor(int64_t length, int64_t target)
{
    if (length <= target)
        return 0.0;
    // The same double arithmetic as kvpress: start at 1 - target/n, bisect on int().
    double ratio = 1.0 - double(target) / double(length);
    double low = 0.0, high = 1.0;
    for (int i = 0; i < kBisectionSteps; ++i) {
        const auto kept = int64_t(double(length) * (1.0 - ratio));
        if (kept == target)
            break;
        if (kept > target) {
            low = ratio;
            ratio = (ratio + high) / 2.0;
        } else {
            high = ratio;
            ratio = (low + ratio) / 2.0;
        }
    }
    return ratio;
}

DecodingPress::DecodingPress(std::unique_ptr<Scorer> scorer, Target target, int64_t targetSize,
                             int interval, int bufferSize, std::unique_ptr<Press> prefill,
                             QString spec)
    : m_scorer(std::move(scorer)), m_target(target), m_targetSize(targetSize), m_interval(interval),
      m_bufferSize(bufferSize), m_prefill(std::move(prefill)), m_spec(std::move(spec))
{}

void DecodingPress::checkDecodeScorer(const Scorer& scorer, const QString& spec, int interval,
                                      int buffer)
{
    if (scorer.needsReceivedAttention() || scorer.needsAttentionInputs())
        throw Error(QStringLiteral("press spec '%1'").arg(spec),
                    QStringLiteral("'%1' cannot score during decoding: it reads the %2, which "
                                   "decoding does not keep (kvpress passes no attention weights "
                                   "to a decoding press)")
                        .arg(scorer.spec(), scorer.needsReceivedAttention()
                                                ? QStringLiteral("received attention")
                                                : QStringLiteral("attention inputs")));
    // A compression due by the interval scores with the queries of the forwards since
    // the last one that the buffer still holds (one per generated token): a scorer
    // that reads a longer window of queries could not score after the first (it would
    // fail mid-answer, on some samples only), so the configuration is refused here.
    const int64_t needs = scorer.queryWindow(1);
    const int64_t held = std::min<int64_t>(interval, int64_t(buffer) + 1);
    if (needs > held)
        throw Error(QStringLiteral("press spec '%1'").arg(spec),
                    QStringLiteral("'%1' scores with the last %2 queries, but a compression "
                                   "every %3 forwards with buffer=%4 holds %5 (one per "
                                   "generated token): set interval and buffer to at least %2")
                        .arg(scorer.spec())
                        .arg(needs)
                        .arg(interval)
                        .arg(buffer)
                        .arg(held));
}

CompressionResult DecodingPress::compress(const CompressionInput& input, double ratio) const
{
    checkRatio(ratio, m_spec);
    if (m_prefill)
        return m_prefill->compress(input, ratio);
    // kvpress's pipeline leaves the prefill of a DecodingPress whole.
    const at::Tensor kept =
        torch::ones({input.layers(), input.kvHeads(), input.length()}, torch::kBool);
    CompressionResult r = evictionResult(kept, {}, input.headDim());
    r.details[QStringLiteral("prefill")] = QStringLiteral("whole context");
    return r;
}

int64_t DecodingPress::queryWindow(int64_t length) const
{
    return m_prefill ? m_prefill->queryWindow(length) : 0;
}

bool DecodingPress::needsReceivedAttention() const
{
    return m_prefill && m_prefill->needsReceivedAttention();
}

bool DecodingPress::needsAttentionInputs() const
{
    return m_prefill && m_prefill->needsAttentionInputs();
}

int64_t DecodingPress::targetSize(int64_t seen, int64_t contextLength, double ratio) const
{
    if (m_target == Target::FractionOfSeen)
        return std::max<int64_t>(1, int64_t(double(seen) * (1.0 - ratio)));
    return m_targetSize > 0 ? m_targetSize
                            : std::max<int64_t>(1, keptPerHead(contextLength, ratio));
}

void DecodingPress::setPrefill(std::unique_ptr<Press> prefill, QString spec)
{
    m_prefill = std::move(prefill);
    m_spec = std::move(spec);
}

void DecodingPress::setMerging(int budget, int seed)
{
    m_mergeBudget = budget;
    m_mergeSeed = seed;
}

namespace {

std::unique_ptr<DecodingPress> makeDecoding(const PressSpec& spec, const PressCatalog& catalog,
                                            DecodingPress::Target target)
{
    PressParams p(spec);
    const int interval = p.integer(QStringLiteral("interval"), kDecodingInterval, 1, 1 << 30);
    const int64_t size = target == DecodingPress::Target::Fixed
                             ? p.integer(QStringLiteral("target"), int(kDecodingTarget), 0, 1 << 30)
                             : 0;
    const int buffer = p.integer(QStringLiteral("buffer"), kDecodingBuffer, 0, 1 << 20);
    p.finish();
    auto scorer = catalog.innerScorer(spec, QStringLiteral("knorm"));
    const QString canonical = p.canonical(scorer->spec());
    DecodingPress::checkDecodeScorer(*scorer, canonical, interval, buffer);
    return std::make_unique<DecodingPress>(std::move(scorer), target, size, interval, buffer,
                                           nullptr, canonical);
}

std::unique_ptr<Press> makeFixed(const PressSpec& spec, const PressCatalog& catalog)
{
    return makeDecoding(spec, catalog, DecodingPress::Target::Fixed);
}

std::unique_ptr<Press> makeFraction(const PressSpec& spec, const PressCatalog& catalog)
{
    return makeDecoding(spec, catalog, DecodingPress::Target::FractionOfSeen);
}

std::unique_ptr<Press> makePrefillDecoding(const PressSpec& spec, const PressCatalog& catalog)
{
    const auto fail = [&](const QString& problem) {
        return Error(QStringLiteral("press spec '%1'").arg(spec.toString()), problem);
    };
    if (spec.inner.size() != 2)
        throw fail(QStringLiteral("prefill_decoding takes a prefill press and a decoding press: "
                                  "prefill_decoding(snapkv+decoding(knorm):interval=64)"));
    PressParams p(spec);
    p.finish();
    std::unique_ptr<Press> prefill = catalog.press(spec.inner[0]);
    if (dynamic_cast<const DecodingPress*>(prefill.get()))
        throw fail(QStringLiteral("its first press compresses the prefill; '%1' is a decoding "
                                  "press")
                       .arg(prefill->spec()));
    std::unique_ptr<Press> decoding = catalog.press(spec.inner[1]);
    auto* decode = dynamic_cast<DecodingPress*>(decoding.get());
    if (decode == nullptr || decode->prefillPress() != nullptr)
        throw fail(QStringLiteral("its second press must be decoding(...) or "
                                  "compression_ratio_decoding(...), not '%1'")
                       .arg(decoding->spec()));
    const QString canonical = p.canonical(prefill->spec() + QLatin1Char('+') + decoding->spec());
    decode->setPrefill(std::move(prefill), canonical);
    return decoding;
}

PressEntry::Param intervalParam()
{
    return {QStringLiteral("interval"), QString::number(kDecodingInterval),
            QStringLiteral("forwards after the context between two compressions (kvpress "
                           "compression_interval; the question is one forward)")};
}

PressEntry::Param bufferParam()
{
    return {QStringLiteral("buffer"), QString::number(kDecodingBuffer),
            QStringLiteral("forwards whose queries the scorer reads (kvpress "
                           "hidden_states_buffer_size; emptied at each compression)")};
}

} // namespace

PressEntry decodingEntry()
{
    return {
        .name = QStringLiteral("decoding"),
        .kind = PressEntry::Kind::Wrapper,
        .rule = QStringLiteral(
            "decode-time: every `interval` forwards after the context, each kv-head keeps its "
            "target best-scored entries of the whole cache (context + generated), scored from the "
            "cache and the buffered queries; prefill left whole (kvpress decoding_press.py, "
            "DecodingPress)"),
        .inner = QStringLiteral("scorer (optional)"),
        .params = {intervalParam(),
                   {QStringLiteral("target"), QString::number(kDecodingTarget),
                    QStringLiteral("entries per head after a compression (kvpress target_size, "
                                   "2048 there); 0: int(T(1-r)) of the context")},
                   bufferParam()},
        .makePress = &makeFixed};
}

PressEntry compressionRatioDecodingEntry()
{
    return {
        .name = QStringLiteral("compression_ratio_decoding"),
        .kind = PressEntry::Kind::Wrapper,
        .rule = QStringLiteral(
            "decode-time: every `interval` forwards, each kv-head keeps max(1, int(seen (1-r))) "
            "best-scored entries, seen = context + tokens fed so far (kvpress "
            "compression_ratio_decoding_press.py, CompressionRatioDecodingPress)"),
        .inner = QStringLiteral("scorer (optional)"),
        .params = {intervalParam(), bufferParam()},
        .makePress = &makeFraction};
}

PressEntry prefillDecodingEntry()
{
    return {.name = QStringLiteral("prefill_decoding"),
            .kind = PressEntry::Kind::Wrapper,
            .rule = QStringLiteral(
                "the first press compresses the prefill at r, the second (decoding or "
                "compression_ratio_decoding) compresses during decoding (kvpress "
                "prefill_decoding_press.py, PrefillDecodingPress)"),
            .inner = QStringLiteral("press+decoding press"),
            .makePress = &makePrefillDecoding};
}

} // namespace kvl
