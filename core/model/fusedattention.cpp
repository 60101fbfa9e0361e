#include "model/fusedattention.h"

#include "model/attention.h"
#include "model/cpufeatures.h"

#include <ATen/Parallel.h>
#include <torch/types.h>

#include <algorithm>
#include <cmath>
#include <dlfcn.h>
#include <immintrin.h>
#include <limits>
#include <utility>
#include <vector>

namespace kvl {

namespace {

// The Fortran BLAS entry libtorch itself calls (OpenBLAS here): column-major, arguments
// by pointer. Found at run time, so a libtorch on another BLAS simply keeps the generic
// path. OpenBLAS's OpenMP build runs single-threaded when called inside a parallel
// region, which is what every task wants.
using SgemmFn = void (*)(const char* transA, const char* transB, const int* m, const int* n,
                         const int* k, const float* alpha, const float* a, const int* lda,
                         const float* b, const int* ldb, const float* beta, float* c,
                         const int* ldc);

SgemmFn sgemm()
{
    static const SgemmFn fn = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    return fn;
}

bool hasAvx2Fma()
{
    return cpuFeatures().avx2 && cpuFeatures().fma;
}

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// exp of 8 lanes: x = n ln2 + r with |r| <= ln2 / 2 (ln2 split in two so n ln2 is exact
// enough), exp(r) by Cephes' degree-6 polynomial, 2^n put in the exponent bits. Lanes
// below ln(FLT_MIN) give 0 (their true value is a denormal, flushed in the engine
// anyway), so -inf scores become probability 0.
__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x)
{
    const __m256 tooSmall = _mm256_cmp_ps(x, _mm256_set1_ps(-87.33654475f), _CMP_LT_OQ);
    x = _mm256_min_ps(x, _mm256_set1_ps(88.72283905f));
    x = _mm256_max_ps(x, _mm256_set1_ps(-87.33654475f));
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    const __m256 r2 = _mm256_mul_ps(r, r);
    const __m256 y = _mm256_add_ps(_mm256_fmadd_ps(p, r2, r), _mm256_set1_ps(1.0f));
    // 2^n in two halves: n reaches 128 at the top of the range, one past the exponent.
    const __m256i e = _mm256_cvtps_epi32(n);
    const __m256i half = _mm256_srai_epi32(e, 1);
    const __m256 pow1 =
        _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, _mm256_set1_epi32(127)), 23));
    const __m256 pow2 = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(e, half), _mm256_set1_epi32(127)), 23));
    const __m256 result = _mm256_mul_ps(_mm256_mul_ps(y, pow1), pow2);
    return _mm256_andnot_ps(tooSmall, result);
}

__attribute__((target("avx2,fma"))) void expVector(float* v, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(v + i, exp8(_mm256_loadu_ps(v + i)));
    if (i < n) {
        alignas(32) float tail[8];
        std::fill(tail, tail + 8, 0.0f);
        std::copy(v + i, v + n, tail);
        _mm256_store_ps(tail, exp8(_mm256_load_ps(tail)));
        std::copy(tail, tail + (n - i), v + i);
    }
}

__attribute__((target("avx2,fma"))) float maxVector(const float* v, int64_t n)
{
    __m256 m = _mm256_set1_ps(kNegInf);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        m = _mm256_max_ps(m, _mm256_loadu_ps(v + i));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, m);
    float best = *std::max_element(lanes, lanes + 8);
    for (; i < n; ++i)
        best = std::max(best, v[i]);
    return best;
}

// v[i] = exp(v[i] - shift); returns the sum.
__attribute__((target("avx2,fma"))) float expSumVector(float* v, int64_t n, float shift)
{
    const __m256 s = _mm256_set1_ps(shift);
    __m256 sum = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(v + i), s));
        _mm256_storeu_ps(v + i, e);
        sum = _mm256_add_ps(sum, e);
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, sum);
    float total = 0.0f;
    for (const float lane : lanes)
        total += lane;
    if (i < n) {
        alignas(32) float tail[8];
        std::fill(tail, tail + 8, kNegInf);
        for (int64_t j = i; j < n; ++j)
            tail[j - i] = v[j] - shift;
        _mm256_store_ps(tail, exp8(_mm256_load_ps(tail)));
        for (int64_t j = i; j < n; ++j) {
            v[j] = tail[j - i];
            total += tail[j - i];
        }
    }
    return total;
}

float rowMax(const float* v, int64_t n)
{
    if (hasAvx2Fma())
        return maxVector(v, n);
    return *std::max_element(v, v + n);
}

float expSum(float* v, int64_t n, float shift)
{
    if (hasAvx2Fma())
        return expSumVector(v, n, shift);
    float total = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
        v[i] = std::exp(v[i] - shift);
        total += v[i];
    }
    return total;
}

// One thread's working set, sized for the largest task: the stacked queries [M, hd], the
// scores then probabilities of one key tile [M, keys], the output accumulator [M, hd]
// and each row's running maximum and denominator. Kept per thread across calls (the
// pool's threads live on), so the layers of a prefill fault in no fresh pages.
struct TaskBuffers
{
    std::vector<float> q, scores, acc, max, sum;
    void reserve(int64_t rows, int64_t keys, int64_t hd)
    {
        for (auto [buffer, size] :
             {std::pair{&q, rows * hd}, std::pair{&scores, rows * keys}, std::pair{&acc, rows * hd},
              std::pair{&max, rows}, std::pair{&sum, rows}})
            if (buffer->size() < size_t(size))
                buffer->resize(size_t(size));
    }
};

struct Shape
{
    int64_t kvHeads, group, tq, ts, hd, offset;
    int64_t qStride[4]; // q's strides over kv, group, Tq (elements), last dimension 1
};

// Query rows [r0, r0 + rows) of kv-head `head`, every head of its group, against the
// self keys they see. The group's heads are stacked (row j * rows + r is head j's query
// r0 + r) so each key tile is multiplied once for the whole group.
void runTask(const Shape& s, const float* q, const float* k, const float* v, float* out, float* lse,
             int64_t head, int64_t r0, int64_t rows, int64_t keysPerTile, TaskBuffers& b)
{
    const SgemmFn gemm = sgemm();
    const int64_t m = s.group * rows;
    const int64_t hd = s.hd;
    for (int64_t j = 0; j < s.group; ++j)
        for (int64_t r = 0; r < rows; ++r)
            std::copy_n(q + head * s.qStride[0] + j * s.qStride[1] + (r0 + r) * s.qStride[2], hd,
                        b.q.data() + (j * rows + r) * hd);
    std::fill_n(b.acc.data(), m * hd, 0.0f);
    std::fill_n(b.max.data(), m, kNegInf);
    std::fill_n(b.sum.data(), m, 0.0f);
    const float* headK = k + head * s.ts * hd;
    const float* headV = v + head * s.ts * hd;
    const int64_t visibleEnd = s.offset + r0 + rows; // keys any row of the block sees
    const float one = 1.0f, zero = 0.0f;
    const int hdI = int(hd), mI = int(m);
    for (int64_t k0 = 0; k0 < visibleEnd; k0 += keysPerTile) {
        const int64_t keys = std::min(keysPerTile, visibleEnd - k0);
        const int keysI = int(keys);
        // scores [m, keys] row-major = (K_tile [keys, hd] . Q^T) in column-major terms.
        gemm("T", "N", &keysI, &mI, &hdI, &one, headK + k0 * hd, &hdI, b.q.data(), &hdI, &zero,
             b.scores.data(), &keysI);
        for (int64_t row = 0; row < m; ++row) {
            float* p = b.scores.data() + row * keys;
            // Query r0 + r sees keys up to offset + r0 + r: only the diagonal tile masks.
            const int64_t r = row % rows;
            const int64_t visible = std::min(keys, s.offset + r0 + r + 1 - k0);
            if (visible <= 0) {
                std::fill_n(p, keys, 0.0f);
                continue;
            }
            std::fill(p + visible, p + keys, 0.0f);
            const float oldMax = b.max[size_t(row)];
            const float newMax = std::max(oldMax, rowMax(p, visible));
            const float rowSum = expSum(p, visible, newMax);
            if (newMax != oldMax) {
                // exp(-inf) = 0 on the first tile a row sees: the accumulator is still 0.
                const float scale = std::exp(oldMax - newMax);
                float* a = b.acc.data() + row * hd;
                for (int64_t d = 0; d < hd; ++d)
                    a[d] *= scale;
                b.sum[size_t(row)] *= scale;
                b.max[size_t(row)] = newMax;
            }
            b.sum[size_t(row)] += rowSum;
        }
        // acc [m, hd] += P [m, keys] . V_tile [keys, hd], column-major: acc^T += V^T P^T.
        gemm("N", "N", &hdI, &mI, &keysI, &one, headV + k0 * hd, &hdI, b.scores.data(), &keysI,
             &one, b.acc.data(), &hdI);
    }
    const int64_t heads = s.kvHeads * s.group;
    for (int64_t j = 0; j < s.group; ++j)
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t row = j * rows + r;
            const float inv = 1.0f / b.sum[size_t(row)];
            const float* a = b.acc.data() + row * hd;
            float* o = out + ((r0 + r) * heads + head * s.group + j) * hd;
            for (int64_t d = 0; d < hd; ++d)
                o[d] = a[d] * inv;
            if (lse != nullptr)
                lse[(head * s.group + j) * s.tq + r0 + r] =
                    b.max[size_t(row)] + std::log(b.sum[size_t(row)]);
        }
}

} // namespace

bool fusedAttentionApplies(const AttentionInputs& in)
{
    if (at::GradMode::is_enabled() || in.ctxK.defined() || in.ctxBias.defined())
        return false;
    if (in.q.dim() != 5 || in.q.size(0) != 1 || in.q.size(3) == 0 || in.selfK.dim() != 4)
        return false;
    for (const at::Tensor* t : {&in.q, &in.selfK, &in.selfV})
        if (t->scalar_type() != at::kFloat || !t->device().is_cpu() || t->requires_grad())
            return false;
    return sgemm() != nullptr;
}

void fusedExp(float* values, int64_t n, bool allowVector)
{
    if (allowVector && hasAvx2Fma()) {
        expVector(values, n);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        values[i] = std::exp(values[i]);
}

FusedAttentionOutput fusedAttention(const at::Tensor& q, const at::Tensor& selfK,
                                    const at::Tensor& selfV, bool withLse, int64_t rowsPerTask,
                                    int64_t keysPerTile)
{
    TORCH_CHECK(sgemm() != nullptr, "fusedAttention: the BLAS has no sgemm_");
    TORCH_CHECK(q.dim() == 5 && q.size(0) == 1, "fusedAttention: q is [1, kv, group, Tq, hd]");
    const at::Tensor qs = q.stride(4) == 1 ? q : q.contiguous();
    const at::Tensor k = selfK.contiguous(), v = selfV.contiguous();
    Shape s{};
    s.kvHeads = q.size(1);
    s.group = q.size(2);
    s.tq = q.size(3);
    s.hd = q.size(4);
    s.ts = k.size(2);
    s.offset = s.ts - s.tq;
    TORCH_CHECK(s.offset >= 0 && k.size(1) == s.kvHeads && k.size(3) == s.hd &&
                    v.sizes() == k.sizes(),
                "fusedAttention: selfK/selfV are [1, kv, Ts >= Tq, hd]");
    for (int d = 0; d < 3; ++d)
        s.qStride[d] = qs.stride(d + 1);
    const int64_t rows = std::max<int64_t>(1, std::min(rowsPerTask, s.tq));
    const int64_t keys = std::max<int64_t>(1, keysPerTile);

    FusedAttentionOutput result;
    result.out = at::empty({1, s.tq, s.kvHeads * s.group * s.hd}, q.options());
    if (withLse)
        result.lse = at::empty({s.kvHeads, s.group, s.tq}, q.options());
    const float* qp = qs.data_ptr<float>();
    const float* kp = k.data_ptr<float>();
    const float* vp = v.data_ptr<float>();
    float* op = result.out.data_ptr<float>();
    float* lp = withLse ? result.lse.data_ptr<float>() : nullptr;

    const int64_t blocks = (s.tq + rows - 1) / rows;
    const int64_t tasks = blocks * s.kvHeads;
    // Later query blocks see more keys: hand them out first so the cheap ones fill in
    // at the end (dynamic schedule, one task at a time).
#pragma omp parallel num_threads(                                                                  \
    int(std::max <int64_t>(1, std::min <int64_t>(at::get_num_threads(), tasks))))
    {
        thread_local TaskBuffers buffers;
        buffers.reserve(s.group * rows, keys, s.hd);
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t block = blocks - 1 - t / s.kvHeads;
            const int64_t head = t % s.kvHeads;
            const int64_t r0 = block * rows;
            runTask(s, qp, kp, vp, op, lp, head, r0, std::min(rows, s.tq - r0), keys, buffers);
        }
    }
    return result;
}

} // namespace kvl
