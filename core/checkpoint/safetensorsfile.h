#pragma once

#include "checkpoint/tensorview.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <memory>

namespace kvl {

// One memory-mapped *.safetensors file. open() validates the whole header (length,
// JSON, dtypes, shapes against byte ranges, ranges inside the file, no overlaps)
// and throws kvl::Error naming the file and the problem.
class SafetensorsFile
{
  public:
    static std::unique_ptr<SafetensorsFile> open(const QString& path);
    ~SafetensorsFile();

    const QString& path() const;
    QStringList names() const; // in data-offset order
    bool contains(const QString& name) const;
    // Throws kvl::Error naming the file and tensor when absent.
    const TensorView& tensor(const QString& name) const;
    const QJsonObject& metadata() const; // "__metadata__", may be empty
    // The 8-byte length and the JSON header as stored (for identity hashes).
    QByteArray headerBytes() const;
    qint64 fileSize() const;

  private:
    SafetensorsFile();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace kvl
