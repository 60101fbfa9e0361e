#pragma once

// The entry every fuzz target defines, as libFuzzer names it: run one input, return 0.
// A clean kvl::Error is the expected answer to bad input; a crash, an abort, a
// sanitizer report or any other exception escaping the target is a finding.

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace kvl::fuzz {

inline QByteArray bytesOf(const uint8_t* data, size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), qsizetype(size));
}

// Writes the input to a file in a per-process temporary folder and returns its path
// (for the entry points that only read files: safetensors, run files).
QString writeTempFile(const QByteArray& bytes, const QString& name);

// Called by the targets on the kvl::Error they catch: prints its message when the
// environment sets KVLENS_FUZZ_VERBOSE (to see which seeds are accepted), else nothing.
void rejected(const std::exception& error);

} // namespace kvl::fuzz
