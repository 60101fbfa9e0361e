#include "checkpoint/safetensorswriter.h"

#include "checkpoint/tensorbytes.h"
#include "common/atomicfile.h"
#include "common/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <numeric>

namespace kvl {

void SafetensorsWriter::add(const QString& name, DType dtype, const std::vector<int64_t>& shape,
                            QByteArray bytes)
{
    const QString what = QStringLiteral("safetensors tensor '%1'").arg(name);
    if (name.isEmpty() || name == QLatin1String("__metadata__"))
        throw Error(what, QStringLiteral("invalid tensor name"));
    for (const Entry& e : m_entries)
        if (e.name == name)
            throw Error(what, QStringLiteral("added twice"));
    const std::optional<int64_t> count = checkedElementCount(shape);
    if (!count)
        throw Error(what, QStringLiteral("invalid shape %1").arg(shapeString(shape)));
    checkTensorBytes(what, shape, dtype, bytes.size());
    m_entries.push_back({name, dtype, shape, std::move(bytes)});
}

void SafetensorsWriter::addF32(const QString& name, const std::vector<int64_t>& shape,
                               const float* values)
{
    const int64_t count = checkedElementCount(shape).value_or(-1);
    if (count < 0)
        throw Error(QStringLiteral("safetensors tensor '%1'").arg(name),
                    QStringLiteral("invalid shape %1").arg(shapeString(shape)));
    add(name, DType::F32, shape,
        QByteArray(reinterpret_cast<const char*>(values), qsizetype(count * 4)));
}

void SafetensorsWriter::setMetadata(const QJsonObject& metadata)
{
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        if (!it.value().isString())
            throw Error(
                QStringLiteral("safetensors metadata"),
                QStringLiteral("value of '%1' is not a string (the format allows strings only)")
                    .arg(it.key()));
    m_metadata = metadata;
}

void SafetensorsWriter::write(const QString& path) const
{
    // Larger dtypes first (stable otherwise): with the header padded to 8 bytes every
    // tensor then starts aligned to its dtype, as the reference library does it.
    std::vector<size_t> order(m_entries.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
        return dtypeSize(m_entries[a].dtype) > dtypeSize(m_entries[b].dtype);
    });

    QJsonObject header;
    if (!m_metadata.isEmpty())
        header.insert(QStringLiteral("__metadata__"), m_metadata);
    qint64 offset = 0;
    for (size_t i : order) {
        const Entry& e = m_entries[i];
        QJsonArray shape;
        for (int64_t dim : e.shape)
            shape.append(qint64(dim));
        header.insert(e.name, QJsonObject{{QStringLiteral("dtype"), dtypeName(e.dtype)},
                                          {QStringLiteral("shape"), shape},
                                          {QStringLiteral("data_offsets"),
                                           QJsonArray{offset, offset + e.bytes.size()}}});
        offset += e.bytes.size();
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8 != 0)
        json.append(' ');
    QByteArray lengthBytes(8, '\0');
    quint64 length = quint64(json.size());
    for (int i = 0; i < 8; ++i, length >>= 8)
        lengthBytes[i] = char(length & 0xffu);

    AtomicFile file(path);
    file.write(lengthBytes);
    file.write(json);
    for (size_t i : order)
        file.write(m_entries[i].bytes);
    file.commit();
}

} // namespace kvl
