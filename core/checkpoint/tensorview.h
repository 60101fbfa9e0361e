#pragma once

#include <QString>
#include <cstdint>
#include <vector>

namespace kvl {

enum class DType { F32, F16, BF16, F64, I64, I32, I16, I8, U8, Bool };

// A tensor inside a memory-mapped safetensors file: no copy, valid while the file
// object that produced it lives.
struct TensorView
{
    QString name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    const void* data = nullptr;
    int64_t byteSize = 0;
    QString file; // the file it lives in, for error messages
};

int dtypeSize(DType dtype);
QString dtypeName(DType dtype); // "F32", "BF16", ... as safetensors writes them

} // namespace kvl
