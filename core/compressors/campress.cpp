// CaM, cache merging (Zhang et al., ICML 2024, openreview LCTmppB165; kvpress
// cam_press.py, CAMPress): a decode-time press. While the answer is decoded every entry
// sums the attention it receives (GQA-group mean of each forward's last query); every
// `interval` forwards once the cache is over the target (or when one forward feeds at
// least the target) each layer keeps its `target` best entries by the scorer's score
// averaged over the kv-heads, and before the evicted entries leave, the best-scored of
// them (as many as forwards since the last compression) fold their values into the next
// `merge_budget` kept entries with a Bernoulli draw (cammerge.h). The decode loop is
// compresseddecoding.cpp.
#include "cache/pressparams.h"
#include "compressors/decodingpress.h"
#include "compressors/presscatalog.h"

namespace kvl {
namespace {

constexpr int kCamInterval = 512; // kvpress compression_interval
constexpr int kCamTarget = 0;     // kvpress target_size is 2048; 0 here: int(T(1 - r))
constexpr int kCamBuffer = 256;   // kvpress hidden_states_buffer_size
constexpr int kMergeBudget = 32;  // kvpress merge_budget
constexpr int kCamSeed = 0;       // kvpress draws unseeded; KVLens fixes it (reproducible runs)

std::unique_ptr<Press> makeCam(const PressSpec& spec, const PressCatalog& catalog)
{
    PressParams p(spec);
    const int interval = p.integer(QStringLiteral("interval"), kCamInterval, 1, 1 << 30);
    const int target = p.integer(QStringLiteral("target"), kCamTarget, 0, 1 << 30);
    const int buffer = p.integer(QStringLiteral("buffer"), kCamBuffer, 0, 1 << 20);
    const int budget = p.integer(QStringLiteral("merge_budget"), kMergeBudget, 1, 1 << 20);
    const int seed = p.integer(QStringLiteral("seed"), kCamSeed, 0, 1 << 30);
    p.finish();
    auto scorer = catalog.innerScorer(spec, QStringLiteral("knorm"));
    const QString canonical = p.canonical(scorer->spec());
    DecodingPress::checkDecodeScorer(*scorer, canonical, interval, buffer);
    auto press = std::make_unique<DecodingPress>(std::move(scorer), DecodingPress::Target::Fixed,
                                                 target, interval, buffer, nullptr, canonical);
    press->setMerging(budget, seed);
    return press;
}

} // namespace

PressEntry camEntry()
{
    return {
        .name = QStringLiteral("cam"),
        .kind = PressEntry::Kind::Wrapper,
        .rule = QStringLiteral(
            "CaM cache merging (Zhang et al., ICML 2024; kvpress cam_press.py, CAMPress), "
            "decode-time: each entry sums the attention it receives while decoding; every "
            "`interval` forwards once the cache is over the target, each layer keeps its target "
            "entries by the scorer averaged over kv-heads, and the k best-scored evicted ones (k = "
            "forwards since the last compression) add v/w to the w <= merge_budget kept entries "
            "after them, per kv-head with probability clamp(A_evicted / mean A_window, 0, 1); "
            "prefill left whole"),
        .inner = QStringLiteral("scorer (optional)"),
        .params =
            {{QStringLiteral("interval"), QString::number(kCamInterval),
              QStringLiteral(
                  "forwards after the context between two compressions (kvpress "
                  "compression_interval); counts on while the cache is under the target")},
             {QStringLiteral("target"), QString::number(kCamTarget),
              QStringLiteral("entries per layer and head after a compression (kvpress target_size, "
                             "2048 there); 0: int(T(1-r)) of the context")},
             {QStringLiteral("buffer"), QString::number(kCamBuffer),
              QStringLiteral("forwards whose queries the scorer reads (kvpress "
                             "hidden_states_buffer_size)")},
             {QStringLiteral("merge_budget"), QString::number(kMergeBudget),
              QStringLiteral("kept entries after an evicted one that share its value (kvpress "
                             "merge_budget)")},
             {QStringLiteral("seed"), QString::number(kCamSeed),
              QStringLiteral("seed of the merge draws, mixed with the sample's context length and "
                             "question")}},
        .makePress = &makeCam};
}

} // namespace kvl
