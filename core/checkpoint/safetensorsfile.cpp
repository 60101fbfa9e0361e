#include "checkpoint/safetensorsfile.h"

#include "common/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace kvl {

namespace {
// The format caps the header at 100 MB; a larger length means a corrupt or foreign file.
constexpr quint64 kMaxHeaderBytes = 100'000'000;

// JSON numbers are doubles; an offset or dimension must be a non-negative integer that
// a double holds exactly.
std::optional<int64_t> jsonIndex(const QJsonValue& value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!(d >= 0) || d > 9007199254740992.0 || std::floor(d) != d)
        return std::nullopt;
    return int64_t(d);
}
} // namespace

struct SafetensorsFile::Impl
{
    QString path;
    QFile file;
    const uchar* map = nullptr;
    quint64 headerLength = 0;
    QHash<QString, TensorView> tensors;
    QStringList order; // by data offset
    QJsonObject metadata;
    // Copies of tensors whose mapped bytes are misaligned for their dtype.
    std::vector<std::unique_ptr<std::byte[]>> alignedCopies;

    [[noreturn]] void fail(const QString& problem) const { throw Error(path, problem); }
    [[noreturn]] void failTensor(const QString& name, const QString& problem) const
    {
        throw Error(path, QStringLiteral("tensor '%1': %2").arg(name, problem));
    }
    void parseHeader(const QByteArray& headerBytes, int64_t dataStart, int64_t dataSize);
};

void SafetensorsFile::Impl::parseHeader(const QByteArray& headerBytes, int64_t dataStart,
                                        int64_t dataSize)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(headerBytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        fail(QStringLiteral("malformed safetensors header JSON at offset %1: %2")
                 .arg(parseError.offset + 8)
                 .arg(parseError.errorString()));
    if (!doc.isObject())
        fail(QStringLiteral("malformed safetensors header: expected a JSON object"));
    const QJsonObject header = doc.object();

    struct Range
    {
        int64_t begin, end;
        QString name;
    };
    std::vector<Range> ranges;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const QString name = it.key();
        if (name == QLatin1String("__metadata__")) {
            if (!it.value().isObject())
                fail(QStringLiteral("malformed safetensors header: __metadata__ is not an object"));
            metadata = it.value().toObject();
            continue;
        }
        if (!it.value().isObject())
            failTensor(name, QStringLiteral("header entry is not an object"));
        const QJsonObject entry = it.value().toObject();
        const QString dtypeText = entry.value(QStringLiteral("dtype")).toString();
        const std::optional<DType> dtype = dtypeFromName(dtypeText);
        if (!dtype)
            failTensor(name, QStringLiteral("unknown dtype '%1' (supported: F32, F16, BF16, F64, "
                                            "I64, I32, I16, I8, U8, BOOL)")
                                 .arg(dtypeText));
        const QJsonValue shapeValue = entry.value(QStringLiteral("shape"));
        if (!shapeValue.isArray())
            failTensor(name, QStringLiteral("missing or malformed shape"));
        std::vector<int64_t> shape;
        for (const QJsonValue& dim : shapeValue.toArray()) {
            const std::optional<int64_t> d = jsonIndex(dim);
            if (!d)
                failTensor(name, QStringLiteral("shape has a dimension that is not a "
                                                "non-negative integer"));
            shape.push_back(*d);
        }
        const QJsonArray offsets = entry.value(QStringLiteral("data_offsets")).toArray();
        const std::optional<int64_t> begin =
            offsets.size() == 2 ? jsonIndex(offsets[0]) : std::nullopt;
        const std::optional<int64_t> end =
            offsets.size() == 2 ? jsonIndex(offsets[1]) : std::nullopt;
        if (!begin || !end || *begin > *end)
            failTensor(name, QStringLiteral("data_offsets must be two non-negative integers "
                                            "[begin, end] with begin <= end"));
        const std::optional<int64_t> count = checkedElementCount(shape);
        int64_t expectedBytes = 0;
        if (!count || __builtin_mul_overflow(*count, int64_t(dtypeSize(*dtype)), &expectedBytes))
            failTensor(name, QStringLiteral("shape %1 is too large").arg(shapeString(shape)));
        if (expectedBytes != *end - *begin)
            failTensor(name, QStringLiteral("shape %1 of %2 needs %3 bytes but data_offsets "
                                            "[%4, %5] span %6 bytes")
                                 .arg(shapeString(shape), dtypeText)
                                 .arg(expectedBytes)
                                 .arg(*begin)
                                 .arg(*end)
                                 .arg(*end - *begin));
        if (*end > dataSize)
            failTensor(name, QStringLiteral("data_offsets [%1, %2] reach past the end of the data "
                                            "(%3 bytes): the file is truncated")
                                 .arg(*begin)
                                 .arg(*end)
                                 .arg(dataSize));
        TensorView view;
        view.name = name;
        view.dtype = *dtype;
        view.shape = std::move(shape);
        view.byteSize = expectedBytes;
        view.file = path;
        view.data = map + dataStart + *begin;
        tensors.insert(name, std::move(view));
        ranges.push_back({*begin, *end, name});
    }

    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    for (size_t i = 1; i < ranges.size(); ++i) {
        if (ranges[i].begin < ranges[i - 1].end)
            fail(QStringLiteral("tensors '%1' [%2, %3] and '%4' [%5, %6] overlap")
                     .arg(ranges[i - 1].name)
                     .arg(ranges[i - 1].begin)
                     .arg(ranges[i - 1].end)
                     .arg(ranges[i].name)
                     .arg(ranges[i].begin)
                     .arg(ranges[i].end));
    }
    for (const Range& r : ranges)
        order << r.name;

    // The format itself does not force alignment; files written by the reference
    // library are aligned, others may not be. Copy those tensors so every consumer can
    // read `data` as the dtype directly.
    for (TensorView& view : tensors) {
        const int size = dtypeSize(view.dtype);
        if (reinterpret_cast<quintptr>(view.data) % quintptr(size) == 0 || view.byteSize == 0)
            continue;
        auto copy = std::make_unique<std::byte[]>(size_t(view.byteSize));
        std::memcpy(copy.get(), view.data, size_t(view.byteSize));
        view.data = copy.get();
        alignedCopies.push_back(std::move(copy));
    }
}

SafetensorsFile::SafetensorsFile() : d(std::make_unique<Impl>()) {}
SafetensorsFile::~SafetensorsFile() = default;

std::unique_ptr<SafetensorsFile> SafetensorsFile::open(const QString& path)
{
    std::unique_ptr<SafetensorsFile> result(new SafetensorsFile);
    Impl& d = *result->d;
    d.path = path;
    d.file.setFileName(path);
    if (!d.file.exists())
        d.fail(QStringLiteral("no such file"));
    if (!d.file.open(QIODevice::ReadOnly))
        d.fail(QStringLiteral("cannot open for reading (%1)").arg(d.file.errorString()));
    const qint64 fileSize = d.file.size();
    if (fileSize < 8)
        d.fail(QStringLiteral("not a safetensors file: %1 bytes, shorter than the 8-byte header "
                              "length")
                   .arg(fileSize));
    d.map = d.file.map(0, fileSize);
    if (!d.map)
        d.fail(QStringLiteral("cannot memory-map (%1)").arg(d.file.errorString()));

    quint64 headerLength = 0;
    for (int i = 7; i >= 0; --i) // little-endian u64
        headerLength = (headerLength << 8) | d.map[i];
    if (headerLength > quint64(fileSize - 8))
        d.fail(QStringLiteral("header length %1 is beyond the file size (%2 bytes): truncated or "
                              "not a safetensors file")
                   .arg(headerLength)
                   .arg(fileSize));
    if (headerLength > kMaxHeaderBytes)
        d.fail(QStringLiteral("header length %1 exceeds the 100 MB limit of the format")
                   .arg(headerLength));
    if (headerLength < 2)
        d.fail(QStringLiteral("header length %1 is too short for a JSON header").arg(headerLength));
    d.headerLength = headerLength;
    const QByteArray headerBytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(d.map + 8), qsizetype(headerLength));
    const int64_t dataStart = 8 + int64_t(headerLength);
    d.parseHeader(headerBytes, dataStart, fileSize - dataStart);
    return result;
}

const QString& SafetensorsFile::path() const
{
    return d->path;
}

QStringList SafetensorsFile::names() const
{
    return d->order;
}

bool SafetensorsFile::contains(const QString& name) const
{
    return d->tensors.contains(name);
}

const TensorView& SafetensorsFile::tensor(const QString& name) const
{
    const auto it = d->tensors.constFind(name);
    if (it == d->tensors.constEnd())
        d->failTensor(name, QStringLiteral("no such tensor in this file"));
    return *it;
}

const QJsonObject& SafetensorsFile::metadata() const
{
    return d->metadata;
}

QByteArray SafetensorsFile::headerBytes() const
{
    return QByteArray(reinterpret_cast<const char*>(d->map), qsizetype(8 + d->headerLength));
}

qint64 SafetensorsFile::fileSize() const
{
    return d->file.size();
}

} // namespace kvl
