#include "compressors/npyarray.h"

#include "common/error.h"

#include <QFile>
#include <QRegularExpression>
#include <cstring>
#include <torch/types.h>

namespace kvl {

at::Tensor readNpy(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path, QStringLiteral("cannot open: %1").arg(file.errorString()));
    const QByteArray bytes = file.readAll();
    const auto fail = [&](const QString& problem) { throw Error(path, problem); };
    if (bytes.size() < 10 || !bytes.startsWith("\x93NUMPY"))
        fail(QStringLiteral("not a .npy file (no \\x93NUMPY magic)"));
    const int major = uchar(bytes[6]);
    qsizetype headerLength = 0, offset = 0;
    if (major == 1) {
        headerLength = uchar(bytes[8]) | (uchar(bytes[9]) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            fail(QStringLiteral("truncated header"));
        quint32 n = 0;
        std::memcpy(&n, bytes.constData() + 8, 4);
        headerLength = qsizetype(n);
        offset = 12;
    } else {
        fail(QStringLiteral("unsupported .npy version %1").arg(major));
    }
    if (offset + headerLength > bytes.size())
        fail(QStringLiteral("truncated header"));
    const QString header = QString::fromLatin1(bytes.mid(offset, headerLength));
    const auto field = [&](const QString& key) {
        const QRegularExpression re(
            QStringLiteral("'%1'\\s*:\\s*('[^']*'|True|False|\\([^)]*\\))").arg(key));
        const QRegularExpressionMatch m = re.match(header);
        if (!m.hasMatch())
            fail(QStringLiteral("header has no '%1': %2").arg(key, header.trimmed()));
        return m.captured(1);
    };
    const QString descr = field(QStringLiteral("descr"));
    if (field(QStringLiteral("fortran_order")) != QLatin1String("False"))
        fail(QStringLiteral("Fortran-order arrays are not supported"));
    at::ScalarType type;
    if (descr == QLatin1String("'<f4'"))
        type = torch::kFloat;
    else if (descr == QLatin1String("'<f8'"))
        type = torch::kDouble;
    else
        fail(QStringLiteral("dtype %1 is not supported (little-endian float32 or float64)")
                 .arg(descr));
    std::vector<int64_t> shape;
    QString dims = field(QStringLiteral("shape"));
    dims = dims.mid(1, dims.size() - 2);
    for (const QString& part : dims.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong n = part.trimmed().toLongLong(&ok);
        if (!ok || n < 0)
            fail(QStringLiteral("bad shape (%1)").arg(dims));
        shape.push_back(n);
    }
    int64_t count = 1;
    for (int64_t n : shape)
        count *= n;
    const int64_t itemSize = type == torch::kFloat ? 4 : 8;
    const qsizetype data = offset + headerLength;
    if (bytes.size() - data != count * itemSize)
        fail(QStringLiteral("holds %1 data bytes, shape (%2) needs %3")
                 .arg(bytes.size() - data)
                 .arg(dims)
                 .arg(count * itemSize));
    at::Tensor out = torch::empty(shape, type);
    std::memcpy(out.data_ptr(), bytes.constData() + data, size_t(count * itemSize));
    return out.to(torch::kFloat);
}

} // namespace kvl
