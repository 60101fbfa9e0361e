// Offloading presses (issue 19, SCIENCE.md section 4): every entry kept; at each decoding
// forward each layer and kv-head attends to local window + outlier chunks + the top chunks
// by landmark score, at most `budget` context tokens (T(1 - r) when 0).
//   shadowkv  ShadowKV (Sun et al. 2024, arXiv 2410.21465), as the offloading study's
//             ShadowKVCache (yandex-research/context-intensive-kv-offloading,
//             shadowkv-models/shadowkv_models/kv_cache.py): pre-RoPE keys at SVD rank R,
//             one SVD over the layer's concatenated kv-heads as the reference (svd=joint) or
//             one per kv-head (svd=per_head); landmark = mean exact post-RoPE key per chunk;
//             outlier chunks (lowest min cosine to their mean) and the local window exact.
//   quest     Quest (Tang et al. 2024, arXiv 2406.10774): per page key min/max, page score
//             sum_d max(q_d min_d, q_d max_d), max over the GQA group; exact K/V.
//   yakv      the study's fix (arXiv 2604.08426; run_cfg.py there: chunk 1, rank -1, local
//             64, no outliers, budget 3.125%): no projection, per-token landmarks from keys
//             quantized to 2 bits, K and V quantized to 4 bits outside the local window.
#include "compressors/offloadpress.h"

#include "cache/keptselection.h"
#include "cache/pressparams.h"
#include "common/error.h"
#include "compressors/presscatalog.h"

#include <cmath>
#include <torch/types.h>

namespace kvl {
namespace {

// ShadowKV (kv_cache.py ShadowKVCache defaults): chunk 8, rank 160, local 4 x 8, outliers
// 48 x 8 (at most 384/2048 of the budget, see offloadindex.cpp).
constexpr int kShadowChunk = 8;
constexpr int kShadowRank = -1; // auto: 160, or 160/1024 of the SVD width when narrower
constexpr int kShadowLocal = 32;
constexpr int kShadowOutliers = 384;
// Rank 160 over Llama-3-8B's 8 kv-heads x 128: the share a narrower model gets.
constexpr int kReferenceRank = 160;
constexpr double kReferenceRankShare = 160.0 / 1024.0;
// Quest: page 16; the last page (the one being written in the original) always attended.
constexpr int kQuestPage = 16;
constexpr int kQuestLocal = 16;
// YAKV (run_cfg.py): chunk 1, local 64, no outliers; HIGGS 2-bit landmarks and ~4-bit
// K/V, here min-max per token.
constexpr int kYakvChunk = 1;
constexpr int kYakvLocal = 64;
constexpr int kYakvLandmarkBits = 2;
constexpr int kYakvKvBits = 4;

double relativeError(const ContextCache& a, const ContextCache& b, bool keys)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < a.layers.size(); ++i) {
        const at::Tensor& x = keys ? a.layers[i].keys : a.layers[i].values;
        const at::Tensor& y = keys ? b.layers[i].keys : b.layers[i].values;
        num += (x.to(torch::kDouble) - y.to(torch::kDouble)).pow(2).sum().item<double>();
        den += y.to(torch::kDouble).pow(2).sum().item<double>();
    }
    return den > 0 ? std::sqrt(num / den) : 0.0;
}

} // namespace

OffloadPress::OffloadPress(const OffloadSettings& settings, QString spec)
    : m_settings(settings), m_spec(std::move(spec))
{}

OffloadSettings OffloadPress::resolvedSettings(const CompressionInput& input) const
{
    OffloadSettings s = m_settings;
    if (s.landmark == LandmarkKind::LowRankMean && s.rank < 0) {
        const int width = s.perHeadSvd ? input.headDim() : input.kvHeads() * input.headDim();
        s.rank = std::min(kReferenceRank,
                          std::max(1, int(std::ceil(kReferenceRankShare * double(width)))));
    }
    return s;
}

std::unique_ptr<OffloadIndex> OffloadPress::index(const CompressionInput& input, double ratio) const
{
    if (!input.config)
        throw Error(m_spec, QStringLiteral("needs the model config"));
    return buildOffloadIndex(input, resolvedSettings(input), ratio, m_spec);
}

CompressionResult OffloadPress::compress(const CompressionInput& input, double ratio) const
{
    checkRatio(ratio, m_spec);
    return resultOf(input, *index(input, ratio));
}

CompressionResult OffloadPress::resultOf(const CompressionInput& input,
                                         const OffloadIndex& built) const
{
    const OffloadIndex* idx = &built;
    const OffloadSettings& s = idx->settings();
    const OffloadCost cost = idx->cost();
    const at::Tensor all =
        torch::ones({input.layers(), input.kvHeads(), input.length()}, torch::kBool);
    CompressionResult r = evictionResult(all, {}, input.headDim());
    r.coverage = CoverageType::StructuralPositionAddressability;
    r.rewritten = idx->context();
    // Every entry is kept (offloaded): the bytes are those of the context as stored.
    r.keptBytes = std::min(cost.storedBytes, r.fullBytes);
    r.keyError = relativeError(idx->context(), *input.cache, true);
    r.valueError = relativeError(idx->context(), *input.cache, false);
    QJsonObject& d = r.details;
    d[QStringLiteral("landmark")] = landmarkName(s.landmark);
    d[QStringLiteral("chunk")] = qint64(s.chunk);
    if (s.landmark == LandmarkKind::LowRankMean) {
        d[QStringLiteral("rank")] = s.rank;
        d[QStringLiteral("svd")] =
            s.perHeadSvd ? QStringLiteral("per_head") : QStringLiteral("joint");
    }
    d[QStringLiteral("budget_tokens")] = qint64(idx->budgetTokens());
    d[QStringLiteral("local_window")] = qint64(s.localWindow);
    d[QStringLiteral("outliers")] = qint64(s.outliers);
    if (s.landmark == LandmarkKind::QuantizedKeys) {
        d[QStringLiteral("landmark_bits")] = s.landmarkBits;
        d[QStringLiteral("kv_bits")] = s.kvBits;
    }
    d[QStringLiteral("landmark_bytes")] = cost.landmarkBytes;
    d[QStringLiteral("resident_bytes")] = cost.residentBytes;
    d[QStringLiteral("fetched_bytes_per_step")] = cost.fetchedBytesPerStep;
    return r;
}

namespace {

// Parameters every offloading press shares: budget, local window, outliers.
void readCommon(PressParams& p, OffloadSettings& s, int local, int outliers)
{
    s.budgetTokens = p.integer(QStringLiteral("budget"), 0, 0, 1 << 30);
    s.localWindow = p.integer(QStringLiteral("local"), local, 0, 1 << 30);
    s.outliers = p.integer(QStringLiteral("outliers"), outliers, 0, 1 << 30);
}

std::unique_ptr<Press> makeShadowKv(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    OffloadSettings s;
    s.landmark = LandmarkKind::LowRankMean;
    s.chunk = p.integer(QStringLiteral("chunk"), kShadowChunk, 1, 1 << 20);
    s.rank = p.integer(QStringLiteral("rank"), kShadowRank, -1, 1 << 20);
    const QString svd = p.choice(QStringLiteral("svd"), QStringLiteral("joint"),
                                 {QStringLiteral("joint"), QStringLiteral("per_head")});
    readCommon(p, s, kShadowLocal, kShadowOutliers);
    p.finish();
    s.perHeadSvd = svd == QLatin1String("per_head");
    return std::make_unique<OffloadPress>(s, p.canonical());
}

std::unique_ptr<Press> makeQuest(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    OffloadSettings s;
    s.landmark = LandmarkKind::PageBounds;
    s.chunk = p.integer(QStringLiteral("page"), kQuestPage, 1, 1 << 20);
    readCommon(p, s, kQuestLocal, 0);
    p.finish();
    return std::make_unique<OffloadPress>(s, p.canonical());
}

std::unique_ptr<Press> makeYakv(const PressSpec& spec, const PressCatalog&)
{
    PressParams p(spec);
    OffloadSettings s;
    s.landmark = LandmarkKind::QuantizedKeys;
    s.chunk = p.integer(QStringLiteral("chunk"), kYakvChunk, 1, 1 << 20);
    readCommon(p, s, kYakvLocal, 0);
    s.landmarkBits = p.integer(QStringLiteral("landmark_bits"), kYakvLandmarkBits, 0, 8);
    s.kvBits = p.integer(QStringLiteral("kv_bits"), kYakvKvBits, 0, 8);
    p.finish();
    return std::make_unique<OffloadPress>(s, p.canonical());
}

std::vector<PressEntry::Param> commonParams(int local, int outliers)
{
    return {{QStringLiteral("budget"), QStringLiteral("0"),
             QStringLiteral("context tokens attended per kv-head per step, local window and "
                            "outliers included; 0 = max(1, floor(T (1 - r)))")},
            {QStringLiteral("local"), QString::number(local),
             QStringLiteral("last context tokens always attended (exact)")},
            {QStringLiteral("outliers"), QString::number(outliers),
             QStringLiteral("tokens of outlier chunks always attended (exact), at most 3/16 of "
                            "the budget")}};
}

} // namespace

PressEntry shadowKvEntry()
{
    std::vector<PressEntry::Param> params{
        {QStringLiteral("chunk"), QString::number(kShadowChunk),
         QStringLiteral("tokens per landmark")},
        {QStringLiteral("rank"), QString::number(kShadowRank),
         QStringLiteral("SVD rank of pre-RoPE keys; -1 = min(160, ceil(160/1024 x SVD width)); 0 "
                        "= exact keys; >= the width is exact")},
        {QStringLiteral("svd"), QStringLiteral("joint"),
         QStringLiteral("joint = one SVD over the concatenated kv-heads (the reference), per_head "
                        "= one per kv-head")}};
    for (PressEntry::Param& c : commonParams(kShadowLocal, kShadowOutliers))
        params.push_back(c);
    return {.name = QStringLiteral("shadowkv"),
            .kind = PressEntry::Kind::Transform,
            .rule = QStringLiteral(
                "offloading: keys at SVD rank R (RoPE re-applied), landmark = mean "
                "post-RoPE key per chunk, retrieval softmax(q.landmark/sqrt d) max over "
                "the GQA group; local window + outlier chunks exact; values exact (Sun "
                "et al. 2024, arXiv:2410.21465; as "
                "yandex-research/context-intensive-kv-offloading's ShadowKVCache)"),
            .params = params,
            .makePress = &makeShadowKv};
}

PressEntry questEntry()
{
    std::vector<PressEntry::Param> params{
        {QStringLiteral("page"), QString::number(kQuestPage), QStringLiteral("tokens per page")}};
    for (PressEntry::Param& c : commonParams(kQuestLocal, 0))
        params.push_back(c);
    return {.name = QStringLiteral("quest"),
            .kind = PressEntry::Kind::Transform,
            .rule = QStringLiteral(
                "offloading: per page key min/max, page score sum_d max(q_d min_d, q_d "
                "max_d) max over the GQA group, top pages; exact K/V (Tang et al. 2024, "
                "arXiv:2406.10774)"),
            .params = params,
            .makePress = &makeQuest};
}

PressEntry yakvEntry()
{
    std::vector<PressEntry::Param> params{{QStringLiteral("chunk"), QString::number(kYakvChunk),
                                           QStringLiteral("tokens per landmark")}};
    for (PressEntry::Param& c : commonParams(kYakvLocal, 0))
        params.push_back(c);
    params.push_back({QStringLiteral("landmark_bits"), QString::number(kYakvLandmarkBits),
                      QStringLiteral("landmark key bits (min-max per token), 0 = exact")});
    params.push_back({QStringLiteral("kv_bits"), QString::number(kYakvKvBits),
                      QStringLiteral("K/V bits outside the always-attended set, 0 = exact")});
    return {.name = QStringLiteral("yakv"),
            .kind = PressEntry::Kind::Transform,
            .rule = QStringLiteral(
                "offloading: no projection, landmark = mean key per chunk quantized to "
                "landmark_bits, retrieval softmax(q.landmark/sqrt d) max over the GQA "
                "group; K/V at kv_bits outside the local window (the offloading study's fix, "
                "arXiv:2604.08426; yandex-research/context-intensive-kv-offloading run_cfg.py)"),
            .params = params,
            .makePress = &makeYakv};
}

} // namespace kvl
