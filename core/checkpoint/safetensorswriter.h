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
    void add(const QString& name, DType dtype, const std::vector<int64_t>& shape, QByteArray bytes);
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
