#pragma once

#include "checkpoint/tensorview.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <vector>

namespace kvl {

// Collects tensors and writes one safetensors file atomically (no half-written file
// on a full disk). Used by the CLI (forward/compress outputs) and the trainer.
class SafetensorsWriter
{
  public:
    // `bytes` are the raw little-endian elements; their size must match shape x dtype
    // and names must be unique, else kvl::Error. (QByteArray::fromRawData avoids a
    // copy when the caller keeps the buffer alive until write().)
    void add(const QString& name, DType dtype, const std::vector<int64_t>& shape, QByteArray bytes);
    // Convenience: copies numel(shape) floats as an F32 tensor.
    void addF32(const QString& name, const std::vector<int64_t>& shape, const float* values);
    void setMetadata(const QJsonObject& metadata); // string values only, per the format
    void write(const QString& path) const;         // throws kvl::Error naming the file

  private:
    struct Entry
    {
        QString name;
        DType dtype;
        std::vector<int64_t> shape;
        QByteArray bytes;
    };
    std::vector<Entry> m_entries;
    QJsonObject m_metadata;
};

} // namespace kvl
