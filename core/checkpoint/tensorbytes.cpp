#include "checkpoint/tensorbytes.h"

#include "common/error.h"

namespace kvl {

void checkTensorBytes(const QString& what, const std::vector<int64_t>& shape, DType dtype,
                      int64_t bytes)
{
    const int64_t needed = checkedElementCount(shape).value_or(-1) * dtypeSize(dtype);
    if (needed != bytes)
        throw Error(what, QStringLiteral("shape %1 of %2 needs %3 bytes, got %4")
                              .arg(shapeString(shape), dtypeName(dtype))
                              .arg(needed)
                              .arg(bytes));
}

} // namespace kvl
