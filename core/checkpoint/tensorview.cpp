#include "checkpoint/tensorview.h"

#include <QStringList>
#include <array>

namespace kvl {

namespace {
struct DTypeInfo
{
    DType dtype;
    const char* name;
    int size;
};
constexpr std::array<DTypeInfo, 10> kDTypes{{{DType::F32, "F32", 4},
                                             {DType::F16, "F16", 2},
                                             {DType::BF16, "BF16", 2},
                                             {DType::F64, "F64", 8},
                                             {DType::I64, "I64", 8},
                                             {DType::I32, "I32", 4},
                                             {DType::I16, "I16", 2},
                                             {DType::I8, "I8", 1},
                                             {DType::U8, "U8", 1},
                                             {DType::Bool, "BOOL", 1}}};

const DTypeInfo& info(DType dtype)
{
    for (const DTypeInfo& i : kDTypes)
        if (i.dtype == dtype)
            return i;
    return kDTypes[0]; // unreachable: every enumerator is listed
}
} // namespace

int64_t TensorView::numel() const
{
    return checkedElementCount(shape).value_or(0);
}

int dtypeSize(DType dtype)
{
    return info(dtype).size;
}

QString dtypeName(DType dtype)
{
    return QString::fromLatin1(info(dtype).name);
}

std::optional<DType> dtypeFromName(const QString& name)
{
    for (const DTypeInfo& i : kDTypes)
        if (name == QLatin1String(i.name))
            return i.dtype;
    return std::nullopt;
}

std::optional<int64_t> checkedElementCount(const std::vector<int64_t>& shape)
{
    int64_t count = 1;
    for (int64_t dim : shape) {
        if (dim < 0 || __builtin_mul_overflow(count, dim, &count))
            return std::nullopt;
    }
    return count;
}

QString shapeString(const std::vector<int64_t>& shape)
{
    QStringList parts;
    for (int64_t dim : shape)
        parts << QString::number(dim);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace kvl
