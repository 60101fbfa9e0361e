#pragma once

#include "model/exactgemv.h"

#include <ATen/core/Tensor.h>
#include <QString>
#include <QStringList>
#include <c10/core/ScalarType.h>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

namespace kvl {

// Learns, per product shape, the order in which the BLAS behind at::linear sums, so
// that products of a few rows (decode steps) can run as exactGemv with the same bits.
//
// Nothing is assumed of the BLAS: the first calls of a shape still run at::linear, and
// their results are compared, bit for bit, with every candidate order (K cut into
// blocks of Q while 2Q remain, then two halves, for the block sizes and roundings BLAS
// level-3 drivers use; or one block; the bias first or last). A shape's order is used
// once one candidate, and only one, has equalled every output of two calls; a shape no
// candidate equals keeps at::linear for good. So another BLAS, another kernel family
// (OpenBLAS's Haswell blocks are 320 wide, SkylakeX's 448) or a small-matrix path is
// either learned or left alone, never approximated.
class BlasSumOrders
{
  public:
    // The shape of one product as at::linear sees it: the BLAS may take other paths for
    // other row counts, a bias, or a batched (3-D) or strided input.
    struct Shape
    {
        int64_t rows = 0, n = 0, k = 0;
        at::ScalarType weights = at::kFloat; // 16-bit weights take another path
        bool bias = false;
        int64_t inputDims = 2;
        bool inputContiguous = true;
        bool weightRowBlocks = false; // a 16-bit matrix widened in row blocks
        bool kMajor = false;          // x v for v [K, N] (attention's values), else x W^T
        int64_t batch = 0;            // a batched product's batch size (bmm), else 0
        int threads = 0;              // filled in here: OpenBLAS cuts K differently on one thread
        auto operator<=>(const Shape&) const = default;
    };

    static BlasSumOrders& instance();

    // The learned order of `shape`, or nothing while it is being learned or was refused.
    std::optional<SumOrder> orderOf(const Shape& shape);
    // Compares `reference` = the BLAS's product of x2 [rows, K] and w (W [N, K], float32,
    // BF16 or F16, contiguous; or for shape.kMajor v [K, N] float32 with unit column
    // stride), plus bias (float32, may be undefined), with the candidates and advances
    // what is known of `shape`.
    void learn(const Shape& shape, const at::Tensor& x2, const at::Tensor& w,
               const at::Tensor& bias, const at::Tensor& reference);

    // Every candidate order for an inner dimension k, without repeats.
    static std::vector<SumOrder> candidates(int64_t k, bool bias);

    // One line on what was learned, for bench and the engine summary: "exact for 6 of
    // 6 shapes (blocks of 320)", "off", ...
    QString summary();
    // Forgets everything (tests).
    void reset();

  private:
    // The shape with what the caller cannot see: the thread count the BLAS runs on now.
    static Shape keyOf(const Shape& shape);

    struct State
    {
        std::optional<SumOrder> order; // the one survivor so far
        int confirmations = 0;         // calls it equalled
        int tries = 0;                 // calls that left no unique survivor
        bool refused = false;
    };
    std::mutex m_mutex;
    std::map<Shape, State> m_states;
};

// The format exactGemv reads a weight of this dtype in (F32, BF16 or F16).
WeightFormat weightFormatOf(at::ScalarType type);

// Whether decode-sized products use the learned orders: on unless KVLENS_EXACT_GEMV=0,
// and only where the CPU runs exactGemv.
bool exactGemvEnabled();

} // namespace kvl
