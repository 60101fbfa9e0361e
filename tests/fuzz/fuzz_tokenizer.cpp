// tokenizer.json: loading (loadTokenizer, both BPE flavours) on arbitrary bytes, then
// encoding and decoding a few texts with whatever loaded.

#include "common/error.h"
#include "fuzztarget.h"
#include "tokenizer/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString path =
        kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data, size), QStringLiteral("tokenizer.json"));
    try {
        const auto tokenizer = kvl::loadTokenizer(path);
        const QString texts[] = {QStringLiteral("Hello world, 123!"),
                                 QStringLiteral("  a\tb\n\nc "),
                                 QString::fromUtf8("naïve café ▁x 日本語 🙂"), QString()};
        for (const QString& text : texts) {
            const std::vector<int> ids = tokenizer->encode(text, true);
            tokenizer->encodeWithOffsets(text, false);
            tokenizer->decode(ids, false);
        }
        for (int id = 0; id < std::min(tokenizer->vocabSize(), 512); ++id)
            tokenizer->idToToken(id);
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
    }
    return 0;
}
