#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace kvl {

enum class DType
{
    F32,
    F16,
    BF16,
    F64,
    I64,
    I32,
    I16,
    I8,
    U8,
    Bool
};

// A tensor inside a memory-mapped safetensors file: no copy, valid while the file
// object that produced it lives. `data` is aligned to the dtype's size (a file whose
// header leaves the data misaligned gets that tensor copied once at open time).
struct TensorView
{
    QString name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    const void* data = nullptr;
    int64_t byteSize = 0;
    QString file; // the file it lives in, for error messages

    int64_t numel() const;
};

int dtypeSize(DType dtype);
QString dtypeName(DType dtype); // "F32", "BF16", ... as safetensors writes them
// The dtype for a safetensors dtype string ("F32", "BOOL", ...); nullopt when unknown.
std::optional<DType> dtypeFromName(const QString& name);

// Product of the dimensions (1 for a scalar); nullopt on a negative dimension or
// int64 overflow, so a hostile header cannot wrap the size check around.
std::optional<int64_t> checkedElementCount(const std::vector<int64_t>& shape);
// "[2, 3]" for error messages and the CLI.
QString shapeString(const std::vector<int64_t>& shape);

} // namespace kvl
