#include "checkpoint/ggufwriter.h"

#include "checkpoint/tensorbytes.h"
#include "common/atomicfile.h"
#include "common/error.h"

#include <bit>
#include <cstring>

namespace kvl {

namespace {

static_assert(std::endian::native == std::endian::little,
              "GGUF files are little-endian; this writer copies values as they are in memory");

// The format's value types (gguf_type in ggml).
enum ValueType : uint32_t
{
    kUint32 = 4,
    kInt32 = 5,
    kFloat32 = 6,
    kBool = 7,
    kString = 8,
    kArray = 9,
};

// GGML_MAX_NAME: llama.cpp refuses tensor names of 64 bytes or more.
constexpr int kMaxNameBytes = 63;

template <typename T> void put(QByteArray& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, qsizetype(sizeof(T)));
}

// A GGUF string: uint64 byte length, UTF-8 bytes, no terminator.
void putString(QByteArray& out, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    put<uint64_t>(out, uint64_t(utf8.size()));
    out.append(utf8);
}

uint64_t padded(uint64_t offset)
{
    return (offset + GgufWriter::kAlignment - 1) / GgufWriter::kAlignment * GgufWriter::kAlignment;
}

} // namespace

GgufWriter::GgufWriter()
{
    setUint32(QStringLiteral("general.alignment"), kAlignment);
}

uint32_t GgufWriter::ggmlType(DType dtype)
{
    switch (dtype) {
    case DType::F32:
        return 0;
    case DType::F16:
        return 1;
    case DType::BF16:
        return 30;
    default:
        throw Error(
            QStringLiteral("GGUF"),
            QStringLiteral("tensors are F32, F16 or BF16 here, not %1").arg(dtypeName(dtype)));
    }
}

void GgufWriter::addKey(const QString& key, uint32_t type, const QByteArray& value)
{
    if (key.isEmpty())
        throw Error(QStringLiteral("GGUF metadata"), QStringLiteral("empty key"));
    if (m_keys.contains(key))
        throw Error(QStringLiteral("GGUF metadata '%1'").arg(key), QStringLiteral("set twice"));
    m_keys << key;
    putString(m_metadata, key);
    put<uint32_t>(m_metadata, type);
    m_metadata.append(value);
}

void GgufWriter::setUint32(const QString& key, uint32_t value)
{
    QByteArray v;
    put(v, value);
    addKey(key, kUint32, v);
}

void GgufWriter::setFloat32(const QString& key, float value)
{
    QByteArray v;
    put(v, value);
    addKey(key, kFloat32, v);
}

void GgufWriter::setBool(const QString& key, bool value)
{
    addKey(key, kBool, QByteArray(1, value ? '\1' : '\0'));
}

void GgufWriter::setString(const QString& key, const QString& value)
{
    QByteArray v;
    putString(v, value);
    addKey(key, kString, v);
}

void GgufWriter::setStringArray(const QString& key, const QStringList& values)
{
    QByteArray v;
    put<uint32_t>(v, kString);
    put<uint64_t>(v, uint64_t(values.size()));
    for (const QString& s : values)
        putString(v, s);
    addKey(key, kArray, v);
}

void GgufWriter::setInt32Array(const QString& key, const std::vector<int32_t>& values)
{
    QByteArray v;
    put<uint32_t>(v, kInt32);
    put<uint64_t>(v, uint64_t(values.size()));
    v.append(reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * 4));
    addKey(key, kArray, v);
}

void GgufWriter::addTensor(const QString& name, DType dtype, const std::vector<int64_t>& shape,
                           QByteArray bytes)
{
    const QString what = QStringLiteral("GGUF tensor '%1'").arg(name);
    if (name.isEmpty() || name.toUtf8().size() > kMaxNameBytes)
        throw Error(what, QStringLiteral("a name must have 1 to %1 bytes").arg(kMaxNameBytes));
    for (const Tensor& t : m_tensors)
        if (t.name == name)
            throw Error(what, QStringLiteral("added twice"));
    if (dtype != DType::F32 && dtype != DType::F16 && dtype != DType::BF16)
        throw Error(
            what,
            QStringLiteral("GGUF tensors are F32, F16 or BF16 here, not %1").arg(dtypeName(dtype)));
    const std::optional<int64_t> count = checkedElementCount(shape);
    if (!count || shape.empty() || shape.size() > 4)
        throw Error(what, QStringLiteral("invalid shape %1 (GGML tensors have 1 to 4 dimensions)")
                              .arg(shapeString(shape)));
    checkTensorBytes(what, shape, dtype, bytes.size());
    m_tensors.push_back({name, dtype, shape, std::move(bytes)});
}

void GgufWriter::write(const QString& path) const
{
    QByteArray header;
    header.append("GGUF", 4);
    put<uint32_t>(header, kVersion);
    put<uint64_t>(header, uint64_t(m_tensors.size()));
    put<uint64_t>(header, uint64_t(m_keys.size()));
    header.append(m_metadata);
    // The tensor table: offsets are relative to the data section, each aligned.
    uint64_t offset = 0;
    for (const Tensor& t : m_tensors) {
        putString(header, t.name);
        put<uint32_t>(header, uint32_t(t.shape.size()));
        for (auto dim = t.shape.rbegin(); dim != t.shape.rend(); ++dim)
            put<uint64_t>(header, uint64_t(*dim));
        put<uint32_t>(header, ggmlType(t.dtype));
        put<uint64_t>(header, offset);
        offset = padded(offset + uint64_t(t.bytes.size()));
    }
    header.append(
        QByteArray(qsizetype(padded(uint64_t(header.size())) - uint64_t(header.size())), '\0'));

    AtomicFile file(path);
    file.write(header);
    const QByteArray zeros(qsizetype(kAlignment), '\0');
    for (const Tensor& t : m_tensors) {
        file.write(t.bytes);
        const qint64 pad = qint64(padded(uint64_t(t.bytes.size())) - uint64_t(t.bytes.size()));
        file.write(zeros.constData(), pad);
    }
    file.commit();
}

} // namespace kvl
