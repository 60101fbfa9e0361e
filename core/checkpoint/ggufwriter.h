#pragma once

#include "checkpoint/tensorview.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace kvl {

// Collects metadata and tensors and writes one GGUF file (version 3, the single-file
// format llama.cpp loads), atomically: the header (magic, version, counts), the
// metadata as typed key/value pairs in the order they were set, the tensor table, then
// the tensor data, every tensor starting at a multiple of kAlignment from the start of
// the data section (the format's default alignment, also written as general.alignment).
// The file is little-endian, as every machine this engine runs on. What the keys and
// tensor names mean is the caller's business (ggufmodelwriter.h writes llama.cpp's).
class GgufWriter
{
  public:
    static constexpr uint32_t kVersion = 3;
    static constexpr uint32_t kAlignment = 32;

    GgufWriter();

    // Each key once (kvl::Error on a repeat or an empty key).
    void setUint32(const QString& key, uint32_t value);
    void setFloat32(const QString& key, float value);
    void setBool(const QString& key, bool value);
    void setString(const QString& key, const QString& value);
    void setStringArray(const QString& key, const QStringList& values);
    void setInt32Array(const QString& key, const std::vector<int32_t>& values);

    // `shape` is row-major, as torch and safetensors give it; the file holds it in GGML's
    // order (innermost dimension first). F32, F16 and BF16 only; `bytes` must match
    // shape x dtype, names must be unique and shorter than GGML's 64 bytes, else
    // kvl::Error. (QByteArray::fromRawData avoids a copy when the caller keeps the
    // buffer alive until write().)
    void addTensor(const QString& name, DType dtype, const std::vector<int64_t>& shape,
                   QByteArray bytes);

    // Throws kvl::Error naming the file.
    void write(const QString& path) const;

    // GGML's type number of a dtype (F32 0, F16 1, BF16 30); kvl::Error for others.
    static uint32_t ggmlType(DType dtype);

  private:
    void addKey(const QString& key, uint32_t type, const QByteArray& value);

    struct Tensor
    {
        QString name;
        DType dtype;
        std::vector<int64_t> shape;
        QByteArray bytes;
    };
    QByteArray m_metadata; // encoded key/value pairs
    QStringList m_keys;
    std::vector<Tensor> m_tensors;
};

} // namespace kvl
