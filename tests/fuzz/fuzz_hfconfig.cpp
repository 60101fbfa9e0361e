// config.json: the Hugging Face config reader (loadModelConfig) on arbitrary bytes.

#include "checkpoint/hfconfigreader.h"
#include "common/error.h"
#include "fuzztarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString path =
        kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data, size), QStringLiteral("config.json"));
    try {
        kvl::loadModelConfig(path);
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
