#include "model/exactgemv.h"

#include "checkpoint/halfconvert.h"
#include "model/cpufeatures.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <immintrin.h>

namespace kvl {

namespace {

// Outputs per tile: two vectors of 8, so each broadcast of x feeds two FMAs and the
// FMA units, not the loads, set the pace once there are several rows.
constexpr int64_t kTile = 16;
// Rows summed together: 2 accumulators each, 12 registers, plus two weight vectors and
// a broadcast within AVX2's 16.
constexpr int kGroupRows = 6;
// Rows the kernel takes at once (the caller splits larger batches; decode batches are
// a configuration per row, about ten).
constexpr int64_t kMaxRows = 64;
// Up to this many rows the weights go from memory to registers without the buffer.
constexpr int64_t kDirectRows = 3;
// A line of the next tile's weights, prefetched non-temporally (see transposeTile).
inline void prefetchWeights(const void* line)
{
    _mm_prefetch(static_cast<const char*>(line), _MM_HINT_NTA);
}

// The weight formats the kernel reads: four consecutive weights widened to float32
// (exactly: a BF16 is the top half of its float, F16C converts every F16 exactly), and
// one at a time for the tails. The sums then equal those of sgemm over the widened
// matrix, which is what kvl::linear multiplies 16-bit weights as.
struct F32Weights
{
    using T = float;
    __attribute__((target("avx2,fma,f16c"))) static __m128 load4(const T* p)
    {
        return _mm_loadu_ps(p);
    }
    static float at(const T* p) { return *p; }
};

struct Bf16Weights
{
    using T = uint16_t;
    __attribute__((target("avx2,fma,f16c"))) static __m128 load4(const T* p)
    {
        const __m128i h = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        return _mm_castsi128_ps(_mm_slli_epi32(_mm_cvtepu16_epi32(h), 16));
    }
    static float at(const T* p) { return bf16ToFloat(*p); }
};

struct F16Weights
{
    using T = uint16_t;
    __attribute__((target("avx2,fma,f16c"))) static __m128 load4(const T* p)
    {
        return _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
    }
    static float at(const T* p) { return halfToFloat(*p); }
};

// Columns k..k+7 of rows 0-7 at w (row stride ld) as 8 vectors, c[j] = column j. The
// rows' 128-bit halves are loaded into the two lanes (rows i and i + 4 side by side),
// so two 4 x 4 transposes within lanes finish it: 16 shuffles instead of 24.
template <class W>
__attribute__((target("avx2,fma,f16c"))) inline __m256 rowPair(const typename W::T* w, int64_t ld,
                                                               int64_t row, int64_t col)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(W::load4(w + row * ld + col)),
                                W::load4(w + (row + 4) * ld + col), 1);
}

template <class W>
__attribute__((target("avx2,fma,f16c"))) inline void columns8(const typename W::T* w, int64_t ld,
                                                              __m256* c)
{
    for (int64_t half = 0; half < 2; ++half) {
        const __m256 r0 = rowPair<W>(w, ld, 0, 4 * half), r1 = rowPair<W>(w, ld, 1, 4 * half);
        const __m256 r2 = rowPair<W>(w, ld, 2, 4 * half), r3 = rowPair<W>(w, ld, 3, 4 * half);
        const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
        const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
        c[4 * half + 0] = _mm256_shuffle_ps(t0, t2, 0x44);
        c[4 * half + 1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        c[4 * half + 2] = _mm256_shuffle_ps(t1, t3, 0x44);
        c[4 * half + 3] = _mm256_shuffle_ps(t1, t3, 0xEE);
    }
}

// Columns [k0, k0 + len) of the tile's 16 rows into s[len][16]: s[k][i] = w[i][k0 + k].
// The same columns of the next tile (`next`, null for the last) are prefetched on the
// way: sixteen row streams at once are more than the hardware prefetchers follow.
// Non-temporal (prefetchWeights): every weight is read once per step, so it need not
// displace the activations and the tile buffer from the other cache levels. On the
// 2-core EPYC, eight alternating pairs of 200-step decode benches gave 0.0400 s per
// step against 0.0420 s with T0 (and T1 was slower still, 0.058 s against 0.051 s).
template <class W>
__attribute__((target("avx2,fma,f16c"))) void transposeTile(const typename W::T* w, int64_t ld,
                                                            int64_t k0, int64_t len, float* s,
                                                            const typename W::T* next)
{
    constexpr int64_t perLine = 64 / sizeof(typename W::T);
    int64_t k = 0;
    for (; k + 8 <= len; k += 8) {
        if (next && (k & (perLine - 1)) == 0)
            for (int64_t i = 0; i < kTile; ++i)
                prefetchWeights(next + i * ld + k0 + k);
        for (int64_t h = 0; h < 2; ++h) {
            __m256 c[8];
            columns8<W>(w + 8 * h * ld + k0 + k, ld, c);
            for (int64_t j = 0; j < 8; ++j)
                _mm256_storeu_ps(s + (k + j) * kTile + 8 * h, c[j]);
        }
    }
    for (; k < len; ++k)
        for (int64_t i = 0; i < kTile; ++i)
            s[k * kTile + i] = W::at(w + i * ld + k0 + k);
}

// One block's sums for G rows: acc[2g], acc[2g + 1] = outputs 0-7 and 8-15 of row g,
// each lane one fused multiply-add after another over k, from zero. s[k * stride + i]
// is output i's weight at k: the tile's columns in the buffer (stride 16), or a
// K-major matrix read in place.
template <int G>
__attribute__((target("avx2,fma"))) void blockSums(const float* s, int64_t stride, int64_t len,
                                                   const float* const* x, __m256* out)
{
    __m256 acc[2 * G];
#pragma GCC unroll 12
    for (int i = 0; i < 2 * G; ++i)
        acc[i] = _mm256_setzero_ps();
    for (int64_t k = 0; k < len; ++k) {
        const __m256 w0 = _mm256_loadu_ps(s + k * stride);
        const __m256 w1 = _mm256_loadu_ps(s + k * stride + 8);
#pragma GCC unroll 6
        for (int g = 0; g < G; ++g) {
            const __m256 xb = _mm256_broadcast_ss(x[g] + k);
            acc[2 * g] = _mm256_fmadd_ps(w0, xb, acc[2 * g]);
            acc[2 * g + 1] = _mm256_fmadd_ps(w1, xb, acc[2 * g + 1]);
        }
    }
#pragma GCC unroll 12
    for (int i = 0; i < 2 * G; ++i)
        out[i] = acc[i];
}

__attribute__((target("avx2,fma"))) void groupSums(int g, const float* s, int64_t stride,
                                                   int64_t len, const float* const* x, __m256* out)
{
    using Sums = void (*)(const float*, int64_t, int64_t, const float* const*, __m256*);
    static constexpr Sums kSums[kGroupRows] = {blockSums<1>, blockSums<2>, blockSums<3>,
                                               blockSums<4>, blockSums<5>, blockSums<6>};
    kSums[g - 1](s, stride, len, x, out);
}

// The rows of the group starting at r0 (at most `most`), from column k0: their
// count, and their pointers in xr.
inline int groupRows(const float* x, int64_t rows, int64_t r0, int64_t k, int64_t k0,
                     const float** xr, int64_t most = kGroupRows)
{
    const int g = int(std::min<int64_t>(most, rows - r0));
    for (int i = 0; i < g; ++i)
        xr[i] = x + (r0 + i) * k + k0;
    return g;
}

// Rows summed together with AVX-512: one register holds a row's 16 outputs, so 12 rows
// take 12 of its 32 registers and share each weight load.
constexpr int kWideGroupRows = 12;

// blockSums with 512-bit vectors: the same fused multiply-adds lane for lane (so the
// same bits), half the instructions, and a lockstep batch's rows in one pass.
template <int G>
__attribute__((target("avx512f"))) void wideBlockSums(const float* s, int64_t stride, int64_t len,
                                                      const float* const* x, float* out)
{
    __m512 acc[G];
#pragma GCC unroll 12
    for (int i = 0; i < G; ++i)
        acc[i] = _mm512_setzero_ps();
    for (int64_t k = 0; k < len; ++k) {
        const __m512 w = _mm512_loadu_ps(s + k * stride);
#pragma GCC unroll 12
        for (int g = 0; g < G; ++g)
            acc[g] = _mm512_fmadd_ps(w, _mm512_set1_ps(x[g][k]), acc[g]);
    }
#pragma GCC unroll 12
    for (int i = 0; i < G; ++i)
        _mm512_store_ps(out + 16 * i, acc[i]);
}

__attribute__((target("avx512f"))) void
wideGroupSums(int g, const float* s, int64_t stride, int64_t len, const float* const* x, float* out)
{
    using Sums = void (*)(const float*, int64_t, int64_t, const float* const*, float*);
    static constexpr Sums kSums[kWideGroupRows] = {
        wideBlockSums<1>, wideBlockSums<2>,  wideBlockSums<3>,  wideBlockSums<4>,
        wideBlockSums<5>, wideBlockSums<6>,  wideBlockSums<7>,  wideBlockSums<8>,
        wideBlockSums<9>, wideBlockSums<10>, wideBlockSums<11>, wideBlockSums<12>};
    kSums[g - 1](s, stride, len, x, out);
}

// Tiles a K-major pass takes at once with AVX-512 (a head's 64 values), and the rows
// summed with them: 4 x 7 accumulators of the 32 registers.
constexpr int kWideTiles = 4;
constexpr int kWideTileRows = 7;

// wideBlockSums over 4 adjacent tiles of a K-major matrix in one pass: each row of v (64
// outputs side by side) is read once for G rows, where a tile at a time read it four
// times with four times the broadcasts. out[g * 64 + j]: row g, output j. The same fused
// multiply-adds lane for lane as wideBlockSums. At 4k on the 2-core EPYC a step's values'
// products took 1.2-1.3 ms this way, 3.0-3.1 ms a tile at a time.
template <int G>
__attribute__((target("avx512f"))) void wideKMajorSums(const float* v, int64_t ldv, int64_t len,
                                                       const float* const* x, float* out)
{
    __m512 acc[G][kWideTiles];
#pragma GCC unroll 28
    for (int i = 0; i < G * kWideTiles; ++i)
        acc[i / kWideTiles][i % kWideTiles] = _mm512_setzero_ps();
    for (int64_t k = 0; k < len; ++k) {
        const float* row = v + k * ldv;
#pragma GCC unroll 7
        for (int g = 0; g < G; ++g) {
            const __m512 xb = _mm512_set1_ps(x[g][k]);
#pragma GCC unroll 4
            for (int t = 0; t < kWideTiles; ++t)
                acc[g][t] = _mm512_fmadd_ps(_mm512_loadu_ps(row + 16 * t), xb, acc[g][t]);
        }
    }
#pragma GCC unroll 28
    for (int i = 0; i < G * kWideTiles; ++i)
        _mm512_storeu_ps(out + 16 * i, acc[i / kWideTiles][i % kWideTiles]);
}

__attribute__((target("avx512f"))) void wideKMajorGroup(int g, const float* v, int64_t ldv,
                                                        int64_t len, const float* const* x,
                                                        float* out)
{
    using Sums = void (*)(const float*, int64_t, int64_t, const float* const*, float*);
    static constexpr Sums kSums[kWideTileRows] = {wideKMajorSums<1>, wideKMajorSums<2>,
                                                  wideKMajorSums<3>, wideKMajorSums<4>,
                                                  wideKMajorSums<5>, wideKMajorSums<6>,
                                                  wideKMajorSums<7>};
    kSums[g - 1](v, ldv, len, x, out);
}

std::atomic<bool> g_wideKernels{true};

bool wideKernels()
{
    return cpuFeatures().avx512f && g_wideKernels.load(std::memory_order_relaxed);
}

// One block's sums of the rows from r0 (a group: at most 12 rows with AVX-512, 6
// without) read from s[k * stride + j], into sums [rows][16]. Returns the group's size.
__attribute__((target("avx2,fma"))) int bufferedSums(const float* x, int64_t rows, int64_t r0,
                                                     int64_t k, int64_t k0, const float* s,
                                                     int64_t stride, int64_t len, float* sums)
{
    const float* xr[kWideGroupRows];
    if (wideKernels()) {
        const int g = groupRows(x, rows, r0, k, k0, xr, kWideGroupRows);
        wideGroupSums(g, s, stride, len, xr, sums);
        return g;
    }
    const int g = groupRows(x, rows, r0, k, k0, xr);
    __m256 v[2 * kGroupRows];
    groupSums(g, s, stride, len, xr, v);
    for (int i = 0; i < 2 * g; ++i)
        _mm256_store_ps(sums + 8 * i, v[i]);
    return g;
}

// One block's sums for G <= 3 rows straight from the weights (no buffer): per 8
// columns, each half of the tile is turned into columns in registers and consumed.
// A decode step of one or a few rows is a stream of weights; this keeps it one.
template <class W, int G>
__attribute__((target("avx2,fma,f16c"))) void
directSums(const typename W::T* w, int64_t ld, int64_t k0, int64_t len, const float* const* x,
           const typename W::T* next, __m256* out)
{
    constexpr int64_t perLine = 64 / sizeof(typename W::T);
    __m256 acc[2 * G];
#pragma GCC unroll 6
    for (int i = 0; i < 2 * G; ++i)
        acc[i] = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + 8 <= len; k += 8) {
        if (next && (k & (perLine - 1)) == 0)
            for (int64_t i = 0; i < kTile; ++i)
                prefetchWeights(next + i * ld + k0 + k);
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            __m256 c[8];
            columns8<W>(w + 8 * h * ld + k0 + k, ld, c);
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j)
#pragma GCC unroll 3
                for (int g = 0; g < G; ++g)
                    acc[2 * g + h] =
                        _mm256_fmadd_ps(c[j], _mm256_broadcast_ss(x[g] + k + j), acc[2 * g + h]);
        }
    }
    for (; k < len; ++k)
        for (int h = 0; h < 2; ++h) {
            const typename W::T* col = w + 8 * h * ld + k0 + k;
            const __m256 c = _mm256_setr_ps(
                W::at(col), W::at(col + ld), W::at(col + 2 * ld), W::at(col + 3 * ld),
                W::at(col + 4 * ld), W::at(col + 5 * ld), W::at(col + 6 * ld), W::at(col + 7 * ld));
            for (int g = 0; g < G; ++g)
                acc[2 * g + h] = _mm256_fmadd_ps(c, _mm256_broadcast_ss(x[g] + k), acc[2 * g + h]);
        }
#pragma GCC unroll 6
    for (int i = 0; i < 2 * G; ++i)
        out[i] = acc[i];
}

// Block b's sums of rows r0..r0+g-1 (sums[i * 16 + j]: row i, output j) into their
// totals (tile of 16 at output n0): the first block starts a total (at the bias for
// BiasOrder::First), later ones add to it.
__attribute__((target("avx2,fma"))) inline void addBlockSums(float* totals, int64_t r0, int g,
                                                             const float* sums, size_t b,
                                                             const SumOrder& order,
                                                             const float* bias, int64_t n0)
{
    for (int i = 0; i < g; ++i) {
        float* t = totals + (r0 + i) * kTile;
        for (int h = 0; h < 2; ++h) {
            __m256 v = _mm256_load_ps(sums + i * kTile + 8 * h);
            if (b == 0 && order.bias == BiasOrder::First)
                v = _mm256_add_ps(_mm256_loadu_ps(bias + n0 + 8 * h), v);
            else if (b > 0)
                v = _mm256_add_ps(_mm256_load_ps(t + 8 * h), v);
            _mm256_store_ps(t + 8 * h, v);
        }
    }
}

// The totals of a tile into y (row stride n), the bias added for BiasOrder::Last.
__attribute__((target("avx2,fma"))) inline void writeTotals(const float* totals, int64_t rows,
                                                            const SumOrder& order,
                                                            const float* bias, int64_t n0,
                                                            int64_t n, float* y)
{
    for (int64_t r = 0; r < rows; ++r)
        for (int h = 0; h < 2; ++h) {
            __m256 v = _mm256_load_ps(totals + r * kTile + 8 * h);
            if (order.bias == BiasOrder::Last)
                v = _mm256_add_ps(v, _mm256_loadu_ps(bias + n0 + 8 * h));
            _mm256_storeu_ps(y + r * n + n0 + 8 * h, v);
        }
}

// One tile of 16 outputs for `rows` rows (<= kMaxRows), into y (row stride ldy).
template <class W>
__attribute__((target("avx2,fma,f16c"))) void
tileProduct(const float* x, int64_t rows, const typename W::T* w, int64_t n0, int64_t n, int64_t k,
            const float* bias, const SumOrder& order, float* scratch, float* y, int64_t ldy)
{
    alignas(32) float totals[kMaxRows * kTile];
    const typename W::T* tileW = w + n0 * k;
    const typename W::T* next = n0 + 2 * kTile <= n ? tileW + kTile * k : nullptr;
    const bool direct = rows <= kDirectRows;
    int64_t k0 = 0;
    for (size_t b = 0; b < order.blocks.size(); ++b) {
        const int64_t len = order.blocks[b];
        if (!direct)
            transposeTile<W>(tileW, k, k0, len, scratch, next);
        alignas(64) float sums[kWideGroupRows * kTile];
        if (direct) {
            const float* xr[kDirectRows];
            const int g = groupRows(x, rows, 0, k, k0, xr, kDirectRows);
            __m256 v[2 * kDirectRows];
            if (g == 1)
                directSums<W, 1>(tileW, k, k0, len, xr, next, v);
            else if (g == 2)
                directSums<W, 2>(tileW, k, k0, len, xr, next, v);
            else
                directSums<W, 3>(tileW, k, k0, len, xr, next, v);
            for (int i = 0; i < 2 * g; ++i)
                _mm256_store_ps(sums + 8 * i, v[i]);
            addBlockSums(totals, 0, g, sums, b, order, bias, n0);
        } else {
            for (int64_t r0 = 0; r0 < rows;) {
                const int g = bufferedSums(x, rows, r0, k, k0, scratch, kTile, len, sums);
                addBlockSums(totals, r0, g, sums, b, order, bias, n0);
                r0 += g;
            }
        }
        k0 += len;
    }
    writeTotals(totals, rows, order, bias, n0, ldy, y);
}

// The same for a K-major matrix v [K, N] (row stride ldv): its rows already hold 16
// outputs side by side, so the block sums read it in place.
__attribute__((target("avx2,fma"))) void kMajorTile(const float* x, int64_t rows, const float* v,
                                                    int64_t ldv, int64_t n0, int64_t n, int64_t k,
                                                    const float* bias, const SumOrder& order,
                                                    float* y)
{
    alignas(32) float totals[kMaxRows * kTile];
    int64_t k0 = 0;
    for (size_t b = 0; b < order.blocks.size(); ++b) {
        const int64_t len = order.blocks[b];
        alignas(64) float sums[kWideGroupRows * kTile];
        for (int64_t r0 = 0; r0 < rows;) {
            const int g = bufferedSums(x, rows, r0, k, k0, v + k0 * ldv + n0, ldv, len, sums);
            addBlockSums(totals, r0, g, sums, b, order, bias, n0);
            r0 += g;
        }
        k0 += len;
    }
    writeTotals(totals, rows, order, bias, n0, n, y);
}

// The scalar definition: output o of row r sums weight(o, i) * x[r][i] in `order`. It
// runs on the FMA unit (callers check exactGemvAvailable()): the calibration tries every
// candidate order on it, and libm's fmaf would be a call per multiply-add.
template <class Weight>
__attribute__((target("avx2,fma,f16c"))) void
referenceSums(const float* x, int64_t rows, int64_t n, int64_t k, const float* bias,
              const SumOrder& order, float* y, int64_t ldy, Weight weight)
{
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t o = 0; o < n; ++o) {
            const float* xr = x + r * k;
            float total = order.bias == BiasOrder::First ? bias[o] : 0.0f;
            int64_t k0 = 0;
            for (size_t b = 0; b < order.blocks.size(); ++b) {
                float sum = 0.0f;
                for (int64_t i = k0; i < k0 + order.blocks[b]; ++i)
                    sum = __builtin_fmaf(weight(o, i), xr[i], sum);
                total = b == 0 && order.bias != BiasOrder::First ? sum : total + sum;
                k0 += order.blocks[b];
            }
            if (order.bias == BiasOrder::Last)
                total = total + bias[o];
            y[r * ldy + o] = total;
        }
}

// The definition for W [N, K] in format W.
template <class W>
void linearReference(const float* x, int64_t rows, const typename W::T* w, int64_t n, int64_t k,
                     const float* bias, const SumOrder& order, float* y, int64_t ldy)
{
    referenceSums(x, rows, n, k, bias, order, y, ldy,
                  [w, k](int64_t o, int64_t i) { return W::at(w + o * k + i); });
}

// The product in chunks of at most kMaxRows rows: whole tiles of 16 outputs in parallel
// (`tile(x, rows, n0, y)`), then the outputs past the last whole tile one at a time
// (`rest(x, rows, o0, y)`, from output o0, y already offset to it). `grain` is the tiles
// per task.
template <class Tile, class Rest>
void overTiles(const float* x, int64_t rows, int64_t n, int64_t k, int64_t grain, float* y,
               Tile tile, Rest rest)
{
    for (int64_t r0 = 0; r0 < rows; r0 += kMaxRows) {
        const int64_t rs = std::min(kMaxRows, rows - r0);
        const float* xs = x + r0 * k;
        float* ys = y + r0 * n;
        const int64_t tiles = n / kTile;
        at::parallel_for(0, tiles, grain, [&](int64_t begin, int64_t end) {
            for (int64_t t = begin; t < end; ++t)
                tile(xs, rs, t * kTile, ys);
        });
        const int64_t done = tiles * kTile;
        if (done < n)
            rest(xs, rs, done, ys + done);
    }
}

// This thread's buffer for tileProduct's transposed columns, long enough for the
// longest block of `order`.
float* tileScratch(const SumOrder& order)
{
    int64_t longest = 0;
    for (int32_t len : order.blocks)
        longest = std::max<int64_t>(longest, len);
    thread_local std::vector<float> scratch;
    if (int64_t(scratch.size()) < longest * kTile)
        scratch.resize(size_t(longest * kTile));
    return scratch.data();
}

template <class W>
void product(const float* x, int64_t rows, const typename W::T* w, int64_t n, int64_t k,
             const float* bias, const SumOrder& order, float* y)
{
    // About 256 KiB of float weights per task: enough to hide the fork, small enough that
    // the 896-wide projections of a 0.5B model still split over two threads.
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / (kTile * k));
    overTiles(
        x, rows, n, k, grain, y,
        [&](const float* xs, int64_t rs, int64_t n0, float* ys) {
            tileProduct<W>(xs, rs, w, n0, n, k, bias, order, tileScratch(order), ys, n);
        },
        [&](const float* xs, int64_t rs, int64_t o0, float* ys) {
            linearReference<W>(xs, rs, w + o0 * k, n - o0, k, bias ? bias + o0 : nullptr, order, ys,
                               n);
        });
}

} // namespace

bool exactGemvAvailable()
{
    const CpuFeatures& cpu = cpuFeatures();
    return cpu.avx2 && cpu.fma && cpu.f16c;
}

void exactGemvReference(const float* x, int64_t rows, const void* w, WeightFormat format, int64_t n,
                        int64_t k, const float* bias, const SumOrder& order, float* y, int64_t ldy)
{
    switch (format) {
    case WeightFormat::F32:
        return linearReference<F32Weights>(x, rows, static_cast<const float*>(w), n, k, bias, order,
                                           y, ldy);
    case WeightFormat::BF16:
        return linearReference<Bf16Weights>(x, rows, static_cast<const uint16_t*>(w), n, k, bias,
                                            order, y, ldy);
    case WeightFormat::F16:
        return linearReference<F16Weights>(x, rows, static_cast<const uint16_t*>(w), n, k, bias,
                                           order, y, ldy);
    }
}

void exactGemv(const float* x, int64_t rows, const void* w, WeightFormat format, int64_t n,
               int64_t k, const float* bias, const SumOrder& order, float* y)
{
    switch (format) {
    case WeightFormat::F32:
        return product<F32Weights>(x, rows, static_cast<const float*>(w), n, k, bias, order, y);
    case WeightFormat::BF16:
        return product<Bf16Weights>(x, rows, static_cast<const uint16_t*>(w), n, k, bias, order, y);
    case WeightFormat::F16:
        return product<F16Weights>(x, rows, static_cast<const uint16_t*>(w), n, k, bias, order, y);
    }
}

void exactKMajorProduct(const float* x, int64_t rows, const float* v, int64_t ldv, int64_t n,
                        int64_t k, const float* bias, const SumOrder& order, float* y)
{
    // A head's 64 outputs are 4 tiles: split over threads once a tile's sums are long
    // enough to pay for the fork (a tile per task from 4,096 context positions, two from
    // 2,048, all four on one thread below). Each tile reads its own cache line of every
    // value row, so the split adds no reads. At 4k on the 2-core machine a decode step's
    // values' products took 3.6-3.7 ms, against 5.3-5.4 ms on one thread (2^14 / k, four
    // tiles per task).
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 12) / std::max<int64_t>(1, k));
    overTiles(
        x, rows, n, k, grain, y,
        [&](const float* xs, int64_t rs, int64_t n0, float* ys) {
            kMajorTile(xs, rs, v, ldv, n0, n, k, bias, order, ys);
        },
        [&](const float* xs, int64_t rs, int64_t o0, float* ys) {
            exactKMajorReference(xs, rs, v + o0, ldv, n - o0, k, bias ? bias + o0 : nullptr, order,
                                 ys, n);
        });
}

void exactGemvBatch(const float* x, int64_t batch, int64_t rows, const float* w, int64_t wStride,
                    int64_t n, int64_t k, const SumOrder& order, float* y, int64_t yBatch,
                    int64_t ldy)
{
    const int64_t tiles = n / kTile, done = tiles * kTile;
    // 256 KiB of keys per task over all heads, as in product().
    const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / (kTile * k * batch));
    for (int64_t r0 = 0; r0 < rows; r0 += kMaxRows) {
        const int64_t rs = std::min(kMaxRows, rows - r0);
        // Each task takes its tiles of every head: the two threads then read one head's
        // keys side by side, as a call per head had them do. A head per thread was
        // slower: 2.2-2.3 ms against 1.8-1.9 ms per 4k step on the 2-core EPYC.
        at::parallel_for(0, tiles, grain, [&](int64_t begin, int64_t end) {
            float* scratch = tileScratch(order);
            for (int64_t i = 0; i < batch; ++i)
                for (int64_t t = begin; t < end; ++t)
                    tileProduct<F32Weights>(x + (i * rows + r0) * k, rs, w + i * wStride,
                                            t * kTile, n, k, nullptr, order, scratch,
                                            y + i * yBatch + r0 * ldy, ldy);
        });
    }
    if (done < n)
        for (int64_t i = 0; i < batch; ++i)
            linearReference<F32Weights>(x + i * rows * k, rows, w + i * wStride + done * k,
                                        n - done, k, nullptr, order, y + i * yBatch + done, ldy);
}

void exactKMajorBatch(const float* x, int64_t xBatch, int64_t ldx, int64_t batch, int64_t rows,
                      const float* v, int64_t vStride, int64_t ldv, int64_t n, int64_t k,
                      const SumOrder& order, float* y)
{
    // A head's outputs are a few tiles (64 or 128 values wide) while its sums run over
    // the whole context, so the tasks split the context instead: one per head and block
    // of the order. A block's sums start from zero whatever came before, so each task
    // sums its block of every tile, reading one contiguous stretch of the cache, and the
    // blocks' sums are added in order afterwards, as addBlockSums adds them.
    const int64_t blocks = int64_t(order.blocks.size());
    std::vector<int64_t> starts(size_t(blocks), 0);
    for (int64_t b = 1; b < blocks; ++b)
        starts[size_t(b)] = starts[size_t(b - 1)] + order.blocks[size_t(b - 1)];
    const int64_t tiles = n / kTile, width = tiles * kTile;
    // partial[((i * blocks + b) * rows + r) * width + o]: block b's sum of output o, row r.
    std::vector<float> partial(size_t(batch * blocks * rows * width));
    // A context of a few hundred positions is less work than a fork: one task then.
    const int64_t tasks = batch * blocks;
    const int64_t grain = batch * k * width < (int64_t(1) << 15) ? tasks : 1;
    const bool wide = wideKernels();
    at::parallel_for(0, tasks, grain, [&](int64_t begin, int64_t end) {
        alignas(64) float sums[kWideTileRows * kWideTiles * kTile];
        const float* xr[kWideGroupRows];
        for (int64_t task = begin; task < end; ++task) {
            const int64_t i = task / blocks, b = task % blocks;
            const int64_t k0 = starts[size_t(b)], len = order.blocks[size_t(b)];
            const float* xi = x + i * xBatch;
            const float* vb = v + i * vStride + k0 * ldv;
            float* out = partial.data() + task * rows * width;
            int64_t n0 = 0;
            if (wide)
                for (; n0 + kWideTiles * kTile <= width; n0 += kWideTiles * kTile)
                    for (int64_t r0 = 0; r0 < rows;) {
                        const int g = groupRows(xi, rows, r0, ldx, k0, xr, kWideTileRows);
                        wideKMajorGroup(g, vb + n0, ldv, len, xr, sums);
                        for (int r = 0; r < g; ++r)
                            std::copy_n(sums + r * kWideTiles * kTile, kWideTiles * kTile,
                                        out + (r0 + r) * width + n0);
                        r0 += g;
                    }
            for (; n0 < width; n0 += kTile)
                for (int64_t r0 = 0; r0 < rows;) {
                    const int g = bufferedSums(xi, rows, r0, ldx, k0, vb + n0, ldv, len, sums);
                    for (int r = 0; r < g; ++r)
                        std::copy_n(sums + r * kTile, kTile, out + (r0 + r) * width + n0);
                    r0 += g;
                }
        }
    });
    for (int64_t i = 0; i < batch; ++i)
        for (int64_t r = 0; r < rows; ++r) {
            float* yr = y + (i * rows + r) * n;
            const float* first = partial.data() + (i * blocks * rows + r) * width;
            std::copy_n(first, width, yr);
            for (int64_t b = 1; b < blocks; ++b) {
                const float* sum = first + b * rows * width;
                for (int64_t o = 0; o < width; ++o)
                    yr[o] = yr[o] + sum[o];
            }
        }
    if (width < n)
        for (int64_t i = 0; i < batch; ++i) {
            // The definition reads rows of x at stride K.
            std::vector<float> xi(size_t(rows * k));
            for (int64_t r = 0; r < rows; ++r)
                std::copy_n(x + i * xBatch + r * ldx, k, xi.data() + r * k);
            exactKMajorReference(xi.data(), rows, v + i * vStride + width, ldv, n - width, k,
                                 nullptr, order, y + i * rows * n + width, n);
        }
}

void exactKMajorReference(const float* x, int64_t rows, const float* v, int64_t ldv, int64_t n,
                          int64_t k, const float* bias, const SumOrder& order, float* y,
                          int64_t ldy)
{
    referenceSums(x, rows, n, k, bias, order, y, ldy,
                  [v, ldv](int64_t o, int64_t i) { return v[i * ldv + o]; });
}

bool setExactGemvWideKernels(bool enabled)
{
    return g_wideKernels.exchange(enabled);
}

} // namespace kvl
