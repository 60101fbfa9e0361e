#include "model/blassumorder.h"

#include <ATen/Parallel.h>
#include <torch/types.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

namespace kvl {

namespace {

// Calls of a shape whose results one candidate must equal before it is used.
constexpr int kConfirmations = 2;
// Calls that may leave several candidates standing (inputs too plain to tell them
// apart) before the shape keeps at::linear.
constexpr int kMaxTries = 8;
// Outputs every candidate is first tried on, one at a time, before the survivors are
// run on all of them.
constexpr int64_t kProbeOutputs = 4;

// OpenBLAS's level-3 driver (driver/level3/level3.c): a block of Q while at least 2Q
// remain, else the rest in two, the first half rounded up to the kernel's unroll.
std::vector<int32_t> blocksOf(int64_t k, int64_t q, int64_t unroll, bool roundHalfUp)
{
    std::vector<int32_t> blocks;
    for (int64_t rest = k; rest > 0;) {
        int64_t len = rest;
        if (len >= 2 * q)
            len = q;
        else if (len > q)
            len = roundHalfUp ? (len + 1) / 2 : ((len / 2 + unroll - 1) / unroll) * unroll;
        blocks.push_back(int32_t(len));
        rest -= len;
    }
    return blocks;
}

bool sameBits(const float* a, const float* b, int64_t n)
{
    return std::memcmp(a, b, size_t(n) * sizeof(float)) == 0;
}

} // namespace

BlasSumOrders& BlasSumOrders::instance()
{
    static BlasSumOrders orders;
    return orders;
}

std::vector<SumOrder> BlasSumOrders::candidates(int64_t k, bool bias)
{
    // Block sizes (GEMM_Q) of OpenBLAS's single-precision kernels across x86 families,
    // and their neighbours.
    static const int64_t kBlockSizes[] = {64,  96,  128, 160, 192, 224, 256, 288, 320, 352,
                                          384, 416, 448, 480, 512, 576, 640, 768, 1024};
    std::set<std::vector<int32_t>> seen;
    std::vector<std::vector<int32_t>> partitions;
    auto add = [&](std::vector<int32_t> blocks) {
        if (seen.insert(blocks).second)
            partitions.push_back(std::move(blocks));
    };
    for (int64_t q : kBlockSizes) {
        for (int64_t unroll = 1; unroll <= 32; unroll *= 2)
            add(blocksOf(k, q, unroll, false));
        add(blocksOf(k, q, 1, true));
    }
    add({int32_t(k)});
    std::vector<SumOrder> orders;
    for (const auto& blocks : partitions) {
        if (bias) {
            orders.push_back({blocks, BiasOrder::First});
            orders.push_back({blocks, BiasOrder::Last});
        } else {
            orders.push_back({blocks, BiasOrder::None});
        }
    }
    return orders;
}

BlasSumOrders::Shape BlasSumOrders::keyOf(const Shape& shape)
{
    Shape key = shape;
    // Inside a parallel region OpenBLAS's OpenMP build runs on the calling thread alone.
    key.threads = at::in_parallel_region() ? 1 : at::get_num_threads();
    return key;
}

std::optional<SumOrder> BlasSumOrders::orderOf(const Shape& shape)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_states.find(keyOf(shape));
    if (it == m_states.end() || it->second.refused || it->second.confirmations < kConfirmations)
        return std::nullopt;
    return it->second.order;
}

void BlasSumOrders::learn(const Shape& shape, const at::Tensor& x2, const at::Tensor& w,
                          const at::Tensor& bias, const at::Tensor& reference)
{
    const Shape key = keyOf(shape);
    State state;
    {
        std::lock_guard lock(m_mutex);
        state = m_states[key];
    }
    if (state.refused || state.confirmations >= kConfirmations)
        return;
    const int64_t rows = shape.rows, n = shape.n, k = shape.k;
    const float* x = x2.data_ptr<float>();
    const WeightFormat format = weightFormatOf(w.scalar_type());
    const auto* wp = static_cast<const char*>(w.data_ptr());
    const int64_t rowBytes = k * int64_t(w.element_size());
    const float* b = bias.defined() ? bias.data_ptr<float>() : nullptr;
    const at::Tensor ref = reference.reshape({rows, n}).contiguous();
    const float* refp = ref.data_ptr<float>();
    std::vector<float> y(size_t(rows * n));
    // w is W [N, K] for a linear product, v [K, N] (row stride ldv) for a K-major one.
    const int64_t ldv = shape.kMajor ? w.stride(0) : 0;
    const float* vp = shape.kMajor ? w.data_ptr<float>() : nullptr;
    auto equalsEverywhere = [&](const SumOrder& order) {
        if (shape.kMajor)
            exactKMajorProduct(x, rows, vp, ldv, n, k, b, order, y.data());
        else
            exactGemv(x, rows, wp, format, n, k, b, order, y.data());
        return sameBits(y.data(), refp, rows * n);
    };

    if (state.order) {
        if (equalsEverywhere(*state.order)) {
            ++state.confirmations;
        } else {
            state.order.reset();
            state.confirmations = 0;
            ++state.tries;
        }
    } else {
        // A few outputs spread over the matrix, row 0 first, then every row: cheap
        // enough to try every candidate; the survivors then run on everything.
        std::vector<int64_t> probe;
        for (int64_t i = 0; i < std::min(kProbeOutputs, n); ++i)
            probe.push_back(i * n / std::min(kProbeOutputs, n));
        auto equalsOnProbe = [&](const SumOrder& order, int64_t firstRow, int64_t endRow) {
            for (int64_t r = firstRow; r < endRow; ++r)
                for (int64_t o : probe) {
                    float v = 0;
                    if (shape.kMajor)
                        exactKMajorReference(x + r * k, 1, vp + o, ldv, 1, k, b ? b + o : nullptr,
                                             order, &v, 1);
                    else
                        exactGemvReference(x + r * k, 1, wp + o * rowBytes, format, 1, k,
                                           b ? b + o : nullptr, order, &v, 1);
                    if (!sameBits(&v, refp + r * n + o, 1))
                        return false;
                }
            return true;
        };
        std::vector<SumOrder> survivors;
        for (const SumOrder& order : candidates(k, b != nullptr))
            if (equalsOnProbe(order, 0, 1) && equalsOnProbe(order, 1, rows) &&
                equalsEverywhere(order))
                survivors.push_back(order);
        if (survivors.size() == 1) {
            state.order = survivors.front();
            state.confirmations = 1;
        } else if (survivors.empty()) {
            state.refused = true;
        } else {
            ++state.tries;
        }
    }
    if (state.tries >= kMaxTries)
        state.refused = true;
    std::lock_guard lock(m_mutex);
    m_states[key] = state;
}

QString BlasSumOrders::summary()
{
    if (!exactGemvEnabled())
        return exactGemvAvailable() ? QStringLiteral("off (KVLENS_EXACT_GEMV=0)")
                                    : QStringLiteral("off (no AVX2/FMA/F16C)");
    std::lock_guard lock(m_mutex);
    int learned = 0, refused = 0, learning = 0;
    std::set<int32_t> firstBlocks;
    for (const auto& [shape, state] : m_states) {
        if (state.refused)
            ++refused;
        else if (state.order && state.confirmations >= kConfirmations) {
            ++learned;
            firstBlocks.insert(state.order->blocks.front());
        } else
            ++learning;
    }
    QStringList blocks;
    for (int32_t q : firstBlocks)
        blocks << QString::number(q);
    return QStringLiteral("sgemm's order learned for %1 of %2 product shapes%3")
        .arg(learned)
        .arg(learned + refused + learning)
        .arg(blocks.isEmpty() ? QString()
                              : QStringLiteral(" (first blocks %1)").arg(blocks.join(u'/')));
}

void BlasSumOrders::reset()
{
    std::lock_guard lock(m_mutex);
    m_states.clear();
}

WeightFormat weightFormatOf(at::ScalarType type)
{
    return type == at::kBFloat16 ? WeightFormat::BF16
           : type == at::kHalf   ? WeightFormat::F16
                                 : WeightFormat::F32;
}

bool exactGemvEnabled()
{
    static const bool enabled = [] {
        const char* env = std::getenv("KVLENS_EXACT_GEMV");
        return exactGemvAvailable() && !(env && std::strcmp(env, "0") == 0);
    }();
    return enabled;
}

} // namespace kvl
