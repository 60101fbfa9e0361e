// safetensors: header parse and validation (SafetensorsFile::open), then every tensor's
// bytes read end to end, so a range the validation let through outside the mapping
// shows up as an ASan or segfault report.

#include "checkpoint/safetensorsfile.h"
#include "common/error.h"
#include "fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString path = kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data, size),
                                                  QStringLiteral("model.safetensors"));
    try {
        const auto file = kvl::SafetensorsFile::open(path);
        unsigned sum = 0;
        for (const QString& name : file->names()) {
            const kvl::TensorView& t = file->tensor(name);
            const auto* bytes = static_cast<const unsigned char*>(t.data);
            for (int64_t i = 0; i < t.byteSize; ++i)
                sum += bytes[i];
            if (t.numel() * kvl::dtypeSize(t.dtype) != t.byteSize)
                __builtin_trap(); // open() promised shape × dtype = byte range
        }
        static volatile unsigned sink;
        sink = sum;
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
